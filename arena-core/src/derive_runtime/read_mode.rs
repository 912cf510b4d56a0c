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
//! The visitor's statements per field are calls of the trait's provided methods
//! ([`ReadMode::element`], [`ReadMode::value`], ...): one function per mode, field type and
//! format, shared by every struct with a field of that type, rather than the same `match` in
//! each visitor. The user's crate type-checks and borrow-checks a call per field, and the
//! seed's type, a projection through the mode, appears only in arena-core.

use serde::de::{DeserializeOwned, Error as _, IgnoredAny, MapAccess, SeqAccess};

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

    /// The next element of `seq`, a field of type `T` read into `arena`: the `index`th of the
    /// elements the visitor expects (`expected`, as serde's `invalid_length` says it).
    ///
    /// # Errors
    ///
    /// The format's; `invalid_length(index, expected)` where the sequence ends before it.
    #[inline(always)]
    fn element<'de, 'bump, T, A, S>(
        seq: &mut S,
        arena: &'bump A,
        index: usize,
        expected: &'static str,
    ) -> Result<T, S::Error>
    where
        S: SeqAccess<'de>,
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump,
    {
        let element = seq.next_element_seed(Self::seed::<T, A>(arena))?;
        present(element, index, expected)
    }

    /// [`element`](Self::element) built in its slot.
    ///
    /// # Errors
    ///
    /// As [`element`](Self::element).
    #[inline(always)]
    fn element_in_slot<'de, 'bump, T, A, S>(
        seq: &mut S,
        arena: &'bump A,
        slot: &mut FieldSlot<T>,
        index: usize,
        expected: &'static str,
    ) -> Result<(), S::Error>
    where
        S: SeqAccess<'de>,
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump,
    {
        let element = seq.next_element_seed(slot.seed(Self::seed::<T, A>(arena)))?;
        present(element, index, expected)
    }

    /// The value of the entry whose key `map` just gave, read into `field`, the visitor's
    /// variable for the field `name` of type `T`.
    ///
    /// # Errors
    ///
    /// The format's; `duplicate_field(name)` where `field` holds a value already.
    #[inline(always)]
    fn value<'de, 'bump, T, A, M>(
        map: &mut M,
        arena: &'bump A,
        field: &mut Option<T>,
        name: &'static str,
    ) -> Result<(), M::Error>
    where
        M: MapAccess<'de>,
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump,
    {
        if field.is_some() {
            return Err(M::Error::duplicate_field(name));
        }
        *field = Some(map.next_value_seed(Self::seed::<T, A>(arena))?);
        Ok(())
    }

    /// [`value`](Self::value) built in its slot.
    ///
    /// # Errors
    ///
    /// As [`value`](Self::value).
    #[inline(always)]
    fn value_in_slot<'de, 'bump, T, A, M>(
        map: &mut M,
        arena: &'bump A,
        slot: &mut FieldSlot<T>,
        name: &'static str,
    ) -> Result<(), M::Error>
    where
        M: MapAccess<'de>,
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized + 'bump,
    {
        if slot.is_filled() {
            return Err(M::Error::duplicate_field(name));
        }
        map.next_value_seed(slot.seed(Self::seed::<T, A>(arena)))
    }

    /// The next key of `map`, as the identifier `K`.
    ///
    /// # Errors
    ///
    /// The format's, or the identifier's.
    #[inline(always)]
    fn next_key<'de, K, M>(map: &mut M) -> Result<Option<K>, M::Error>
    where
        K: DeserializeOwned,
        M: MapAccess<'de>,
    {
        map.next_key_seed(Self::key::<K>())
    }

    /// Reads the value of an entry the struct does not know, and drops it.
    ///
    /// # Errors
    ///
    /// The format's.
    #[inline(always)]
    fn skip_value<'de, M>(map: &mut M) -> Result<(), M::Error>
    where
        M: MapAccess<'de>,
    {
        map.next_value::<Self::Ignored>().map(drop)
    }
}

/// The `index`th element of a sequence, or serde's `invalid_length` where it ended before it.
#[inline(always)]
fn present<T, E: serde::de::Error>(
    element: Option<T>,
    index: usize,
    expected: &'static str,
) -> Result<T, E> {
    element.ok_or_else(|| E::invalid_length(index, &expected))
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
