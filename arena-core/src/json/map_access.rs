//! [`MapAccess`]: the entries of a JSON object, and [`MapKey`], the deserializer of a key, as
//! serde_json reads them.

use serde::de::{self, DeserializeSeed, Visitor};

use super::deserializer::Deserializer;
use super::refused::Refused;

/// The entries of the object whose `{` the deserializer just consumed.
#[derive(Debug)]
pub(super) struct MapAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    /// Whether no entry has been read: the next needs no comma before it.
    first: bool,
}

impl<'a, 'de> MapAccess<'a, 'de> {
    /// The entries after the `{` `de` has consumed.
    #[inline]
    pub(super) const fn new(de: &'a mut Deserializer<'de>) -> Self {
        MapAccess { de, first: true }
    }
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = Refused;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Refused> {
        if !self.de.next_entry(&mut self.first)? {
            return Ok(None);
        }
        seed.deserialize(self.de.key()).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Refused> {
        self.de.colon()?;
        seed.deserialize(&mut *self.de)
    }
}

/// The deserializer of an object's key (its `"` peeked): a string, or, when a number or a
/// bool is asked for, the number or `true`/`false` the string holds, as serde_json's `MapKey`.
#[derive(Debug)]
pub(super) struct MapKey<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'a, 'de> MapKey<'a, 'de> {
    /// The key at `de`'s reading position.
    #[inline]
    pub(super) const fn new(de: &'a mut Deserializer<'de>) -> Self {
        MapKey { de }
    }

    /// Reads the number the key holds with `read`: digits right after the quote, the quote
    /// right after them.
    #[inline]
    fn numeric<T>(
        self,
        read: impl FnOnce(&mut Deserializer<'de>) -> Result<T, Refused>,
    ) -> Result<T, Refused> {
        self.de.eat();
        if !matches!(self.de.peek_raw(), Some(b'-' | b'0'..=b'9')) {
            return Err(Refused);
        }
        let value = read(&mut *self.de)?;
        if self.de.peek_raw() != Some(b'"') {
            return Err(Refused);
        }
        self.de.eat();
        Ok(value)
    }
}

/// `deserialize_*` methods of [`MapKey`] reading the number a key holds.
macro_rules! numeric_keys {
    ($($method:ident => $read:ident,)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
            self.numeric(|de| de.$read(visitor))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for MapKey<'_, 'de> {
    type Error = Refused;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.de.visit_str(visitor)
    }

    numeric_keys! {
        deserialize_i8 => visit_number,
        deserialize_i16 => visit_number,
        deserialize_i32 => visit_number,
        deserialize_i64 => visit_number,
        deserialize_u8 => visit_number,
        deserialize_u16 => visit_number,
        deserialize_u32 => visit_number,
        deserialize_u64 => visit_number,
        deserialize_f32 => visit_f32,
        deserialize_f64 => visit_number,
        deserialize_i128 => deserialize_i128,
        deserialize_u128 => deserialize_u128,
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.de.eat();
        let (value, rest) = match self.de.peek_raw() {
            Some(b't') => (true, &b"true\""[..]),
            Some(b'f') => (false, &b"false\""[..]),
            _ => return Err(Refused),
        };
        for &b in rest {
            if self.de.peek_raw() != Some(b) {
                return Err(Refused);
            }
            self.de.eat();
        }
        visitor.visit_bool(value)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        visitor.visit_some(self)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Refused> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refused> {
        de::Deserializer::deserialize_enum(self.de, name, variants, visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        de::Deserializer::deserialize_bytes(self.de, visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        de::Deserializer::deserialize_bytes(self.de, visitor)
    }

    serde::forward_to_deserialize_any! {
        char str string unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}
