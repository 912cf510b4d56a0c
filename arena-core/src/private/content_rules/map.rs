//! A map still in the input, answered as `ContentDeserializer` answers a buffered one (serde's
//! `Content::Map`, its `MapDeserializer`, and its `EnumDeserializer` for a map of one entry).
//!
//! The rest of the map an internally tagged enum's tag was first in is one too: its keys are
//! compared with the tag, and one equal to it is serde's ``duplicate field `t` ``, an error of
//! the input (serde's buffer finds it before any replay).

use core::cell::Cell;
use core::marker::PhantomData;

use serde::de::{
    DeserializeSeed, EnumAccess, Error, MapAccess, Unexpected, VariantAccess, Visitor,
};

use super::skip::{Skip, Skipped};
use super::tag_or_value::{TagOrValue, TagOrValueSeed};
use super::{
    Answer, Ask, AskSeed, Cx, Entries, Held, Lazy, RulesSeed, answer_entries, finish, hold,
    is_held, lift, placeholder, refuse, replay,
};
use crate::{BumpAllocator, Value};

/// The entries of a map not read yet, from the access `map` whose errors `held` holds.
pub(crate) struct MapNode<'h, 'bump, M, S, A: ?Sized, E> {
    map: M,
    held: &'h Cell<Held<S>>,
    cx: Cx<'bump, A, E>,
    /// The enum's tag, when this is the rest of the map it was first in.
    tag: Option<&'static str>,
    /// Entries the visitor has taken, by their keys (serde's count, in the length error).
    count: usize,
    /// The first key, read ahead to tell an empty map from another (see `answer`).
    peeked: Option<Value<'bump>>,
    /// Whether the value of the last key read is still in the input.
    value_pending: bool,
}

impl<'h, 'bump, M, S, A: ?Sized, E> MapNode<'h, 'bump, M, S, A, E> {
    /// The rest of `map`, its errors held in `held`; `tag`, for the rest of the map an enum's
    /// tag was first in.
    pub(crate) const fn new(
        map: M,
        held: &'h Cell<Held<S>>,
        cx: Cx<'bump, A, E>,
        tag: Option<&'static str>,
    ) -> Self {
        Self {
            map,
            held,
            cx,
            tag,
            count: 0,
            peeked: None,
            value_pending: false,
        }
    }
}

/// serde's ``duplicate field `t` `` as `M`'s error.
fn duplicate_field<'de, M: MapAccess<'de>>(tag: &'static str) -> M::Error {
    M::Error::duplicate_field(tag)
}

/// serde's error for an enum read from a map that has not exactly one entry.
fn not_single_key<E: Error>() -> E {
    E::invalid_value(Unexpected::Map, &"map with a single key")
}

impl<'de, 'bump, M, S, A, E> MapNode<'_, 'bump, M, S, A, E>
where
    M: MapAccess<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    /// `visit_enum` with the first entry's key as the variant and its value as the content
    /// (serde's `deserialize_enum` of a map). serde refuses a map of any other size before
    /// visiting; here the size is known once the visitor is done, and the refusal replaces
    /// whatever the visitor gave.
    fn visit_enum<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, E> {
        let read = visitor.visit_enum(MapEnum { node: &mut self });
        if is_held(self.held) {
            return Err(placeholder());
        }
        let entries = self.count + self.drain()?;
        if entries == 1 {
            read
        } else {
            Err(not_single_key())
        }
    }

    /// Reads past the value of the key just read.
    fn skip_value(&mut self) -> Result<(), E> {
        match self.map.next_value_seed(Skip::new(None)) {
            Ok(_) => Ok(()),
            Err(error) => Err(hold(self.held, error)),
        }
    }

    /// serde's ``duplicate field `t` ``, an error of the input, held.
    fn duplicate_tag(&self) -> E {
        hold(
            self.held,
            duplicate_field::<M>(self.tag.unwrap_or_default()),
        )
    }

    /// The next value, answering `ask` to `visitor`.
    fn next_value_ask<V: Visitor<'de>>(&mut self, ask: Ask, visitor: V) -> Result<V::Value, E> {
        if is_held(self.held) {
            return Err(placeholder());
        }
        self.value_pending = false;
        let seed = AskSeed {
            ask,
            visitor,
            cx: self.cx,
        };
        let read = self.map.next_value_seed(seed);
        lift(self.held, read)
    }
}

impl<'de, M, S, A, E> Answer<'de> for MapNode<'_, '_, M, S, A, E>
where
    M: MapAccess<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;

    /// `ContentDeserializer`'s answers for `Content::Map`.
    fn answer<V: Visitor<'de>>(mut self, ask: Ask, visitor: V) -> Result<V::Value, E> {
        match ask {
            Ask::Any | Ask::Map | Ask::Struct | Ask::StructVariant => self.visit(visitor),
            Ask::Enum => self.visit_enum(visitor),
            // An empty map is a unit.
            Ask::Unit => {
                if self.drain()? == 0 {
                    visitor.visit_unit()
                } else {
                    Err(refuse(ask, Unexpected::Map, &visitor))
                }
            }
            _ => answer_entries(self, ask, visitor),
        }
    }

    fn human_readable(&self) -> bool {
        self.cx.human_readable
    }
}

impl<'de, 'bump, M, S, A, E> Entries<'de> for MapNode<'_, 'bump, M, S, A, E>
where
    M: MapAccess<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    const UNEXPECTED: Unexpected<'static> = Unexpected::Map;

    fn visit<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, E> {
        let read = visitor.visit_map(&mut self);
        if is_held(self.held) {
            return Err(placeholder());
        }
        let remaining = self.drain()?;
        finish(read, self.count, remaining, "map")
    }

    fn peek(&mut self) -> Result<bool, E> {
        match self
            .map
            .next_key_seed(TagOrValueSeed::new(self.cx.arena, self.tag))
        {
            Ok(Some(TagOrValue::Value(key))) => {
                self.value_pending = true;
                self.peeked = Some(key);
                Ok(true)
            }
            Ok(Some(TagOrValue::Tag)) => Err(self.duplicate_tag()),
            Ok(None) => Ok(false),
            Err(error) => Err(hold(self.held, error)),
        }
    }

    fn drain(&mut self) -> Result<usize, E> {
        if is_held(self.held) {
            return Err(placeholder());
        }
        let mut remaining = usize::from(self.peeked.take().is_some());
        if core::mem::take(&mut self.value_pending) {
            self.skip_value()?;
        }
        loop {
            match self.map.next_key_seed(Skip::new(self.tag)) {
                Ok(Some(Skipped::Other)) => remaining += 1,
                Ok(Some(Skipped::Tag)) => return Err(self.duplicate_tag()),
                Ok(None) => return Ok(remaining),
                Err(error) => return Err(hold(self.held, error)),
            }
            self.skip_value()?;
        }
    }
}

impl<'de, M, S, A, E> MapAccess<'de> for MapNode<'_, '_, M, S, A, E>
where
    M: MapAccess<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        if let Some(first) = self.peeked.take() {
            self.count += 1;
            return replay(seed, &first, self.cx).map(Some);
        }
        if is_held(self.held) {
            return Err(placeholder());
        }
        match self
            .map
            .next_key_seed(RulesSeed::new(seed, self.cx, self.tag))
        {
            Ok(Some(Lazy::Tag)) => Err(self.duplicate_tag()),
            Ok(Some(read)) => {
                self.count += 1;
                self.value_pending = true;
                lift(self.held, Ok(read)).map(Some)
            }
            Ok(None) => Ok(None),
            Err(error) => Err(hold(self.held, error)),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, E> {
        if is_held(self.held) {
            return Err(placeholder());
        }
        self.value_pending = false;
        let read = self
            .map
            .next_value_seed(RulesSeed::new(seed, self.cx, None));
        lift(self.held, read)
    }

    fn size_hint(&self) -> Option<usize> {
        let peeked = usize::from(self.peeked.is_some());
        self.map.size_hint().map(|len| len + peeked)
    }
}

/// A map read as an enum: its first key is the variant.
struct MapEnum<'n, 'h, 'bump, M, S, A: ?Sized, E> {
    node: &'n mut MapNode<'h, 'bump, M, S, A, E>,
}

impl<'de, 'n, 'h, 'bump, M, S, A, E> EnumAccess<'de> for MapEnum<'n, 'h, 'bump, M, S, A, E>
where
    M: MapAccess<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;
    type Variant = MapVariant<'n, 'h, 'bump, M, S, A, E>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), E> {
        match self.node.next_key_seed(seed)? {
            Some(variant) => Ok((variant, MapVariant { node: self.node })),
            None => Err(not_single_key()),
        }
    }
}

/// The content of a variant read from a map: the first entry's value (serde's
/// `VariantDeserializer` with a value).
struct MapVariant<'n, 'h, 'bump, M, S, A: ?Sized, E> {
    node: &'n mut MapNode<'h, 'bump, M, S, A, E>,
}

impl<'de, M, S, A, E> VariantAccess<'de> for MapVariant<'_, '_, '_, M, S, A, E>
where
    M: MapAccess<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;

    /// Content that reads as `()`: a unit, or (serde's rule) an empty map.
    fn unit_variant(self) -> Result<(), E> {
        self.node.next_value_seed(PhantomData::<()>)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, E> {
        self.node.next_value_seed(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, E> {
        self.node.next_value_ask(Ask::TupleVariant, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        self.node.next_value_ask(Ask::StructVariant, visitor)
    }
}
