//! The derive's runtime, not public API: what the generated code calls, re-exported as
//! `arena_core::__private`. Most of it reads serde's buffered representations:
//! - [`content`]: a value read as serde reads it back from its buffer, straight from the input;
//! - [`internally_tagged`] and [`adjacently_tagged`]: the tagged enums, streaming when the tag
//!   comes first and replaying a buffered `Value` otherwise;
//! - [`flatten`]: flattened fields, a flattened struct handed its entries as the map is read;
//! - [`unit_variant`] and [`tag_or_value`]: the small visitors they share;
//! - [`read_mode`]: the two reads of a struct (straight from the format, or as from serde's
//!   buffer) as a type, so that a struct's visitor is written once for both.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{Deserializer, Error, Visitor};

use crate::{ArenaDeserialize, BumpAllocator};

mod adjacently_tagged;
pub(crate) mod buffer;
pub(crate) mod content;
mod flatten;
mod internally_tagged;
mod read_mode;
mod tag_or_value;
mod unit_variant;

pub use adjacently_tagged::{
    AdjacentKey, AdjacentVariantSeed, finish_adjacent, next_adjacent_key, replay_content,
};
pub use buffer::{Buffer, with_buffer};
pub use content::{BufferedSeed, ContentSeed, EnumRules};
pub use flatten::{
    FlatCollector, FlatDriver, FlatEntry, FlatMapDeserializer, FlatNext, flat_deny_unknown_fields,
    flat_field_in, flat_key_bytes, flat_key_str, no_flat_field,
};
pub use internally_tagged::deserialize_internally_tagged;
pub use read_mode::{Content, Direct, ReadMode};
pub use unit_variant::{InternallyTaggedUnitVisitor, UntaggedUnitVisitor};

/// The value of a field missing from a map: `None` for an `Option`, serde's `missing_field`
/// error for anything else, exactly as serde_derive decides.
///
/// # Errors
///
/// `E::missing_field(field)` unless `T` accepts a missing value.
pub fn missing_field<'bump, T, A, E>(arena: &'bump A, field: &'static str) -> Result<T, E>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    T::deserialize_in(
        arena,
        MissingFieldDeserializer {
            field,
            marker: PhantomData,
        },
    )
}

/// [`missing_field`] for a field read by serde's `Deserialize` (`#[arena(serde)]`): `None` for
/// an `Option`, serde's `missing_field` error for anything else.
///
/// # Errors
///
/// `E::missing_field(field)` unless `T` accepts a missing value.
pub fn missing_field_serde<'de, T, E>(field: &'static str) -> Result<T, E>
where
    T: serde::Deserialize<'de>,
    E: Error,
{
    T::deserialize(MissingFieldDeserializer {
        field,
        marker: PhantomData,
    })
}

/// A deserializer that answers `deserialize_option` with `None` and everything else with
/// `missing_field`.
struct MissingFieldDeserializer<E> {
    field: &'static str,
    marker: PhantomData<E>,
}

impl<'de, E: Error> Deserializer<'de> for MissingFieldDeserializer<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.field))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<E> fmt::Debug for MissingFieldDeserializer<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MissingFieldDeserializer")
            .field("field", &self.field)
            .finish()
    }
}

/// `String::from_utf8_lossy`, for unknown field and variant names given as bytes.
#[must_use]
pub fn from_utf8_lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}
