//! A key of the map an internally tagged enum's tag is in, read into a [`Value`] unless it is
//! the tag (serde's `TagOrContentVisitor`).

use core::fmt;

use serde::de::{DeserializeSeed, Deserializer, EnumAccess, Error, MapAccess, SeqAccess, Visitor};

use super::content::ENUM_INPUT;
use crate::value::ValueVisitor;
use crate::{BumpAllocator, Value};

/// The tag, or any other key.
pub(crate) enum TagOrValue<'bump> {
    Tag,
    Value(Value<'bump>),
}

/// Reads a key with `deserialize_any`: a string or bytes equal to the tag is the tag, anything
/// else a [`Value`] in the arena.
pub(crate) struct TagOrValueSeed<'bump, A: ?Sized> {
    visitor: ValueVisitor<'bump, A>,
    tag: Option<&'static str>,
}

impl<'bump, A: BumpAllocator + ?Sized> TagOrValueSeed<'bump, A> {
    /// Reads a key into `arena`, telling `tag` apart.
    pub(crate) const fn new(arena: &'bump A, tag: Option<&'static str>) -> Self {
        Self {
            visitor: ValueVisitor::new(arena),
            tag,
        }
    }

    /// Whether `key` (a string's bytes, or bytes) is the tag.
    fn is_tag(&self, key: &[u8]) -> bool {
        self.tag.is_some_and(|tag| tag.as_bytes() == key)
    }
}

impl<'de, 'bump, A: BumpAllocator + ?Sized> DeserializeSeed<'de> for TagOrValueSeed<'bump, A> {
    type Value = TagOrValue<'bump>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// `visit_*` methods that build the value.
macro_rules! to_value {
    ($($method:ident($ty:ty),)*) => {$(
        fn $method<E: Error>(self, v: $ty) -> Result<Self::Value, E> {
            self.visitor.$method(v).map(TagOrValue::Value)
        }
    )*};
}

impl<'de, 'bump, A: BumpAllocator + ?Sized> Visitor<'de> for TagOrValueSeed<'bump, A> {
    type Value = TagOrValue<'bump>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.tag {
            Some(tag) => write!(f, "a type tag `{tag}` or any other value"),
            None => f.write_str("any value"),
        }
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
        self.visitor.visit_unit().map(TagOrValue::Value)
    }

    fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
        self.visitor.visit_none().map(TagOrValue::Value)
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<Self::Value, E> {
        if self.is_tag(v.as_bytes()) {
            return Ok(TagOrValue::Tag);
        }
        self.visitor.visit_str(v).map(TagOrValue::Value)
    }

    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        if self.is_tag(v) {
            return Ok(TagOrValue::Tag);
        }
        self.visitor.visit_bytes(v).map(TagOrValue::Value)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.visitor.visit_some(deserializer).map(TagOrValue::Value)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        self.visitor
            .visit_newtype_struct(deserializer)
            .map(TagOrValue::Value)
    }

    fn visit_seq<Q: SeqAccess<'de>>(self, seq: Q) -> Result<Self::Value, Q::Error> {
        self.visitor.visit_seq(seq).map(TagOrValue::Value)
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
        self.visitor.visit_map(map).map(TagOrValue::Value)
    }

    fn visit_enum<D: EnumAccess<'de>>(self, _data: D) -> Result<Self::Value, D::Error> {
        Err(D::Error::custom(ENUM_INPUT))
    }
}
