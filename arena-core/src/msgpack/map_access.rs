//! [`MapAccess`]: the entries of a MessagePack map, counted down from its announced length.

use rmp_serde::decode::Error;
use serde::de::{self, DeserializeSeed};

use super::deserializer::Deserializer;

/// The entries of a map, read one key and one value at a time from the deserializer.
#[derive(Debug)]
pub(super) struct MapAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    /// Entries announced whose key is not read yet.
    left: u32,
}

impl<'a, 'de> MapAccess<'a, 'de> {
    /// The `len` entries of a map whose header `de` has read.
    #[inline]
    pub(super) const fn new(de: &'a mut Deserializer<'de>, len: u32) -> Self {
        MapAccess { de, left: len }
    }

    /// Entries announced whose key is not read.
    #[inline]
    pub(super) const fn left(&self) -> u32 {
        self.left
    }
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(&mut *self.de)
    }

    /// The entries left: the announced length before the first.
    #[inline]
    fn size_hint(&self) -> Option<usize> {
        usize::try_from(self.left).ok()
    }
}
