//! Sequences: `&'bump [T]`, read through the element type's slice hook (see
//! [`SliceBuilder`](crate::slice_builder::SliceBuilder) for where the elements go).

use serde::Deserializer;

use crate::buffer_rules::{Ask, Rules};
use crate::derive_runtime::content::{self, ContentSeed};
use crate::slice_builder::SliceVisitor;
use crate::{ArenaDeserialize, BumpAllocator};

impl<'bump, T, A> ArenaDeserialize<'bump, A> for &'bump [T]
where
    T: ArenaDeserialize<'bump, A> + 'bump,
    A: BumpAllocator + ?Sized,
{
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        T::__deserialize_slice(arena, deserializer).map(|slice| &*slice)
    }

    #[inline]
    fn __deserialize_content_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserialize_content_slice(arena, deserializer).map(|slice| &*slice)
    }
    #[cfg(feature = "json")]
    #[inline]
    fn __deserialize_json_in(
        arena: &'bump A,
        reader: &mut crate::json::Reader<'_>,
    ) -> Result<Self, crate::json::Refused> {
        crate::slice_builder::read_json_slice(arena, reader).map(|slice| &*slice)
    }
}

impl<'bump, T, A> ArenaDeserialize<'bump, A> for &'bump mut [T]
where
    T: ArenaDeserialize<'bump, A> + 'bump,
    A: BumpAllocator + ?Sized,
{
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        T::__deserialize_slice(arena, deserializer)
    }

    #[inline]
    fn __deserialize_content_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserialize_content_slice(arena, deserializer)
    }
    #[cfg(feature = "json")]
    #[inline]
    fn __deserialize_json_in(
        arena: &'bump A,
        reader: &mut crate::json::Reader<'_>,
    ) -> Result<Self, crate::json::Refused> {
        crate::slice_builder::read_json_slice(arena, reader)
    }
}

/// Reads a slice as serde reads it back from its buffer: a sequence, its elements read the same
/// way, straight from the input; the types whose slice is something else (bytes, a map) are
/// buffered and replayed.
fn deserialize_content_slice<'de, 'bump, T, A, D>(
    arena: &'bump A,
    deserializer: D,
) -> Result<&'bump mut [T], D::Error>
where
    T: ArenaDeserialize<'bump, A> + 'bump,
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    if !T::__SLICE_IS_SEQ {
        return content::buffered(arena, deserializer);
    }
    let visitor = SliceVisitor::new(arena, ContentSeed::<T, A>::new(arena));
    deserializer.deserialize_any(Rules::new(Ask::Seq, visitor))
}
