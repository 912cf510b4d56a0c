//! What the suites of internally and adjacently tagged enums share: [`Event`], an internally
//! tagged enum of every variant kind (also the content of an adjacently tagged enum), with its
//! twin and a strategy; the inputs they build by hand ([`TagAt`], [`msgpack`]); and
//! [`Readable`], which sees the deserializer's `is_human_readable`.

use arena_core::ArenaDeserialize;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

use crate::Format::{self, Cbor, CborIndefinite, Json, MsgPack, MsgPackNamed};
use crate::derive_support::{Pairs, SameAs};
use crate::shapes::{OwnedShape, Shape, shape};
use crate::twins;

twins! {
    /// A struct of three fields, the content of newtype variants.
    pub struct Point<'bump> / OwnedPoint {
        x: i32 => i32,
        y: i32 => i32,
        label: &'bump str => String,
    }
}

/// A unit struct, read from the empty rest of an internally tagged map.
#[derive(ArenaDeserialize, Debug)]
pub struct Marker;

/// The owned twin of [`Marker`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct OwnedMarker;

impl SameAs<OwnedMarker> for Marker {
    fn same_as(&self, _: &OwnedMarker) -> bool {
        true
    }
}

/// Another internally tagged enum, nested in [`Event`] as a newtype variant's content.
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "kind")]
pub enum Kind<'bump> {
    Circle { r: f64 },
    Named { name: &'bump str },
    Blank,
}

/// The owned twin of [`Kind`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind")]
pub enum OwnedKind {
    Circle { r: f64 },
    Named { name: String },
    Blank,
}

impl SameAs<OwnedKind> for Kind<'_> {
    fn same_as(&self, o: &OwnedKind) -> bool {
        match (self, o) {
            (Kind::Circle { r }, OwnedKind::Circle { r: o }) => r.same_as(o),
            (Kind::Named { name }, OwnedKind::Named { name: o }) => name.same_as(o),
            (Kind::Blank, OwnedKind::Blank) => true,
            _ => false,
        }
    }
}

/// Any [`OwnedKind`].
pub fn kind() -> impl Strategy<Value = OwnedKind> {
    prop_oneof![
        any::<f64>().prop_map(|r| OwnedKind::Circle { r }),
        any::<String>().prop_map(|name| OwnedKind::Named { name }),
        Just(OwnedKind::Blank),
    ]
}

/// Every variant kind an internally tagged enum allows, and every kind of newtype content:
/// a struct, an externally tagged enum, an internally tagged enum, a unit struct, a map, an
/// `Option`.
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "type")]
pub enum Event<'bump> {
    Started,
    Message {
        text: &'bump str,
        tags: &'bump [&'bump str],
        reply_to: Option<u32>,
    },
    At(Point<'bump>),
    Shape(Shape<'bump>),
    Kind(Kind<'bump>),
    Ping(Marker),
    Counts(&'bump [(&'bump str, u32)]),
    Maybe(Option<Point<'bump>>),
}

/// The owned twin of [`Event`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type")]
pub enum OwnedEvent {
    Started,
    Message {
        text: String,
        tags: Vec<String>,
        reply_to: Option<u32>,
    },
    At(OwnedPoint),
    Shape(OwnedShape),
    Kind(OwnedKind),
    Ping(OwnedMarker),
    Counts(Pairs<String, u32>),
    Maybe(Option<OwnedPoint>),
}

impl SameAs<OwnedEvent> for Event<'_> {
    fn same_as(&self, o: &OwnedEvent) -> bool {
        match (self, o) {
            (Event::Started, OwnedEvent::Started) => true,
            (
                Event::Message {
                    text,
                    tags,
                    reply_to,
                },
                OwnedEvent::Message {
                    text: t,
                    tags: g,
                    reply_to: r,
                },
            ) => text.same_as(t) && tags.same_as(g) && reply_to.same_as(r),
            (Event::At(a), OwnedEvent::At(b)) => a.same_as(b),
            (Event::Shape(a), OwnedEvent::Shape(b)) => a.same_as(b),
            (Event::Kind(a), OwnedEvent::Kind(b)) => a.same_as(b),
            (Event::Ping(a), OwnedEvent::Ping(b)) => a.same_as(b),
            (Event::Counts(a), OwnedEvent::Counts(b)) => a.same_as(b),
            (Event::Maybe(a), OwnedEvent::Maybe(b)) => a.same_as(b),
            _ => false,
        }
    }
}

/// Any [`OwnedEvent`] serde can serialize (not `Maybe`: serde writes no internally tagged
/// newtype variant holding an `Option`, it only reads one).
pub fn event() -> impl Strategy<Value = OwnedEvent> {
    prop_oneof![
        Just(OwnedEvent::Started),
        (any::<String>(), any::<Vec<String>>(), any::<Option<u32>>()).prop_map(
            |(text, tags, reply_to)| OwnedEvent::Message {
                text,
                tags,
                reply_to
            }
        ),
        any::<OwnedPoint>().prop_map(OwnedEvent::At),
        shape().prop_map(OwnedEvent::Shape),
        kind().prop_map(OwnedEvent::Kind),
        Just(OwnedEvent::Ping(OwnedMarker)),
        any::<Pairs<String, u32>>().prop_map(OwnedEvent::Counts),
    ]
}

/// The self-describing formats, where an internally tagged enum can be read at all.
pub const SELF_DESCRIBING: [Format; 5] = [Json, MsgPack, MsgPackNamed, Cbor, CborIndefinite];

/// `value`'s top-level map (as serde writes it) with the key `tag` moved to `position` (modulo
/// the number of entries), written as a map in every self-describing format: the tag first
/// streams, the tag anywhere else is buffered.
#[derive(Debug)]
pub struct TagAt(Vec<(String, serde_json::Value)>);

impl TagAt {
    /// `value` with its key `tag` moved to `position`.
    ///
    /// # Panics
    ///
    /// When `value` does not serialize to a map holding `tag`.
    pub fn new<T: Serialize>(value: &T, tag: &str, position: usize) -> Self {
        let serde_json::Value::Object(map) = serde_json::to_value(value).expect("serializes")
        else {
            panic!("an internally tagged enum writes a map");
        };
        let mut entries: Vec<(String, serde_json::Value)> = map.into_iter().collect();
        let at = entries.iter().position(|(k, _)| k == tag).expect("the tag");
        let tag = entries.remove(at);
        entries.insert(position % (entries.len() + 1), tag);
        Self(entries)
    }
}

impl Serialize for TagAt {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// [`differential!`](crate::differential) on `$value` with its tag moved to `$position`, in
/// every self-describing format, the errors compared as `$errors` says.
#[macro_export]
macro_rules! tag_at {
    ($arena_ty:ty, $owned_ty:ty, $value:expr, $tag:expr, $position:expr, $errors:expr) => {{
        let moved = $crate::tagged::TagAt::new($value, $tag, $position);
        for format in $crate::tagged::SELF_DESCRIBING {
            let bytes = format.to_bytes(&moved);
            $crate::differential!(@bytes format, $arena_ty, $owned_ty, &bytes, $errors);
        }
    }};
}

/// A key of a hand-built MessagePack map.
#[derive(Clone, Copy, Debug)]
pub enum Key {
    Str(&'static str),
    Bytes(&'static [u8]),
    Index(u64),
}

impl Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Key::Str(s) => serializer.serialize_str(s),
            Key::Bytes(b) => serializer.serialize_bytes(b),
            Key::Index(i) => serializer.serialize_u64(i),
        }
    }
}

/// A MessagePack map with these entries, in this order.
pub fn msgpack(entries: &[(Key, serde_json::Value)]) -> Vec<u8> {
    struct Entries<'a>(&'a [(Key, serde_json::Value)]);
    impl Serialize for Entries<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }
    MsgPack.to_bytes(&Entries(entries))
}

/// Reads any value and keeps only the deserializer's `is_human_readable`.
#[derive(Debug, PartialEq)]
pub struct Readable(pub bool);

impl<'bump, A: arena_core::BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for Readable {
    fn deserialize_in<'de, D: serde::Deserializer<'de>>(
        _arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        let human_readable = deserializer.is_human_readable();
        serde::de::IgnoredAny::deserialize(deserializer)?;
        Ok(Self(human_readable))
    }
}

impl<'de> Deserialize<'de> for Readable {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let human_readable = deserializer.is_human_readable();
        serde::de::IgnoredAny::deserialize(deserializer)?;
        Ok(Self(human_readable))
    }
}
