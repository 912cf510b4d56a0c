//! A map still in the input, answered as `ContentDeserializer` answers a buffered one (serde's
//! `Content::Map`, its `MapDeserializer`, and its `EnumDeserializer` for a map of one entry).
//!
//! The rest of the map an internally tagged enum's tag was first in is one too: its keys are
//! compared with the tag, and one equal to it is serde's ``duplicate field `t` ``, an error of
//! the input (serde's buffer finds it before any replay).

use core::marker::PhantomData;

use serde::de::{
    DeserializeSeed, EnumAccess, Error, MapAccess, Unexpected, VariantAccess, Visitor,
};

use super::input::{InputMap, Key, Read};
use super::tag_or_value::TagOrValue;
use super::{
    Answer, Ask, AskSlot, Cx, Entries, Slot, answer_entries, finish, placeholder, refuse, replay,
};
use crate::{BumpAllocator, Value};

/// The entries of a map not read yet.
pub(crate) struct MapNode<'s, 'de, 'bump, A: ?Sized, E> {
    map: &'s mut dyn InputMap<'de, 'bump, E>,
    cx: Cx<'bump, A, E>,
    /// The enum's tag, when this is the rest of the map it was first in.
    tag: Option<&'static str>,
    /// Entries the visitor has taken, by their keys (serde's count, in the length error).
    count: usize,
    /// The first key, read ahead to tell an empty map from another.
    peeked: Option<Value<'bump>>,
    /// Whether the value of the last key read is still in the input.
    value_pending: bool,
}

impl<'s, 'de, 'bump, A: ?Sized, E> MapNode<'s, 'de, 'bump, A, E> {
    /// The entries `map` has left; `tag`, for the rest of the map an enum's tag was first in.
    pub(crate) fn new(
        map: &'s mut dyn InputMap<'de, 'bump, E>,
        cx: Cx<'bump, A, E>,
        tag: Option<&'static str>,
    ) -> Self {
        Self {
            map,
            cx,
            tag,
            count: 0,
            peeked: None,
            value_pending: false,
        }
    }
}

/// serde's error for an enum read from a map that has not exactly one entry.
fn not_single_key<E: Error>() -> E {
    E::invalid_value(Unexpected::Map, &"map with a single key")
}

impl<'de, 'bump, A, E> MapNode<'_, 'de, 'bump, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    /// `visit_enum` with the first entry's key as the variant and its value as the content
    /// (serde's `deserialize_enum` of a map). serde refuses a map of any other size before
    /// visiting; here the size is known once the visitor is done, and the refusal replaces
    /// whatever the visitor gave.
    fn visit_enum<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, E> {
        let read = visitor.visit_enum(MapEnum { node: &mut self });
        if self.map.failed() {
            return Err(placeholder());
        }
        let entries = self.count + self.drain()?;
        if entries == 1 {
            read
        } else {
            Err(not_single_key())
        }
    }

    /// serde's ``duplicate field `t` ``, an error of the input, held.
    fn duplicate_tag(&mut self) -> E {
        self.map.duplicate(self.tag.unwrap_or_default())
    }

    /// The next value, read by `read`.
    fn next_value_read(&mut self, read: &mut dyn Read<'de, 'bump, E>) -> Result<(), E> {
        if self.map.failed() {
            return Err(placeholder());
        }
        self.value_pending = false;
        self.map.next_value(read)
    }
}

impl<'de, A, E> Answer<'de> for MapNode<'_, 'de, '_, A, E>
where
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

impl<'de, A, E> Entries<'de> for MapNode<'_, 'de, '_, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    const UNEXPECTED: Unexpected<'static> = Unexpected::Map;

    fn visit<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, E> {
        let read = visitor.visit_map(&mut self);
        if self.map.failed() {
            return Err(placeholder());
        }
        let remaining = self.drain()?;
        finish(read, self.count, remaining, "map")
    }

    fn peek(&mut self) -> Result<bool, E> {
        match self.map.peek_key(self.tag)? {
            Some(TagOrValue::Value(key)) => {
                self.value_pending = true;
                self.peeked = Some(key);
                Ok(true)
            }
            Some(TagOrValue::Tag) => Err(self.duplicate_tag()),
            None => Ok(false),
        }
    }

    fn drain(&mut self) -> Result<usize, E> {
        if self.map.failed() {
            return Err(placeholder());
        }
        let mut remaining = usize::from(self.peeked.take().is_some());
        if core::mem::take(&mut self.value_pending) {
            self.map.skip_value()?;
        }
        loop {
            match self.map.skip_key(self.tag)? {
                Some(Key::Read) => remaining += 1,
                Some(Key::Tag) => return Err(self.duplicate_tag()),
                None => return Ok(remaining),
            }
            self.map.skip_value()?;
        }
    }
}

impl<'de, A, E> MapAccess<'de> for MapNode<'_, 'de, '_, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        if let Some(first) = self.peeked.take() {
            self.count += 1;
            return replay(seed, &first, self.cx).map(Some);
        }
        if self.map.failed() {
            return Err(placeholder());
        }
        let mut slot = Slot::new(seed, self.cx, self.tag);
        let key = self.map.next_key(&mut slot);
        if self.map.failed() {
            return Err(placeholder());
        }
        match key {
            Ok(None) => Ok(None),
            Ok(Some(Key::Tag)) => Err(self.duplicate_tag()),
            read => {
                self.count += 1;
                self.value_pending = true;
                read?;
                slot.take().map(Some)
            }
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, E> {
        let mut slot = Slot::new(seed, self.cx, None);
        self.next_value_read(&mut slot)?;
        slot.take()
    }

    fn size_hint(&self) -> Option<usize> {
        let peeked = usize::from(self.peeked.is_some());
        self.map.size_hint().map(|len| len + peeked)
    }
}

/// A map read as an enum: its first key is the variant.
struct MapEnum<'n, 's, 'de, 'bump, A: ?Sized, E> {
    node: &'n mut MapNode<'s, 'de, 'bump, A, E>,
}

impl<'de, 'n, 's, 'bump, A, E> EnumAccess<'de> for MapEnum<'n, 's, 'de, 'bump, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;
    type Variant = MapVariant<'n, 's, 'de, 'bump, A, E>;

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
struct MapVariant<'n, 's, 'de, 'bump, A: ?Sized, E> {
    node: &'n mut MapNode<'s, 'de, 'bump, A, E>,
}

impl<'de, A, E> MapVariant<'_, '_, 'de, '_, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    /// The content, answering `ask` to `visitor`.
    fn ask<V: Visitor<'de>>(self, ask: Ask, visitor: V) -> Result<V::Value, E> {
        let mut slot = AskSlot::new(ask, visitor, self.node.cx);
        self.node.next_value_read(&mut slot)?;
        slot.take()
    }
}

impl<'de, A, E> VariantAccess<'de> for MapVariant<'_, '_, 'de, '_, A, E>
where
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
        self.ask(Ask::TupleVariant, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        self.ask(Ask::StructVariant, visitor)
    }
}
