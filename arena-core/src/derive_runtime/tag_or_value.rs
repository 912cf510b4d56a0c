//! A key of the map an internally tagged enum's tag is in, read into a [`Value`] unless it is
//! the tag (serde's `TagOrContentVisitor`).
//!
//! The key's `Value` is written to a slot of the caller's, and the read returns only which of
//! the two it was ([`TagOrValue`], a byte): a 24-byte `Value` handed back inside the format's
//! `Result` is copied out of it in pieces that do not match the stores that wrote it, and the
//! loads stall on every map, where the tag comes first too.

use core::fmt;

use serde::de::{DeserializeSeed, Deserializer, EnumAccess, Error, MapAccess, SeqAccess, Visitor};

use crate::buffer_rules::ENUM_INPUT;
use crate::value::ValueVisitor;
use crate::{BumpAllocator, Value};

/// The tag, or any other key (written to the seed's slot).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum TagOrValue {
    Tag,
    Value,
}

/// Reads a key with `deserialize_any`: a string or bytes equal to the tag is the tag, anything
/// else a [`Value`] in the arena, written to `slot`.
pub(crate) struct TagOrValueSeed<'s, 'bump, A: ?Sized> {
    visitor: ValueVisitor<'bump, A>,
    tag: &'static str,
    slot: &'s mut Value<'bump>,
}

impl<'s, 'bump, A: BumpAllocator + ?Sized> TagOrValueSeed<'s, 'bump, A> {
    /// Reads a key into `arena`, telling `tag` apart; any other key goes to `slot`.
    pub(crate) fn new(arena: &'bump A, tag: &'static str, slot: &'s mut Value<'bump>) -> Self {
        Self {
            visitor: ValueVisitor::new(arena),
            tag,
            slot,
        }
    }

    /// Whether `key` (a string's bytes, or bytes) is the tag.
    fn is_tag(&self, key: &[u8]) -> bool {
        self.tag.as_bytes() == key
    }
}

impl<'de, A: BumpAllocator + ?Sized> DeserializeSeed<'de> for TagOrValueSeed<'_, '_, A> {
    type Value = TagOrValue;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// Any other key: `value` written to the slot.
#[inline(always)]
fn put<'bump, E>(slot: &mut Value<'bump>, value: Result<Value<'bump>, E>) -> Result<TagOrValue, E> {
    *slot = value?;
    Ok(TagOrValue::Value)
}

/// `visit_*` methods that build the value.
macro_rules! to_value {
    ($($method:ident($ty:ty),)*) => {$(
        fn $method<E: Error>(self, v: $ty) -> Result<Self::Value, E> {
            let value = self.visitor.$method(v);
            put(self.slot, value)
        }
    )*};
}

impl<'de, A: BumpAllocator + ?Sized> Visitor<'de> for TagOrValueSeed<'_, '_, A> {
    type Value = TagOrValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a type tag `{}` or any other value", self.tag)
    }

    to_value! {
        visit_bool(bool),
        visit_i64(i64),
        visit_i128(i128),
        visit_u64(u64),
        visit_u128(u128),
        visit_f32(f32),
        visit_f64(f64),
        visit_char(char),
    }

    fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
        let value = self.visitor.visit_unit();
        put(self.slot, value)
    }

    fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
        let value = self.visitor.visit_none();
        put(self.slot, value)
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<Self::Value, E> {
        if self.is_tag(v.as_bytes()) {
            return Ok(TagOrValue::Tag);
        }
        let value = self.visitor.visit_str(v);
        put(self.slot, value)
    }

    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        if self.is_tag(v) {
            return Ok(TagOrValue::Tag);
        }
        let value = self.visitor.visit_bytes(v);
        put(self.slot, value)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let value = self.visitor.visit_some(deserializer);
        put(self.slot, value)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        let value = self.visitor.visit_newtype_struct(deserializer);
        put(self.slot, value)
    }

    fn visit_seq<Q: SeqAccess<'de>>(self, seq: Q) -> Result<Self::Value, Q::Error> {
        let value = self.visitor.visit_seq(seq);
        put(self.slot, value)
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
        let value = self.visitor.visit_map(map);
        put(self.slot, value)
    }

    fn visit_enum<D: EnumAccess<'de>>(self, _data: D) -> Result<Self::Value, D::Error> {
        Err(D::Error::custom(ENUM_INPUT))
    }
}
