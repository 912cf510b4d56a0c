//! Sequences: `&'bump [T]`, built in place or on the scratch stack by a [`SliceBuilder`].

use core::fmt;
use core::marker::PhantomData;

use serde::Deserializer;
use serde::de::{SeqAccess, Visitor};

use crate::limits;
use crate::seed::NestedSeed;
use crate::slice_builder::{BuildError, SliceBuilder};
use crate::{ArenaDeserialize, BumpAllocator};

/// Collects every element of a sequence; `direct` lets a short announced length go straight
/// into the arena (see [`SliceBuilder`]).
pub(crate) fn collect_seq<'de, 'bump, T, A, S>(
    arena: &'bump A,
    mut seq: S,
    direct: bool,
) -> Result<SliceBuilder<'bump, T>, S::Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    S: SeqAccess<'de>,
{
    let _level = limits::Level::enter::<S::Error>()?;
    let mut items =
        SliceBuilder::new(arena, seq.size_hint(), direct).map_err(BuildError::into_de)?;
    while let Some(item) = seq.next_element_seed(NestedSeed::<T, A>::new(arena))? {
        items.push(item).map_err(BuildError::into_de)?;
    }
    Ok(items)
}

/// The finished slice of `items`, in the arena at its exact size.
#[inline]
pub(crate) fn finish<'bump, T, A, E>(
    items: SliceBuilder<'bump, T>,
    arena: &'bump A,
) -> Result<&'bump mut [T], E>
where
    T: 'bump,
    A: BumpAllocator + ?Sized,
    E: serde::de::Error,
{
    items.finish(arena).map_err(BuildError::into_de)
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
        finish(collect_seq(self.arena, seq, true)?, self.arena)
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
