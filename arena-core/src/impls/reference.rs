//! `&'bump T`: a value moved into the arena, which is what makes recursive types possible.

use serde::Deserializer;

use super::{alloc_error, limit_error};
use crate::limits;
use crate::{ArenaDeserialize, BumpAllocator, BumpAllocatorExt};

impl<'bump, T, A> ArenaDeserialize<'bump, A> for &'bump T
where
    T: ArenaDeserialize<'bump, A> + 'bump,
    A: BumpAllocator + ?Sized,
{
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        let value = {
            let _level = limits::Level::enter::<D::Error>()?;
            T::deserialize_in(arena, deserializer)?
        };
        limits::charge(size_of::<T>()).map_err(limit_error)?;
        arena.try_alloc(value).map(|v| &*v).map_err(alloc_error)
    }
}

impl<'bump, T, A> ArenaDeserialize<'bump, A> for &'bump mut T
where
    T: ArenaDeserialize<'bump, A> + 'bump,
    A: BumpAllocator + ?Sized,
{
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        let value = {
            let _level = limits::Level::enter::<D::Error>()?;
            T::deserialize_in(arena, deserializer)?
        };
        limits::charge(size_of::<T>()).map_err(limit_error)?;
        arena.try_alloc(value).map_err(alloc_error)
    }
}
