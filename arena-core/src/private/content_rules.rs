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
//! The input is behind trait objects ([`input`]), so the deserializer a visitor is handed is
//! one type however deep the data nests, as serde's buffer is. A buffered [`Value`] replays
//! under the same rules ([`replay`], over a [`ValueSource`]), so a value reads the same whether
//! it was streamed or buffered. Beyond serde's buffer, as
//! [`ValueDeserializer`](crate::ValueDeserializer) does: 128-bit integers are read, and the
//! source's `is_human_readable` is kept.

use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{DeserializeSeed, Deserializer, Error, Unexpected, Visitor};

use crate::value::ExpectedIn;
use crate::{BumpAllocator, Value};

mod input;
mod map;
mod scalar;
mod seq;
mod skip;
mod tag_or_value;
mod value_source;
mod wrapped;

pub(crate) use input::{MapSource, SeqSource};
pub(crate) use map::MapNode;
pub(crate) use seq::SeqNode;
pub(crate) use tag_or_value::{TagOrValue, TagOrValueSeed};

use input::{Input, InputMap, InputSeq, Read, Sort, Source};
use scalar::{Scalar, ScalarValue};
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
pub(crate) enum Held<S> {
    Nothing,
    Source(S),
    Tag,
}

/// The error that unwinds a visitor while the input's error is held.
#[cold]
fn placeholder<E: Error>() -> E {
    E::custom(HELD)
}

thread_local! {
    /// How many reads under the rules are under way on this thread.
    static UNDER_WAY: Cell<usize> = const { Cell::new(0) };
}

/// A read under the rules, under way until dropped (even when unwinding).
///
/// An internally tagged enum read while another is under way (nested in its content) buffers
/// its map, as serde does: streaming it would run its values through both reads' rules, one
/// more layer per level of nesting.
pub(crate) struct UnderWay(());

impl UnderWay {
    /// Enters a read; whether another was under way.
    pub(crate) fn enter() -> (Self, bool) {
        let nested = UNDER_WAY.with(|count| count.replace(count.get() + 1)) > 0;
        (Self(()), nested)
    }
}

impl Drop for UnderWay {
    fn drop(&mut self) {
        UNDER_WAY.with(|count| count.set(count.get() - 1));
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

/// A value still in the input, and where it is in the map an enum's tag was first in.
pub(crate) struct Live<'i, 'de, 'bump, A: ?Sized, E> {
    input: &'i mut dyn Input<'de, 'bump, E>,
    cx: Cx<'bump, A, E>,
    /// The enum's tag, when the value is a key of the map the tag was first in.
    tag: Option<&'static str>,
}

impl<'de, A, E> Answer<'de> for Live<'_, 'de, '_, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;

    fn answer<V: Visitor<'de>>(self, ask: Ask, visitor: V) -> Result<V::Value, E> {
        if ask == Ask::IgnoredAny {
            self.input.skip(self.tag)?;
            return visitor.visit_unit();
        }
        let mut sorter = Sorter {
            ask,
            visitor: Some(visitor),
            value: None,
            cx: self.cx,
            tag: self.tag,
        };
        self.input.any(&mut sorter)?;
        sorter.value.ok_or_else(placeholder)
    }

    fn human_readable(&self) -> bool {
        self.cx.human_readable
    }
}

/// The rules' visitor: has the node the format visits answer `visitor`'s request, and keeps
/// the value (of type `O`, the visitor's).
struct Sorter<'bump, V, O, A: ?Sized, E> {
    ask: Ask,
    visitor: Option<V>,
    value: Option<O>,
    cx: Cx<'bump, A, E>,
    tag: Option<&'static str>,
}

impl<'de, V, A, E> Sorter<'_, V, V::Value, A, E>
where
    V: Visitor<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    /// Has `node` answer the request, keeping the value.
    fn answer<N: Answer<'de, Error = E>>(&mut self, node: N) -> Result<(), E> {
        let visitor = self.visitor.take().ok_or_else(placeholder)?;
        self.value = Some(node.answer(self.ask, visitor)?);
        Ok(())
    }
}

impl<'de, 'bump, V, A, E> Sort<'de, 'bump, E> for Sorter<'bump, V, V::Value, A, E>
where
    V: Visitor<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    fn scalar(&mut self, value: ScalarValue<'_, 'de>) -> Lazy<(), E> {
        Lazy::of(self.answer(Scalar::new(value, self.cx.human_readable)))
    }

    fn text(&mut self, text: &[u8], value: ScalarValue<'_, 'de>) -> Lazy<(), E> {
        if self.tag.is_some_and(|tag| tag.as_bytes() == text) {
            Lazy::Tag
        } else {
            self.scalar(value)
        }
    }

    fn wrapped(&mut self, wrapper: Wrapper, input: &mut dyn Input<'de, 'bump, E>) -> Result<(), E> {
        let inner = Live {
            input,
            cx: self.cx,
            tag: None,
        };
        self.answer(Wrapped::new(wrapper, inner))
    }

    fn seq(&mut self, seq: &mut dyn InputSeq<'de, 'bump, E>) -> Result<(), E> {
        self.answer(SeqNode::new(seq, self.cx))
    }

    fn map(&mut self, map: &mut dyn InputMap<'de, 'bump, E>) -> Result<(), E> {
        self.answer(MapNode::new(map, self.cx, None))
    }

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        expecting_key(f, self.tag)
    }
}

/// A visitor's seed as a [`Read`]: reads the value under the rules and keeps it; `tag`, for a
/// key of the map the tag was first in.
pub(crate) struct Slot<'bump, T, O, A: ?Sized, E> {
    seed: Option<T>,
    value: Option<O>,
    cx: Cx<'bump, A, E>,
    tag: Option<&'static str>,
}

impl<'de, 'bump, T, A, E> Slot<'bump, T, T::Value, A, E>
where
    T: DeserializeSeed<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    /// Reads with `seed`.
    pub(crate) const fn new(seed: T, cx: Cx<'bump, A, E>, tag: Option<&'static str>) -> Self {
        Self {
            seed: Some(seed),
            value: None,
            cx,
            tag,
        }
    }

    /// The value read.
    pub(crate) fn take(self) -> Result<T::Value, E> {
        self.value.ok_or_else(placeholder)
    }
}

impl<'de, 'bump, T, A, E> Read<'de, 'bump, E> for Slot<'bump, T, T::Value, A, E>
where
    T: DeserializeSeed<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    fn read(&mut self, input: &mut dyn Input<'de, 'bump, E>) -> Result<(), E> {
        let seed = self.seed.take().ok_or_else(placeholder)?;
        let live = Live {
            input,
            cx: self.cx,
            tag: self.tag,
        };
        self.value = Some(seed.deserialize(Node(live))?);
        Ok(())
    }
}

/// A visitor's request as a [`Read`]: a variant's content.
pub(crate) struct AskSlot<'bump, V, O, A: ?Sized, E> {
    ask: Ask,
    visitor: Option<V>,
    value: Option<O>,
    cx: Cx<'bump, A, E>,
}

impl<'de, 'bump, V, A, E> AskSlot<'bump, V, V::Value, A, E>
where
    V: Visitor<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    /// Answers `ask` to `visitor`.
    pub(crate) const fn new(ask: Ask, visitor: V, cx: Cx<'bump, A, E>) -> Self {
        Self {
            ask,
            visitor: Some(visitor),
            value: None,
            cx,
        }
    }

    /// The value read.
    pub(crate) fn take(self) -> Result<V::Value, E> {
        self.value.ok_or_else(placeholder)
    }
}

impl<'de, 'bump, V, A, E> Read<'de, 'bump, E> for AskSlot<'bump, V, V::Value, A, E>
where
    V: Visitor<'de>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    fn read(&mut self, input: &mut dyn Input<'de, 'bump, E>) -> Result<(), E> {
        let visitor = self.visitor.take().ok_or_else(placeholder)?;
        let live = Live {
            input,
            cx: self.cx,
            tag: None,
        };
        self.value = Some(live.answer(self.ask, visitor)?);
        Ok(())
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
    let _under_way = UnderWay::enter();
    let mut input = Source::new(ValueSource::<E>::new(value, cx.human_readable), cx);
    let live = Live {
        input: &mut input,
        cx,
        tag: None,
    };
    let read = seed.deserialize(Node(live));
    input.finish(read)
}
