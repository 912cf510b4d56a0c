//! Sequences: `&'bump [T]`, built on the scratch stack and copied into the arena once.

use core::fmt;
use core::marker::PhantomData;

use serde::Deserializer;
use serde::de::{SeqAccess, Visitor};

use super::{alloc_error, limit_error};
use crate::limits;
use crate::scratch::ScratchVec;
use crate::{ArenaDeserialize, ArenaSeed, BumpAllocator};

/// Collects every element of a sequence into a `ScratchVec`.
pub(crate) fn collect_seq<'de, 'bump, T, A, S>(
    arena: &'bump A,
    mut seq: S,
) -> Result<ScratchVec<T>, S::Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    S: SeqAccess<'de>,
{
    let _level = limits::Level::enter::<S::Error>()?;
    let mut items = ScratchVec::new(seq.size_hint()).map_err(alloc_error)?;
    while let Some(item) = seq.next_element_seed(ArenaSeed::<T, A>::new(arena))? {
        items.push(item).map_err(alloc_error)?;
        limits::check_len(items.len(), size_of::<T>()).map_err(limit_error)?;
    }
    Ok(items)
}

/// Charges the byte budget for `items`, then copies them into the arena at their exact size.
pub(crate) fn finish<'bump, T, A, E>(
    items: ScratchVec<T>,
    arena: &'bump A,
) -> Result<&'bump mut [T], E>
where
    T: 'bump,
    A: BumpAllocator + ?Sized,
    E: serde::de::Error,
{
    // `len * size` cannot overflow: the elements exist on the scratch stack.
    limits::charge(items.len() * size_of::<T>()).map_err(limit_error)?;
    items.finish_in(arena).map_err(alloc_error)
}

/// Visits a sequence into an exactly sized arena slice.
pub(crate) struct SliceVisitor<'bump, T, A: ?Sized> {
    arena: &'bump A,
    marker: PhantomData<fn() -> T>,
}

impl<'bump, T, A: ?Sized> SliceVisitor<'bump, T, A> {
    pub(crate) const fn new(arena: &'bump A) -> Self {
        Self {
            arena,
            marker: PhantomData,
        }
    }
}

impl<'de, 'bump, T, A> Visitor<'de> for SliceVisitor<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A> + 'bump,
    A: BumpAllocator + ?Sized,
{
    type Value = &'bump mut [T];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Self::Value, S::Error> {
        finish(collect_seq(self.arena, seq)?, self.arena)
    }
}

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
