//! Byte strings: `&'bump [u8]` and `BStr` read serde bytes, or a sequence of `u8`, so data
//! written from `Vec<u8>` and from `serde_bytes` both read back.

use core::fmt;

use serde::Deserializer;
use serde::de::{Error, SeqAccess, Visitor};

use crate::arena_deserialize::NestedSeed;
use crate::call;
use crate::call::strings::Input;
use crate::limits::LimitHit;
use crate::slice_builder;
use crate::{AllocError, BumpAllocator, BumpAllocatorExt};

/// Reads a byte string (and, with `accept_str`, a string) into the arena, asked of the format
/// as the call's [`Input`] says: `deserialize_bytes` from input that outlives the call,
/// `deserialize_byte_buf` from a reader, a sequence of bytes from a bincode reader.
#[inline]
pub(crate) fn deserialize_bytes_mut<'de, 'bump, A, D>(
    arena: &'bump A,
    deserializer: D,
    accept_str: bool,
) -> Result<&'bump mut [u8], D::Error>
where
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    let visitor = BytesVisitor { arena, accept_str };
    let strings = call::strings();
    if strings.either_form {
        return deserializer.deserialize_any(visitor);
    }
    match strings.input {
        Input::Borrowed => deserializer.deserialize_bytes(visitor),
        #[cfg(any(
            feature = "json",
            feature = "postcard",
            feature = "msgpack",
            feature = "cbor"
        ))]
        Input::Transient => deserializer.deserialize_byte_buf(visitor),
        // A human-readable format is never bincode (a nested seed inherits the input).
        #[cfg(feature = "bincode")]
        Input::ByteSeq if deserializer.is_human_readable() => {
            deserializer.deserialize_byte_buf(visitor)
        }
        #[cfg(feature = "bincode")]
        Input::ByteSeq => super::byte_seq::deserialize(arena, deserializer),
    }
}

/// Visits bytes (and, with `accept_str`, strings) into an arena byte slice.
struct BytesVisitor<'bump, A: ?Sized> {
    arena: &'bump A,
    /// Also accept strings: `BStr` does, `&[u8]` (like serde's `Vec<u8>`) does not.
    accept_str: bool,
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
        let mut bytes = slice_builder::collect(self.arena, seq, byte, true)?;
        call::check_str_len(bytes.len()).map_err(LimitHit::into_de)?;
        slice_builder::finish(&mut bytes, self.arena)
    }
}
