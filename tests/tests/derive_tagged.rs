//! Internally tagged (`tag`) and adjacently tagged (`tag` + `content`) enums: the derive reads
//! exactly what serde_derive reads for the owned twin, on every format and arena, and fails where
//! it fails with the same message.
//!
//! - Property runs: values of each twin serialized in every format (serde puts the tag first,
//!   so an internally tagged enum streams), the same values in the self-describing formats with
//!   the tag moved to any position (the buffered path), and corrupted bytes.
//! - Hand-written inputs for each rule of serde's `TaggedContentVisitor`,
//!   `ContentDeserializer`, `TagOrContentFieldVisitor` ...: the tag anywhere, twice, missing, as
//!   bytes, the sequence form, unknown keys, missing content, content before the tag, keys by
//!   index (the cases of serde's `test_enum_internally_tagged.rs` and
//!   `test_enum_adjacently_tagged.rs` that apply).
//! - Named tests for where the derive deliberately does better than serde: the tag first is
//!   streamed with the same result as serde's buffer; 128-bit integers; `is_human_readable`.

use arena_core::ArenaDeserialize;
use arena_tests::Format::{self, Cbor, Json, MsgPack, MsgPackNamed};
use arena_tests::corruption::corruption;
use arena_tests::derive_support::{Bytes, Pairs, SameAs};
use arena_tests::shapes::{OwnedShape, Shape, shape};
use arena_tests::{corrupted, differential, twins};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

twins! {
    struct Point<'bump> / OwnedPoint {
        x: i32 => i32,
        y: i32 => i32,
        label: &'bump str => String,
    }
}

/// A unit struct, read from the empty rest of an internally tagged map.
#[derive(ArenaDeserialize, Debug)]
struct Marker;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedMarker;

impl SameAs<OwnedMarker> for Marker {
    fn same_as(&self, _: &OwnedMarker) -> bool {
        true
    }
}

// ---------------------------------------------------------------------------------------------
// Internally tagged enums.

/// Another internally tagged enum, nested in [`Event`] as a newtype variant's content.
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "kind")]
enum Kind<'bump> {
    Circle { r: f64 },
    Named { name: &'bump str },
    Blank,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind")]
enum OwnedKind {
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

fn kind() -> impl Strategy<Value = OwnedKind> {
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
enum Event<'bump> {
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

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type")]
enum OwnedEvent {
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
fn event() -> impl Strategy<Value = OwnedEvent> {
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

/// Renamed variants, an alias, a skipped variant, `other`, `expecting`.
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "op", rename_all = "snake_case", expecting = "a command")]
enum Command<'bump> {
    #[serde(alias = "begin")]
    StartAll {
        at: u64,
        note: Option<&'bump str>,
    },
    Stop,
    #[serde(rename = "mv", rename_all = "camelCase")]
    MoveTo {
        delta_x: i32,
        delta_y: i32,
    },
    #[serde(skip)]
    #[allow(dead_code)]
    Hidden(u8),
    Wrap(Point<'bump>),
    #[serde(other)]
    Unknown,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case", expecting = "a command")]
enum OwnedCommand {
    #[serde(alias = "begin")]
    StartAll {
        at: u64,
        note: Option<String>,
    },
    Stop,
    #[serde(rename = "mv", rename_all = "camelCase")]
    MoveTo {
        delta_x: i32,
        delta_y: i32,
    },
    #[serde(skip)]
    #[allow(dead_code)]
    Hidden(u8),
    Wrap(OwnedPoint),
    #[serde(other)]
    Unknown,
}

impl SameAs<OwnedCommand> for Command<'_> {
    fn same_as(&self, o: &OwnedCommand) -> bool {
        match (self, o) {
            (Command::StartAll { at, note }, OwnedCommand::StartAll { at: a, note: n }) => {
                at == a && note.same_as(n)
            }
            (Command::Stop, OwnedCommand::Stop) | (Command::Unknown, OwnedCommand::Unknown) => true,
            (
                Command::MoveTo { delta_x, delta_y },
                OwnedCommand::MoveTo {
                    delta_x: x,
                    delta_y: y,
                },
            ) => delta_x == x && delta_y == y,
            (Command::Wrap(a), OwnedCommand::Wrap(b)) => a.same_as(b),
            _ => false,
        }
    }
}

fn command() -> impl Strategy<Value = OwnedCommand> {
    prop_oneof![
        (any::<u64>(), any::<Option<String>>())
            .prop_map(|(at, note)| OwnedCommand::StartAll { at, note }),
        Just(OwnedCommand::Stop),
        any::<(i32, i32)>()
            .prop_map(|(delta_x, delta_y)| OwnedCommand::MoveTo { delta_x, delta_y }),
        any::<OwnedPoint>().prop_map(OwnedCommand::Wrap),
        Just(OwnedCommand::Unknown),
    ]
}

/// Slices of structs and of bytes, a field default, a struct variant without fields, and a
/// newtype of a string (which serde cannot write, only read: hand-written inputs).
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "t")]
enum Record<'bump> {
    Batch {
        items: &'bump [Point<'bump>],
        #[serde(default)]
        total: u64,
    },
    Raw {
        data: &'bump [u8],
    },
    Note(&'bump str),
    Empty {},
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "t")]
enum OwnedRecord {
    Batch {
        items: Vec<OwnedPoint>,
        #[serde(default)]
        total: u64,
    },
    Raw {
        data: Bytes<u8>,
    },
    Note(String),
    Empty {},
}

impl SameAs<OwnedRecord> for Record<'_> {
    fn same_as(&self, o: &OwnedRecord) -> bool {
        match (self, o) {
            (Record::Batch { items, total }, OwnedRecord::Batch { items: i, total: t }) => {
                items.same_as(i) && total == t
            }
            (Record::Raw { data }, OwnedRecord::Raw { data: d }) => data.same_as(d),
            (Record::Note(a), OwnedRecord::Note(b)) => a.same_as(b),
            (Record::Empty {}, OwnedRecord::Empty {}) => true,
            _ => false,
        }
    }
}

fn record() -> impl Strategy<Value = OwnedRecord> {
    prop_oneof![
        (
            proptest::collection::vec(any::<OwnedPoint>(), 0..4),
            any::<u64>()
        )
            .prop_map(|(items, total)| OwnedRecord::Batch { items, total }),
        any::<Bytes<u8>>().prop_map(|data| OwnedRecord::Raw { data }),
        Just(OwnedRecord::Empty {}),
    ]
}

// ---------------------------------------------------------------------------------------------
// Adjacently tagged enums.

/// Every variant kind, and newtypes of a struct, an enum and an `Option`.
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "t", content = "c")]
enum Block<'bump> {
    Empty,
    Text(&'bump str),
    Pair(u8, &'bump str),
    Item {
        name: &'bump str,
        qty: Option<u32>,
        parts: &'bump [u16],
    },
    At(Point<'bump>),
    Shape(Shape<'bump>),
    Maybe(Option<u32>),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "t", content = "c")]
enum OwnedBlock {
    Empty,
    Text(String),
    Pair(u8, String),
    Item {
        name: String,
        qty: Option<u32>,
        parts: Vec<u16>,
    },
    At(OwnedPoint),
    Shape(OwnedShape),
    Maybe(Option<u32>),
}

impl SameAs<OwnedBlock> for Block<'_> {
    fn same_as(&self, o: &OwnedBlock) -> bool {
        match (self, o) {
            (Block::Empty, OwnedBlock::Empty) => true,
            (Block::Text(a), OwnedBlock::Text(b)) => a.same_as(b),
            (Block::Pair(a, b), OwnedBlock::Pair(c, d)) => a == c && b.same_as(d),
            (
                Block::Item { name, qty, parts },
                OwnedBlock::Item {
                    name: n,
                    qty: q,
                    parts: p,
                },
            ) => name.same_as(n) && qty == q && parts.same_as(p),
            (Block::At(a), OwnedBlock::At(b)) => a.same_as(b),
            (Block::Shape(a), OwnedBlock::Shape(b)) => a.same_as(b),
            (Block::Maybe(a), OwnedBlock::Maybe(b)) => a == b,
            _ => false,
        }
    }
}

fn block() -> impl Strategy<Value = OwnedBlock> {
    prop_oneof![
        Just(OwnedBlock::Empty),
        any::<String>().prop_map(OwnedBlock::Text),
        any::<(u8, String)>().prop_map(|(a, b)| OwnedBlock::Pair(a, b)),
        (any::<String>(), any::<Option<u32>>(), any::<Vec<u16>>())
            .prop_map(|(name, qty, parts)| OwnedBlock::Item { name, qty, parts }),
        any::<OwnedPoint>().prop_map(OwnedBlock::At),
        shape().prop_map(OwnedBlock::Shape),
        any::<Option<u32>>().prop_map(OwnedBlock::Maybe),
    ]
}

/// `deny_unknown_fields`, renames, an alias, a skipped variant, `expecting`.
#[derive(ArenaDeserialize, Debug)]
#[serde(
    tag = "kind",
    content = "data",
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a strict block"
)]
enum Strict<'bump> {
    #[serde(alias = "nothing")]
    NoData,
    Word(&'bump str),
    ManyWords {
        list: &'bump [&'bump str],
    },
    #[serde(skip)]
    #[allow(dead_code)]
    Secret(u8),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(
    tag = "kind",
    content = "data",
    deny_unknown_fields,
    rename_all = "kebab-case",
    expecting = "a strict block"
)]
enum OwnedStrict {
    #[serde(alias = "nothing")]
    NoData,
    Word(String),
    ManyWords {
        list: Vec<String>,
    },
    #[serde(skip)]
    #[allow(dead_code)]
    Secret(u8),
}

impl SameAs<OwnedStrict> for Strict<'_> {
    fn same_as(&self, o: &OwnedStrict) -> bool {
        match (self, o) {
            (Strict::NoData, OwnedStrict::NoData) => true,
            (Strict::Word(a), OwnedStrict::Word(b)) => a.same_as(b),
            (Strict::ManyWords { list }, OwnedStrict::ManyWords { list: l }) => list.same_as(l),
            _ => false,
        }
    }
}

fn strict() -> impl Strategy<Value = OwnedStrict> {
    prop_oneof![
        Just(OwnedStrict::NoData),
        any::<String>().prop_map(OwnedStrict::Word),
        any::<Vec<String>>().prop_map(|list| OwnedStrict::ManyWords { list }),
    ]
}

/// `other`, and an internally tagged enum as the content.
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "type", content = "value")]
enum Setting<'bump> {
    Flag(bool),
    Level(u8),
    Names(&'bump [&'bump str]),
    Nested(Event<'bump>),
    #[serde(other)]
    Other,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", content = "value")]
enum OwnedSetting {
    Flag(bool),
    Level(u8),
    Names(Vec<String>),
    Nested(OwnedEvent),
    #[serde(other)]
    Other,
}

impl SameAs<OwnedSetting> for Setting<'_> {
    fn same_as(&self, o: &OwnedSetting) -> bool {
        match (self, o) {
            (Setting::Flag(a), OwnedSetting::Flag(b)) => a == b,
            (Setting::Level(a), OwnedSetting::Level(b)) => a == b,
            (Setting::Names(a), OwnedSetting::Names(b)) => a.same_as(b),
            (Setting::Nested(a), OwnedSetting::Nested(b)) => a.same_as(b),
            (Setting::Other, OwnedSetting::Other) => true,
            _ => false,
        }
    }
}

fn setting() -> impl Strategy<Value = OwnedSetting> {
    prop_oneof![
        any::<bool>().prop_map(OwnedSetting::Flag),
        any::<u8>().prop_map(OwnedSetting::Level),
        any::<Vec<String>>().prop_map(OwnedSetting::Names),
        event().prop_map(OwnedSetting::Nested),
        Just(OwnedSetting::Other),
    ]
}

// ---------------------------------------------------------------------------------------------
// Property runs.

/// The self-describing formats, where an internally tagged enum can be read at all.
const SELF_DESCRIBING: [Format; 4] = [Json, MsgPack, MsgPackNamed, Cbor];

/// `value`'s top-level map (as serde writes it) with the key `tag` moved to `position` (modulo
/// the number of entries), written as a map in every self-describing format: the tag first
/// streams, the tag anywhere else is buffered.
struct TagAt(Vec<(String, serde_json::Value)>);

impl TagAt {
    fn new<T: Serialize>(value: &T, tag: &str, position: usize) -> Self {
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

/// [`differential!`] on `$value` with its tag moved to `$position`, in every self-describing
/// format.
macro_rules! tag_at {
    ($arena_ty:ty, $owned_ty:ty, $value:expr, $tag:expr, $position:expr) => {{
        let moved = TagAt::new($value, $tag, $position);
        for format in SELF_DESCRIBING {
            let bytes = format.to_bytes(&moved);
            differential!(@bytes format, $arena_ty, $owned_ty, &bytes, arena_tests::derive_support::Errors::SameMessage);
        }
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn events(v in event()) { differential!(Event<'_>, OwnedEvent, &v) }

    #[test]
    fn commands(v in command()) { differential!(Command<'_>, OwnedCommand, &v) }

    #[test]
    fn records(v in record()) { differential!(Record<'_>, OwnedRecord, &v) }

    #[test]
    fn blocks(v in block()) { differential!(Block<'_>, OwnedBlock, &v) }

    #[test]
    fn stricts(v in strict()) { differential!(Strict<'_>, OwnedStrict, &v) }

    #[test]
    fn settings(v in setting()) { differential!(Setting<'_>, OwnedSetting, &v) }

    #[test]
    fn events_tag_anywhere(v in event(), at in 0..5_usize) {
        tag_at!(Event<'_>, OwnedEvent, &v, "type", at)
    }

    #[test]
    fn commands_tag_anywhere(v in command(), at in 0..4_usize) {
        tag_at!(Command<'_>, OwnedCommand, &v, "op", at)
    }

    #[test]
    fn records_tag_anywhere(v in record(), at in 0..3_usize) {
        tag_at!(Record<'_>, OwnedRecord, &v, "t", at)
    }

    #[test]
    fn blocks_content_first(v in block(), at in 0..2_usize) {
        tag_at!(Block<'_>, OwnedBlock, &v, "t", at)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn events_corrupted(v in event(), c in proptest::collection::vec(corruption(), 1..4)) {
        corrupted!(Event<'_>, OwnedEvent, &v, &c)
    }

    #[test]
    fn commands_corrupted(v in command(), c in proptest::collection::vec(corruption(), 1..4)) {
        corrupted!(Command<'_>, OwnedCommand, &v, &c)
    }

    #[test]
    fn records_corrupted(v in record(), c in proptest::collection::vec(corruption(), 1..4)) {
        corrupted!(Record<'_>, OwnedRecord, &v, &c)
    }

    #[test]
    fn blocks_corrupted(v in block(), c in proptest::collection::vec(corruption(), 1..4)) {
        corrupted!(Block<'_>, OwnedBlock, &v, &c)
    }

    #[test]
    fn stricts_corrupted(v in strict(), c in proptest::collection::vec(corruption(), 1..4)) {
        corrupted!(Strict<'_>, OwnedStrict, &v, &c)
    }

    #[test]
    fn settings_corrupted(v in setting(), c in proptest::collection::vec(corruption(), 1..4)) {
        corrupted!(Setting<'_>, OwnedSetting, &v, &c)
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-written inputs.

/// Reads `$bytes` in `$format` with serde_derive and the derive (every arena): the same value,
/// or the same error message; gives serde's message, if any.
macro_rules! same {
    ($format:expr, $arena_ty:ty, $owned_ty:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        differential!(@bytes $format, $arena_ty, $owned_ty, bytes, arena_tests::derive_support::Errors::SameMessage);
        $format.decode_owned::<$owned_ty>(bytes).err()
    }};
}

/// [`same!`] in JSON, for an input both read: returns nothing, panics on an error.
macro_rules! json_reads {
    ($arena_ty:ty, $owned_ty:ty, $json:expr) => {{
        let error = same!(Json, $arena_ty, $owned_ty, $json.as_bytes());
        assert_eq!(error, None, "{}", $json);
    }};
}

/// [`same!`] in JSON, for an input both refuse: the message (serde's, naming the twin's type
/// without its `Owned`, is the derive's).
macro_rules! json_refuses {
    ($arena_ty:ty, $owned_ty:ty, $json:expr) => {{
        let error = same!(Json, $arena_ty, $owned_ty, $json.as_bytes());
        error
            .unwrap_or_else(|| panic!("both read {}", $json))
            .replace("Owned", "")
    }};
}

/// A key of a hand-built MessagePack map.
#[derive(Clone, Copy)]
enum Key {
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
fn msgpack(entries: &[(Key, serde_json::Value)]) -> Vec<u8> {
    struct Entries<'a>(&'a [(Key, serde_json::Value)]);
    impl Serialize for Entries<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }
    MsgPack.to_bytes(&Entries(entries))
}

/// The tag first, in the middle, last: the same value (streamed, then buffered).
#[test]
fn internal_tag_at_any_position() {
    for json in [
        r#"{"type": "Message", "text": "a", "tags": ["x", "y"], "reply_to": 7}"#,
        r#"{"text": "a", "type": "Message", "tags": ["x", "y"], "reply_to": 7}"#,
        r#"{"text": "a", "tags": ["x", "y"], "reply_to": 7, "type": "Message"}"#,
        // A missing `Option` is `None`, wherever the tag is.
        r#"{"type": "Message", "text": "a", "tags": []}"#,
        r#"{"tags": [], "text": "a", "type": "Message"}"#,
        r#"{"type": "At", "x": 1, "y": -2, "label": "p"}"#,
        r#"{"label": "p", "y": -2, "type": "At", "x": 1}"#,
        r#"{"type": "Started"}"#,
        r#"{"a": 1, "type": "Started"}"#,
    ] {
        json_reads!(Event<'_>, OwnedEvent, json);
    }
}

/// The tag twice is ``duplicate field `type` ``, found first or later, streamed or buffered,
/// and before any error of the content, however late in the input.
#[test]
fn internal_tag_twice() {
    for json in [
        r#"{"type": "Message", "text": "a", "type": "Started", "tags": []}"#,
        r#"{"text": "a", "type": "Message", "type": "Started"}"#,
        r#"{"type": "Started", "x": 1, "type": "Started"}"#,
        r#"{"type": "At", "x": 1, "type": "At", "y": 2, "label": ""}"#,
        r#"{"type": "Ping", "type": "Ping"}"#,
        r#"{"type": "Counts", "a": 1, "type": "Counts"}"#,
        r#"{"type": "Shape", "type": "Shape"}"#,
        // The content is wrong before the second tag: serde reports the tag.
        r#"{"type": "Message", "text": 5, "type": "Started"}"#,
        r#"{"type": "Message", "tags": {"bad": 1}, "type": "Started"}"#,
        r#"{"type": "Maybe", "x": "bad", "type": "Started"}"#,
    ] {
        let error = json_refuses!(Event<'_>, OwnedEvent, json);
        assert!(
            error.starts_with("duplicate field `type`"),
            "{json}: {error}"
        );
    }
}

/// No tag is ``missing field `type` ``; a map, a sequence, or the wrong kind of value.
#[test]
fn internal_tag_missing() {
    for json in ["{}", r#"{"text": "a", "tags": []}"#, "[]"] {
        let error = json_refuses!(Event<'_>, OwnedEvent, json);
        assert!(error.starts_with("missing field `type`"), "{json}: {error}");
    }
    assert_eq!(
        json_refuses!(Event<'_>, OwnedEvent, r#""Started""#),
        "invalid type: string \"Started\", expected internally tagged enum Event at line 1 \
         column 9"
    );
    assert_eq!(
        json_refuses!(Command<'_>, OwnedCommand, "null"),
        "invalid type: null, expected a command at line 1 column 4"
    );
}

/// A key is the tag when it is a string or bytes equal to it; the tag's value is read by name,
/// bytes or index.
#[test]
fn internal_tag_as_bytes_and_index() {
    use serde_json::json;
    let inputs = [
        msgpack(&[
            (Key::Bytes(b"type"), json!("At")),
            (Key::Str("x"), json!(1)),
            (Key::Str("y"), json!(2)),
            (Key::Str("label"), json!("l")),
        ]),
        msgpack(&[
            (Key::Str("x"), json!(1)),
            (Key::Bytes(b"type"), json!("At")),
            (Key::Str("y"), json!(2)),
            (Key::Str("label"), json!("l")),
        ]),
        // Index 1 among the variants read: `Message`.
        msgpack(&[
            (Key::Str("type"), json!(1)),
            (Key::Str("text"), json!("t")),
            (Key::Str("tags"), json!([])),
        ]),
        msgpack(&[
            (Key::Str("text"), json!("t")),
            (Key::Str("tags"), json!([])),
            (Key::Str("type"), json!(1)),
        ]),
        // Integer keys are content, never the tag.
        msgpack(&[
            (Key::Str("type"), json!("Counts")),
            (Key::Index(0), json!(1)),
        ]),
        msgpack(&[
            (Key::Index(0), json!(1)),
            (Key::Str("type"), json!("Started")),
        ]),
    ];
    for bytes in &inputs {
        same!(MsgPack, Event<'_>, OwnedEvent, bytes);
    }
    // A field named by bytes, the tag being first or not.
    for bytes in [
        msgpack(&[
            (Key::Str("type"), json!("Message")),
            (Key::Bytes(b"text"), json!("t")),
            (Key::Bytes(b"tags"), json!(["a"])),
        ]),
        msgpack(&[
            (Key::Bytes(b"text"), json!("t")),
            (Key::Str("type"), json!("Message")),
            (Key::Bytes(b"tags"), json!(["a"])),
        ]),
    ] {
        assert_eq!(same!(MsgPack, Event<'_>, OwnedEvent, &bytes), None);
    }
    let twice = msgpack(&[
        (Key::Bytes(b"type"), json!("Started")),
        (Key::Str("type"), json!("Started")),
    ]);
    let error = same!(MsgPack, Event<'_>, OwnedEvent, &twice).unwrap();
    assert!(error.starts_with("duplicate field `type`"), "{error}");
    let index_out = msgpack(&[(Key::Str("type"), json!(9))]);
    assert!(same!(MsgPack, Event<'_>, OwnedEvent, &index_out).is_some());
}

/// A sequence: the tag, then the content.
#[test]
fn internal_sequence_form() {
    for json in [
        r#"["Message", "a", ["x"], 1]"#,
        r#"["Started"]"#,
        r#"["At", 1, 2, "l"]"#,
        r#"["Ping"]"#,
        r#"["Shape"]"#,
    ] {
        same!(Json, Event<'_>, OwnedEvent, json.as_bytes());
    }
    json_reads!(Event<'_>, OwnedEvent, r#"["Message", "a", ["x"], 1]"#);
    json_reads!(Event<'_>, OwnedEvent, r#"["Started"]"#);
    json_reads!(Event<'_>, OwnedEvent, r#"["Ping"]"#);
    // Elements left over are serde's length error.
    assert_eq!(
        json_refuses!(Event<'_>, OwnedEvent, r#"["Started", 1]"#),
        "invalid length 1, expected 0 elements in sequence"
    );
    assert_eq!(
        json_refuses!(Event<'_>, OwnedEvent, r#"["At", 1, 2, "l", 4]"#),
        "invalid length 4, expected 3 elements in sequence"
    );
    json_reads!(Event<'_>, OwnedEvent, r#"["Maybe", 1, 2, "l"]"#);
    json_reads!(Record<'_>, OwnedRecord, r#"["Empty"]"#);
    json_reads!(Record<'_>, OwnedRecord, r#"["Batch", [], 3]"#);
}

/// Unknown keys are skipped whatever they hold; unknown variants, `other`, aliases, renames
/// and skipped variants are read as serde reads them.
#[test]
fn internal_unknown_keys_and_variants() {
    for json in [
        r#"{"type": "Message", "text": "a", "tags": [], "extra": {"deep": [1, {"x": null}]}}"#,
        r#"{"extra": [true], "type": "Message", "text": "a", "tags": []}"#,
        r#"{"type": "Started", "a": 1, "b": [true, {"c": "d"}]}"#,
    ] {
        json_reads!(Event<'_>, OwnedEvent, json);
    }
    assert_eq!(
        json_refuses!(Event<'_>, OwnedEvent, r#"{"type": "Nope"}"#),
        "unknown variant `Nope`, expected one of `Started`, `Message`, `At`, `Shape`, `Kind`, \
         `Ping`, `Counts`, `Maybe` at line 1 column 15"
    );
    for json in [
        r#"{"op": "begin", "at": 1}"#,
        r#"{"at": 1, "op": "start_all", "note": "n"}"#,
        r#"{"op": "mv", "deltaX": 1, "deltaY": -1}"#,
        r#"{"deltaY": -1, "deltaX": 1, "op": "mv"}"#,
        r#"{"op": "whatever", "x": [1]}"#,
        r#"{"x": [1], "op": "whatever"}"#,
        // A skipped variant's name is unknown: `other`.
        r#"{"op": "hidden"}"#,
        r#"{"op": "wrap", "x": 0, "y": 0, "label": ""}"#,
        r#"{"op": "stop", "extra": 1}"#,
    ] {
        json_reads!(Command<'_>, OwnedCommand, json);
    }
    assert_eq!(
        json_refuses!(Command<'_>, OwnedCommand, r#"{"op": "mv"}"#),
        "missing field `deltaX`"
    );
    // `move_to` is no name of `MoveTo` (renamed `mv`): `other`.
    json_reads!(Command<'_>, OwnedCommand, r#"{"op": "move_to"}"#);
}

/// A newtype variant's type reads the rest of the map as serde's buffer replays it: a struct,
/// a map, a unit struct (from an empty rest only), an `Option`, an externally tagged enum (a
/// map of one entry), another internally tagged enum, a string (never).
#[test]
fn internal_newtype_contents() {
    for json in [
        r#"{"type": "Ping"}"#,
        r#"{"type": "Counts"}"#,
        r#"{"type": "Counts", "a": 1, "b": 2}"#,
        r#"{"a": 1, "type": "Counts", "b": 2}"#,
        r#"{"type": "Maybe", "x": 1, "y": 2, "label": "p"}"#,
        r#"{"x": 1, "y": 2, "type": "Maybe", "label": "p"}"#,
        r#"{"type": "Shape", "circle": 1.5}"#,
        r#"{"circle": 1.5, "type": "Shape"}"#,
        r#"{"type": "Shape", "round": 1.5}"#,
        r#"{"type": "Shape", "rect": [1, 2]}"#,
        r#"{"type": "Shape", "empty": null}"#,
        r#"{"type": "Shape", "empty": {}}"#,
        r#"{"type": "Shape", "labelled": {"labelText": "a", "sideCount": 3}}"#,
        r#"{"type": "Shape", "labelled": ["a", 3]}"#,
        r#"{"type": "Shape", "nested": null}"#,
        r#"{"type": "Shape", "nested": {"circle": 2.0}}"#,
        r#"{"type": "Kind", "kind": "Named", "name": "n"}"#,
        r#"{"type": "Kind", "name": "n", "kind": "Named"}"#,
        r#"{"name": "n", "kind": "Named", "type": "Kind"}"#,
        r#"{"type": "Kind", "kind": "Blank", "other": 1}"#,
    ] {
        json_reads!(Event<'_>, OwnedEvent, json);
    }
    for (json, expected) in [
        (
            r#"{"type": "Ping", "x": 1}"#,
            "invalid type: map, expected unit struct Marker",
        ),
        (
            r#"{"x": 1, "type": "Ping"}"#,
            "invalid type: map, expected unit struct Marker",
        ),
        (r#"{"type": "Maybe"}"#, "missing field `x`"),
        (
            r#"{"type": "Shape"}"#,
            "invalid value: map, expected map with a single key",
        ),
        (
            r#"{"type": "Shape", "circle": 1.0, "rect": [1, 2]}"#,
            "invalid value: map, expected map with a single key",
        ),
        (
            r#"{"type": "Shape", "triangle": 1, "rect": [1, 2]}"#,
            "invalid value: map, expected map with a single key",
        ),
        (
            r#"{"type": "Shape", "triangle": 1}"#,
            "unknown variant `triangle`, expected one of `empty`, `circle`, `round`, `rect`, \
             `labelled`, `polygon`, `nested`",
        ),
        (
            r#"{"type": "Shape", "empty": {"a": 1}}"#,
            "invalid type: map, expected unit",
        ),
        (
            r#"{"type": "Shape", "rect": {"a": 1}}"#,
            "invalid type: map, expected tuple variant",
        ),
        (
            r#"{"type": "Shape", "labelled": 5}"#,
            "invalid type: integer `5`, expected struct variant",
        ),
        (r#"{"type": "Kind", "name": "n"}"#, "missing field `kind`"),
    ] {
        assert_eq!(
            json_refuses!(Event<'_>, OwnedEvent, json),
            expected,
            "{json}"
        );
    }
    assert_eq!(
        json_refuses!(Record<'_>, OwnedRecord, r#"{"t": "Note"}"#),
        "invalid type: map, expected a string"
    );
    assert_eq!(
        json_refuses!(Record<'_>, OwnedRecord, r#"{"x": 1, "t": "Note"}"#),
        "invalid type: map, expected a string"
    );
}

/// A struct variant: its fields in any order around the tag, duplicates, missing fields,
/// defaults, bytes from a sequence or a byte string, no fields.
#[test]
fn internal_struct_variants() {
    for json in [
        r#"{"t": "Batch", "items": [{"x": 1, "y": 2, "label": "a"}]}"#,
        r#"{"items": [], "t": "Batch", "total": 3}"#,
        r#"{"t": "Raw", "data": [1, 2, 255]}"#,
        r#"{"data": [], "t": "Raw"}"#,
        r#"{"t": "Empty"}"#,
        r#"{"t": "Empty", "x": {"y": []}}"#,
    ] {
        json_reads!(Record<'_>, OwnedRecord, json);
    }
    for (json, prefix) in [
        (
            r#"{"type": "Message", "text": "a", "tags": [], "text": "b"}"#,
            "duplicate field `text`",
        ),
        (
            r#"{"text": "a", "tags": [], "type": "Message", "text": "b"}"#,
            "duplicate field `text`",
        ),
        (r#"{"type": "Message", "tags": []}"#, "missing field `text`"),
        (r#"{"tags": [], "type": "Message"}"#, "missing field `text`"),
        (
            r#"{"type": "Message", "text": 5, "tags": []}"#,
            "invalid type: integer `5`, expected a string",
        ),
        (
            r#"{"text": 5, "type": "Message", "tags": []}"#,
            "invalid type: integer `5`, expected a string",
        ),
        (
            r#"{"type": "Message", "text": "a", "tags": [], "reply_to": -1}"#,
            "invalid value: integer `-1`, expected u32",
        ),
    ] {
        let error = json_refuses!(Event<'_>, OwnedEvent, json);
        // serde's buffer gives no position: neither does the derive, streamed or not.
        assert_eq!(error, prefix, "{json}");
    }
    // Bytes from a MessagePack byte string, the tag first or not.
    use serde_json::json;
    let raw = [
        msgpack(&[
            (Key::Str("t"), json!("Raw")),
            (Key::Str("data"), json!(null)),
        ]),
        msgpack(&[
            (Key::Str("data"), json!([1, 2])),
            (Key::Str("t"), json!("Raw")),
        ]),
    ];
    for bytes in &raw {
        same!(MsgPack, Record<'_>, OwnedRecord, bytes);
    }
    let mut bin = vec![0x82, 0xa1, b't', 0xa3, b'R', b'a', b'w', 0xa4];
    bin.extend_from_slice(b"data");
    bin.extend_from_slice(&[0xc4, 3, 1, 2, 3]);
    assert_eq!(same!(MsgPack, Record<'_>, OwnedRecord, &bin), None);
}

/// An enum inside a struct: the content's error carries the position where serde's buffer
/// ends, after the enum's map, not where the content went wrong.
#[test]
fn internal_error_positions_inside_a_struct() {
    for json in [
        r#"{"event": {"type": "Message", "text": 5, "tags": []}, "after": 1}"#,
        r#"{"event": {"text": 5, "type": "Message", "tags": []}, "after": 1}"#,
        r#"{"event": {"type": "Message"}, "after": 1}"#,
        r#"{"event": {"type": "Ping", "a": 1}, "after": 1}"#,
        r#"{"event": {"type": "Shape", "circle": 1, "rect": 2}, "after": 1}"#,
        r#"{"event": ["Started", 1], "after": 1}"#,
    ] {
        let error = same!(Json, Holder<'_>, OwnedHolder, json.as_bytes());
        assert!(
            error.is_some_and(|e| e.contains(" at line 1 column ")),
            "{json}"
        );
    }
    json_reads!(
        Holder<'_>,
        OwnedHolder,
        r#"{"event": {"type": "Message", "text": "a", "tags": []}, "after": 1}"#
    );
}

/// A struct holding an internally tagged enum.
#[derive(ArenaDeserialize, Debug)]
struct Holder<'bump> {
    event: Event<'bump>,
    after: u8,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedHolder {
    event: OwnedEvent,
    after: u8,
}

impl SameAs<OwnedHolder> for Holder<'_> {
    fn same_as(&self, o: &OwnedHolder) -> bool {
        self.event.same_as(&o.event) && self.after == o.after
    }
}

/// The tag first: the rest of the map is streamed, never buffered, and reads exactly what
/// serde's buffer reads, error for error. A byte budget that holds one copy of a long string
/// but not two tells the paths apart: the tag first fits, the tag last (buffered) does not.
#[test]
fn internal_tag_first_streams_with_serde_result() {
    let text = "x".repeat(20_000);
    let first = format!(r#"{{"type": "Message", "text": "{text}", "tags": []}}"#);
    let last = format!(r#"{{"text": "{text}", "tags": [], "type": "Message"}}"#);
    json_reads!(Event<'_>, OwnedEvent, first);
    json_reads!(Event<'_>, OwnedEvent, last);
    let limits = arena_core::Limits::default().max_bytes(30_000);
    arena_tests::with_each_arena!(|arena| {
        let seed = Json.arena_seed::<Event<'_>, _>(arena).with_limits(limits);
        let streamed = Json.decode_seed(seed, first.as_bytes());
        assert!(
            matches!(streamed, Ok(Event::Message { text, .. }) if text.len() == 20_000),
            "the tag first reads within one copy"
        );
    });
    arena_tests::with_each_arena!(|arena| {
        let seed = Json.arena_seed::<Event<'_>, _>(arena).with_limits(limits);
        let buffered = Json.decode_seed(seed, last.as_bytes());
        assert!(buffered.is_err(), "the tag last buffers the string first");
    });
    // What a newtype's type asks of the streamed rest is answered as serde's buffer answers:
    // maps, options, unit structs, enums, newtype structs, and the length left over.
    for json in [
        r#"{"type": "Maybe", "x": 1, "y": 2, "label": "p"}"#,
        r#"{"type": "Ping"}"#,
        r#"{"type": "Shape", "empty": {}}"#,
        r#"{"type": "Counts", "k": 1}"#,
    ] {
        json_reads!(Event<'_>, OwnedEvent, json);
    }
    for (json, expected) in [
        (
            r#"{"type": "Ping", "a": 1}"#,
            "invalid type: map, expected unit struct Marker",
        ),
        (
            r#"{"type": "Shape", "circle": 1.0, "rect": [1, 2]}"#,
            "invalid value: map, expected map with a single key",
        ),
        (
            r#"{"type": "Shape"}"#,
            "invalid value: map, expected map with a single key",
        ),
        (
            r#"["Started", 1]"#,
            "invalid length 1, expected 0 elements in sequence",
        ),
        (
            r#"{"type": "Message", "text": "a", "tags": [], "type": "Started"}"#,
            "duplicate field `type` at line 1 column 51",
        ),
        // An error of the input after one of the content: the input's comes first.
        (
            r#"{"type": "Message", "text": 5, "tags": [}"#,
            "expected value at line 1 column 41",
        ),
    ] {
        assert_eq!(
            json_refuses!(Event<'_>, OwnedEvent, json),
            expected,
            "{json}"
        );
    }
}

/// An enum whose content has 128-bit integers.
#[derive(ArenaDeserialize, Debug, PartialEq)]
#[serde(tag = "t")]
enum Wide {
    Big { a: u128, b: i128 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(tag = "t")]
enum OwnedWide {
    Big { a: u128, b: i128 },
}

/// Beyond serde (issue #1682): 128-bit integers in an internally tagged enum's content are
/// read, where serde's buffer fails, streamed or buffered, in JSON (values within 64 bits) and
/// CBOR (the full range).
#[test]
fn internal_128_bit_integers_beyond_serde() {
    let inputs = [
        (Json, br#"{"t": "Big", "a": 5, "b": -3}"#.to_vec(), (5, -3)),
        (Json, br#"{"a": 5, "b": -3, "t": "Big"}"#.to_vec(), (5, -3)),
        (
            Cbor,
            Cbor.to_bytes(&OwnedWide::Big {
                a: u128::MAX,
                b: i128::MIN,
            }),
            (u128::MAX, i128::MIN),
        ),
    ];
    for (format, bytes, (a, b)) in inputs {
        let serde = format.decode_owned::<OwnedWide>(&bytes);
        assert!(
            serde.as_ref().is_err_and(|e| e.contains("128")),
            "serde's buffer cannot hold 128-bit integers: {serde:?}"
        );
        arena_tests::with_each_arena!(|arena| {
            let read: Result<Wide, String> = format.decode_in(arena, &bytes);
            assert_eq!(read, Ok(Wide::Big { a, b }), "{format}");
        });
    }
}

/// Reads any value and keeps only the deserializer's `is_human_readable`.
#[derive(Debug, PartialEq)]
struct Readable(bool);

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

#[derive(ArenaDeserialize, Debug, PartialEq)]
#[serde(tag = "t")]
enum InternalProbe {
    Read { probe: Readable },
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "t")]
enum OwnedInternalProbe {
    Read { probe: Readable },
}

#[derive(ArenaDeserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum AdjacentProbe {
    Read(Readable),
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum OwnedAdjacentProbe {
    Read(Readable),
}

/// Beyond serde (issue #2172): the variant sees the source format's `is_human_readable` (false
/// for MessagePack), streamed or buffered; serde's buffer answers `true`.
#[test]
fn human_readable_reaches_the_variant_beyond_serde() {
    use serde_json::json;
    let internal = [
        msgpack(&[
            (Key::Str("t"), json!("Read")),
            (Key::Str("probe"), json!(1)),
        ]),
        msgpack(&[
            (Key::Str("probe"), json!(1)),
            (Key::Str("t"), json!("Read")),
        ]),
    ];
    for bytes in &internal {
        let serde = MsgPack.decode_owned::<OwnedInternalProbe>(bytes);
        assert_eq!(
            serde,
            Ok(OwnedInternalProbe::Read {
                probe: Readable(true)
            })
        );
        arena_tests::with_each_arena!(|arena| {
            let read: Result<InternalProbe, String> = MsgPack.decode_in(arena, bytes);
            assert_eq!(
                read,
                Ok(InternalProbe::Read {
                    probe: Readable(false)
                })
            );
        });
    }
    // Adjacently tagged: the content first is buffered (serde's replay says `true`); the tag
    // first streams it (serde reads it from the format too).
    let content_first = msgpack(&[(Key::Str("c"), json!(1)), (Key::Str("t"), json!("Read"))]);
    assert_eq!(
        MsgPack.decode_owned::<OwnedAdjacentProbe>(&content_first),
        Ok(OwnedAdjacentProbe::Read(Readable(true)))
    );
    let tag_first = msgpack(&[(Key::Str("t"), json!("Read")), (Key::Str("c"), json!(1))]);
    assert_eq!(
        MsgPack.decode_owned::<OwnedAdjacentProbe>(&tag_first),
        Ok(OwnedAdjacentProbe::Read(Readable(false)))
    );
    for bytes in [&content_first, &tag_first] {
        arena_tests::with_each_arena!(|arena| {
            let read: Result<AdjacentProbe, String> = MsgPack.decode_in(arena, bytes);
            assert_eq!(read, Ok(AdjacentProbe::Read(Readable(false))));
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Adjacently tagged, hand-written.

/// The tag then the content (streamed), the content then the tag (buffered), unknown keys
/// around them.
#[test]
fn adjacent_tag_and_content_in_either_order() {
    for json in [
        r#"{"t": "Text", "c": "a"}"#,
        r#"{"c": "a", "t": "Text"}"#,
        r#"{"t": "Pair", "c": [1, "a"]}"#,
        r#"{"c": [1, "a"], "t": "Pair"}"#,
        r#"{"t": "Item", "c": {"name": "n", "parts": [1, 2]}}"#,
        r#"{"c": {"parts": [], "name": "n", "qty": 3}, "t": "Item"}"#,
        r#"{"t": "At", "c": {"x": 1, "y": 2, "label": "l"}}"#,
        r#"{"c": {"x": 1, "y": 2, "label": "l"}, "t": "At"}"#,
        r#"{"t": "Shape", "c": {"circle": 1.5}}"#,
        r#"{"c": "empty", "t": "Shape"}"#,
        r#"{"c": {"rect": [1, 2]}, "t": "Shape"}"#,
        r#"{"t": "Empty", "c": null}"#,
        r#"{"c": null, "t": "Empty"}"#,
        r#"{"t": "Maybe", "c": null}"#,
        r#"{"c": 5, "t": "Maybe"}"#,
        r#"{"f": null, "t": "Empty", "g": 1, "c": null, "h": [1, {"i": 2}]}"#,
        r#"{"f": [], "c": "a", "g": {}, "t": "Text", "h": 0}"#,
    ] {
        json_reads!(Block<'_>, OwnedBlock, json);
    }
    for (json, expected) in [
        (
            r#"{"c": {}, "t": "Empty"}"#,
            "invalid type: map, expected unit variant Block::Empty",
        ),
        (
            r#"{"c": 5, "t": "Text"}"#,
            "invalid type: integer `5`, expected a string",
        ),
        (
            r#"{"c": [1, "a", 2], "t": "Pair"}"#,
            "invalid length 3, expected 2 elements in sequence",
        ),
        (
            r#"{"c": {"name": "n"}, "t": "Item"}"#,
            "missing field `parts`",
        ),
    ] {
        let error = json_refuses!(Block<'_>, OwnedBlock, json);
        assert!(error.starts_with(expected), "{json}: {error}");
    }
}

/// The tag alone: a unit variant, a newtype of an `Option` (`None`); anything else misses its
/// content. No tag, the tag or the content twice.
#[test]
fn adjacent_missing_and_duplicate_keys() {
    json_reads!(Block<'_>, OwnedBlock, r#"{"t": "Empty"}"#);
    json_reads!(Block<'_>, OwnedBlock, r#"{"t": "Maybe"}"#);
    for (json, expected) in [
        (r#"{"t": "Text"}"#, "missing field `c`"),
        (r#"{"t": "Pair"}"#, "missing field `c`"),
        (r#"{"t": "Item"}"#, "missing field `c`"),
        (r#"{"t": "At"}"#, "missing field `c`"),
        ("{}", "missing field `t`"),
        (r#"{"c": 1}"#, "missing field `t`"),
        (r#"{"t": "Empty", "t": "Empty"}"#, "duplicate field `t`"),
        (
            r#"{"t": "Text", "c": "a", "c": "b"}"#,
            "duplicate field `c`",
        ),
        (
            r#"{"t": "Text", "c": "a", "t": "Text"}"#,
            "duplicate field `t`",
        ),
        (r#"{"c": "a", "c": "b"}"#, "duplicate field `c`"),
        (
            r#"{"c": "a", "t": "Text", "t": "Text"}"#,
            "duplicate field `t`",
        ),
        (
            r#"{"c": "a", "t": "Text", "c": "b"}"#,
            "duplicate field `c`",
        ),
        (
            r#"{"t": "Nope", "c": 1}"#,
            "unknown variant `Nope`, expected one of `Empty`, `Text`, `Pair`, `Item`, `At`, \
             `Shape`, `Maybe`",
        ),
        (r#"{"t": 5}"#, "expected value at line 1 column 7"),
        // The tag's value is read as an enum: a unit variant, by name.
        (
            r#"{"t": {"Empty": 1}}"#,
            "invalid type: integer `1`, expected unit",
        ),
        (
            "5",
            "invalid type: integer `5`, expected adjacently tagged enum Block",
        ),
    ] {
        let error = json_refuses!(Block<'_>, OwnedBlock, json);
        assert!(error.starts_with(expected), "{json}: {error}");
    }
}

/// `[tag, content]`, and its missing elements.
#[test]
fn adjacent_sequence_form() {
    for json in [
        r#"["Text", "a"]"#,
        r#"["Empty", null]"#,
        r#"["Pair", [1, "a"]]"#,
        r#"["Item", {"name": "n", "parts": []}]"#,
        r#"["Maybe", null]"#,
    ] {
        json_reads!(Block<'_>, OwnedBlock, json);
    }
    for (json, expected) in [
        (
            "[]",
            "invalid length 0, expected adjacently tagged enum Block",
        ),
        (
            r#"["Text"]"#,
            "invalid length 1, expected adjacently tagged enum Block",
        ),
        (r#"["Text", "a", 1]"#, "trailing characters"),
    ] {
        let error = json_refuses!(Block<'_>, OwnedBlock, json);
        assert!(error.starts_with(expected), "{json}: {error}");
    }
}

/// Keys by name, bytes and index (0 the tag, 1 the content); other indexes and names skipped,
/// or refused under `deny_unknown_fields` with serde's words.
#[test]
fn adjacent_keys_by_bytes_index_and_deny_unknown_fields() {
    use serde_json::json;
    for bytes in [
        msgpack(&[(Key::Index(0), json!("Text")), (Key::Index(1), json!("a"))]),
        msgpack(&[(Key::Index(1), json!("a")), (Key::Index(0), json!("Text"))]),
        msgpack(&[
            (Key::Bytes(b"t"), json!("Text")),
            (Key::Bytes(b"c"), json!("a")),
        ]),
        msgpack(&[
            (Key::Bytes(b"c"), json!("a")),
            (Key::Bytes(b"t"), json!("Text")),
        ]),
        msgpack(&[
            (Key::Index(2), json!(null)),
            (Key::Str("t"), json!("Text")),
            (Key::Bytes(b"x"), json!([1])),
            (Key::Str("c"), json!("a")),
        ]),
    ] {
        assert_eq!(same!(MsgPack, Block<'_>, OwnedBlock, &bytes), None);
    }
    json_reads!(Strict<'_>, OwnedStrict, r#"{"kind": "word", "data": "w"}"#);
    json_reads!(Strict<'_>, OwnedStrict, r#"{"data": "w", "kind": "word"}"#);
    json_reads!(Strict<'_>, OwnedStrict, r#"{"kind": "nothing"}"#);
    json_reads!(
        Strict<'_>,
        OwnedStrict,
        r#"{"kind": "no-data", "data": null}"#
    );
    json_reads!(
        Strict<'_>,
        OwnedStrict,
        r#"{"data": {"list": ["a"]}, "kind": "many-words"}"#
    );
    for (json, expected) in [
        (
            r#"{"kind": "word", "data": "w", "extra": 1}"#,
            "invalid value: string \"extra\", expected \"kind\" or \"data\"",
        ),
        (
            r#"{"extra": 1, "kind": "word", "data": "w"}"#,
            "invalid value: string \"extra\", expected \"kind\" or \"data\"",
        ),
        (
            r#"{"kind": "secret", "data": 1}"#,
            "unknown variant `secret`, expected one of `no-data`, `nothing`, `word`, \
             `many-words`",
        ),
        (
            "true",
            "invalid type: boolean `true`, expected a strict block",
        ),
    ] {
        let error = json_refuses!(Strict<'_>, OwnedStrict, json);
        assert!(error.starts_with(expected), "{json}: {error}");
    }
    let index_out = msgpack(&[(Key::Index(2), json!(1))]);
    assert_eq!(
        same!(MsgPack, Strict<'_>, OwnedStrict, &index_out).as_deref(),
        Some("invalid value: integer `2`, expected \"kind\" or \"data\"")
    );
    let bytes_out = msgpack(&[(Key::Bytes(b"zz"), json!(1))]);
    assert!(same!(MsgPack, Strict<'_>, OwnedStrict, &bytes_out).is_some());
}

/// `other`, and an internally tagged enum as the content, buffered or streamed.
#[test]
fn adjacent_other_and_nested_internal() {
    for json in [
        r#"{"type": "Whatever", "value": null}"#,
        r#"{"value": null, "type": "Whatever"}"#,
        r#"{"type": "Whatever"}"#,
        r#"{"type": "Nested", "value": {"type": "Message", "text": "a", "tags": []}}"#,
        r#"{"value": {"type": "Message", "text": "a", "tags": []}, "type": "Nested"}"#,
        r#"{"value": {"text": "a", "tags": [], "type": "Message"}, "type": "Nested"}"#,
        r#"{"value": {"type": "Ping"}, "type": "Nested"}"#,
        r#"{"type": "Names", "value": ["a", "b"]}"#,
    ] {
        json_reads!(Setting<'_>, OwnedSetting, json);
    }
    for (json, expected) in [
        (
            r#"{"type": "Whatever", "value": [1]}"#,
            "invalid type: sequence, expected unit variant Setting::Other",
        ),
        (
            r#"{"value": [1], "type": "Whatever"}"#,
            "invalid type: sequence, expected unit variant Setting::Other",
        ),
        (
            r#"{"value": {"type": "Ping", "x": 1}, "type": "Nested"}"#,
            "invalid type: map, expected unit struct Marker",
        ),
        (
            r#"{"value": {"text": "a", "tags": []}, "type": "Nested"}"#,
            "missing field `type`",
        ),
        (
            r#"{"value": {"type": "Message", "type": "Message"}, "type": "Nested"}"#,
            "duplicate field `type`",
        ),
        (
            r#"{"type": "Level", "value": 300}"#,
            "invalid value: integer `300`, expected u8",
        ),
        (
            r#"{"value": 300, "type": "Level"}"#,
            "invalid value: integer `300`, expected u8",
        ),
    ] {
        let error = json_refuses!(Setting<'_>, OwnedSetting, json);
        assert!(error.starts_with(expected), "{json}: {error}");
    }
}

// ---------------------------------------------------------------------------------------------
// Hostile input.

/// A recursive internally tagged enum.
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "t")]
enum Chain<'bump> {
    Link { next: Option<&'bump Chain<'bump>> },
    End,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "t")]
enum OwnedChain {
    Link { next: Option<Box<OwnedChain>> },
    End,
}

impl SameAs<OwnedChain> for Chain<'_> {
    fn same_as(&self, o: &OwnedChain) -> bool {
        match (self, o) {
            (Chain::Link { next }, OwnedChain::Link { next: n }) => next.same_as(n),
            (Chain::End, OwnedChain::End) => true,
            _ => false,
        }
    }
}

/// A recursive adjacently tagged enum.
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "t", content = "c")]
enum Nest<'bump> {
    Link(Option<&'bump Nest<'bump>>),
    End,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "t", content = "c")]
enum OwnedNest {
    Link(Option<Box<OwnedNest>>),
    End,
}

impl SameAs<OwnedNest> for Nest<'_> {
    fn same_as(&self, o: &OwnedNest) -> bool {
        match (self, o) {
            (Nest::Link(a), OwnedNest::Link(b)) => a.same_as(b),
            (Nest::End, OwnedNest::End) => true,
            _ => false,
        }
    }
}

/// `depth` links then the end, in MessagePack, the tag first or the content first in every
/// map.
fn nest(depth: usize, tag_first: bool) -> Vec<u8> {
    let link: &[u8] = if tag_first {
        b"\x82\xa1t\xa4Link\xa1c"
    } else {
        b"\x82\xa1c"
    };
    let mut bytes = link.repeat(depth);
    bytes.extend_from_slice(b"\x81\xa1t\xa3End");
    if !tag_first {
        bytes.extend_from_slice(&b"\xa1t\xa4Link".repeat(depth));
    }
    bytes
}

/// `depth` links then the end, in MessagePack, the tag first or last in every map.
fn chain(depth: usize, tag_first: bool) -> Vec<u8> {
    let link: &[u8] = if tag_first {
        b"\x82\xa1t\xa4Link\xa4next"
    } else {
        b"\x82\xa4next"
    };
    let mut bytes = link.repeat(depth);
    bytes.extend_from_slice(b"\x81\xa1t\xa3End");
    if !tag_first {
        for _ in 0..depth {
            bytes.extend_from_slice(b"\xa1t\xa4Link");
        }
    }
    bytes
}

/// Recursive tagged enums nest up to the depth limit, streamed or buffered: a deep input is an
/// error on a 2 MiB stack, never a stack overflow; a shallow one reads as serde reads it.
#[test]
fn deep_nesting_is_a_depth_error() {
    for tag_first in [true, false] {
        same!(MsgPack, Chain<'_>, OwnedChain, &chain(20, tag_first));
        let deep = chain(100_000, tag_first);
        let read = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let bump = bumpalo::Bump::new();
                MsgPack.decode_in::<Chain<'_>, _>(&bump, &deep).map(|_| ())
            })
            .expect("a thread")
            .join()
            .expect("no stack overflow");
        let error = read.expect_err("too deep");
        assert!(error.contains("depth limit"), "{error}");
        same!(MsgPack, Nest<'_>, OwnedNest, &nest(20, tag_first));
        let deep = nest(100_000, tag_first);
        let read = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let bump = bumpalo::Bump::new();
                MsgPack.decode_in::<Nest<'_>, _>(&bump, &deep).map(|_| ())
            })
            .expect("a thread")
            .join()
            .expect("no stack overflow");
        let error = read.expect_err("too deep");
        assert!(error.contains("depth limit"), "{error}");
    }
}
