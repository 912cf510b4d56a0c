//! Not public API: reading a value straight from a self-describing input as serde reads it back
//! from its buffer (`Content`, replayed by `ContentDeserializer`).
//!
//! serde_derive reads the content of an internally tagged enum's variant by buffering it and
//! replaying the buffer. A replay visits what the input held (what `deserialize_any` gave when
//! the buffer was filled), whatever `deserialize_*` a visitor asks for, and refuses what the
//! method does not accept: an integer asked for a string, a 16-bit integer asked for a field
//! identifier. Reading `deserialize_any` from the input itself, through a visitor that keeps
//! the same rules ([`Rules`], of `buffer_rules`, which the replay of a buffered `Value` shares),
//! gives the same value without the buffer.
//!
//! Each type says how it reads that way in
//! [`ArenaDeserialize::__deserialize_content_in`]: the scalars, strings, options, sequences
//! and every derived type read straight from the input with [`Rules`]; a type the crate cannot
//! see into (read by serde, or by a `deserialize_with` function) is buffered as a [`Value`] and
//! replayed with serde's rules ([`buffered`]). Every reader is a visitor or a seed over the
//! input's own types, so the deserializer a nested value reads from is the format's, however
//! deep the data nests.
//!
//! An error is the input's own, position included where the format gives one; which error
//! comes first may differ from serde's, which reads the whole buffer before any of it is
//! replayed.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    DeserializeSeed, Deserializer, EnumAccess, Error, MapAccess, Unexpected, VariantAccess, Visitor,
};

use crate::buffer_rules::{Ask, IdentifierSeed, IgnoredContent, Rules};
use crate::slot::SeedIntoSlot;
use crate::{ArenaDeserialize, BumpAllocator, Value, ValueDeserializer};

/// Reads `T` from `deserializer` by buffering the value as a [`Value`] in `arena` and
/// replaying it under serde's rules (`ContentDeserializer`): the content read of a type whose
/// own reading the crate cannot see into.
///
/// # Errors
///
/// The input's error, a limit hit, the arena out of memory, or what `T` refuses.
pub fn buffered<'de, 'bump, T, A, D>(arena: &'bump A, deserializer: D) -> Result<T, D::Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    let human_readable = deserializer.is_human_readable();
    let value = Value::deserialize_in(arena, deserializer)?;
    T::deserialize_in(arena, ValueDeserializer::by_value(&value, human_readable))
}

/// The seed reading `T` as serde reads it from its buffer
/// ([`ArenaDeserialize::__deserialize_content_in`]).
pub struct ContentSeed<'bump, T, A: ?Sized> {
    // Crate-visible: `ReadMode`'s `Content` builds it in place (see `derive_runtime::read_mode`).
    pub(crate) arena: &'bump A,
    pub(crate) marker: PhantomData<fn() -> T>,
}

impl<'bump, T, A: ?Sized> ContentSeed<'bump, T, A> {
    /// A seed reading into `arena`.
    #[inline(always)]
    pub const fn new(arena: &'bump A) -> Self {
        Self {
            arena,
            marker: PhantomData,
        }
    }
}

impl<T, A: ?Sized> Clone for ContentSeed<'_, T, A> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, A: ?Sized> Copy for ContentSeed<'_, T, A> {}

impl<'de, 'bump, T, A> DeserializeSeed<'de> for ContentSeed<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    type Value = T;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::__deserialize_content_in(self.arena, deserializer)
    }
}

impl<'de, 'bump, T, A> SeedIntoSlot<'de> for ContentSeed<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
}

impl<T, A: ?Sized> fmt::Debug for ContentSeed<'_, T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ContentSeed")
    }
}

/// A seed read through a buffer: the value is buffered as a [`Value`] and `seed` reads its
/// replay (serde's rules). The content read of a field the derive cannot see into (read by
/// serde, or by a `deserialize_with` function).
pub struct BufferedSeed<'bump, S, A: ?Sized> {
    arena: &'bump A,
    seed: S,
}

impl<'bump, S, A: ?Sized> BufferedSeed<'bump, S, A> {
    /// `seed`, reading the replay of a value buffered in `arena`.
    pub const fn new(arena: &'bump A, seed: S) -> Self {
        Self { arena, seed }
    }
}

impl<'de, 'bump, S, A> DeserializeSeed<'de> for BufferedSeed<'bump, S, A>
where
    S: DeserializeSeed<'bump>,
    A: BumpAllocator + ?Sized,
{
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        let human_readable = deserializer.is_human_readable();
        let value = Value::deserialize_in(self.arena, deserializer)?;
        self.seed
            .deserialize(ValueDeserializer::by_value(&value, human_readable))
    }
}

impl<S, A: ?Sized> fmt::Debug for BufferedSeed<'_, S, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BufferedSeed")
    }
}

/// A visitor wrapper answering as serde's buffer answers `deserialize_enum`: a string is a unit
/// variant, a map of one entry a variant and its content; anything else is an error. Call it
/// with `deserialize_any`.
#[derive(Debug)]
pub struct EnumRules<V>(pub V);

impl<'de, V: Visitor<'de>> Visitor<'de> for EnumRules<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<V::Value, E> {
        self.0.visit_enum(UnitOnly::<_, E>(
            serde::de::value::StrDeserializer::new(v),
            PhantomData,
        ))
    }

    fn visit_borrowed_str<E: Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.0.visit_enum(UnitOnly::<_, E>(
            serde::de::value::BorrowedStrDeserializer::new(v),
            PhantomData,
        ))
    }

    fn visit_string<E: Error>(self, v: String) -> Result<V::Value, E> {
        self.visit_str(&v)
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<V::Value, M::Error> {
        let value = self.0.visit_enum(OneEntry {
            map: &mut map,
            read: false,
        })?;
        if map.next_key::<IgnoredContent>()?.is_some() {
            return Err(M::Error::invalid_value(
                Unexpected::Map,
                &"map with a single key",
            ));
        }
        Ok(value)
    }
}

/// The enum of a string: a unit variant named by it.
struct UnitOnly<D, E>(D, PhantomData<E>);

impl<'de, D, E> EnumAccess<'de> for UnitOnly<D, E>
where
    D: Deserializer<'de, Error = E>,
    E: Error,
{
    type Error = E;
    type Variant = UnitOnly<NoDeserializer, E>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), E> {
        let name = IdentifierSeed(seed).deserialize(self.0)?;
        Ok((name, UnitOnly(NoDeserializer, PhantomData)))
    }
}

/// What a [`UnitOnly`] variant holds once its name is read: nothing.
struct NoDeserializer;

impl<'de, D, E: Error> VariantAccess<'de> for UnitOnly<D, E> {
    type Error = E;

    fn unit_variant(self) -> Result<(), E> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _seed: S) -> Result<S::Value, E> {
        Err(E::invalid_type(Unexpected::UnitVariant, &"newtype variant"))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, E> {
        Err(E::invalid_type(Unexpected::UnitVariant, &"tuple variant"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, E> {
        Err(E::invalid_type(Unexpected::UnitVariant, &"struct variant"))
    }
}

/// The enum of a map's first entry: its key the variant, its value the content.
struct OneEntry<'a, M> {
    map: &'a mut M,
    read: bool,
}

impl<'de, M: MapAccess<'de>> EnumAccess<'de> for OneEntry<'_, M> {
    type Error = M::Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(
        mut self,
        seed: S,
    ) -> Result<(S::Value, Self), M::Error> {
        match self.map.next_key_seed(IdentifierSeed(seed))? {
            Some(name) => {
                self.read = true;
                Ok((name, self))
            }
            None => Err(M::Error::invalid_value(
                Unexpected::Map,
                &"map with a single key",
            )),
        }
    }
}

impl<'de, M: MapAccess<'de>> VariantAccess<'de> for OneEntry<'_, M> {
    type Error = M::Error;

    fn unit_variant(self) -> Result<(), M::Error> {
        debug_assert!(self.read, "a variant's content is read after its name");
        self.map.next_value_seed(UnitSeed)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, M::Error> {
        self.map.next_value_seed(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, M::Error> {
        self.map.next_value_seed(RulesSeed(Ask::Seq, visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, M::Error> {
        self.map.next_value_seed(RulesSeed(Ask::Struct, visitor))
    }
}

/// The seed of a unit variant's content in a map: a unit, or an empty map.
struct UnitSeed;

impl<'de> DeserializeSeed<'de> for UnitSeed {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(Rules::new(Ask::Unit, UnitVisitor))
    }
}

/// serde's `()` visitor.
struct UnitVisitor;

impl Visitor<'_> for UnitVisitor {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unit")
    }

    fn visit_unit<E: Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// The seed visiting its value with a visitor under the rules of `ask`.
struct RulesSeed<V>(Ask, V);

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for RulesSeed<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        deserializer.deserialize_any(Rules::new(self.0, self.1))
    }
}
