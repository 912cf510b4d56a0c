//! serde's buffer rules: what serde's `Content` buffer answers each `deserialize_*` a visitor
//! asks for, as a visitor wrapper ([`Rules`]) over whatever the input hands to
//! `deserialize_any`.
//!
//! serde_derive reads its buffered representations (internally tagged, untagged, flatten) by
//! buffering the input as `Content` and replaying it with `ContentDeserializer` (by value) or
//! `ContentRefDeserializer` (by reference). A replay visits what the input held, whatever
//! `deserialize_*` the visitor asks for, and refuses what that method does not accept: an
//! integer asked for a string, a 16-bit integer asked for a field identifier, a sequence with
//! elements the visitor left unread. [`Rules`] keeps those answers for any input read with
//! `deserialize_any`, so two readers share them:
//! - the content reads of the derive's runtime (`derive_runtime::content`), straight from a
//!   self-describing input, with no buffer;
//! - [`ValueDeserializer`](crate::ValueDeserializer), the replay of a buffered
//!   [`Value`](crate::Value), whose typed methods visit the value under these rules.
//!
//! The few methods whose answer depends on the input's own nodes (an option, a newtype, an
//! enum) are each reader's own.
//!
//! Reading a sequence or map to its end asks the input for nothing past the end the visitor
//! was handed ([`EndTracked`]): a format may read a terminator as it hands out the end.

use core::fmt;

use serde::de::{
    DeserializeSeed, Deserializer, EnumAccess, Error, Expected, MapAccess, SeqAccess, Unexpected,
    Visitor,
};

/// What serde's buffer says when the input hands it an enum, which it cannot hold.
pub(crate) const ENUM_INPUT: &str =
    "untagged and internally tagged enums do not support enum input";

/// The `deserialize_*` a visitor asked for, grouped as serde's buffer answers them
/// (`ContentDeserializer` by value, `ContentRefDeserializer` by reference).
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
    /// A unit, or an empty map (the buffer replayed by value).
    Unit,
    /// A unit only (the buffer replayed by reference, for a unit and a unit struct).
    BareUnit,
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
        self.ask.accepts(kind)
    }

    /// Whether an unsigned integer is visited: an identifier takes only the widths serde's
    /// buffer takes (8 and 64 bits, `identifier_width`).
    #[inline(always)]
    fn accepts_unsigned(&self, identifier_width: bool) -> bool {
        (self.ask == Ask::Identifier && identifier_width) || self.accepts(Kind::Integer)
    }
}

impl Ask {
    /// Whether the method asked for accepts a value of `kind`. Not generic: a `Rules` of any
    /// visitor asks this one function, which the optimizer inlines where it is called.
    #[inline]
    fn accepts(self, kind: Kind) -> bool {
        match self {
            Ask::Any | Ask::UnitStruct => true,
            Ask::Bool => kind == Kind::Bool,
            Ask::Integer => kind == Kind::Integer,
            Ask::Float => matches!(kind, Kind::Integer | Kind::Float),
            Ask::Char => matches!(kind, Kind::Char | Kind::Str),
            Ask::Str => matches!(kind, Kind::Str | Kind::Bytes),
            Ask::Bytes => matches!(kind, Kind::Str | Kind::Bytes | Kind::Seq),
            Ask::Unit | Ask::BareUnit => kind == Kind::Unit,
            Ask::Identifier => matches!(kind, Kind::Str | Kind::Bytes),
            Ask::Seq => kind == Kind::Seq,
            Ask::Map => kind == Kind::Map,
            Ask::Struct => matches!(kind, Kind::Seq | Kind::Map),
        }
    }
}

/// The `invalid type` error for a value the method asked for refuses: generic over the error
/// only, so one copy serves every visitor (which it names through `Expected`).
#[cold]
fn refused<E: Error>(unexpected: Unexpected<'_>, expected: &dyn Expected) -> E {
    E::invalid_type(unexpected, expected)
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
/// accepts it, and refusing it as the `Unexpected` made of it otherwise.
/// Written out in each method rather than through a closure: a closure and the function taking
/// it would be two more functions per method and visitor for the compiler to build and inline.
macro_rules! checked_visits {
    ($($method:ident($($v:ident: $ty:ty)?) => $kind:ident, $unexpected:expr;)*) => {$(
        #[inline]
        fn $method<E: Error>(self, $($v: $ty)?) -> Result<V::Value, E> {
            if self.accepts(Kind::$kind) {
                self.visitor.$method($($v)?)
            } else {
                Err(refused($unexpected, &self.visitor))
            }
        }
    )*};
}

/// `visit_u*` methods of [`Rules`]: as [`checked_visits`], an identifier taking the widths
/// serde's buffer takes.
macro_rules! unsigned_visits {
    ($($method:ident($ty:ty) => $identifier_width:literal;)*) => {$(
        #[inline]
        fn $method<E: Error>(self, v: $ty) -> Result<V::Value, E> {
            if self.accepts_unsigned($identifier_width) {
                self.visitor.$method(v)
            } else {
                Err(refused(Unexpected::Unsigned(v.into()), &self.visitor))
            }
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Rules<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    checked_visits! {
        visit_bool(v: bool) => Bool, Unexpected::Bool(v);
        visit_i8(v: i8) => Integer, Unexpected::Signed(v.into());
        visit_i16(v: i16) => Integer, Unexpected::Signed(v.into());
        visit_i32(v: i32) => Integer, Unexpected::Signed(v.into());
        visit_i64(v: i64) => Integer, Unexpected::Signed(v);
        visit_f32(v: f32) => Float, Unexpected::Float(v.into());
        visit_f64(v: f64) => Float, Unexpected::Float(v);
        visit_char(v: char) => Char, Unexpected::Char(v);
        visit_str(v: &str) => Str, Unexpected::Str(v);
        visit_borrowed_str(v: &'de str) => Str, Unexpected::Str(v);
        visit_bytes(v: &[u8]) => Bytes, Unexpected::Bytes(v);
        visit_borrowed_bytes(v: &'de [u8]) => Bytes, Unexpected::Bytes(v);
        visit_none() => Option, Unexpected::Option;
        visit_unit() => Unit, Unexpected::Unit;
    }

    #[inline]
    fn visit_i128<E: Error>(self, v: i128) -> Result<V::Value, E> {
        if self.accepts(Kind::Integer) {
            return self.visitor.visit_i128(v);
        }
        match i64::try_from(v) {
            Ok(v) => Err(refused(Unexpected::Signed(v), &self.visitor)),
            Err(_) => Err(wide_invalid_type("i128", v, &self.visitor)),
        }
    }

    #[inline]
    fn visit_u128<E: Error>(self, v: u128) -> Result<V::Value, E> {
        if self.accepts(Kind::Integer) {
            return self.visitor.visit_u128(v);
        }
        match u64::try_from(v) {
            Ok(v) => Err(refused(Unexpected::Unsigned(v), &self.visitor)),
            Err(_) => Err(wide_invalid_type("u128", v, &self.visitor)),
        }
    }

    unsigned_visits! {
        visit_u8(u8) => true;
        visit_u16(u16) => false;
        visit_u32(u32) => false;
        visit_u64(u64) => true;
    }

    #[inline]
    fn visit_string<E: Error>(self, v: String) -> Result<V::Value, E> {
        if self.accepts(Kind::Str) {
            self.visitor.visit_string(v)
        } else {
            Err(refused(Unexpected::Str(&v), &self.visitor))
        }
    }

    #[inline]
    fn visit_byte_buf<E: Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        if self.accepts(Kind::Bytes) {
            self.visitor.visit_byte_buf(v)
        } else {
            Err(refused(Unexpected::Bytes(&v), &self.visitor))
        }
    }

    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        if self.accepts(Kind::Option) {
            self.visitor.visit_some(deserializer)
        } else {
            Err(refused(Unexpected::Option, &self.visitor))
        }
    }

    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        if self.accepts(Kind::Newtype) {
            self.visitor.visit_newtype_struct(deserializer)
        } else {
            Err(refused(Unexpected::NewtypeStruct, &self.visitor))
        }
    }

    /// A sequence, read to its end: elements the visitor left are serde's length error; an
    /// empty one is a unit struct's unit.
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<V::Value, S::Error> {
        if self.ask == Ask::UnitStruct {
            return match seq.next_element::<IgnoredContent>()? {
                None => self.visitor.visit_unit(),
                Some(_) => Err(refused(Unexpected::Seq, &self.visitor)),
            };
        }
        if !self.accepts(Kind::Seq) {
            return Err(refused(Unexpected::Seq, &self.visitor));
        }
        let len = seq.size_hint();
        let mut seq = EndTracked::new(seq);
        let value = self.visitor.visit_seq(&mut seq)?;
        end_seq(&mut seq, len)?;
        Ok(value)
    }

    /// A map, read to its end as a sequence is; an empty one is a unit (struct)'s unit, by
    /// value.
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<V::Value, M::Error> {
        if matches!(self.ask, Ask::Unit | Ask::UnitStruct) {
            return match map.next_key::<IgnoredContent>()? {
                None => self.visitor.visit_unit(),
                Some(_) => Err(refused(Unexpected::Map, &self.visitor)),
            };
        }
        if !self.accepts(Kind::Map) {
            return Err(refused(Unexpected::Map, &self.visitor));
        }
        let len = map.size_hint();
        let mut map = EndTracked::new(map);
        let value = self.visitor.visit_map(&mut map)?;
        end_map(&mut map, len)?;
        Ok(value)
    }

    /// An enum: serde's buffer cannot hold one (`deserialize_any`); a typed method refuses it
    /// as any value of the wrong type.
    fn visit_enum<E: EnumAccess<'de>>(self, _data: E) -> Result<V::Value, E::Error> {
        if self.ask == Ask::Any {
            return Err(E::Error::custom(ENUM_INPUT));
        }
        Err(refused(Unexpected::Enum, &self.visitor))
    }
}

/// serde's words for a 128-bit integer out of the 64-bit range that a visitor does not take:
/// ``invalid type: integer `v` as {ty}``.
#[cold]
pub(crate) fn wide_invalid_type<E: Error>(
    ty: &str,
    v: impl fmt::Display,
    expected: &dyn Expected,
) -> E {
    E::invalid_type(
        Unexpected::Other(&format!("integer `{v}` as {ty}")),
        expected,
    )
}

/// A sequence or map access that remembers whether it has handed out its end (`None`), and
/// answers `None` again without asking the format, so that [`end_seq`] and [`end_map`] read
/// nothing past the end. A format may consume a terminator as it hands out the end: cbor4ii
/// reads the break byte of an indefinite-length array or map (which serde writes for a struct
/// with a flattened field) then, and asked again it reads past it, into the enclosing value or
/// off the end of the input. serde's buffer, whose replay ends at the buffer's end, never asks.
pub(crate) struct EndTracked<A> {
    access: A,
    ended: bool,
}

impl<A> EndTracked<A> {
    /// `access`, its end not handed out yet.
    #[inline(always)]
    pub(crate) const fn new(access: A) -> Self {
        Self {
            access,
            ended: false,
        }
    }

    /// `None` once the end was handed out; else what `next` asks `access` for, the end noted.
    /// The result is handed on whole, not unwrapped and wrapped again: a moved `Option` of a
    /// large element would cost copies on every element.
    #[inline(always)]
    fn next<T, E>(
        &mut self,
        next: impl FnOnce(&mut A) -> Result<Option<T>, E>,
    ) -> Result<Option<T>, E> {
        if self.ended {
            return Ok(None);
        }
        let next = next(&mut self.access);
        if let Ok(None) = next {
            self.ended = true;
        }
        next
    }
}

impl<'de, S: SeqAccess<'de>> SeqAccess<'de> for EndTracked<S> {
    type Error = S::Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, S::Error> {
        self.next(|seq| seq.next_element_seed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.access.size_hint()
    }
}

impl<'de, M: MapAccess<'de>> MapAccess<'de> for EndTracked<M> {
    type Error = M::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, M::Error> {
        self.next(|map| map.next_key_seed(seed))
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, M::Error> {
        self.access.next_value_seed(seed)
    }

    #[inline]
    fn next_entry_seed<K: DeserializeSeed<'de>, V: DeserializeSeed<'de>>(
        &mut self,
        kseed: K,
        vseed: V,
    ) -> Result<Option<(K::Value, V::Value)>, M::Error> {
        self.next(|map| map.next_entry_seed(kseed, vseed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.access.size_hint()
    }
}

/// Whether the visitor read every element of `seq`, which held `len` when it was handed over
/// (its size hint); the length error if not.
#[inline]
pub(crate) fn end_seq<'de, S: SeqAccess<'de>>(
    seq: &mut EndTracked<S>,
    len: Option<usize>,
) -> Result<(), S::Error> {
    match seq.next_element::<IgnoredContent>()? {
        None => Ok(()),
        Some(_) => Err(too_long(len, seq.size_hint(), "sequence")),
    }
}

/// Whether the visitor read every entry of `map`, which held `len` when it was handed over
/// (its size hint); the length error if not.
#[inline]
pub(crate) fn end_map<'de, M: MapAccess<'de>>(
    map: &mut EndTracked<M>,
    len: Option<usize>,
) -> Result<(), M::Error> {
    match map.next_entry::<IgnoredContent, IgnoredContent>()? {
        None => Ok(()),
        Some(_) => Err(too_long(len, map.size_hint(), "map")),
    }
}

/// The length error of a sequence or map (`what`) with elements left unread: serde's
/// ``invalid length N, expected M elements in {what}`` when the access told its length before
/// the visitor read (`len`) and after the first element left was skipped (`after`), as a
/// `Value` and the formats that write lengths do; without the counts otherwise (a JSON array's
/// length is not known before its end).
#[cold]
fn too_long<E: Error>(len: Option<usize>, after: Option<usize>, what: &'static str) -> E {
    match (len, after) {
        (Some(len), Some(after)) if after < len => {
            E::invalid_length(len, &ExpectedIn(len - after - 1, what))
        }
        _ => E::custom(format_args!(
            "invalid length: the {what} has more elements than were read"
        )),
    }
}

/// serde's `ExpectedInSeq` and `ExpectedInMap`: ``N elements in {what}``.
pub(crate) struct ExpectedIn(pub(crate) usize, pub(crate) &'static str);

impl Expected for ExpectedIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => write!(f, "1 element in {}", self.1),
            n => write!(f, "{n} elements in {}", self.1),
        }
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
