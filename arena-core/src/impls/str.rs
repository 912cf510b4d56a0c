//! `&'bump str`: read like serde reads a `String` (a string, or bytes that are valid UTF-8),
//! copied into the arena at its exact length.
//!
//! With [`ArenaSeed::str_as_bytes`](crate::ArenaSeed::str_as_bytes), a binary format is asked
//! for bytes instead (`deserialize_bytes`), and the UTF-8 is checked here: short ASCII strings,
//! most strings in most data, a word at a time; everything else with SIMD (simdutf8).
//! A call reading from a reader asks for the temporary forms (`deserialize_string`,
//! `deserialize_byte_buf`), or, on bincode, for a sequence of bytes: see
//! [`Strings`](crate::call::strings::Strings).

use core::fmt;

use serde::Deserializer;
use serde::de::{Error, Unexpected, Visitor};

use crate::call;
use crate::call::strings::Input;
use crate::derive_runtime::content::{Ask, Rules};
use crate::limits::LimitHit;
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
    deserialize_str_mut_expecting(arena, deserializer, "a string")
}

/// [`deserialize_str_mut`], with `expecting` after "expected" in its type errors (serde's
/// `PathBuf` says "path string").
#[inline(always)]
pub(crate) fn deserialize_str_mut_expecting<'de, 'bump, A, D>(
    arena: &'bump A,
    deserializer: D,
    expecting: &'static str,
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
        expecting: "a string",
    };
    deserializer.deserialize_any(Rules::new(Ask::Str, visitor))
}

struct StrVisitor<'bump, A: ?Sized> {
    arena: &'bump A,
    expecting: &'static str,
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

/// `v` as a `str`, if it is UTF-8: ASCII checked without a loop over bytes (up to 64 bytes),
/// anything else by [`utf8`]. The MessagePack reader checks its strings with it.
#[inline(always)]
pub(crate) fn to_str(v: &[u8]) -> Option<&str> {
    if is_ascii(v) {
        // SAFETY: ASCII is UTF-8.
        Some(unsafe { core::str::from_utf8_unchecked(v) })
    } else {
        utf8(v)
    }
}

/// `v` as a `str`, if it is UTF-8, checked by simdutf8: 32 or 16 bytes at a time from 64 bytes
/// on (AVX2 or SSE4.2, chosen at run time on x86; NEON on aarch64), the standard library's
/// check below that. The standard library decodes text above ASCII (most non-Latin text) a
/// character at a time, several times slower.
#[inline]
pub(crate) fn utf8(v: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(v).ok()
}

/// Whether every byte of `v` is ASCII. Up to 64 bytes, with no loop over bytes: two
/// overlapping loads of 4 or 8 bytes, or 8-byte words and an overlapping last one (the
/// standard library's `is_ascii` goes byte by byte through the tail of a short slice); past
/// that, the standard library's vectorized loop.
#[inline(always)]
fn is_ascii(v: &[u8]) -> bool {
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    const HIGH4: u32 = u32::from_ne_bytes([0x80; 4]);
    let n = v.len();
    if n < 4 {
        v.iter().fold(0, |acc, &b| acc | b) < 0x80
    } else if n < 8 {
        let head = u32::from_ne_bytes([v[0], v[1], v[2], v[3]]);
        let tail = u32::from_ne_bytes([v[n - 4], v[n - 3], v[n - 2], v[n - 1]]);
        (head | tail) & HIGH4 == 0
    } else if n <= 64 {
        let (words, _) = v.as_chunks::<8>();
        // The last 8 bytes, overlapping the words when `n` is not a multiple of 8.
        let last = v.last_chunk::<8>().map_or(0, |w| u64::from_ne_bytes(*w));
        let any = words
            .iter()
            .fold(last, |acc, w| acc | u64::from_ne_bytes(*w));
        any & HIGH == 0
    } else {
        v.is_ascii()
    }
}

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for &'bump str {
    #[inline(always)]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserialize_str_mut(arena, deserializer).map(|s| &*s)
    }

    #[inline]
    fn __deserialize_content_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserialize_str_content_mut(arena, deserializer).map(|s| &*s)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{is_ascii, to_str};

    #[test]
    fn one_high_byte_anywhere_is_not_ascii() {
        for n in 0..=80 {
            let plain = vec![b'a'; n];
            assert!(is_ascii(&plain), "{n} ASCII bytes");
            for at in 0..n {
                for high in [0x80, 0xC3, 0xFF] {
                    let mut v = plain.clone();
                    v[at] = high;
                    assert!(!is_ascii(&v), "{n} bytes, {high:#x} at {at}");
                }
            }
        }
    }

    proptest! {
        #[test]
        fn to_str_agrees_with_from_utf8(v in prop::collection::vec(any::<u8>(), 0..100)) {
            prop_assert_eq!(to_str(&v), core::str::from_utf8(&v).ok());
            prop_assert_eq!(is_ascii(&v), v.is_ascii());
        }

        /// Text past 64 bytes, where the SIMD check runs, valid and with one byte changed.
        #[test]
        fn utf8_agrees_with_from_utf8_on_text(
            text in "\\PC{0,200}",
            at in any::<prop::sample::Index>(),
            byte in any::<u8>(),
        ) {
            let mut v = text.into_bytes();
            prop_assert_eq!(to_str(&v), core::str::from_utf8(&v).ok());
            if !v.is_empty() {
                let at = at.index(v.len());
                v[at] = byte;
                prop_assert_eq!(to_str(&v), core::str::from_utf8(&v).ok());
                prop_assert_eq!(super::utf8(&v), core::str::from_utf8(&v).ok());
            }
        }

        #[test]
        fn to_str_reads_every_string(s in ".{0,80}") {
            prop_assert_eq!(to_str(s.as_bytes()), Some(s.as_str()));
        }
    }
}
