//! Reading past a value as serde's buffer reads it (serde's `ContentVisitor`, keeping nothing):
//! what a replay never asks for is still read, so an error of the input in it comes first, as it
//! does in serde.

use core::fmt;

use serde::de::{DeserializeSeed, Deserializer, EnumAccess, Error, MapAccess, SeqAccess, Visitor};

use super::{ENUM_INPUT, expecting_key};
use crate::call::DepthGuard;

/// What was read past: the tag (for a key of the map the tag was first in), or anything else.
pub(super) enum Skipped {
    Tag,
    Other,
}

/// Reads past one value with `deserialize_any`; every container enters a level of depth, so a
/// deep input is a depth error, not a stack overflow.
#[derive(Clone, Copy)]
pub(super) struct Skip {
    tag: Option<&'static str>,
}

impl Skip {
    /// Reads past a value; `tag`, for a key of the map the tag was first in.
    pub(super) const fn new(tag: Option<&'static str>) -> Self {
        Self { tag }
    }

    const NONE: Self = Self::new(None);

    /// A string or bytes read past: the tag, or anything else.
    fn text(self, text: &[u8]) -> Skipped {
        if self.tag.is_some_and(|tag| tag.as_bytes() == text) {
            Skipped::Tag
        } else {
            Skipped::Other
        }
    }
}

impl<'de> DeserializeSeed<'de> for Skip {
    type Value = Skipped;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Skipped, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skip {
    type Value = Skipped;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        expecting_key(f, self.tag)
    }

    fn visit_bool<E: Error>(self, _: bool) -> Result<Skipped, E> {
        Ok(Skipped::Other)
    }

    fn visit_i64<E: Error>(self, _: i64) -> Result<Skipped, E> {
        Ok(Skipped::Other)
    }

    fn visit_i128<E: Error>(self, _: i128) -> Result<Skipped, E> {
        Ok(Skipped::Other)
    }

    fn visit_u64<E: Error>(self, _: u64) -> Result<Skipped, E> {
        Ok(Skipped::Other)
    }

    fn visit_u128<E: Error>(self, _: u128) -> Result<Skipped, E> {
        Ok(Skipped::Other)
    }

    fn visit_f64<E: Error>(self, _: f64) -> Result<Skipped, E> {
        Ok(Skipped::Other)
    }

    /// A char is never the tag (serde compares strings and bytes only).
    fn visit_char<E: Error>(self, _: char) -> Result<Skipped, E> {
        Ok(Skipped::Other)
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<Skipped, E> {
        Ok(self.text(v.as_bytes()))
    }

    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Skipped, E> {
        Ok(self.text(v))
    }

    fn visit_unit<E: Error>(self) -> Result<Skipped, E> {
        Ok(Skipped::Other)
    }

    fn visit_none<E: Error>(self) -> Result<Skipped, E> {
        Ok(Skipped::Other)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Skipped, D::Error> {
        let _level = DepthGuard::enter::<D::Error>()?;
        Self::NONE.deserialize(deserializer)?;
        Ok(Skipped::Other)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Skipped, D::Error> {
        self.visit_some(deserializer)
    }

    fn visit_seq<Q: SeqAccess<'de>>(self, mut seq: Q) -> Result<Skipped, Q::Error> {
        let _level = DepthGuard::enter::<Q::Error>()?;
        while seq.next_element_seed(Self::NONE)?.is_some() {}
        Ok(Skipped::Other)
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Skipped, M::Error> {
        let _level = DepthGuard::enter::<M::Error>()?;
        while map.next_key_seed(Self::NONE)?.is_some() {
            map.next_value_seed(Self::NONE)?;
        }
        Ok(Skipped::Other)
    }

    fn visit_enum<D: EnumAccess<'de>>(self, _data: D) -> Result<Skipped, D::Error> {
        Err(D::Error::custom(ENUM_INPUT))
    }
}
