//! [`SeqAccess`]: the elements of a JSON array, separated by commas, as serde_json reads them.

use serde::de::{self, DeserializeSeed};

use super::deserializer::Deserializer;
use super::refused::Refused;

/// The elements of the array whose `[` the deserializer just consumed.
#[derive(Debug)]
pub(super) struct SeqAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    /// Whether no element has been read: the next needs no comma before it.
    first: bool,
}

impl<'a, 'de> SeqAccess<'a, 'de> {
    /// The elements after the `[` `de` has consumed.
    #[inline]
    pub(super) const fn new(de: &'a mut Deserializer<'de>) -> Self {
        SeqAccess { de, first: true }
    }
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Refused;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Refused> {
        if !self.de.next_element(&mut self.first)? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }
}
