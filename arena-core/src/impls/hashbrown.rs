//! `hashbrown::HashMap` and `HashSet` whose table lives in the arena (allocator `&'bump A`).
//!
//! Entries are collected on the scratch stack first (never in a direct arena block: they only
//! pass through), so the table is allocated once at its final size instead of growing (and
//! leaving old tables behind) in the arena. Duplicate keys: the last one wins, as with serde's
//! `HashMap`.

use core::fmt;
use core::hash::{BuildHasher, Hash};
use core::marker::PhantomData;

use allocator_api2::alloc::Allocator;
use hashbrown::{HashMap, HashSet, TryReserveError};
use serde::Deserializer;
use serde::de::{SeqAccess, Visitor};

use super::map::collect_pairs;
use crate::arena_deserialize::NestedSeed;
use crate::call;
use crate::limits::LimitHit;
use crate::slice_builder::{self, BuildError};
use crate::{AllocError, ArenaDeserialize, BumpAllocator};

fn reserve_error(error: TryReserveError) -> AllocError {
    match error {
        TryReserveError::AllocError { layout } => AllocError::new(layout),
        TryReserveError::CapacityOverflow => AllocError::size_overflow(1),
    }
}

impl<'bump, K, V, S, A> ArenaDeserialize<'bump, A> for HashMap<K, V, S, &'bump A>
where
    K: ArenaDeserialize<'bump, A> + Eq + Hash,
    V: ArenaDeserialize<'bump, A>,
    S: BuildHasher + Default,
    A: BumpAllocator + ?Sized,
    &'bump A: Allocator,
{
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        let entries = collect_pairs::<K, V, A, D>(arena, deserializer)?
            .into_scratch()
            .map_err(BuildError::into_de)?;
        let mut map = HashMap::with_hasher_in(S::default(), arena);
        map.try_reserve(entries.len())
            .map_err(|e| reserve_error(e).into_de())?;
        // Charged once the table exists: its size is hashbrown's to compute.
        call::charge(map.allocation_size()).map_err(LimitHit::into_de)?;
        entries.drain_each(|(k, v)| {
            map.insert(k, v);
            Ok::<(), D::Error>(())
        })?;
        Ok(map)
    }
}

struct SetVisitor<'bump, T, S, A: ?Sized> {
    arena: &'bump A,
    marker: PhantomData<fn() -> (T, S)>,
}

impl<'de, 'bump, T, S, A> Visitor<'de> for SetVisitor<'bump, T, S, A>
where
    T: ArenaDeserialize<'bump, A> + Eq + Hash,
    S: BuildHasher + Default,
    A: BumpAllocator + ?Sized,
    &'bump A: Allocator,
{
    type Value = HashSet<T, S, &'bump A>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<Q: SeqAccess<'de>>(self, seq: Q) -> Result<Self::Value, Q::Error> {
        let item = NestedSeed::<T, A>::new(self.arena);
        let items = slice_builder::collect(self.arena, seq, item, false)?
            .into_scratch()
            .map_err(BuildError::into_de)?;
        let mut set = HashSet::with_hasher_in(S::default(), self.arena);
        set.try_reserve(items.len())
            .map_err(|e| reserve_error(e).into_de())?;
        call::charge(set.allocation_size()).map_err(LimitHit::into_de)?;
        items.drain_each(|item| {
            set.insert(item);
            Ok::<(), Q::Error>(())
        })?;
        Ok(set)
    }
}

impl<'bump, T, S, A> ArenaDeserialize<'bump, A> for HashSet<T, S, &'bump A>
where
    T: ArenaDeserialize<'bump, A> + Eq + Hash,
    S: BuildHasher + Default,
    A: BumpAllocator + ?Sized,
    &'bump A: Allocator,
{
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(SetVisitor {
            arena,
            marker: PhantomData,
        })
    }
}
