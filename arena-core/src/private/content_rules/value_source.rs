//! A buffered [`Value`] as the input of a read under the buffer's rules: `deserialize_any`
//! visits each node as a format would have, for any deserializer lifetime (strings and bytes
//! are visited transiently), and [`Live`](super::Live) answers the visitor's request.

use core::marker::PhantomData;
use core::slice;

use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};

use super::ENUM_INPUT;
use crate::Value;

/// The value `value`, visited as a format visits from `deserialize_any`.
pub(super) struct ValueSource<'v, 'bump, E> {
    value: &'v Value<'bump>,
    human_readable: bool,
    error: PhantomData<fn() -> E>,
}

impl<'v, 'bump, E> ValueSource<'v, 'bump, E> {
    /// `value` as the input, answering `human_readable` to `is_human_readable`.
    pub(super) const fn new(value: &'v Value<'bump>, human_readable: bool) -> Self {
        Self {
            value,
            human_readable,
            error: PhantomData,
        }
    }
}

impl<'de, E: Error> Deserializer<'de> for ValueSource<'_, '_, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        let nested = |value| Self::new(value, self.human_readable);
        match *self.value {
            Value::Unit => visitor.visit_unit(),
            Value::None => visitor.visit_none(),
            Value::Some(value) => visitor.visit_some(nested(value)),
            Value::Bool(v) => visitor.visit_bool(v),
            Value::I64(v) => visitor.visit_i64(v),
            Value::U64(v) => visitor.visit_u64(v),
            Value::I128(&v) => visitor.visit_i128(v),
            Value::U128(&v) => visitor.visit_u128(v),
            Value::F32(v) => visitor.visit_f32(v),
            Value::F64(v) => visitor.visit_f64(v),
            Value::Char(v) => visitor.visit_char(v),
            Value::Str(v) => visitor.visit_str(v),
            Value::Bytes(v) => visitor.visit_bytes(v),
            Value::Newtype(value) => visitor.visit_newtype_struct(nested(value)),
            Value::Array(items) => visitor.visit_seq(Items {
                items: items.iter(),
                human_readable: self.human_readable,
                error: PhantomData,
            }),
            Value::Map(entries) => visitor.visit_map(Entries {
                entries: entries.iter(),
                value: None,
                human_readable: self.human_readable,
                error: PhantomData,
            }),
            Value::Enum(_) => Err(E::custom(ENUM_INPUT)),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }
}

/// The items of an array.
struct Items<'v, 'bump, E> {
    items: slice::Iter<'v, Value<'bump>>,
    human_readable: bool,
    error: PhantomData<fn() -> E>,
}

impl<'de, E: Error> SeqAccess<'de> for Items<'_, '_, E> {
    type Error = E;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, E> {
        match self.items.next() {
            Some(item) => seed
                .deserialize(ValueSource::new(item, self.human_readable))
                .map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// The entries of a map.
struct Entries<'v, 'bump, E> {
    entries: slice::Iter<'v, (Value<'bump>, Value<'bump>)>,
    /// The value of the key just read.
    value: Option<&'v Value<'bump>>,
    human_readable: bool,
    error: PhantomData<fn() -> E>,
}

impl<'de, E: Error> MapAccess<'de> for Entries<'_, '_, E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        match self.entries.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(ValueSource::new(key, self.human_readable))
                    .map(Some)
            }
            None => Ok(None),
        }
    }

    /// # Panics
    ///
    /// When called before `next_key_seed`: a bug of the visitor, not of the input (as serde's).
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, E> {
        let value = self
            .value
            .take()
            .expect("MapAccess::next_value called before next_key");
        seed.deserialize(ValueSource::new(value, self.human_readable))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}
