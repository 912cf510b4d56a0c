//! `&'bump str`: read like serde reads a `String` (a string, or bytes that are valid UTF-8),
//! copied into the arena at its exact length.

use core::fmt;

use serde::Deserializer;
use serde::de::{Error, Unexpected, Visitor};

use super::{alloc_error, limit_error};
use crate::limits;
use crate::{ArenaDeserialize, BumpAllocator, BumpAllocatorExt};

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
    deserializer.deserialize_str(StrVisitor(arena))
}

struct StrVisitor<'bump, A: ?Sized>(&'bump A);

impl<'de, 'bump, A: BumpAllocator + ?Sized> Visitor<'de> for StrVisitor<'bump, A> {
    type Value = &'bump mut str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    #[inline(always)]
    fn visit_str<E: Error>(self, v: &str) -> Result<Self::Value, E> {
        limits::admit_str(v.len()).map_err(limit_error)?;
        let bytes = self
            .0
            .try_alloc_slice_copy(v.as_bytes())
            .map_err(alloc_error)?;
        // SAFETY: `bytes` is a byte-for-byte copy of a `str`, so it is valid UTF-8.
        Ok(unsafe { core::str::from_utf8_unchecked_mut(bytes) })
    }

    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        match core::str::from_utf8(v) {
            Ok(s) => self.visit_str(s),
            Err(_) => Err(E::invalid_value(Unexpected::Bytes(v), &self)),
        }
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
}
