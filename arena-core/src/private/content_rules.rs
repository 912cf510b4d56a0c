//! Reading a value straight from the input exactly as serde reads it back from its buffer.
//!
//! serde_derive reads an internally tagged enum by buffering the whole map (or sequence) the tag
//! is in into its private `Content`, then replaying the rest into the variant with
//! `ContentDeserializer`. A replay answers differently from the format itself, in three ways a
//! user sees:
//! - its own rules for what each `deserialize_*` accepts: an empty map is a unit, a string key is
//!   never an integer, an integer key of 16 bits is no field index ...;
//! - its errors carry no input position (serde_json adds one to every error that leaves one of
//!   its own calls);
//! - every error of the input itself (a syntax error, a duplicate tag) comes before any error of
//!   the replay, however late in the input.
//!
//! This module reads a value from a live deserializer under exactly those rules, without the
//! buffer:
//! - every value is read with `deserialize_any`, and the visit is answered as
//!   `ContentDeserializer` answers the same node for the `deserialize_*` the visitor asked for
//!   ([`Ask`]), node by node: [`scalar`], [`seq`], [`map`], [`wrapped`];
//! - an error of the replay (of type `E`, the error type of the enum's own deserializer) leaves
//!   the format's calls as a value ([`Lazy::Replay`]), so the format neither sees it nor adds its
//!   position, and it surfaces once the rest of the input is read as the buffer would have read
//!   it ([`skip`]);
//! - an error of the input (the format's, of the access being read) is [`Held`] by the access it
//!   came from while a placeholder of type `E` unwinds the visitor, then handed back to the
//!   format as its own;
//! - the one answer that depends on what follows (a unit struct from a map or sequence that may
//!   be empty) reads one entry ahead, into a [`Value`].
//!
//! A buffered [`Value`] replays under the same rules ([`replay`], over a [`ValueSource`]), so a
//! value reads the same whether it was streamed or buffered. Beyond serde's buffer, as
//! [`ValueDeserializer`](crate::ValueDeserializer) does: 128-bit integers are read, and the
//! source's `is_human_readable` is kept.

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    DeserializeSeed, Deserializer, EnumAccess, Error, MapAccess, SeqAccess, Unexpected, Visitor,
};

use crate::value::ExpectedIn;
use crate::{BumpAllocator, Value};

mod map;
mod scalar;
mod seq;
mod skip;
mod tag_or_value;
mod value_source;
mod wrapped;

pub(crate) use map::MapNode;
pub(crate) use seq::SeqNode;
pub(crate) use tag_or_value::{TagOrValue, TagOrValueSeed};

use scalar::{Scalar, ScalarValue};
use skip::{Skip, Skipped};
use value_source::ValueSource;
use wrapped::{Wrapped, Wrapper};

/// serde's words for an enum in the input, which its buffer cannot hold.
pub(crate) const ENUM_INPUT: &str =
    "untagged and internally tagged enums do not support enum input";

/// The placeholder's message: never shown, the input's error it stands for is.
const HELD: &str = "an error of the input, held by the access it came from";

/// What a visitor asked the value for: the `deserialize_*` method, grouped as
/// `ContentDeserializer` groups them, and the reads of a variant's content.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Ask {
    Any,
    Bool,
    /// Any integer, 128-bit ones included.
    Integer,
    Float,
    Char,
    /// `str` and `string`.
    Str,
    /// `bytes` and `byte_buf`.
    Bytes,
    Option,
    Unit,
    UnitStruct,
    NewtypeStruct,
    /// `seq`, `tuple` and `tuple_struct`.
    Seq,
    Map,
    Struct,
    Enum,
    Identifier,
    IgnoredAny,
    /// `VariantAccess::tuple_variant` of a variant read from a map.
    TupleVariant,
    /// `VariantAccess::struct_variant` of a variant read from a map.
    StructVariant,
}

/// What one read gave the format: a value, an error of the replay carried past the format, or
/// (for a key of the map an enum's tag was first in) the tag again.
pub(crate) enum Lazy<T, E> {
    Value(T),
    Replay(E),
    Tag,
}

impl<T, E> Lazy<T, E> {
    /// The value or the replay's error.
    pub(crate) fn of(read: Result<T, E>) -> Self {
        match read {
            Ok(value) => Self::Value(value),
            Err(error) => Self::Replay(error),
        }
    }
}

/// What an access holds for the format while the visitor unwinds: an error of the input, or
/// the sign that a key was the tag.
#[derive(Default)]
pub(crate) enum Held<S> {
    #[default]
    Nothing,
    Source(S),
    Tag,
}

/// Whether `held` holds something: the input it reads from failed.
fn is_held<S>(held: &Cell<Held<S>>) -> bool {
    let inner = held.take();
    let is = !matches!(inner, Held::Nothing);
    held.set(inner);
    is
}

/// Holds `error` of the input; returns the placeholder to unwind the visitor with.
fn hold<S, E: Error>(held: &Cell<Held<S>>, error: S) -> E {
    held.set(Held::Source(error));
    placeholder()
}

/// The error that unwinds a visitor while the input's error is held.
#[cold]
fn placeholder<E: Error>() -> E {
    E::custom(HELD)
}

/// What a read gives the format, once the visitor has returned: the input's error if one is
/// held, else the value or the replay's error, carried as a value.
pub(crate) fn settle<T, E, S>(held: &Cell<Held<S>>, read: Result<T, E>) -> Result<Lazy<T, E>, S> {
    match held.take() {
        Held::Source(error) => Err(error),
        Held::Tag => Ok(Lazy::Tag),
        Held::Nothing => Ok(Lazy::of(read)),
    }
}

/// What a read the format returned gives the visitor: the value, or an error (the replay's, or
/// the placeholder of what is now held).
fn lift<T, E: Error, S>(held: &Cell<Held<S>>, read: Result<Lazy<T, E>, S>) -> Result<T, E> {
    match read {
        Ok(Lazy::Value(value)) => Ok(value),
        Ok(Lazy::Replay(error)) => Err(error),
        Ok(Lazy::Tag) => {
            held.set(Held::Tag);
            Err(placeholder())
        }
        Err(error) => Err(hold(held, error)),
    }
}

/// Where a read happens: the arena (for the entry read ahead), the source's
/// `is_human_readable`, and the replay's error type.
pub(crate) struct Cx<'bump, A: ?Sized, E> {
    pub(crate) arena: &'bump A,
    pub(crate) human_readable: bool,
    error: PhantomData<fn() -> E>,
}

impl<'bump, A: ?Sized, E> Cx<'bump, A, E> {
    /// Reads into `arena`, answering `human_readable` to `is_human_readable`.
    pub(crate) const fn new(arena: &'bump A, human_readable: bool) -> Self {
        Self {
            arena,
            human_readable,
            error: PhantomData,
        }
    }
}

impl<A: ?Sized, E> Clone for Cx<'_, A, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: ?Sized, E> Copy for Cx<'_, A, E> {}

/// A node of the input, answering each [`Ask`] as `ContentDeserializer` answers it for the same
/// node of its buffer.
pub(crate) trait Answer<'de>: Sized {
    type Error: Error;

    /// Answers the visitor's request.
    fn answer<V: Visitor<'de>>(self, ask: Ask, visitor: V) -> Result<V::Value, Self::Error>;

    /// The source's `is_human_readable`.
    fn human_readable(&self) -> bool;
}

/// A node as a `Deserializer`: every `deserialize_*` is its [`Ask`].
pub(crate) struct Node<N>(pub(crate) N);

/// `deserialize_*` methods without arguments besides the visitor.
macro_rules! ask {
    ($($method:ident => $ask:ident,)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.0.answer(Ask::$ask, visitor)
        }
    )*};
}

impl<'de, N: Answer<'de>> Deserializer<'de> for Node<N> {
    type Error = N::Error;

    ask! {
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
        deserialize_str => Str,
        deserialize_string => Str,
        deserialize_bytes => Bytes,
        deserialize_byte_buf => Bytes,
        deserialize_option => Option,
        deserialize_unit => Unit,
        deserialize_seq => Seq,
        deserialize_map => Map,
        deserialize_identifier => Identifier,
        deserialize_ignored_any => IgnoredAny,
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.answer(Ask::UnitStruct, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.answer(Ask::NewtypeStruct, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.answer(Ask::Seq, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.answer(Ask::Seq, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.answer(Ask::Struct, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.answer(Ask::Enum, visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.0.human_readable()
    }
}

/// The error for a node `ContentDeserializer` does not give the visitor for `ask`: serde's
/// `invalid_type`, expecting what the visitor expects, or for an enum and a variant's content
/// serde's own words.
fn refuse<'de, E: Error, V: Visitor<'de>>(ask: Ask, unexpected: Unexpected<'_>, visitor: &V) -> E {
    match ask {
        Ask::Enum => E::invalid_type(unexpected, &"string or map"),
        Ask::TupleVariant => E::invalid_type(unexpected, &"tuple variant"),
        Ask::StructVariant => E::invalid_type(unexpected, &"struct variant"),
        _ => E::invalid_type(unexpected, visitor),
    }
}

/// A sequence or a map still in the input: what both answer alike.
trait Entries<'de>: Answer<'de> {
    /// What an error says it is.
    const UNEXPECTED: Unexpected<'static>;

    /// Reads past the entries left, as the buffer would have read them; how many there were.
    fn drain(&mut self) -> Result<usize, Self::Error>;

    /// Reads the first entry (its key, for a map) ahead into the arena, to be handed to the
    /// visitor first; whether there was one.
    fn peek(&mut self) -> Result<bool, Self::Error>;

    /// Gives the entries to the visitor, then checks it read them all.
    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error>;
}

/// The answers serde's buffer gives a sequence and a map alike: to a unit struct, a unit if
/// empty, else itself; `Some` of itself; a newtype struct of itself; read past; or refused
/// (read past first: the input's errors come first).
fn answer_entries<'de, N: Entries<'de>, V: Visitor<'de>>(
    mut node: N,
    ask: Ask,
    visitor: V,
) -> Result<V::Value, N::Error> {
    match ask {
        Ask::UnitStruct => {
            if node.peek()? {
                node.visit(visitor)
            } else {
                visitor.visit_unit()
            }
        }
        Ask::Option => visitor.visit_some(Node(node)),
        Ask::NewtypeStruct => visitor.visit_newtype_struct(Node(node)),
        Ask::IgnoredAny => {
            node.drain()?;
            visitor.visit_unit()
        }
        _ => {
            node.drain()?;
            Err(refuse(ask, N::UNEXPECTED, &visitor))
        }
    }
}

/// What a visitor given the entries read, once `remaining` were left after the `taken` ones:
/// none may be (serde's `end`: ``invalid length N, expected M elements in {what}``).
fn finish<T, E: Error>(
    read: Result<T, E>,
    taken: usize,
    remaining: usize,
    what: &'static str,
) -> Result<T, E> {
    let value = read?;
    if remaining == 0 {
        Ok(value)
    } else {
        Err(E::invalid_length(
            taken + remaining,
            &ExpectedIn(taken, what),
        ))
    }
}

/// serde's `ContentVisitor` and `TagOrContentVisitor` expectations: "any value", or for a key
/// that may be the tag, ``a type tag `t` or any other value``.
fn expecting_key(f: &mut fmt::Formatter<'_>, tag: Option<&'static str>) -> fmt::Result {
    match tag {
        Some(tag) => write!(f, "a type tag `{tag}` or any other value"),
        None => f.write_str("any value"),
    }
}

/// A value still in the input: the deserializer `source` for it, and where its errors are held.
pub(crate) struct Live<'h, 'bump, D, S, A: ?Sized, E> {
    source: D,
    held: &'h Cell<Held<S>>,
    cx: Cx<'bump, A, E>,
    /// The enum's tag, when the value is a key of the map the tag was first in.
    tag: Option<&'static str>,
}

impl<'de, D, S, A, E> Live<'_, '_, D, S, A, E>
where
    D: Deserializer<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    /// Reads past the value as serde's buffer reads it.
    fn skip(self) -> Result<Skipped, E> {
        Skip::new(self.tag)
            .deserialize(self.source)
            .map_err(|error| hold(self.held, error))
    }
}

impl<'de, D, S, A, E> Answer<'de> for Live<'_, '_, D, S, A, E>
where
    D: Deserializer<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;

    fn answer<V: Visitor<'de>>(self, ask: Ask, visitor: V) -> Result<V::Value, E> {
        let held = self.held;
        if ask == Ask::IgnoredAny {
            return match self.skip()? {
                Skipped::Tag => lift(held, Ok(Lazy::Tag)),
                Skipped::Other => visitor.visit_unit(),
            };
        }
        let read = self.source.deserialize_any(Sorter {
            ask,
            visitor,
            cx: self.cx,
            tag: self.tag,
        });
        lift(held, read)
    }

    fn human_readable(&self) -> bool {
        self.cx.human_readable
    }
}

/// The visitor every value is read with: builds the node the format visits and has it answer
/// the visitor's request.
struct Sorter<'bump, V, A: ?Sized, E> {
    ask: Ask,
    visitor: V,
    cx: Cx<'bump, A, E>,
    tag: Option<&'static str>,
}

impl<'de, V, A, E> Sorter<'_, V, A, E>
where
    V: Visitor<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    /// Whether `key` is the tag (serde compares string and byte keys).
    fn is_tag(&self, key: &[u8]) -> bool {
        self.tag.is_some_and(|tag| tag.as_bytes() == key)
    }

    /// Has the scalar `value` answer the visitor's request.
    fn scalar(self, value: ScalarValue<'_, 'de>) -> Lazy<V::Value, E> {
        Lazy::of(Scalar::new(value, self.cx.human_readable).answer(self.ask, self.visitor))
    }

    /// A string or bytes: the tag (for a key that may be it), else a scalar.
    fn text(self, key: &[u8], value: ScalarValue<'_, 'de>) -> Lazy<V::Value, E> {
        if self.is_tag(key) {
            Lazy::Tag
        } else {
            self.scalar(value)
        }
    }
}

/// `visit_*` methods of scalars.
macro_rules! visit_scalars {
    ($($method:ident($ty:ty) => $variant:ident,)*) => {$(
        fn $method<F: Error>(self, v: $ty) -> Result<Self::Value, F> {
            Ok(self.scalar(ScalarValue::$variant(v)))
        }
    )*};
}

impl<'de, V, A, E> Visitor<'de> for Sorter<'_, V, A, E>
where
    V: Visitor<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Value = Lazy<V::Value, E>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        expecting_key(f, self.tag)
    }

    visit_scalars! {
        visit_bool(bool) => Bool,
        visit_i8(i8) => I8,
        visit_i16(i16) => I16,
        visit_i32(i32) => I32,
        visit_i64(i64) => I64,
        visit_i128(i128) => I128,
        visit_u8(u8) => U8,
        visit_u16(u16) => U16,
        visit_u32(u32) => U32,
        visit_u64(u64) => U64,
        visit_u128(u128) => U128,
        visit_f32(f32) => F32,
        visit_f64(f64) => F64,
        visit_char(char) => Char,
    }

    fn visit_str<F: Error>(self, v: &str) -> Result<Self::Value, F> {
        Ok(self.text(v.as_bytes(), ScalarValue::Str(v)))
    }

    fn visit_borrowed_str<F: Error>(self, v: &'de str) -> Result<Self::Value, F> {
        Ok(self.text(v.as_bytes(), ScalarValue::BorrowedStr(v)))
    }

    fn visit_string<F: Error>(self, v: String) -> Result<Self::Value, F> {
        self.visit_str(&v)
    }

    fn visit_bytes<F: Error>(self, v: &[u8]) -> Result<Self::Value, F> {
        Ok(self.text(v, ScalarValue::Bytes(v)))
    }

    fn visit_borrowed_bytes<F: Error>(self, v: &'de [u8]) -> Result<Self::Value, F> {
        Ok(self.text(v, ScalarValue::BorrowedBytes(v)))
    }

    fn visit_byte_buf<F: Error>(self, v: Vec<u8>) -> Result<Self::Value, F> {
        self.visit_bytes(&v)
    }

    fn visit_unit<F: Error>(self) -> Result<Self::Value, F> {
        Ok(self.scalar(ScalarValue::Unit))
    }

    fn visit_none<F: Error>(self) -> Result<Self::Value, F> {
        Ok(self.scalar(ScalarValue::None))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.wrapped(Wrapper::Some, deserializer)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        self.wrapped(Wrapper::Newtype, deserializer)
    }

    fn visit_seq<Q: SeqAccess<'de>>(self, seq: Q) -> Result<Self::Value, Q::Error> {
        let held = Cell::default();
        let read = SeqNode::new(seq, &held, self.cx).answer(self.ask, self.visitor);
        settle(&held, read)
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
        let held = Cell::default();
        let read = MapNode::new(map, &held, self.cx, None).answer(self.ask, self.visitor);
        settle(&held, read)
    }

    fn visit_enum<D: EnumAccess<'de>>(self, _data: D) -> Result<Self::Value, D::Error> {
        Err(D::Error::custom(ENUM_INPUT))
    }
}

impl<'de, V, A, E> Sorter<'_, V, A, E>
where
    V: Visitor<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    /// A `Some` or a newtype struct around the value `deserializer` reads.
    fn wrapped<D: Deserializer<'de>>(
        self,
        wrapper: Wrapper,
        deserializer: D,
    ) -> Result<Lazy<V::Value, E>, D::Error> {
        let held = Cell::default();
        let inner = Live {
            source: deserializer,
            held: &held,
            cx: self.cx,
            tag: None,
        };
        let read = Wrapped::new(wrapper, inner).answer(self.ask, self.visitor);
        settle(&held, read)
    }
}

/// A seed read under the buffer's rules: what the format is handed for an element, a key or a
/// value, with the seed the visitor gave.
pub(crate) struct RulesSeed<'bump, T, A: ?Sized, E> {
    seed: T,
    cx: Cx<'bump, A, E>,
    tag: Option<&'static str>,
}

impl<'bump, T, A: ?Sized, E> RulesSeed<'bump, T, A, E> {
    /// Reads `seed`; `tag`, for a key of the map the tag was first in.
    pub(crate) const fn new(seed: T, cx: Cx<'bump, A, E>, tag: Option<&'static str>) -> Self {
        Self { seed, cx, tag }
    }
}

impl<'de, T, A, E> DeserializeSeed<'de> for RulesSeed<'_, T, A, E>
where
    T: DeserializeSeed<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Value = Lazy<T::Value, E>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let held = Cell::default();
        let read = self.seed.deserialize(Node(Live {
            source: deserializer,
            held: &held,
            cx: self.cx,
            tag: self.tag,
        }));
        settle(&held, read)
    }
}

/// A visitor's request answered by the next value of the input: a variant's content.
struct AskSeed<'bump, V, A: ?Sized, E> {
    ask: Ask,
    visitor: V,
    cx: Cx<'bump, A, E>,
}

impl<'de, V, A, E> DeserializeSeed<'de> for AskSeed<'_, V, A, E>
where
    V: Visitor<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Value = Lazy<V::Value, E>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let held = Cell::default();
        let live = Live {
            source: deserializer,
            held: &held,
            cx: self.cx,
            tag: None,
        };
        let read = live.answer(self.ask, self.visitor);
        settle(&held, read)
    }
}

/// Replays the buffered `value` into `seed` under the buffer's rules.
///
/// # Errors
///
/// Whatever the seed's type refuses, in serde's words.
pub(crate) fn replay<'de, 'bump, T, A, E>(
    seed: T,
    value: &Value<'bump>,
    cx: Cx<'bump, A, E>,
) -> Result<T::Value, E>
where
    T: DeserializeSeed<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    let held = Cell::default();
    let read = seed.deserialize(Node(Live {
        source: ValueSource::<E>::new(value, cx.human_readable),
        held: &held,
        cx,
        tag: None,
    }));
    match held.take() {
        Held::Source(error) => Err(error),
        Held::Nothing | Held::Tag => read,
    }
}
