//! Not public API: reading a value straight from a self-describing input as serde reads it back
//! from its buffer (`Content`, replayed by `ContentDeserializer`).
//!
//! serde_derive reads the content of an internally tagged enum's variant by buffering it and
//! replaying the buffer. A replay visits what the input held (what `deserialize_any` gave when
//! the buffer was filled), whatever `deserialize_*` a visitor asks for, and refuses what the
//! method does not accept: an integer asked for a string, a 16-bit integer asked for a field
//! identifier. Reading `deserialize_any` from the input itself, through a visitor that keeps
//! the same rules ([`Rules`]), gives the same value without the buffer.
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
    DeserializeSeed, Deserializer, EnumAccess, Error, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};

use crate::slot::SeedIntoSlot;
use crate::{ArenaDeserialize, BumpAllocator, Value, ValueDeserializer};

/// What serde's buffer says when the input hands it an enum, which it cannot hold.
pub(crate) const ENUM_INPUT: &str =
    "untagged and internally tagged enums do not support enum input";

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
    arena: &'bump A,
    marker: PhantomData<fn() -> T>,
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

/// The `deserialize_*` a visitor asked for, grouped as `ContentDeserializer` answers them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ask {
    /// `deserialize_any`: whatever the input holds.
    Any,
    /// A bool.
    Bool,
    /// Any integer (128-bit ones too, which serde's buffer cannot hold).
    Integer,
    /// A float, or an integer.
    Float,
    /// A character, or a string.
    Char,
    /// A string, or bytes.
    Str,
    /// Bytes, a string, or a sequence.
    Bytes,
    /// A unit, or an empty map.
    Unit,
    /// Anything (`deserialize_any`), an empty map or sequence being a unit.
    UnitStruct,
    /// A string, bytes, or an unsigned integer of 8 or 64 bits.
    Identifier,
    /// A sequence.
    Seq,
    /// A map.
    Map,
    /// A map or a sequence.
    Struct,
}

/// A visitor wrapper answering as serde's buffer answers the `deserialize_*` [`Ask`] names:
/// what the method accepts is visited, anything else is an `invalid type` error; a sequence or
/// map must be read to its end. Call it with `deserialize_any`.
#[derive(Debug)]
pub struct Rules<V> {
    ask: Ask,
    visitor: V,
}

impl<V> Rules<V> {
    /// `visitor`, visited as serde's buffer visits it for `ask`.
    #[inline(always)]
    pub const fn new(ask: Ask, visitor: V) -> Self {
        Self { ask, visitor }
    }

    /// Whether the method asked for accepts a value of `kind`.
    #[inline(always)]
    fn accepts(&self, kind: Kind) -> bool {
        match self.ask {
            Ask::Any | Ask::UnitStruct => true,
            Ask::Bool => kind == Kind::Bool,
            Ask::Integer => kind == Kind::Integer,
            Ask::Float => matches!(kind, Kind::Integer | Kind::Float),
            Ask::Char => matches!(kind, Kind::Char | Kind::Str),
            Ask::Str => matches!(kind, Kind::Str | Kind::Bytes),
            Ask::Bytes => matches!(kind, Kind::Str | Kind::Bytes | Kind::Seq),
            Ask::Unit => kind == Kind::Unit,
            Ask::Identifier => matches!(kind, Kind::Str | Kind::Bytes),
            Ask::Seq => kind == Kind::Seq,
            Ask::Map => kind == Kind::Map,
            Ask::Struct => matches!(kind, Kind::Seq | Kind::Map),
        }
    }

    /// Visits a value of `kind` with `visit`, or refuses it as `unexpected`.
    #[inline(always)]
    fn check<'de, E: Error>(
        self,
        kind: Kind,
        unexpected: Unexpected<'_>,
        visit: impl FnOnce(V) -> Result<V::Value, E>,
    ) -> Result<V::Value, E>
    where
        V: Visitor<'de>,
    {
        if self.accepts(kind) {
            visit(self.visitor)
        } else {
            Err(E::invalid_type(unexpected, &self.visitor))
        }
    }

    /// An unsigned integer: an identifier takes only the widths serde's buffer takes (8 and 64
    /// bits).
    #[inline(always)]
    fn unsigned<'de, E: Error>(
        self,
        v: u64,
        identifier_width: bool,
        visit: impl FnOnce(V) -> Result<V::Value, E>,
    ) -> Result<V::Value, E>
    where
        V: Visitor<'de>,
    {
        if self.ask == Ask::Identifier && identifier_width {
            return visit(self.visitor);
        }
        self.check(Kind::Integer, Unexpected::Unsigned(v), visit)
    }
}

/// What the input held, as far as the rules tell apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bool,
    Integer,
    Float,
    Char,
    Str,
    Bytes,
    Unit,
    Option,
    Seq,
    Map,
    Newtype,
}

/// `visit_*` methods of [`Rules`] visiting a value of the kind named when the method asked for
/// accepts it, and refusing it as the `Unexpected` the closure makes of it otherwise.
macro_rules! checked_visits {
    ($($method:ident($ty:ty) => $kind:ident, |$v:ident| $unexpected:expr;)*) => {$(
        #[inline]
        fn $method<E: Error>(self, $v: $ty) -> Result<V::Value, E> {
            self.check(Kind::$kind, $unexpected, |vis| vis.$method($v))
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Rules<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    checked_visits! {
        visit_bool(bool) => Bool, |v| Unexpected::Bool(v);
        visit_i8(i8) => Integer, |v| Unexpected::Signed(v.into());
        visit_i16(i16) => Integer, |v| Unexpected::Signed(v.into());
        visit_i32(i32) => Integer, |v| Unexpected::Signed(v.into());
        visit_i64(i64) => Integer, |v| Unexpected::Signed(v);
        visit_i128(i128) => Integer, |_v| Unexpected::Other("i128");
        visit_u128(u128) => Integer, |_v| Unexpected::Other("u128");
        visit_f32(f32) => Float, |v| Unexpected::Float(v.into());
        visit_f64(f64) => Float, |v| Unexpected::Float(v);
        visit_char(char) => Char, |v| Unexpected::Char(v);
        visit_str(&str) => Str, |v| Unexpected::Str(v);
        visit_borrowed_str(&'de str) => Str, |v| Unexpected::Str(v);
        visit_bytes(&[u8]) => Bytes, |v| Unexpected::Bytes(v);
        visit_borrowed_bytes(&'de [u8]) => Bytes, |v| Unexpected::Bytes(v);
    }

    #[inline]
    fn visit_u8<E: Error>(self, v: u8) -> Result<V::Value, E> {
        self.unsigned(v.into(), true, |vis| vis.visit_u8(v))
    }

    #[inline]
    fn visit_u16<E: Error>(self, v: u16) -> Result<V::Value, E> {
        self.unsigned(v.into(), false, |vis| vis.visit_u16(v))
    }

    #[inline]
    fn visit_u32<E: Error>(self, v: u32) -> Result<V::Value, E> {
        self.unsigned(v.into(), false, |vis| vis.visit_u32(v))
    }

    #[inline]
    fn visit_u64<E: Error>(self, v: u64) -> Result<V::Value, E> {
        self.unsigned(v, true, |vis| vis.visit_u64(v))
    }

    #[inline]
    fn visit_string<E: Error>(self, v: String) -> Result<V::Value, E> {
        if self.accepts(Kind::Str) {
            self.visitor.visit_string(v)
        } else {
            Err(E::invalid_type(Unexpected::Str(&v), &self.visitor))
        }
    }

    #[inline]
    fn visit_byte_buf<E: Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        if self.accepts(Kind::Bytes) {
            self.visitor.visit_byte_buf(v)
        } else {
            Err(E::invalid_type(Unexpected::Bytes(&v), &self.visitor))
        }
    }

    #[inline]
    fn visit_none<E: Error>(self) -> Result<V::Value, E> {
        self.check(Kind::Option, Unexpected::Option, Visitor::visit_none)
    }

    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        if self.accepts(Kind::Option) {
            self.visitor.visit_some(deserializer)
        } else {
            Err(D::Error::invalid_type(Unexpected::Option, &self.visitor))
        }
    }

    #[inline]
    fn visit_unit<E: Error>(self) -> Result<V::Value, E> {
        self.check(Kind::Unit, Unexpected::Unit, Visitor::visit_unit)
    }

    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        if self.accepts(Kind::Newtype) {
            self.visitor.visit_newtype_struct(deserializer)
        } else {
            Err(D::Error::invalid_type(
                Unexpected::NewtypeStruct,
                &self.visitor,
            ))
        }
    }

    /// A sequence, read to its end: elements the visitor left are an error, as serde's buffer
    /// says; an empty one is a unit struct's unit.
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<V::Value, S::Error> {
        if self.ask == Ask::UnitStruct {
            return match seq.next_element::<IgnoredContent>()? {
                None => self.visitor.visit_unit(),
                Some(_) => Err(S::Error::invalid_type(Unexpected::Seq, &self.visitor)),
            };
        }
        if !self.accepts(Kind::Seq) {
            return Err(S::Error::invalid_type(Unexpected::Seq, &self.visitor));
        }
        let value = self.visitor.visit_seq(&mut seq)?;
        if seq.next_element::<IgnoredContent>()?.is_some() {
            return Err(S::Error::custom(
                "invalid length: the sequence has more elements than were read",
            ));
        }
        Ok(value)
    }

    /// A map, read to its end as a sequence is; an empty one is a unit (struct)'s unit.
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<V::Value, M::Error> {
        if matches!(self.ask, Ask::Unit | Ask::UnitStruct) {
            return match map.next_key::<IgnoredContent>()? {
                None => self.visitor.visit_unit(),
                Some(_) => Err(M::Error::invalid_type(Unexpected::Map, &self.visitor)),
            };
        }
        if !self.accepts(Kind::Map) {
            return Err(M::Error::invalid_type(Unexpected::Map, &self.visitor));
        }
        let value = self.visitor.visit_map(&mut map)?;
        if map.next_key::<IgnoredContent>()?.is_some() {
            return Err(M::Error::custom(
                "invalid length: the map has more entries than were read",
            ));
        }
        Ok(value)
    }

    fn visit_enum<E: EnumAccess<'de>>(self, _data: E) -> Result<V::Value, E::Error> {
        Err(E::Error::custom(ENUM_INPUT))
    }
}

/// The seed reading a key with `seed` under the rules of `deserialize_identifier`: a field or
/// variant name, or index.
#[derive(Debug)]
pub struct IdentifierSeed<S>(pub S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for IdentifierSeed<S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Identifier(deserializer))
    }
}

/// A deserializer answering every method as serde's buffer answers `deserialize_identifier`
/// (what a field or variant identifier asks for).
struct Identifier<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Identifier<D> {
    type Error = D::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(Rules::new(Ask::Identifier, visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// A deserializer reading a scalar (a bool, a number, a character, a unit) as serde's buffer
/// answers the method asked: the content read of the types serde reads with one
/// `deserialize_*` call and one visit.
#[derive(Debug)]
pub struct Scalar<D>(pub D);

macro_rules! scalar_methods {
    ($($method:ident => $ask:ident,)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.deserialize_any(Rules::new(Ask::$ask, visitor))
        }
    )*};
}

/// The scalars' methods answer under their rules; a scalar's `Deserialize` asks for nothing
/// else, and anything else is read as `deserialize_any` under no rule.
impl<'de, D: Deserializer<'de>> Deserializer<'de> for Scalar<D> {
    type Error = D::Error;

    scalar_methods! {
        deserialize_any => Any,
        deserialize_bool => Bool,
        deserialize_i8 => Integer,
        deserialize_i16 => Integer,
        deserialize_i32 => Integer,
        deserialize_i64 => Integer,
        deserialize_i128 => Integer,
        deserialize_u8 => Integer,
        deserialize_u16 => Integer,
        deserialize_u32 => Integer,
        deserialize_u64 => Integer,
        deserialize_u128 => Integer,
        deserialize_f32 => Float,
        deserialize_f64 => Float,
        deserialize_char => Char,
        deserialize_unit => Unit,
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }

    serde::forward_to_deserialize_any! {
        str string bytes byte_buf option unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
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
        let name = seed.deserialize(Identifier(self.0))?;
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

/// A value skipped as serde's buffer skips it: read whole with `deserialize_any`, so what the
/// buffer would refuse (a string that is not UTF-8, a syntax error) is refused, and thrown
/// away. `IgnoredAny` asks the format to skip instead, which may not look inside.
#[derive(Clone, Copy, Debug)]
pub struct IgnoredContent;

impl<'de> DeserializeSeed<'de> for IgnoredContent {
    type Value = IgnoredContent;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::Deserialize<'de> for IgnoredContent {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IgnoredContent)
    }
}

/// `visit_*` methods accepting a scalar.
macro_rules! ignore_scalars {
    ($($method:ident($ty:ty),)*) => {$(
        #[inline]
        fn $method<E: Error>(self, _v: $ty) -> Result<Self, E> {
            Ok(self)
        }
    )*};
}

impl<'de> Visitor<'de> for IgnoredContent {
    type Value = IgnoredContent;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("anything at all")
    }

    ignore_scalars! {
        visit_bool(bool),
        visit_i64(i64),
        visit_i128(i128),
        visit_u64(u64),
        visit_u128(u128),
        visit_f64(f64),
        visit_char(char),
        visit_str(&str),
        visit_bytes(&[u8]),
    }

    fn visit_none<E: Error>(self) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_unit<E: Error>(self) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self, S::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(self)
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self, M::Error> {
        while map.next_entry_seed(self, self)?.is_some() {}
        Ok(self)
    }

    fn visit_enum<E: EnumAccess<'de>>(self, _data: E) -> Result<Self, E::Error> {
        Err(E::Error::custom(ENUM_INPUT))
    }
}
