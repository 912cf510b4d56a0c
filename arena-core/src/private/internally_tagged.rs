//! Internally tagged enums (`#[arena(tag = "t")]`): the variant named by the key `t` of a map
//! (or by the first element of a sequence), its content the rest.
//!
//! serde_derive buffers the whole map, takes the tag out and replays the rest into the variant
//! (`TaggedContentVisitor`, then `ContentDeserializer`). Here:
//! - when the tag is the map's first key, nothing is buffered: the rest of the map streams into
//!   the variant under the buffer's rules ([`content_rules`]), so the value and the error are the
//!   ones serde gives, message and position included (serde issue #1495 asks for this);
//! - when the tag comes later, the entries before it (and after it) are buffered into a
//!   [`Value`] in the arena, the tag taken out as serde takes it, and the rest replayed under the
//!   same rules;
//! - a sequence is read as serde reads it (the tag first, the rest the content), streamed;
//! - an internally tagged enum nested in the content of another (read while another read under
//!   the rules is under way) is buffered, as serde buffers it: streamed, its values would go
//!   through both enums' rules, one more layer for each level of nesting.
//!
//! Beyond serde: 128-bit integers in the content are read (serde's buffer cannot hold them:
//! issue #1682), and the variant sees the source format's `is_human_readable` (serde's replay
//! answers `true`: issue #2172).

use core::fmt;
use core::marker::PhantomData;

use serde::de::value::SeqAccessDeserializer;
use serde::de::{Deserialize, DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};

use super::content_rules::{
    self, Cx, Lazy, MapNode, MapSource, Node, SeqNode, SeqSource, TagOrValue, TagOrValueSeed,
    UnderWay,
};
use crate::arena_deserialize::NestedSeed;
use crate::slice_builder::{self, BuildError, SliceBuilder};
use crate::{ArenaDeserialize, BumpAllocator, Value};

/// Reads an internally tagged enum from `deserializer` into `arena`: the tag (with `T`, the
/// variant identifier), then the content with the seed `seed` makes of the tag. `expecting` is
/// the enum's expectation (``internally tagged enum X``, or its `expecting` attribute). Not
/// public API.
///
/// # Errors
///
/// serde's errors, in serde's words: ``missing field `t` ``, ``duplicate field `t` ``, the
/// variant's.
pub fn deserialize_internally_tagged<'de, 'bump, D, T, F, S, A>(
    arena: &'bump A,
    deserializer: D,
    tag: &'static str,
    expecting: &'static str,
    seed: F,
) -> Result<S::Value, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
    F: FnOnce(T) -> S,
    S: DeserializeSeed<'de>,
    A: BumpAllocator + ?Sized,
{
    let cx = Cx::new(arena, deserializer.is_human_readable());
    let (_under_way, nested) = UnderWay::enter();
    let visitor = TaggedVisitor {
        cx,
        tag,
        expecting,
        seed,
        stream: !nested,
        marker: PhantomData,
    };
    // An error of the content leaves the format's call as a value, so the format adds nothing
    // to it (serde replays after the format's call returned).
    match deserializer.deserialize_any(visitor)? {
        Lazy::Value(value) => Ok(value),
        Lazy::Replay(error) => Err(error),
        Lazy::Tag => Err(D::Error::duplicate_field(tag)),
    }
}

/// The visitor of the map or sequence the tag is in (serde's `TaggedContentVisitor`).
struct TaggedVisitor<'bump, A: ?Sized, T, F, E> {
    cx: Cx<'bump, A, E>,
    tag: &'static str,
    expecting: &'static str,
    seed: F,
    /// Whether the rest may stream: not in the content of another read under the rules (see
    /// [`UnderWay`]).
    stream: bool,
    marker: PhantomData<fn() -> T>,
}

impl<'de, A, T, F, S, E> Visitor<'de> for TaggedVisitor<'_, A, T, F, E>
where
    A: BumpAllocator + ?Sized,
    T: Deserialize<'de>,
    F: FnOnce(T) -> S,
    S: DeserializeSeed<'de>,
    E: Error,
{
    type Value = Lazy<S::Value, E>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    /// The first element is the tag, the rest the content.
    fn visit_seq<Q: SeqAccess<'de>>(self, mut seq: Q) -> Result<Self::Value, Q::Error> {
        let Some(tag) = seq.next_element::<T>()? else {
            return Err(Q::Error::missing_field(self.tag));
        };
        if !self.stream {
            let rest = Value::deserialize_in(self.cx.arena, SeqAccessDeserializer::new(seq))?;
            let read = content_rules::replay((self.seed)(tag), &rest, self.cx);
            return Ok(Lazy::of(read));
        }
        let mut rest = SeqSource::new(seq, self.cx);
        let read = (self.seed)(tag).deserialize(Node(SeqNode::new(&mut rest, self.cx)));
        rest.settle(read)
    }

    /// The tag at any position; first, the rest streams into the variant, else the map is
    /// buffered.
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let first = map.next_key_seed(TagOrValueSeed::new(self.cx.arena, Some(self.tag)))?;
        match first {
            Some(TagOrValue::Tag) if self.stream => {
                let tag = map.next_value::<T>()?;
                let mut rest = MapSource::new(map, self.cx);
                let node = MapNode::new(&mut rest, self.cx, Some(self.tag));
                let read = (self.seed)(tag).deserialize(Node(node));
                rest.settle(read)
            }
            Some(first) => {
                let (tag, rest) = buffer(self.cx.arena, map, first, self.tag)?;
                let read = content_rules::replay((self.seed)(tag), &rest, self.cx);
                Ok(Lazy::of(read))
            }
            None => Err(M::Error::missing_field(self.tag)),
        }
    }
}

/// The map whose first key was `first`, buffered in `arena`: the tag, read with `T`, and the
/// other entries in input order.
fn buffer<'de, 'bump, A, M, T>(
    arena: &'bump A,
    mut map: M,
    first: TagOrValue<'bump>,
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
    let mut key = Some(first);
    while let Some(read) = key {
        match read {
            TagOrValue::Tag if tag.is_some() => {
                return Err(M::Error::duplicate_field(tag_name));
            }
            TagOrValue::Tag => tag = Some(map.next_value::<T>()?),
            TagOrValue::Value(key) => {
                let value = map.next_value_seed(value)?;
                entries.push((key, value)).map_err(BuildError::into_de)?;
            }
        }
        key = map.next_key_seed(TagOrValueSeed::new(arena, Some(tag_name)))?;
    }
    let Some(tag) = tag else {
        return Err(M::Error::missing_field(tag_name));
    };
    let entries = slice_builder::finish(entries, arena)?;
    Ok((tag, Value::Map(entries)))
}
