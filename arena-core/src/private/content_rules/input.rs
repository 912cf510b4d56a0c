//! The input of a read under the buffer's rules, behind trait objects: a value, a sequence or a
//! map still in the input, the visit a value is given to, and the seed reading it.
//!
//! Why objects: the rules wrap every value the visitor is handed. A type that holds itself
//! through an internally tagged enum (`enum Expr { Add { left: &Expr, .. } }`) reads its inner
//! enum from the rules' own deserializer, which the rules wrap again; with the wrapped
//! deserializer as a type parameter, every level of nesting would be a new type, without end
//! (serde's buffer is one type whatever it holds). Behind these objects the deserializer a
//! visitor is handed is always [`Node`](super::Node)`<`[`Live`](super::Live)`>`, however deep.
//!
//! Each adapter ([`Source`], [`SeqSource`], [`MapSource`]) owns a piece of the input and
//! [`Held`]s its error (of the format's type) while a placeholder unwinds the visitor;
//! [`Source::settle`] and its likes hand it back to the format once the visitor is done.

use core::fmt;

use serde::de::{DeserializeSeed, Deserializer, EnumAccess, Error, MapAccess, SeqAccess, Visitor};

use super::scalar::ScalarValue;
use super::skip::{Skip, Skipped};
use super::tag_or_value::{TagOrValue, TagOrValueSeed};
use super::wrapped::Wrapper;
use super::{Cx, ENUM_INPUT, Held, Lazy, placeholder};
use crate::arena_deserialize::NestedSeed;
use crate::{BumpAllocator, Value};

/// A value still in the input.
pub(crate) trait Input<'de, 'bump, E> {
    /// `deserialize_any`: the format's visit is given to `sort`.
    fn any(&mut self, sort: &mut dyn Sort<'de, 'bump, E>) -> Result<(), E>;

    /// Reads past the value as the buffer reads it; `tag`, for a key that may be the tag.
    fn skip(&mut self, tag: Option<&'static str>) -> Result<(), E>;
}

/// What the format's visit of a value is given to (the rules' visitor).
pub(crate) trait Sort<'de, 'bump, E> {
    /// A scalar.
    fn scalar(&mut self, value: ScalarValue<'_, 'de>) -> Lazy<(), E>;

    /// A string or bytes (`text`): maybe the tag.
    fn text(&mut self, text: &[u8], value: ScalarValue<'_, 'de>) -> Lazy<(), E>;

    /// A `Some` or a newtype struct around the value `input`.
    fn wrapped(&mut self, wrapper: Wrapper, input: &mut dyn Input<'de, 'bump, E>) -> Result<(), E>;

    /// A sequence.
    fn seq(&mut self, seq: &mut dyn InputSeq<'de, 'bump, E>) -> Result<(), E>;

    /// A map.
    fn map(&mut self, map: &mut dyn InputMap<'de, 'bump, E>) -> Result<(), E>;

    /// What the visit expects, for the format's own errors.
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// A seed of the rules: reads one value from its input.
pub(crate) trait Read<'de, 'bump, E> {
    /// Reads the value `input` holds.
    fn read(&mut self, input: &mut dyn Input<'de, 'bump, E>) -> Result<(), E>;
}

/// The elements of a sequence still in the input.
pub(crate) trait InputSeq<'de, 'bump, E> {
    /// The next element, read by `read`; `false` when there is none.
    fn next(&mut self, read: &mut dyn Read<'de, 'bump, E>) -> Result<bool, E>;

    /// Reads past the next element; `false` when there is none.
    fn skip(&mut self) -> Result<bool, E>;

    /// The next element, read into the arena.
    fn peek(&mut self) -> Result<Option<Value<'bump>>, E>;

    /// Whether the input failed (its error is held).
    fn failed(&self) -> bool;

    /// The format's size hint.
    fn size_hint(&self) -> Option<usize>;
}

/// What reading a key gave: a key, or the tag again.
pub(crate) enum Key {
    Read,
    Tag,
}

/// The entries of a map still in the input.
pub(crate) trait InputMap<'de, 'bump, E> {
    /// The next key, read by `read` (which compares it with the tag if it may be one); `None`
    /// when there is none.
    fn next_key(&mut self, read: &mut dyn Read<'de, 'bump, E>) -> Result<Option<Key>, E>;

    /// The value of the key just read, read by `read`.
    fn next_value(&mut self, read: &mut dyn Read<'de, 'bump, E>) -> Result<(), E>;

    /// Reads past the next key; `None` when there is none.
    fn skip_key(&mut self, tag: Option<&'static str>) -> Result<Option<Key>, E>;

    /// Reads past the value of the key just read.
    fn skip_value(&mut self) -> Result<(), E>;

    /// The next key, read into the arena.
    fn peek_key(&mut self, tag: Option<&'static str>) -> Result<Option<TagOrValue<'bump>>, E>;

    /// Holds serde's ``duplicate field `tag` ``, an error of the input; the placeholder.
    fn duplicate(&mut self, tag: &'static str) -> E;

    /// Whether the input failed (its error is held).
    fn failed(&self) -> bool;

    /// The format's size hint.
    fn size_hint(&self) -> Option<usize>;
}

/// What a read of `held`'s input gives the format, once the visitor has returned: the
/// input's error if one is held, else the value or the replay's error, carried as a value.
fn settle<T, E, S>(held: Held<S>, read: Result<T, E>) -> Result<Lazy<T, E>, S> {
    match held {
        Held::Source(error) => Err(error),
        Held::Tag => Ok(Lazy::Tag),
        Held::Nothing => Ok(Lazy::of(read)),
    }
}

/// What a read the format returned gives the rules: `()`, or an error (the replay's, or the
/// placeholder of what `held` now holds).
fn lift<E: Error, S>(held: &mut Held<S>, read: Result<Lazy<(), E>, S>) -> Result<(), E> {
    match read {
        Ok(Lazy::Value(())) => Ok(()),
        Ok(Lazy::Replay(error)) => Err(error),
        Ok(Lazy::Tag) => {
            *held = Held::Tag;
            Err(placeholder())
        }
        Err(error) => Err(hold(held, error)),
    }
}

/// Holds `error` of the input; the placeholder to unwind the visitor with.
fn hold<S, E: Error>(held: &mut Held<S>, error: S) -> E {
    *held = Held::Source(error);
    placeholder()
}

/// The value the format's deserializer `de` holds.
pub(crate) struct Source<'bump, D, S, A: ?Sized, E> {
    de: Option<D>,
    held: Held<S>,
    cx: Cx<'bump, A, E>,
}

impl<'bump, D, S, A: ?Sized, E> Source<'bump, D, S, A, E> {
    /// The value `de` holds.
    pub(crate) const fn new(de: D, cx: Cx<'bump, A, E>) -> Self {
        Self {
            de: Some(de),
            held: Held::Nothing,
            cx,
        }
    }

    /// What the read gives the format (see [`settle`]).
    pub(crate) fn settle<T>(self, read: Result<T, E>) -> Result<Lazy<T, E>, S> {
        settle(self.held, read)
    }

    /// The read's result, or the error of the input (for a buffered value, which has none
    /// but the rules' own, of the replay's type).
    pub(crate) fn finish<T>(self, read: Result<T, E>) -> Result<T, E>
    where
        S: Into<E>,
    {
        match self.held {
            Held::Source(error) => Err(error.into()),
            Held::Nothing | Held::Tag => read,
        }
    }
}

impl<'de, 'bump, D, S, A, E> Input<'de, 'bump, E> for Source<'bump, D, S, A, E>
where
    D: Deserializer<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    fn any(&mut self, sort: &mut dyn Sort<'de, 'bump, E>) -> Result<(), E> {
        let Some(de) = self.de.take() else {
            return Err(placeholder());
        };
        let read = de.deserialize_any(SortVisitor { sort, cx: self.cx });
        lift(&mut self.held, read)
    }

    fn skip(&mut self, tag: Option<&'static str>) -> Result<(), E> {
        let Some(de) = self.de.take() else {
            return Err(placeholder());
        };
        match Skip::new(tag).deserialize(de) {
            Ok(Skipped::Other) => Ok(()),
            Ok(Skipped::Tag) => lift(&mut self.held, Ok(Lazy::Tag)),
            Err(error) => Err(hold(&mut self.held, error)),
        }
    }
}

/// The format's visit of a value, given to the rules' [`Sort`].
struct SortVisitor<'s, 'de, 'bump, A: ?Sized, E> {
    sort: &'s mut dyn Sort<'de, 'bump, E>,
    cx: Cx<'bump, A, E>,
}

/// `visit_*` methods of scalars.
macro_rules! visit_scalars {
    ($($method:ident($ty:ty) => $variant:ident,)*) => {$(
        fn $method<F: Error>(self, v: $ty) -> Result<Self::Value, F> {
            Ok(self.sort.scalar(ScalarValue::$variant(v)))
        }
    )*};
}

impl<'de, 'bump, A, E> Visitor<'de> for SortVisitor<'_, 'de, 'bump, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Value = Lazy<(), E>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.sort.expecting(f)
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
        Ok(self.sort.text(v.as_bytes(), ScalarValue::Str(v)))
    }

    fn visit_borrowed_str<F: Error>(self, v: &'de str) -> Result<Self::Value, F> {
        Ok(self.sort.text(v.as_bytes(), ScalarValue::BorrowedStr(v)))
    }

    fn visit_string<F: Error>(self, v: String) -> Result<Self::Value, F> {
        self.visit_str(&v)
    }

    fn visit_bytes<F: Error>(self, v: &[u8]) -> Result<Self::Value, F> {
        Ok(self.sort.text(v, ScalarValue::Bytes(v)))
    }

    fn visit_borrowed_bytes<F: Error>(self, v: &'de [u8]) -> Result<Self::Value, F> {
        Ok(self.sort.text(v, ScalarValue::BorrowedBytes(v)))
    }

    fn visit_byte_buf<F: Error>(self, v: Vec<u8>) -> Result<Self::Value, F> {
        self.visit_bytes(&v)
    }

    fn visit_unit<F: Error>(self) -> Result<Self::Value, F> {
        Ok(self.sort.scalar(ScalarValue::Unit))
    }

    fn visit_none<F: Error>(self) -> Result<Self::Value, F> {
        Ok(self.sort.scalar(ScalarValue::None))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let mut input = Source::new(deserializer, self.cx);
        let read = self.sort.wrapped(Wrapper::Some, &mut input);
        input.settle(read)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        let mut input = Source::new(deserializer, self.cx);
        let read = self.sort.wrapped(Wrapper::Newtype, &mut input);
        input.settle(read)
    }

    fn visit_seq<Q: SeqAccess<'de>>(self, seq: Q) -> Result<Self::Value, Q::Error> {
        let mut seq = SeqSource::new(seq, self.cx);
        let read = self.sort.seq(&mut seq);
        seq.settle(read)
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
        let mut map = MapSource::new(map, self.cx);
        let read = self.sort.map(&mut map);
        map.settle(read)
    }

    fn visit_enum<D: EnumAccess<'de>>(self, _data: D) -> Result<Self::Value, D::Error> {
        Err(D::Error::custom(ENUM_INPUT))
    }
}

/// A [`Read`] as the seed the format is handed.
struct ReadSeed<'r, 'de, 'bump, A: ?Sized, E> {
    read: &'r mut dyn Read<'de, 'bump, E>,
    cx: Cx<'bump, A, E>,
}

impl<'de, 'bump, A, E> DeserializeSeed<'de> for ReadSeed<'_, 'de, 'bump, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Value = Lazy<(), E>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let mut input = Source::new(deserializer, self.cx);
        let read = self.read.read(&mut input);
        input.settle(read)
    }
}

/// The elements of the format's sequence access `seq`.
pub(crate) struct SeqSource<'bump, Q, S, A: ?Sized, E> {
    seq: Q,
    held: Held<S>,
    cx: Cx<'bump, A, E>,
}

impl<'bump, Q, S, A: ?Sized, E> SeqSource<'bump, Q, S, A, E> {
    /// The elements `seq` has left.
    pub(crate) const fn new(seq: Q, cx: Cx<'bump, A, E>) -> Self {
        Self {
            seq,
            held: Held::Nothing,
            cx,
        }
    }

    /// What the read gives the format (see [`settle`]).
    pub(crate) fn settle<T>(self, read: Result<T, E>) -> Result<Lazy<T, E>, S> {
        settle(self.held, read)
    }
}

impl<'de, 'bump, Q, S, A, E> InputSeq<'de, 'bump, E> for SeqSource<'bump, Q, S, A, E>
where
    Q: SeqAccess<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    fn next(&mut self, read: &mut dyn Read<'de, 'bump, E>) -> Result<bool, E> {
        let seed = ReadSeed { read, cx: self.cx };
        match self.seq.next_element_seed(seed) {
            Ok(Some(read)) => lift(&mut self.held, Ok(read)).map(|()| true),
            Ok(None) => Ok(false),
            Err(error) => Err(hold(&mut self.held, error)),
        }
    }

    fn skip(&mut self) -> Result<bool, E> {
        match self.seq.next_element_seed(Skip::new(None)) {
            Ok(skipped) => Ok(skipped.is_some()),
            Err(error) => Err(hold(&mut self.held, error)),
        }
    }

    fn peek(&mut self) -> Result<Option<Value<'bump>>, E> {
        let seed = NestedSeed::<Value<'bump>, A>::new(self.cx.arena);
        self.seq
            .next_element_seed(seed)
            .map_err(|error| hold(&mut self.held, error))
    }

    fn failed(&self) -> bool {
        !matches!(self.held, Held::Nothing)
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// The entries of the format's map access `map`.
pub(crate) struct MapSource<'bump, M, S, A: ?Sized, E> {
    map: M,
    held: Held<S>,
    cx: Cx<'bump, A, E>,
}

impl<'bump, M, S, A: ?Sized, E> MapSource<'bump, M, S, A, E> {
    /// The entries `map` has left.
    pub(crate) const fn new(map: M, cx: Cx<'bump, A, E>) -> Self {
        Self {
            map,
            held: Held::Nothing,
            cx,
        }
    }

    /// What the read gives the format (see [`settle`]).
    pub(crate) fn settle<T>(self, read: Result<T, E>) -> Result<Lazy<T, E>, S> {
        settle(self.held, read)
    }
}

impl<'de, 'bump, M, S, A, E> InputMap<'de, 'bump, E> for MapSource<'bump, M, S, A, E>
where
    M: MapAccess<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    fn next_key(&mut self, read: &mut dyn Read<'de, 'bump, E>) -> Result<Option<Key>, E> {
        let seed = ReadSeed { read, cx: self.cx };
        match self.map.next_key_seed(seed) {
            Ok(Some(Lazy::Tag)) => Ok(Some(Key::Tag)),
            Ok(Some(read)) => lift(&mut self.held, Ok(read)).map(|()| Some(Key::Read)),
            Ok(None) => Ok(None),
            Err(error) => Err(hold(&mut self.held, error)),
        }
    }

    fn next_value(&mut self, read: &mut dyn Read<'de, 'bump, E>) -> Result<(), E> {
        let seed = ReadSeed { read, cx: self.cx };
        let read = self.map.next_value_seed(seed);
        lift(&mut self.held, read)
    }

    fn skip_key(&mut self, tag: Option<&'static str>) -> Result<Option<Key>, E> {
        match self.map.next_key_seed(Skip::new(tag)) {
            Ok(Some(Skipped::Other)) => Ok(Some(Key::Read)),
            Ok(Some(Skipped::Tag)) => Ok(Some(Key::Tag)),
            Ok(None) => Ok(None),
            Err(error) => Err(hold(&mut self.held, error)),
        }
    }

    fn skip_value(&mut self) -> Result<(), E> {
        match self.map.next_value_seed(Skip::new(None)) {
            Ok(_) => Ok(()),
            Err(error) => Err(hold(&mut self.held, error)),
        }
    }

    fn peek_key(&mut self, tag: Option<&'static str>) -> Result<Option<TagOrValue<'bump>>, E> {
        self.map
            .next_key_seed(TagOrValueSeed::new(self.cx.arena, tag))
            .map_err(|error| hold(&mut self.held, error))
    }

    fn duplicate(&mut self, tag: &'static str) -> E {
        hold(&mut self.held, duplicate_field::<M>(tag))
    }

    fn failed(&self) -> bool {
        !matches!(self.held, Held::Nothing)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// serde's ``duplicate field `t` `` as `M`'s error.
fn duplicate_field<'de, M: MapAccess<'de>>(tag: &'static str) -> M::Error {
    M::Error::duplicate_field(tag)
}
