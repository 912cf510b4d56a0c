//! `&'bump T`: a value moved into the arena, which is what makes recursive types possible.

use serde::Deserializer;

use crate::call::{self, DepthGuard};
use crate::{ArenaDeserialize, BumpAllocator};

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
            let _level = DepthGuard::enter::<D::Error>()?;
            T::deserialize_in(arena, deserializer)?
        };
        call::alloc_charged(arena, value).map(|v| &*v)
    }

    #[inline]
    fn __deserialize_content_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        let value = {
            let _level = DepthGuard::enter::<D::Error>()?;
            T::__deserialize_content_in(arena, deserializer)?
        };
        call::alloc_charged(arena, value).map(|v| &*v)
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
            let _level = DepthGuard::enter::<D::Error>()?;
            T::deserialize_in(arena, deserializer)?
        };
        call::alloc_charged(arena, value)
    }
}
