//! The two ways a derived struct reads its fields, as a type: [`Direct`], straight from the
//! format (`deserialize_in`, the serde path), and [`Content`], as serde reads the struct back
//! from its buffer (`__deserialize_content_in`, the buffered representations' path).
//!
//! The two reads of a struct with named fields, or of an externally tagged enum, differ only in
//! the seeds they hand the format (a field's, a key's, an unknown field's) and in how they enter
//! the format (`deserialize_struct` or `deserialize_enum`, against `deserialize_any` under the
//! buffer's rules). So the derive writes the type's visitor once, generic over a [`ReadMode`],
//! and each path instantiates it with its mode: the user's crate type-checks and borrow-checks
//! one `visit_map` and one `visit_seq` per struct (one `visit_enum` per enum) instead of two of
//! each, and compiles the `Content` one only where a buffered representation reads the type.
//! Each mode's seeds are the ones the two paths would name themselves, so the compiled code is
//! the same.
//!
//! The visitor reads each field through the trait's provided methods
//! ([`ReadMode::next_element`], [`ReadMode::next_value`], ...), which name the seed: its type,
//! a projection through the mode, then appears only in arena-core, and the user's crate
//! type-checks and borrow-checks a call per field, one function per mode, field type and
//! format that every struct with such a field shares. Each returns what serde's `SeqAccess` or
//! `MapAccess` returns, as it is, and the visitor around it keeps the shape of serde_derive's
//! (duplicate and missing fields refused in the visitor): with helpers that also refused those,
//! LLVM left cbor4ii's `next_key_seed` out of line in the city's visitor (5% more instructions
//! per document), and bincode's city ran 7% more.

use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, SeqAccess};

use crate::arena_deserialize::NestedSeed;
use crate::buffer_rules::{IdentifierSeed, IgnoredContent};
use crate::derive_runtime::content::ContentSeed;
use crate::slot::{FieldSlot, SeedIntoSlot};
use crate::{ArenaDeserialize, BumpAllocator};

/// How a derived struct's visitor reads: the seeds of its fields and keys, and what an
/// unknown field's value is read as. Implemented by [`Direct`] and [`Content`] only.
///
/// Not public API.
pub trait ReadMode {
    /// The seed reading a field of type `T` through its `ArenaDeserialize` impl, into `A`.
    type Seed<'bump, T, A>: for<'de> SeedIntoSlot<'de, Value = T>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump;

    /// The seed reading a key as the identifier `K` (the struct's `__Field`).
    type Key<K: DeserializeOwned>: for<'de> serde::de::DeserializeSeed<'de, Value = K>;

    /// What the value of a field the struct does not know is read as (and dropped).
    type Ignored: DeserializeOwned;

    /// The seed of a field of type `T`, read into `arena`.
    fn seed<'bump, T, A>(arena: &'bump A) -> Self::Seed<'bump, T, A>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump;

    /// The seed of a key.
    fn key<K: DeserializeOwned>() -> Self::Key<K>;

    /// `seq`'s next element, a field of type `T` read into `arena` with this mode's seed:
    /// `next_element_seed`'s result as it is.
    ///
    /// # Errors
    ///
    /// The format's.
    #[inline(always)]
    fn next_element<'de, 'bump, T, A, S>(
        seq: &mut S,
        arena: &'bump A,
    ) -> Result<Option<T>, S::Error>
    where
        S: SeqAccess<'de>,
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump,
    {
        seq.next_element_seed(Self::seed::<T, A>(arena))
    }

    /// [`next_element`](Self::next_element) built in `slot`.
    ///
    /// # Errors
    ///
    /// The format's.
    #[inline(always)]
    fn next_element_in_slot<'de, 'bump, T, A, S>(
        seq: &mut S,
        arena: &'bump A,
        slot: &mut FieldSlot<T>,
    ) -> Result<Option<()>, S::Error>
    where
        S: SeqAccess<'de>,
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump,
    {
        seq.next_element_seed(slot.seed(Self::seed::<T, A>(arena)))
    }

    /// The value of the entry whose key `map` just gave, a field of type `T` read into `arena`
    /// with this mode's seed: `next_value_seed`'s result as it is.
    ///
    /// # Errors
    ///
    /// The format's.
    #[inline(always)]
    fn next_value<'de, 'bump, T, A, M>(map: &mut M, arena: &'bump A) -> Result<T, M::Error>
    where
        M: MapAccess<'de>,
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump,
    {
        map.next_value_seed(Self::seed::<T, A>(arena))
    }

    /// [`next_value`](Self::next_value) built in `slot`.
    ///
    /// # Errors
    ///
    /// The format's.
    #[inline(always)]
    fn next_value_in_slot<'de, 'bump, T, A, M>(
        map: &mut M,
        arena: &'bump A,
        slot: &mut FieldSlot<T>,
    ) -> Result<(), M::Error>
    where
        M: MapAccess<'de>,
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump,
    {
        map.next_value_seed(slot.seed(Self::seed::<T, A>(arena)))
    }

    /// Reads the value of an entry the struct does not know, to be dropped.
    ///
    /// # Errors
    ///
    /// The format's.
    #[inline(always)]
    fn skip_value<'de, M>(map: &mut M) -> Result<Self::Ignored, M::Error>
    where
        M: MapAccess<'de>,
    {
        map.next_value::<Self::Ignored>()
    }
}

/// Straight from the format: each field with [`ArenaDeserialize::deserialize_in`] (or built in
/// its slot), a key with its `Deserialize` impl, an unknown field's value skipped with
/// [`IgnoredAny`].
#[derive(Debug)]
pub enum Direct {}

/// As serde reads back its buffer ([`ArenaDeserialize::__deserialize_content_in`]): each
/// field as content, a key under the rules of `deserialize_identifier`, an unknown field's
/// value read whole (serde's buffer holds it whole).
#[derive(Debug)]
pub enum Content {}

impl ReadMode for Direct {
    type Seed<'bump, T, A>
        = NestedSeed<'bump, T, A>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump;

    // serde's `MapAccess::next_key` spelled out: through a wrapper of its own, formats whose
    // `next_key_seed` is large (sonic-rs's) would leave the wrapper out of line, a call per key.
    type Key<K: DeserializeOwned> = core::marker::PhantomData<K>;

    type Ignored = IgnoredAny;

    #[inline(always)]
    fn seed<'bump, T, A>(arena: &'bump A) -> NestedSeed<'bump, T, A>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump,
    {
        // Built here rather than through `NestedSeed::new`: in a debug build each inlined
        // constructor still leaves its own copies in every visitor, a few IR lines per field.
        NestedSeed {
            arena,
            marker: core::marker::PhantomData,
        }
    }

    #[inline(always)]
    fn key<K: DeserializeOwned>() -> core::marker::PhantomData<K> {
        core::marker::PhantomData
    }
}

impl ReadMode for Content {
    type Seed<'bump, T, A>
        = ContentSeed<'bump, T, A>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump;

    type Key<K: DeserializeOwned> = IdentifierSeed<core::marker::PhantomData<K>>;

    type Ignored = IgnoredContent;

    #[inline(always)]
    fn seed<'bump, T, A>(arena: &'bump A) -> ContentSeed<'bump, T, A>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump,
    {
        // As `Direct::seed`: built in place, one inlined call fewer per field in a debug build.
        ContentSeed {
            arena,
            marker: core::marker::PhantomData,
        }
    }

    #[inline(always)]
    fn key<K: DeserializeOwned>() -> IdentifierSeed<core::marker::PhantomData<K>> {
        IdentifierSeed(core::marker::PhantomData)
    }
}
