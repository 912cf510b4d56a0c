//! Maps as `&'bump [(K, V)]`: entries in input order, duplicates kept.
//!
//! A slice of pairs reads a serde map, and also a sequence of 2-tuples, so that both
//! `HashMap<K, V>` and `Vec<(K, V)>` written by serde read back:
//! - human-readable formats (JSON and the like, which describe themselves) are asked for
//!   `deserialize_any`, which hands over a map or a sequence, whichever the input holds;
//! - binary formats are asked for `deserialize_map`: postcard and bincode write a map exactly as
//!   a sequence of pairs, and MessagePack describes itself; cbor4ii reads only a CBOR map for
//!   `deserialize_map`, so the CBOR entry points ask for `deserialize_any` too
//!   (`Strings::either_form`).

use core::fmt;
use core::marker::PhantomData;

use serde::Deserializer;
use serde::de::{MapAccess, SeqAccess, Visitor};

use crate::arena_deserialize::NestedSeed;
use crate::slice_builder;
#[cfg(feature = "hashbrown")]
use crate::slice_builder::SliceBuilder;
use crate::{ArenaDeserialize, BumpAllocator};

/// Reads the entries of a map, or the pairs of a sequence, in input order, into an arena slice
/// of their exact size: `&'bump [(K, V)]`.
struct PairSliceVisitor<'bump, K, V, A: ?Sized> {
    arena: &'bump A,
    marker: PhantomData<fn() -> (K, V)>,
}

impl<'de, 'bump, K, V, A> Visitor<'de> for PairSliceVisitor<'bump, K, V, A>
where
    K: ArenaDeserialize<'bump, A> + 'bump,
    V: ArenaDeserialize<'bump, A> + 'bump,
    A: BumpAllocator + ?Sized,
{
    type Value = &'bump mut [(K, V)];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
        let key = NestedSeed::<K, A>::new(self.arena);
        let value = NestedSeed::<V, A>::new(self.arena);
        slice_builder::read_entries(self.arena, map, key, value, true)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Self::Value, S::Error> {
        let pair = NestedSeed::<(K, V), A>::new(self.arena);
        slice_builder::read_slice(self.arena, seq, pair, true)
    }
}

/// Collects the entries of a map, or the pairs of a sequence, in input order, for a hash map:
/// built from the count, its entries only pass through, so no announced length goes straight
/// into the arena.
#[cfg(feature = "hashbrown")]
struct PairsVisitor<'bump, K, V, A: ?Sized> {
    arena: &'bump A,
    marker: PhantomData<fn() -> (K, V)>,
}

#[cfg(feature = "hashbrown")]
impl<'de, 'bump, K, V, A> Visitor<'de> for PairsVisitor<'bump, K, V, A>
where
    K: ArenaDeserialize<'bump, A>,
    V: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    type Value = SliceBuilder<'bump, (K, V)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
        let key = NestedSeed::<K, A>::new(self.arena);
        let value = NestedSeed::<V, A>::new(self.arena);
        slice_builder::collect_entries(self.arena, map, key, value, false)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Self::Value, S::Error> {
        let pair = NestedSeed::<(K, V), A>::new(self.arena);
        slice_builder::collect(self.arena, seq, pair, false)
    }
}

/// Asks `deserializer` for a map, or for whatever it holds: see the module docs.
fn deserialize_map_or_pairs<'de, D: Deserializer<'de>, V: Visitor<'de>>(
    deserializer: D,
    visitor: V,
) -> Result<V::Value, D::Error> {
    if deserializer.is_human_readable() || crate::call::strings().either_form {
        deserializer.deserialize_any(visitor)
    } else {
        deserializer.deserialize_map(visitor)
    }
}

/// Reads a map (or a sequence of pairs) in input order for a hash map; see the module docs.
#[cfg(feature = "hashbrown")]
pub(crate) fn collect_pairs<'de, 'bump, K, V, A, D>(
    arena: &'bump A,
    deserializer: D,
) -> Result<SliceBuilder<'bump, (K, V)>, D::Error>
where
    K: ArenaDeserialize<'bump, A>,
    V: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    let visitor = PairsVisitor {
        arena,
        marker: PhantomData,
    };
    deserialize_map_or_pairs(deserializer, visitor)
}

/// `&'bump [(K, V)]`'s hook: a map in the arena at its exact size.
pub(crate) fn deserialize_pairs<'de, 'bump, K, V, A, D>(
    arena: &'bump A,
    deserializer: D,
) -> Result<&'bump mut [(K, V)], D::Error>
where
    K: ArenaDeserialize<'bump, A> + 'bump,
    V: ArenaDeserialize<'bump, A> + 'bump,
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    let visitor = PairSliceVisitor {
        arena,
        marker: PhantomData,
    };
    deserialize_map_or_pairs(deserializer, visitor)
}
