//! [`ExtDeserializer`]: a MessagePack ext value as rmp-serde offers it, a sequence of its tag
//! (`i8`) and its data (borrowed bytes).

use rmp_serde::decode::Error;
use serde::de::{self, DeserializeSeed, Visitor};
use serde::forward_to_deserialize_any;

use super::reader::{Reader, type_mismatch};

/// What an [`ExtDeserializer`] reads next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The tag.
    Tag,
    /// The data.
    Data,
    /// Nothing: both are read.
    Done,
}

/// An ext value whose marker and length are read: its tag and `len` bytes of data follow.
///
/// As rmp-serde's, every `deserialize_*` method visits the sequence (tag, data), the 128-bit
/// ones are serde's defaults (unsupported) and it calls itself human readable (serde's
/// default). Elements left unread by the visitor stay in the input, where the next read starts.
#[derive(Debug)]
pub(super) struct ExtDeserializer<'a, 'de> {
    reader: &'a mut Reader<'de>,
    /// The data's length.
    len: u32,
    state: State,
}

impl<'a, 'de> ExtDeserializer<'a, 'de> {
    /// The ext value at `reader`, `len` bytes of data after its tag.
    #[inline]
    pub(super) const fn new(reader: &'a mut Reader<'de>, len: u32) -> Self {
        ExtDeserializer {
            reader,
            len,
            state: State::Tag,
        }
    }
}

impl<'de> de::Deserializer<'de> for ExtDeserializer<'_, 'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(self)
    }

    forward_to_deserialize_any! {
        bool u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 char str string unit option
        seq bytes byte_buf map unit_struct newtype_struct
        struct identifier tuple enum ignored_any tuple_struct
    }
}

impl<'de> de::SeqAccess<'de> for ExtDeserializer<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.state {
            State::Tag | State::Data => seed.deserialize(self).map(Some),
            State::Done => Ok(None),
        }
    }
}

impl<'de> de::Deserializer<'de> for &mut ExtDeserializer<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.state {
            State::Tag => {
                let tag = self.reader.i8()?;
                self.state = State::Data;
                visitor.visit_i8(tag)
            }
            State::Data => {
                let data = self.reader.slice(self.len)?;
                self.state = State::Done;
                visitor.visit_borrowed_bytes(data)
            }
            // Unreachable: `next_element_seed` hands this deserializer out only before the
            // data is read. rmp-serde answers the same.
            State::Done => Err(type_mismatch(0xC1)),
        }
    }

    forward_to_deserialize_any! {
        bool u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 char str string unit option
        seq bytes byte_buf map unit_struct newtype_struct
        tuple_struct struct identifier tuple enum ignored_any
    }
}
