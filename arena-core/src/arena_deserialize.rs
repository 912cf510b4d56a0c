//! [`ArenaDeserialize`]: serde's `Deserialize`, with an arena to build the value in, and
//! [`NestedSeed`], the seed for the values inside a value.

use core::fmt;
use core::marker::PhantomData;

use serde::Deserializer;
use serde::de::DeserializeSeed;

use crate::allocator::BumpAllocator;
use crate::slice_builder::SliceVisitor;
use crate::slot::{Filled, SeedIntoSlot, Slot};

/// A type that can be deserialized from any serde format into the arena `A`.
///
/// The arena lifetime `'bump` is a parameter of the trait rather than of the method, so a type
/// can hold `&'bump str`, `&'bump [T]` or a map whose allocator is `&'bump A`. Everything the
/// value owns lives in the arena; nothing is borrowed from the input, so the input can be
/// dropped as soon as deserialization returns.
///
/// Implement it with `#[derive(ArenaDeserialize)]` (feature `derive`), or by hand as below; drive
/// it from a serde `Deserializer` with [`ArenaSeed`](crate::ArenaSeed).
///
/// A type that implements serde's `Deserialize` and needs no drop (an id, a date, a UUID) is
/// read by serde with `#[arena(serde)]` on the field, or gets this trait from
/// [`through_serde!`](crate::through_serde) when it is your crate's; a type that owns heap
/// memory has an arena twin instead (`_porting` has the table).
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator};
/// use serde::de::{DeserializeSeed, Deserializer, SeqAccess, Visitor};
///
/// /// A name and its aliases, all in the arena.
/// struct Names<'bump> {
///     name: &'bump str,
///     aliases: &'bump [&'bump str],
/// }
///
/// impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for Names<'bump> {
///     fn deserialize_in<'de, D: Deserializer<'de>>(
///         arena: &'bump A,
///         deserializer: D,
///     ) -> Result<Self, D::Error> {
///         struct V<'bump, A: ?Sized>(&'bump A);
///         impl<'de, 'bump, A: BumpAllocator + ?Sized> Visitor<'de> for V<'bump, A> {
///             type Value = Names<'bump>;
///             fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
///                 f.write_str("a name followed by its aliases")
///             }
///             fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Names<'bump>, S::Error> {
///                 use serde::de::Error;
///                 let name = seq
///                     .next_element_seed(ArenaSeed::new(self.0))?
///                     .ok_or_else(|| S::Error::invalid_length(0, &self))?;
///                 let aliases = seq
///                     .next_element_seed(ArenaSeed::new(self.0))?
///                     .ok_or_else(|| S::Error::invalid_length(1, &self))?;
///                 Ok(Names { name, aliases })
///             }
///         }
///         deserializer.deserialize_tuple(2, V(arena))
///     }
/// }
///
/// let bump = bumpalo::Bump::new();
/// let mut de = serde_json::Deserializer::from_str(r#"["Lutetia", ["Paris", "Paname"]]"#);
/// let names: Names = ArenaSeed::new(&bump).deserialize(&mut de)?;
/// assert_eq!(names.name, "Lutetia");
/// assert_eq!(names.aliases, ["Paris", "Paname"]);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be deserialized into an arena: it does not implement `ArenaDeserialize<'bump, {A}>`",
    label = "no `ArenaDeserialize` impl for this type and arena",
    note = "in a model read into an arena, hold `&'bump str` for `String`, `&'bump [T]` for `Vec<T>`, `&'bump T` for `Box<T>` (`arena_core::_porting` has the table)",
    note = "a type that implements serde's `Deserialize` and needs no drop is read by serde with `#[arena(serde)]` on the field, or `arena_core::through_serde!(Type)` for a type of your crate",
    note = "otherwise derive `ArenaDeserialize` for the type, or implement it"
)]
pub trait ArenaDeserialize<'bump, A: BumpAllocator + ?Sized>: Sized {
    /// Deserializes a value from `deserializer`, allocating what it owns in `arena`.
    ///
    /// # Errors
    ///
    /// The format's error when the input does not match `Self`, or when the arena runs out of
    /// memory (a custom error whose message says so).
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error>;

    /// Deserializes a value from `deserializer` into `slot`, allocating what it owns in
    /// `arena`: how a slice's elements are read, each straight into its place.
    ///
    /// Not public API: the default writes what [`deserialize_in`](Self::deserialize_in)
    /// returns; a derived struct builds itself in the slot instead, and its `deserialize_in`
    /// calls this (see `arena_core`'s `slot` module for why).
    #[doc(hidden)]
    #[inline(always)]
    fn __deserialize_into<'de, 's, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
        slot: Slot<'s, Self>,
    ) -> Result<Filled<'s>, D::Error> {
        Ok(slot.write(Self::deserialize_in(arena, deserializer)?))
    }

    /// Deserializes a sequence of `Self` into one arena slice of exactly its length.
    ///
    /// Not public API: the hook through which `&'bump [u8]` reads serde bytes and
    /// `&'bump [(K, V)]` reads a map, in the absence of specialization.
    #[doc(hidden)]
    fn __deserialize_slice<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<&'bump mut [Self], D::Error>
    where
        Self: 'bump,
    {
        deserializer.deserialize_seq(SliceVisitor::new(arena, NestedSeed::<Self, A>::new(arena)))
    }

    /// Whether [`__deserialize_slice`](Self::__deserialize_slice) reads a sequence of `Self`
    /// (`false` for the types whose slice is something else: bytes, a map).
    ///
    /// Not public API.
    #[doc(hidden)]
    const __SLICE_IS_SEQ: bool = true;

    /// Whether a slice of `Self` reads a JSON array as the sequence of its elements, each with
    /// its type's direct JSON path: as [`__SLICE_IS_SEQ`](Self::__SLICE_IS_SEQ) says for every
    /// format, and `true` for pairs too, whose slice reads a sequence of pairs as well as a map
    /// (a JSON array is the sequence).
    ///
    /// Not public API.
    #[cfg(feature = "json")]
    #[doc(hidden)]
    const __JSON_ARRAY_IS_SEQ: bool = Self::__SLICE_IS_SEQ;

    /// Whether `Self` is a struct that reads a flattened field's entries by name, as a derived
    /// struct with named fields does: serde's flattened deserializer then hands it the entries
    /// named in its `FIELDS`, and nothing else, and [`__flat_field`](Self::__flat_field) tells
    /// those names apart. `false` for every other type (a map, an option, an enum read from
    /// flattened data).
    ///
    /// Not public API: it lets a struct hand its flattened struct's entries over as the input
    /// is read, instead of buffering them.
    #[doc(hidden)]
    const __FLAT_BY_NAME: bool = false;

    /// The field name (aliases included) that the key `key` (a string's bytes, or bytes) is,
    /// if `Self` reads flattened entries by name ([`__FLAT_BY_NAME`](Self::__FLAT_BY_NAME)) and
    /// `key` is one of them. The derive writes it as a `match` on the names, compared as
    /// constants; this default names nothing.
    ///
    /// Not public API: the struct that flattens `Self` asks it of each key that is not its own.
    #[doc(hidden)]
    #[inline]
    #[must_use]
    fn __flat_field(key: &[u8]) -> Option<&'static str> {
        crate::derive_runtime::no_flat_field(key)
    }

    /// Deserializes a value from a self-describing `deserializer` as serde reads it back from
    /// its buffer of the same input (`ContentDeserializer`): how the content of an internally
    /// tagged enum's variant reads. The default buffers the value and replays it under serde's
    /// rules; the crate's types and derived ones read straight from the input instead.
    ///
    /// Not public API: the hook through which the buffered representations read without a
    /// buffer, in the absence of specialization.
    #[doc(hidden)]
    fn __deserialize_content_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        crate::derive_runtime::content::buffered(arena, deserializer)
    }

    /// Deserializes `Self` from the crate's JSON reader: how [`json::from_slice`] and
    /// [`json::from_str`] read their value. The default is
    /// [`deserialize_in`](Self::deserialize_in) over the reader; [`Value`](crate::Value) reads
    /// the JSON text straight into its nodes instead, with no visitor in between.
    ///
    /// Not public API: a direct path for one reader, in the absence of specialization.
    ///
    /// [`json::from_slice`]: crate::json::from_slice
    /// [`json::from_str`]: crate::json::from_str
    #[cfg(feature = "json")]
    #[doc(hidden)]
    #[inline(always)]
    fn __deserialize_json_in(
        arena: &'bump A,
        reader: &mut crate::json::Reader<'_>,
    ) -> Result<Self, crate::json::Refused> {
        Self::deserialize_in(arena, reader)
    }

    /// [`__deserialize_json_in`](Self::__deserialize_json_in) into `slot`, as
    /// [`__deserialize_into`](Self::__deserialize_into) is to
    /// [`deserialize_in`](Self::deserialize_in): how a slice reads its elements from the
    /// crate's JSON reader. A derived struct builds itself in the slot, reading its fields
    /// with their own direct paths; the default writes what `__deserialize_json_in` returns.
    ///
    /// Not public API.
    #[cfg(feature = "json")]
    #[doc(hidden)]
    #[inline(always)]
    fn __deserialize_json_into<'s>(
        arena: &'bump A,
        reader: &mut crate::json::Reader<'_>,
        slot: Slot<'s, Self>,
    ) -> Result<Filled<'s>, crate::json::Refused> {
        Ok(slot.write(Self::__deserialize_json_in(arena, reader)?))
    }
}

/// The seed arena-core's own impls and the derive use for the values inside a value (fields,
/// elements, keys): it calls [`ArenaDeserialize::deserialize_in`] directly, skipping the check
/// [`ArenaSeed`](crate::ArenaSeed) makes to know whether a call on the arena is open (one
/// thread-local access per field otherwise). Not public API.
#[doc(hidden)]
pub struct NestedSeed<'bump, T, A: ?Sized> {
    // Crate-visible: `ReadMode`'s `Direct` builds it in place (see `derive_runtime::read_mode`).
    pub(crate) arena: &'bump A,
    pub(crate) marker: PhantomData<fn() -> T>,
}

impl<'bump, T, A: ?Sized> NestedSeed<'bump, T, A> {
    /// A seed for a value nested in one being deserialized into `arena`.
    #[inline(always)]
    pub const fn new(arena: &'bump A) -> Self {
        Self {
            arena,
            marker: PhantomData,
        }
    }
}

impl<T, A: ?Sized> Clone for NestedSeed<'_, T, A> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, A: ?Sized> Copy for NestedSeed<'_, T, A> {}

impl<'de, 'bump, T, A> DeserializeSeed<'de> for NestedSeed<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    type Value = T;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize_in(self.arena, deserializer)
    }
}

impl<'de, 'bump, T, A> SeedIntoSlot<'de> for NestedSeed<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    #[inline(always)]
    fn deserialize_into<'s, D: Deserializer<'de>>(
        self,
        deserializer: D,
        slot: Slot<'s, T>,
    ) -> Result<Filled<'s>, D::Error> {
        T::__deserialize_into(self.arena, deserializer, slot)
    }
}

impl<T, A: ?Sized> fmt::Debug for NestedSeed<'_, T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NestedSeed")
    }
}
