//! `&'bump str`: read like serde reads a `String` (a string, or bytes that are valid UTF-8),
//! copied into the arena at its exact length.
//!
//! With [`ArenaSeed::str_as_bytes`](crate::ArenaSeed::str_as_bytes), a binary format is asked
//! for bytes instead (`deserialize_bytes`), and the UTF-8 is checked here: short ASCII strings,
//! most strings in most data, a word at a time; everything else with SIMD (see
//! [`utf8`](crate::utf8)).
//! A call reading from a reader asks for the temporary forms (`deserialize_string`,
//! `deserialize_byte_buf`), or, on bincode, for a sequence of bytes: see
//! [`Strings`](crate::call::strings::Strings).

use core::fmt;

use serde::Deserializer;
use serde::de::{Error, Unexpected, Visitor};

use crate::buffer_rules::{Ask, Rules};
use crate::call;
use crate::call::strings::Input;
use crate::limits::LimitHit;
use crate::utf8::to_str;
use crate::{AllocError, ArenaDeserialize, BumpAllocator, BumpAllocatorExt};

/// Reads a string into the arena, uniquely borrowed so arena collections can adopt it.
#[inline(always)]
pub(crate) fn deserialize_str_mut<'de, 'bump, A, D>(
    arena: &'bump A,
    deserializer: D,
) -> Result<&'bump mut str, D::Error>
where
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    deserialize_str_mut_expecting(arena, deserializer, &"a string")
}

/// [`deserialize_str_mut`], with `expecting` after "expected" in its type errors (serde's
/// `PathBuf` says "path string").
#[inline(always)]
pub(crate) fn deserialize_str_mut_expecting<'de, 'bump, A, D>(
    arena: &'bump A,
    deserializer: D,
    expecting: &'static &'static str,
) -> Result<&'bump mut str, D::Error>
where
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    let visitor = StrVisitor { arena, expecting };
    // `is_human_readable` is a constant for every format, so JSON never reads the mode: its
    // byte strings are not read like its strings (raw control characters would pass).
    if deserializer.is_human_readable() {
        return deserializer.deserialize_str(visitor);
    }
    let strings = call::strings();
    match strings.input {
        Input::Borrowed if strings.as_bytes => deserializer.deserialize_bytes(visitor),
        Input::Borrowed => deserializer.deserialize_str(visitor),
        #[cfg(any(
            feature = "json",
            feature = "postcard",
            feature = "msgpack",
            feature = "cbor"
        ))]
        Input::Transient if strings.as_bytes => deserializer.deserialize_byte_buf(visitor),
        #[cfg(any(
            feature = "json",
            feature = "postcard",
            feature = "msgpack",
            feature = "cbor"
        ))]
        Input::Transient => deserializer.deserialize_string(visitor),
        #[cfg(feature = "bincode")]
        Input::ByteSeq => {
            let bytes = super::byte_seq::deserialize(arena, deserializer)?;
            if to_str(bytes).is_none() {
                return Err(D::Error::invalid_value(Unexpected::Bytes(bytes), &visitor));
            }
            // Checked just above: the default (an empty string) is never taken.
            Ok(core::str::from_utf8_mut(bytes).unwrap_or_default())
        }
    }
}

/// [`deserialize_str_mut`] for a binary format, out of line: once per format and arena. The
/// format's element read that calls it (postcard's `next_element_seed`, profiled) stays small
/// enough to be inlined into the struct's visitor, and the string comes back in two registers
/// rather than as an `Option` inside a `Result` through memory. A human-readable format
/// (serde_json, sonic-rs) keeps the read inline: out of line, serde_json's city took 1.2% more
/// instructions, where postcard's, bincode's and CBOR's took 6% to 14% fewer.
#[inline(never)]
fn deserialize_binary_str<'de, 'bump, A, D>(
    arena: &'bump A,
    deserializer: D,
) -> Result<&'bump str, D::Error>
where
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    deserialize_str_mut(arena, deserializer).map(|s| &*s)
}

/// Reads a string into the arena as serde reads one back from its buffer: a string, or bytes
/// that are valid UTF-8, whatever the format.
#[inline]
pub(crate) fn deserialize_str_content_mut<'de, 'bump, A, D>(
    arena: &'bump A,
    deserializer: D,
) -> Result<&'bump mut str, D::Error>
where
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    let visitor = StrVisitor {
        arena,
        expecting: &"a string",
    };
    deserializer.deserialize_any(Rules::new(Ask::Str, visitor))
}

/// Two words, so that the formats' `deserialize_str` takes it in registers: a larger visitor
/// is passed by address, and the callee's first loads of it wait on the caller's stores.
struct StrVisitor<'bump, A: ?Sized> {
    arena: &'bump A,
    expecting: &'static &'static str,
}

impl<'de, 'bump, A: BumpAllocator + ?Sized> Visitor<'de> for StrVisitor<'bump, A> {
    type Value = &'bump mut str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    #[inline(always)]
    fn visit_str<E: Error>(self, v: &str) -> Result<Self::Value, E> {
        call::admit_str(v.len()).map_err(LimitHit::into_de)?;
        let bytes = self
            .arena
            .try_alloc_slice_copy(v.as_bytes())
            .map_err(AllocError::into_de)?;
        // SAFETY: `bytes` is a byte-for-byte copy of a `str`, so it is valid UTF-8.
        Ok(unsafe { core::str::from_utf8_unchecked_mut(bytes) })
    }

    // serde's default forwards borrowed input to `visit_str` / `visit_bytes` without
    // `#[inline]`: spelled out so the whole string path stays inside the format's call.
    #[inline(always)]
    fn visit_borrowed_str<E: Error>(self, v: &'de str) -> Result<Self::Value, E> {
        self.visit_str(v)
    }

    #[inline(always)]
    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        match to_str(v) {
            Some(s) => self.visit_str(s),
            None => Err(E::invalid_value(Unexpected::Bytes(v), &self)),
        }
    }

    #[inline(always)]
    fn visit_borrowed_bytes<E: Error>(self, v: &'de [u8]) -> Result<Self::Value, E> {
        self.visit_bytes(v)
    }
}

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for &'bump str {
    #[inline(always)]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            return deserialize_str_mut(arena, deserializer).map(|s| &*s);
        }
        deserialize_binary_str(arena, deserializer)
    }

    #[inline]
    fn __deserialize_content_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserialize_str_content_mut(arena, deserializer).map(|s| &*s)
    }

    #[cfg(feature = "json")]
    #[inline]
    fn __deserialize_json_in(
        arena: &'bump A,
        reader: &mut crate::json::Reader<'_>,
    ) -> Result<Self, crate::json::Refused> {
        reader.str_in(arena)
    }
}
