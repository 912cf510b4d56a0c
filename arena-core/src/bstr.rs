//! [`BStr`]: conventionally UTF-8 bytes in the arena, validated only when asked.

use core::fmt;
use core::ops::Deref;
use core::str::Utf8Error;

use serde::Deserializer;

use crate::impls::bytes::deserialize_bytes_mut;
use crate::{ArenaDeserialize, BumpAllocator};

/// A string whose bytes are conventionally, but not certainly, UTF-8.
///
/// Deserializing a `BStr` copies the bytes into the arena without validating them: formats that
/// can hand over raw bytes are asked for them (`deserialize_bytes`), and strings, bytes and
/// sequences of `u8` are all accepted. Validation happens only when the caller asks, with
/// [`to_str`](Self::to_str). Skipping it is often the largest single saving when reading
/// string-heavy documents.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, BStr};
/// use serde::de::DeserializeSeed;
///
/// let bump = bumpalo::Bump::new();
/// let mut de = serde_json::Deserializer::from_str(r#""caf\u00e9""#);
/// let s: BStr = ArenaSeed::new(&bump).deserialize(&mut de)?;
/// assert_eq!(s, "café");
/// assert_eq!(s.to_str().unwrap(), "café");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BStr<'bump>(&'bump [u8]);

impl<'bump> BStr<'bump> {
    /// Wraps `bytes`.
    #[must_use]
    pub const fn new(bytes: &'bump [u8]) -> Self {
        Self(bytes)
    }

    /// The bytes, unvalidated.
    #[must_use]
    pub const fn as_bytes(&self) -> &'bump [u8] {
        self.0
    }

    /// The bytes as a `str`, if they are valid UTF-8.
    ///
    /// # Errors
    ///
    /// [`Utf8Error`] when they are not.
    pub const fn to_str(&self) -> Result<&'bump str, Utf8Error> {
        core::str::from_utf8(self.0)
    }

    /// The bytes as a string, with invalid sequences replaced by `U+FFFD`.
    #[must_use]
    pub fn to_str_lossy(&self) -> std::borrow::Cow<'bump, str> {
        String::from_utf8_lossy(self.0)
    }
}

impl Deref for BStr<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.0
    }
}

impl AsRef<[u8]> for BStr<'_> {
    fn as_ref(&self) -> &[u8] {
        self.0
    }
}

impl<'bump> From<&'bump [u8]> for BStr<'bump> {
    fn from(bytes: &'bump [u8]) -> Self {
        Self(bytes)
    }
}

impl<'bump> From<&'bump str> for BStr<'bump> {
    fn from(s: &'bump str) -> Self {
        Self(s.as_bytes())
    }
}

impl PartialEq<str> for BStr<'_> {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<&str> for BStr<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<[u8]> for BStr<'_> {
    fn eq(&self, other: &[u8]) -> bool {
        self.0 == other
    }
}

impl fmt::Debug for BStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", self.0.escape_ascii())
    }
}

impl fmt::Display for BStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_str_lossy())
    }
}

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for BStr<'bump> {
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserialize_bytes_mut(arena, deserializer, true).map(|bytes| Self(bytes))
    }
}
