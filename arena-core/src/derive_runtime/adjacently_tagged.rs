//! Adjacently tagged enums (`#[arena(tag = "t", content = "c")]`): `{"t": variant, "c":
//! content}` or `[variant, content]`, read through `deserialize_struct` as serde_derive reads
//! them. The generated visitor follows serde_derive's; these are its runtime pieces (serde's
//! `TagOrContentFieldVisitor`, `TagContentOtherFieldVisitor`,
//! `AdjacentlyTaggedEnumVariantSeed`), and the replay of a content buffered because it came
//! before the tag.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{
    Deserialize, DeserializeSeed, Deserializer, EnumAccess, Error, IgnoredAny, MapAccess,
    Unexpected, VariantAccess, Visitor,
};

use crate::buffer_rules::IgnoredContent;
use crate::{Value, ValueDeserializer};

/// A key of an adjacently tagged enum's map that is not skipped. Not public API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdjacentKey {
    /// The tag's key.
    Tag,
    /// The content's key.
    Content,
}

/// The next key of `map` that is the tag or the content, by name, bytes or index (0 and 1);
/// under `deny_unknown_fields` any other key is an error, else it is skipped with its value,
/// read whole when the enum reads as from serde's buffer (`content`). Not public API.
///
/// # Errors
///
/// The format's, or an unknown key under `deny_unknown_fields` (serde's `invalid_value`,
/// expecting `"t" or "c"`).
pub fn next_adjacent_key<'de, M: MapAccess<'de>>(
    map: &mut M,
    tag: &'static str,
    content: &'static str,
    deny_unknown_fields: bool,
    content_read: bool,
) -> Result<Option<AdjacentKey>, M::Error> {
    let keys = Keys {
        tag,
        content,
        deny_unknown_fields,
    };
    loop {
        match map.next_key_seed(keys)? {
            Some(Some(key)) => return Ok(Some(key)),
            Some(None) if content_read => {
                map.next_value::<IgnoredContent>()?;
            }
            Some(None) => {
                map.next_value::<IgnoredAny>()?;
            }
            None => return Ok(None),
        }
    }
}

/// Checks that no tag or content key follows the content read as `value` (serde's
/// `visit_remaining_keys`). Not public API.
///
/// # Errors
///
/// ``duplicate field `t` `` or ``duplicate field `c` ``, or an unknown key as
/// [`next_adjacent_key`] says.
pub fn finish_adjacent<'de, M: MapAccess<'de>, T>(
    map: &mut M,
    tag: &'static str,
    content: &'static str,
    deny_unknown_fields: bool,
    content_read: bool,
    value: T,
) -> Result<T, M::Error> {
    match next_adjacent_key(map, tag, content, deny_unknown_fields, content_read)? {
        Some(AdjacentKey::Tag) => Err(M::Error::duplicate_field(tag)),
        Some(AdjacentKey::Content) => Err(M::Error::duplicate_field(content)),
        None => Ok(value),
    }
}

/// Reads one key: `Some(key)` for the tag or the content, `None` for another (skipped).
#[derive(Clone, Copy)]
struct Keys {
    tag: &'static str,
    content: &'static str,
    deny_unknown_fields: bool,
}

impl Keys {
    /// A key given by name (a string's bytes, or bytes), `unexpected` in the error.
    fn by_name<E: Error>(
        self,
        key: &[u8],
        unexpected: Unexpected<'_>,
    ) -> Result<Option<AdjacentKey>, E> {
        if key == self.tag.as_bytes() {
            Ok(Some(AdjacentKey::Tag))
        } else if key == self.content.as_bytes() {
            Ok(Some(AdjacentKey::Content))
        } else if self.deny_unknown_fields {
            Err(E::invalid_value(unexpected, &self))
        } else {
            Ok(None)
        }
    }
}

impl<'de> DeserializeSeed<'de> for Keys {
    type Value = Option<AdjacentKey>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for Keys {
    type Value = Option<AdjacentKey>;

    /// serde's `TagOrContentFieldVisitor` and `TagContentOtherFieldVisitor` texts.
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.deny_unknown_fields {
            write!(f, "{:?} or {:?}", self.tag, self.content)
        } else {
            write!(
                f,
                "{:?}, {:?}, or other ignored fields",
                self.tag, self.content
            )
        }
    }

    fn visit_u64<E: Error>(self, index: u64) -> Result<Self::Value, E> {
        match index {
            0 => Ok(Some(AdjacentKey::Tag)),
            1 => Ok(Some(AdjacentKey::Content)),
            _ if self.deny_unknown_fields => {
                Err(E::invalid_value(Unexpected::Unsigned(index), &self))
            }
            _ => Ok(None),
        }
    }

    fn visit_str<E: Error>(self, key: &str) -> Result<Self::Value, E> {
        self.by_name(key.as_bytes(), Unexpected::Str(key))
    }

    fn visit_bytes<E: Error>(self, key: &[u8]) -> Result<Self::Value, E> {
        self.by_name(key, Unexpected::Bytes(key))
    }
}

/// Reads the tag's value: an enum whose variant is `F` (the variant identifier) and whose
/// content is a unit (serde's `AdjacentlyTaggedEnumVariantSeed`). Not public API.
pub struct AdjacentVariantSeed<F> {
    enum_name: &'static str,
    variants: &'static [&'static str],
    marker: PhantomData<fn() -> F>,
}

impl<F> AdjacentVariantSeed<F> {
    /// The tag of the enum `enum_name` (its Rust name), with `variants` its variant names.
    #[must_use]
    pub const fn new(enum_name: &'static str, variants: &'static [&'static str]) -> Self {
        Self {
            enum_name,
            variants,
            marker: PhantomData,
        }
    }
}

impl<F> fmt::Debug for AdjacentVariantSeed<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AdjacentVariantSeed")
            .field("enum_name", &self.enum_name)
            .finish_non_exhaustive()
    }
}

impl<'de, F: Deserialize<'de>> DeserializeSeed<'de> for AdjacentVariantSeed<F> {
    type Value = F;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<F, D::Error> {
        let visitor = VariantVisitor {
            enum_name: self.enum_name,
            marker: PhantomData,
        };
        deserializer.deserialize_enum(self.enum_name, self.variants, visitor)
    }
}

/// serde's `AdjacentlyTaggedEnumVariantVisitor`.
struct VariantVisitor<F> {
    enum_name: &'static str,
    marker: PhantomData<fn() -> F>,
}

impl<'de, F: Deserialize<'de>> Visitor<'de> for VariantVisitor<F> {
    type Value = F;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "variant of enum {}", self.enum_name)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<F, A::Error> {
        let (variant, access) = data.variant()?;
        access.unit_variant()?;
        Ok(variant)
    }
}

/// Reads the content `content`, buffered because it came before the tag, with `seed`, under
/// the rules serde replays its buffer with (`ContentDeserializer`), answering `human_readable`
/// (the source format's) to `is_human_readable`. Not public API.
///
/// # Errors
///
/// Whatever the variant refuses, in serde's words.
pub fn replay_content<'bump, S, E>(
    seed: S,
    content: &Value<'bump>,
    human_readable: bool,
) -> Result<S::Value, E>
where
    S: DeserializeSeed<'bump>,
    E: Error,
{
    seed.deserialize(ValueDeserializer::by_value(content, human_readable))
}
