//! Internally tagged enums (`#[arena(tag = "t")]`): the variant named by the key `t` of a map
//! (or by the first element of a sequence), its content the rest.
//!
//! serde_derive buffers the whole map, takes the tag out and replays the rest into the variant
//! (`TaggedContentVisitor`, then `ContentDeserializer`). Here:
//! - when the tag is the map's first key, nothing is buffered: the rest of the map streams into
//!   the variant, which reads its content as serde reads it from its buffer
//!   ([`content`](super::content)); a second tag among the rest is serde's `duplicate field`
//!   error ([`TagGuard`]);
//! - when the tag comes later, the map is buffered into a [`Value`] in the thread's buffer
//!   ([`with_buffer`]), the tag taken out as serde takes it, and the rest replayed under serde's
//!   rules ([`ValueDeserializer`]); the buffer is given back once the variant is read, so the
//!   arena holds the variant only;
//! - a sequence is read as serde reads it (the tag first, the rest the content), streamed.
//!
//! Either way the variant reads the value serde reads, and refuses what serde refuses; an
//! error of the streamed content is the format's own, with its position where the format gives
//! one.
//!
//! Beyond serde: 128-bit integers in the content are read (serde's buffer cannot hold them:
//! issue #1682), and the variant sees the source format's `is_human_readable` (serde's replay
//! answers `true`: issue #2172).

use core::fmt;
use core::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{
    Deserialize, DeserializeSeed, Deserializer, EnumAccess, Error, MapAccess, SeqAccess, Visitor,
};

use super::buffer::with_buffer;
use super::tag_or_value::{TagOrValue, TagOrValueSeed};
use crate::arena_deserialize::NestedSeed;
use crate::buffer_rules::{EndTracked, end_map, end_seq};
use crate::slice_builder::{self, BuildError, SliceBuilder};
use crate::{BumpAllocator, Value, ValueDeserializer};

/// Reads an internally tagged enum from `deserializer`: the tag (with `T`, the variant
/// identifier), then the content with the seed `seed` makes of the tag (which holds the arena
/// the value goes to). `expecting` is the enum's expectation (``internally tagged enum X``, or
/// its `expecting` attribute). Not public API.
///
/// # Errors
///
/// ``missing field `t` ``, ``duplicate field `t` ``, the format's, or the variant's.
pub fn deserialize_internally_tagged<'de, D, T, F, S, R>(
    deserializer: D,
    tag: &'static str,
    expecting: &'static str,
    seed: F,
) -> Result<R, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
    F: FnOnce(T) -> S,
    S: for<'x> DeserializeSeed<'x, Value = R>,
{
    let visitor = TaggedVisitor {
        human_readable: deserializer.is_human_readable(),
        tag,
        expecting,
        seed,
        marker: PhantomData,
    };
    deserializer.deserialize_any(visitor)
}

/// The visitor of the map or sequence the tag is in (serde's `TaggedContentVisitor`).
struct TaggedVisitor<T, F> {
    /// The source format's `is_human_readable`, for a replay.
    human_readable: bool,
    tag: &'static str,
    expecting: &'static str,
    seed: F,
    marker: PhantomData<fn() -> T>,
}

impl<'de, T, F, S, R> Visitor<'de> for TaggedVisitor<T, F>
where
    T: Deserialize<'de>,
    F: FnOnce(T) -> S,
    S: for<'x> DeserializeSeed<'x, Value = R>,
{
    type Value = R;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    /// The first element is the tag, the rest the content, read to its end.
    fn visit_seq<Q: SeqAccess<'de>>(self, mut seq: Q) -> Result<Self::Value, Q::Error> {
        let Some(tag) = seq.next_element::<T>()? else {
            return Err(Q::Error::missing_field(self.tag));
        };
        let content_len = seq.size_hint();
        let mut seq = EndTracked::new(seq);
        let value =
            DeserializeSeed::deserialize((self.seed)(tag), SeqAccessDeserializer::new(&mut seq))?;
        end_seq(&mut seq, content_len)?;
        Ok(value)
    }

    /// The tag at any position; first, the rest streams into the variant, else the map is
    /// buffered in the thread's buffer (the first key with it).
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        with_buffer(|buffer_arena| {
            let mut first = Value::Unit;
            let read = TagOrValueSeed::new(buffer_arena, self.tag, &mut first);
            match map.next_key_seed(read)? {
                Some(TagOrValue::Tag) => {
                    let tag = map.next_value::<T>()?;
                    let mut rest = EndTracked::new(TagGuard {
                        map: &mut map,
                        tag: self.tag,
                    });
                    let content_len = rest.size_hint();
                    let value = DeserializeSeed::deserialize(
                        (self.seed)(tag),
                        MapAccessDeserializer::new(&mut rest),
                    )?;
                    end_map(&mut rest, content_len)?;
                    Ok(value)
                }
                Some(TagOrValue::Value) => {
                    let (tag, rest) = buffer(buffer_arena, map, first, self.tag)?;
                    let replay = ValueDeserializer::by_value(&rest, self.human_readable);
                    DeserializeSeed::deserialize((self.seed)(tag), replay)
                }
                None => Err(M::Error::missing_field(self.tag)),
            }
        })
    }
}

/// The map an internally tagged enum's tag was first in, the tag read: a key equal to the tag
/// again is serde's ``duplicate field `t` `` error.
struct TagGuard<'a, M> {
    map: &'a mut M,
    tag: &'static str,
}

impl<'de, M: MapAccess<'de>> MapAccess<'de> for TagGuard<'_, M> {
    type Error = M::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, M::Error> {
        self.map.next_key_seed(GuardSeed {
            seed,
            tag: self.tag,
        })
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, M::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// A key's seed, refusing the tag.
struct GuardSeed<K> {
    seed: K,
    tag: &'static str,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for GuardSeed<K> {
    type Value = K::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(GuardDeserializer {
            deserializer,
            tag: self.tag,
        })
    }
}

/// A key's deserializer: read with `deserialize_any` (the key of a self-describing map, as
/// serde's buffer holds it), a string or bytes equal to the tag refused.
struct GuardDeserializer<D> {
    deserializer: D,
    tag: &'static str,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for GuardDeserializer<D> {
    type Error = D::Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.deserializer.deserialize_any(GuardVisitor {
            visitor,
            tag: self.tag,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.deserializer.is_human_readable()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// A key's visitor: every visit handed on, but the tag's.
struct GuardVisitor<V> {
    visitor: V,
    tag: &'static str,
}

impl<V> GuardVisitor<V> {
    /// serde's error for a second tag, if `key` is the tag.
    #[inline]
    fn refuse<E: Error>(&self, key: &[u8]) -> Result<(), E> {
        if key == self.tag.as_bytes() {
            return Err(E::duplicate_field(self.tag));
        }
        Ok(())
    }
}

/// `visit_*` methods handed on as they are.
macro_rules! hand_on {
    ($($method:ident($ty:ty),)*) => {$(
        #[inline]
        fn $method<E: Error>(self, v: $ty) -> Result<V::Value, E> {
            self.visitor.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for GuardVisitor<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    hand_on! {
        visit_bool(bool),
        visit_i8(i8),
        visit_i16(i16),
        visit_i32(i32),
        visit_i64(i64),
        visit_i128(i128),
        visit_u8(u8),
        visit_u16(u16),
        visit_u32(u32),
        visit_u64(u64),
        visit_u128(u128),
        visit_f32(f32),
        visit_f64(f64),
        visit_char(char),
    }

    #[inline]
    fn visit_str<E: Error>(self, v: &str) -> Result<V::Value, E> {
        self.refuse(v.as_bytes())?;
        self.visitor.visit_str(v)
    }

    #[inline]
    fn visit_borrowed_str<E: Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.refuse(v.as_bytes())?;
        self.visitor.visit_borrowed_str(v)
    }

    #[inline]
    fn visit_string<E: Error>(self, v: String) -> Result<V::Value, E> {
        self.refuse(v.as_bytes())?;
        self.visitor.visit_string(v)
    }

    #[inline]
    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<V::Value, E> {
        self.refuse(v)?;
        self.visitor.visit_bytes(v)
    }

    #[inline]
    fn visit_borrowed_bytes<E: Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.refuse(v)?;
        self.visitor.visit_borrowed_bytes(v)
    }

    #[inline]
    fn visit_byte_buf<E: Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        self.refuse(&v)?;
        self.visitor.visit_byte_buf(v)
    }

    fn visit_none<E: Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.visitor.visit_some(deserializer)
    }

    fn visit_unit<E: Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        self.visitor.visit_newtype_struct(deserializer)
    }

    fn visit_seq<Q: SeqAccess<'de>>(self, seq: Q) -> Result<V::Value, Q::Error> {
        self.visitor.visit_seq(seq)
    }

    fn visit_map<N: MapAccess<'de>>(self, map: N) -> Result<V::Value, N::Error> {
        self.visitor.visit_map(map)
    }

    fn visit_enum<N: EnumAccess<'de>>(self, data: N) -> Result<V::Value, N::Error> {
        self.visitor.visit_enum(data)
    }
}

/// The map whose first key was `first`, not the tag, buffered in `arena` (the thread's
/// buffer): the tag, read with `T`, and the other entries in input order.
fn buffer<'de, 'bump, A, M, T>(
    arena: &'bump A,
    mut map: M,
    first: Value<'bump>,
    tag_name: &'static str,
) -> Result<(T, Value<'bump>), M::Error>
where
    A: BumpAllocator + ?Sized,
    M: MapAccess<'de>,
    T: Deserialize<'de>,
{
    let value = NestedSeed::<Value<'bump>, A>::new(arena);
    let mut entries =
        SliceBuilder::new(arena, map.size_hint(), true).map_err(BuildError::into_de)?;
    let mut tag = None;
    let mut key = first;
    let mut read = Some(TagOrValue::Value);
    while let Some(which) = read {
        match which {
            TagOrValue::Tag if tag.is_some() => {
                return Err(M::Error::duplicate_field(tag_name));
            }
            TagOrValue::Tag => tag = Some(map.next_value::<T>()?),
            TagOrValue::Value => {
                let value = map.next_value_seed(value)?;
                entries.push((key, value)).map_err(BuildError::into_de)?;
            }
        }
        read = map.next_key_seed(TagOrValueSeed::new(arena, tag_name, &mut key))?;
    }
    let Some(tag) = tag else {
        return Err(M::Error::missing_field(tag_name));
    };
    let entries = slice_builder::finish(&mut entries, arena)?;
    Ok((tag, Value::Map(entries)))
}
