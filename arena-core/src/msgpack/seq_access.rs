//! [`SeqAccess`]: the elements of a MessagePack array, counted down from its announced length.

use rmp_serde::decode::Error;
use serde::de::{self, DeserializeSeed};

use super::deserializer::Deserializer;

/// The elements of an array, read one at a time from the deserializer.
#[derive(Debug)]
pub(super) struct SeqAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    /// Elements announced and not read yet.
    left: u32,
}

impl<'a, 'de> SeqAccess<'a, 'de> {
    /// The `len` elements of an array whose header `de` has read.
    #[inline]
    pub(super) const fn new(de: &'a mut Deserializer<'de>, len: u32) -> Self {
        SeqAccess { de, left: len }
    }

    /// Elements announced and not read.
    #[inline]
    pub(super) const fn left(&self) -> u32 {
        self.left
    }
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    /// The elements left: the announced length before the first.
    #[inline]
    fn size_hint(&self) -> Option<usize> {
        usize::try_from(self.left).ok()
    }
}
