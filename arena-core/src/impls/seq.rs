//! Sequences: `&'bump [T]`, read through the element type's slice hook (see
//! [`SliceBuilder`](crate::slice_builder::SliceBuilder) for where the elements go).

use serde::Deserializer;

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
}
