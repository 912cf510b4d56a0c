//! Byte strings: `&'bump [u8]` and `BStr` read serde bytes, or a sequence of `u8`, so data
//! written from `Vec<u8>` and from `serde_bytes` both read back.

use core::fmt;

use serde::de::{Error, SeqAccess, Visitor};

use crate::arena_deserialize::NestedSeed;
use crate::call;
use crate::limits::LimitHit;
use crate::slice_builder;
use crate::{AllocError, BumpAllocator, BumpAllocatorExt};

/// Visits bytes (and, with `accept_str`, strings) into an arena byte slice.
pub(crate) struct BytesVisitor<'bump, A: ?Sized> {
    pub(crate) arena: &'bump A,
    /// Also accept strings: `BStr` does, `&[u8]` (like serde's `Vec<u8>`) does not.
    pub(crate) accept_str: bool,
}

impl<'de, 'bump, A: BumpAllocator + ?Sized> Visitor<'de> for BytesVisitor<'bump, A> {
    type Value = &'bump mut [u8];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.accept_str {
            f.write_str("a byte string or a string")
        } else {
            f.write_str("a byte array")
        }
    }

    #[inline]
    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        call::admit_str(v.len()).map_err(LimitHit::into_de)?;
        self.arena
            .try_alloc_slice_copy(v)
            .map_err(AllocError::into_de)
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<Self::Value, E> {
        if self.accept_str {
            self.visit_bytes(v.as_bytes())
        } else {
            Err(E::invalid_type(serde::de::Unexpected::Str(v), &self))
        }
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Self::Value, S::Error> {
        let byte = NestedSeed::<u8, A>::new(self.arena);
        let bytes = slice_builder::collect(self.arena, seq, byte, true)?;
        call::check_str_len(bytes.len()).map_err(LimitHit::into_de)?;
        slice_builder::finish(bytes, self.arena)
    }
}
