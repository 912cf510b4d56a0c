//! [`VariantAccess`] and [`UnitVariantAccess`]: an enum as an object of one entry, or as a
//! string naming a unit variant, as serde_json reads them.

use serde::de::{self, Deserialize, DeserializeSeed, Visitor};

use super::deserializer::Deserializer;
use super::refused::Refused;

/// An enum written as an object of one entry (its `{` consumed): the key names the variant,
/// the value is its content.
#[derive(Debug)]
pub(super) struct VariantAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'a, 'de> VariantAccess<'a, 'de> {
    /// The variant after the `{` `de` has consumed.
    #[inline]
    pub(super) const fn new(de: &'a mut Deserializer<'de>) -> Self {
        VariantAccess { de }
    }
}

impl<'de> de::EnumAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Refused;
    type Variant = Self;

    #[inline]
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Refused> {
        match self.de.peek() {
            Some(b'"') => {}
            Some(b'}') => return Err(super::refused::refused_by(super::refused::Grammar::Enum)),
            _ => return Err(Refused),
        }
        let variant = seed.deserialize(self.de.key())?;
        self.de.colon()?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Refused;

    fn unit_variant(self) -> Result<(), Refused> {
        <()>::deserialize(self.de)
    }

    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Refused> {
        seed.deserialize(self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Refused> {
        de::Deserializer::deserialize_seq(self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refused> {
        de::Deserializer::deserialize_struct(self.de, "", fields, visitor)
    }
}

/// An enum written as a string: a unit variant, named by the string.
#[derive(Debug)]
pub(super) struct UnitVariantAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'a, 'de> UnitVariantAccess<'a, 'de> {
    /// The variant named by the string at `de`'s reading position.
    #[inline]
    pub(super) const fn new(de: &'a mut Deserializer<'de>) -> Self {
        UnitVariantAccess { de }
    }
}

impl<'de> de::EnumAccess<'de> for UnitVariantAccess<'_, 'de> {
    type Error = Refused;
    type Variant = Self;

    #[inline]
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Refused> {
        let variant = seed.deserialize(&mut *self.de)?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariantAccess<'_, 'de> {
    type Error = Refused;

    fn unit_variant(self) -> Result<(), Refused> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, Refused> {
        Err(Refused)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, Refused> {
        Err(Refused)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Refused> {
        Err(Refused)
    }
}
