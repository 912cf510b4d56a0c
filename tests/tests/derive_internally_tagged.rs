//! Internally tagged enums (`#[serde(tag = "...")]`): the derive reads exactly what
//! serde_derive reads for the owned twin, on every format and arena, and fails where it fails.
//! A buffered representation's errors compare as errors (`Errors::AnyMessage`): serde's
//! buffer loses the input's position, the derive's error may carry it. Where a refusal has a
//! reason any reader names the same way (a missing, duplicate or unknown field or variant, a
//! value of the wrong type), the derive's message names it; otherwise serde's message shows the
//! input breaks the rule under test.
//!
//! - Property runs: values of each twin serialized in every format (serde puts the tag first,
//!   so the enum streams), the same values in the self-describing formats with the tag moved to
//!   any position (the buffered path), and corrupted bytes.
//! - Hand-written inputs for each rule of serde's `TaggedContentVisitor` and
//!   `ContentDeserializer`: the tag anywhere, twice, missing, as bytes or an index, the sequence
//!   form, unknown keys and variants, newtype contents, struct variants, error positions (the
//!   cases of serde's `test_enum_internally_tagged.rs` that apply).
//! - Named tests for where the derive deliberately does better than serde: the tag first is
//!   streamed with the same result as serde's buffer; 128-bit integers; `is_human_readable`.
//! - A recursive enum nests up to the depth limit.
//! - A map buffered for its late tag is not kept in the arena.
//!
//! [`Event`], the enum of every variant kind, is shared with the adjacently tagged suite
//! (`arena_tests::tagged`).

use arena_core::ArenaDeserialize;
use arena_tests::Format::{Cbor, Json, MsgPack};
use arena_tests::corruption::corruption;
use arena_tests::derive_support::Errors::AnyMessage;
use arena_tests::derive_support::{Bytes, SameAs};
use arena_tests::hostile::on_small_stack;
use arena_tests::tagged::{Event, Key, OwnedEvent, OwnedPoint, Point, Readable, event, msgpack};
use arena_tests::{corrupted, differential, json_reads, json_refuses, same_reading, tag_at};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

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
// Property runs.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(128)))]

    #[test]
    fn events(v in event()) { differential!(Event<'_>, OwnedEvent, &v, AnyMessage) }

    #[test]
    fn commands(v in command()) { differential!(Command<'_>, OwnedCommand, &v, AnyMessage) }

    #[test]
    fn records(v in record()) { differential!(Record<'_>, OwnedRecord, &v, AnyMessage) }

    #[test]
    fn events_tag_anywhere(v in event(), at in 0..5_usize) {
        tag_at!(Event<'_>, OwnedEvent, &v, "type", at, AnyMessage)
    }

    #[test]
    fn commands_tag_anywhere(v in command(), at in 0..4_usize) {
        tag_at!(Command<'_>, OwnedCommand, &v, "op", at, AnyMessage)
    }

    #[test]
    fn records_tag_anywhere(v in record(), at in 0..3_usize) {
        tag_at!(Record<'_>, OwnedRecord, &v, "t", at, AnyMessage)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(64)))]

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
}

// ---------------------------------------------------------------------------------------------
// Hand-written inputs.

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

/// The tag twice is refused, found first or later, streamed or buffered. serde calls it
/// ``duplicate field `type` `` even after an error of the content, as its buffer meets the
/// second tag first; a streamed read may meet the content's error first.
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
        let refusal = json_refuses!(Event<'_>, OwnedEvent, json, AnyMessage);
        assert!(
            refusal.serde.starts_with("duplicate field `type`"),
            "{json}: {refusal:?}"
        );
    }
}

/// A map without the tag is ``missing field `type` ``; so is an empty sequence, in serde's
/// words. The wrong kind of value is an error saying what was expected: the enum, or its
/// `expecting`.
#[test]
fn internal_tag_missing() {
    for json in ["{}", r#"{"text": "a", "tags": []}"#] {
        let refusal = json_refuses!(Event<'_>, OwnedEvent, json, AnyMessage);
        assert!(
            refusal.derive_says("missing field `type`"),
            "{json}: {refusal:?}"
        );
    }
    let empty = json_refuses!(Event<'_>, OwnedEvent, "[]", AnyMessage);
    assert!(empty.serde.starts_with("missing field `type`"), "{empty:?}");
    let string = json_refuses!(Event<'_>, OwnedEvent, r#""Started""#, AnyMessage);
    assert!(
        string.derive_says("expected internally tagged enum Event"),
        "{string:?}"
    );
    let null = json_refuses!(Command<'_>, OwnedCommand, "null", AnyMessage);
    assert!(null.derive_says("expected a command"), "{null:?}");
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
        same_reading!(MsgPack, Event<'_>, OwnedEvent, bytes, AnyMessage);
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
        assert_eq!(
            same_reading!(MsgPack, Event<'_>, OwnedEvent, &bytes, AnyMessage),
            None
        );
    }
    let twice = msgpack(&[
        (Key::Bytes(b"type"), json!("Started")),
        (Key::Str("type"), json!("Started")),
    ]);
    let refusal = same_reading!(MsgPack, Event<'_>, OwnedEvent, &twice, AnyMessage).unwrap();
    assert!(
        refusal.serde.starts_with("duplicate field `type`"),
        "{refusal:?}"
    );
    let index_out = msgpack(&[(Key::Str("type"), json!(9))]);
    assert!(same_reading!(MsgPack, Event<'_>, OwnedEvent, &index_out, AnyMessage).is_some());
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
        same_reading!(Json, Event<'_>, OwnedEvent, json.as_bytes(), AnyMessage);
    }
    json_reads!(Event<'_>, OwnedEvent, r#"["Message", "a", ["x"], 1]"#);
    json_reads!(Event<'_>, OwnedEvent, r#"["Started"]"#);
    json_reads!(Event<'_>, OwnedEvent, r#"["Ping"]"#);
    // Elements left over are an error (serde's length error).
    for (json, serde) in [
        (
            r#"["Started", 1]"#,
            "invalid length 1, expected 0 elements in sequence",
        ),
        (
            r#"["At", 1, 2, "l", 4]"#,
            "invalid length 4, expected 3 elements in sequence",
        ),
    ] {
        let refusal = json_refuses!(Event<'_>, OwnedEvent, json, AnyMessage);
        assert_eq!(refusal.serde, serde, "{json}");
    }
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
    let nope = json_refuses!(Event<'_>, OwnedEvent, r#"{"type": "Nope"}"#, AnyMessage);
    assert!(nope.derive_says("unknown variant `Nope`"), "{nope:?}");
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
    let mv = json_refuses!(Command<'_>, OwnedCommand, r#"{"op": "mv"}"#, AnyMessage);
    assert!(mv.derive_says("missing field `deltaX`"), "{mv:?}");
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
    // Refused for a reason the derive's generated code names, whoever reads the rest.
    for (json, reason) in [
        (r#"{"type": "Maybe"}"#, "missing field `x`"),
        (
            r#"{"type": "Shape", "triangle": 1}"#,
            "unknown variant `triangle`",
        ),
        (r#"{"type": "Kind", "name": "n"}"#, "missing field `kind`"),
    ] {
        let refusal = json_refuses!(Event<'_>, OwnedEvent, json, AnyMessage);
        assert!(refusal.derive_says(reason), "{json}: {refusal:?}");
    }
    // Refused by what serde's buffer answers the content: serde's words.
    for (json, serde) in [
        (
            r#"{"type": "Ping", "x": 1}"#,
            "invalid type: map, expected unit struct Marker",
        ),
        (
            r#"{"x": 1, "type": "Ping"}"#,
            "invalid type: map, expected unit struct Marker",
        ),
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
    ] {
        let refusal = json_refuses!(Event<'_>, OwnedEvent, json, AnyMessage);
        assert_eq!(refusal.serde, serde, "{json}");
    }
    for json in [r#"{"t": "Note"}"#, r#"{"x": 1, "t": "Note"}"#] {
        let refusal = json_refuses!(Record<'_>, OwnedRecord, json, AnyMessage);
        assert_eq!(
            refusal.serde, "invalid type: map, expected a string",
            "{json}"
        );
    }
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
        let refusal = json_refuses!(Event<'_>, OwnedEvent, json, AnyMessage);
        // serde's buffer gives no position; the derive may, streamed or not.
        assert!(refusal.derive_says(prefix), "{json}: {refusal:?}");
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
        same_reading!(MsgPack, Record<'_>, OwnedRecord, bytes, AnyMessage);
    }
    let mut bin = vec![0x82, 0xa1, b't', 0xa3, b'R', b'a', b'w', 0xa4];
    bin.extend_from_slice(b"data");
    bin.extend_from_slice(&[0xc4, 3, 1, 2, 3]);
    assert_eq!(
        same_reading!(MsgPack, Record<'_>, OwnedRecord, &bin, AnyMessage),
        None
    );
}

/// An enum inside a struct: the content's error carries a position in the input (serde's is
/// where its buffer ends, after the enum's map; the derive's may be where the content went
/// wrong).
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
        let refusal = same_reading!(Json, Holder<'_>, OwnedHolder, json.as_bytes(), AnyMessage);
        assert!(
            refusal
                .is_some_and(|r| r.serde.contains(" at line 1 column ")
                    && r.derive_says(" at line 1 column ")),
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
/// serde's buffer reads, refusing what it refuses. A byte budget that holds one copy of a long
/// string but not two tells the paths apart: the tag first fits, the tag last (buffered) does
/// not.
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
    for (json, serde) in [
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
        // An error of the input after one of the content: serde's buffer meets the input's
        // first.
        (
            r#"{"type": "Message", "text": 5, "tags": [}"#,
            "expected value at line 1 column 41",
        ),
    ] {
        let refusal = json_refuses!(Event<'_>, OwnedEvent, json, AnyMessage);
        assert_eq!(refusal.serde, serde, "{json}");
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

/// Beyond serde: 128-bit integers in an internally tagged enum's content are
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

/// Beyond serde: the variant sees the source format's `is_human_readable` (false for
/// MessagePack), streamed or buffered; serde's buffer answers `true`.
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

/// A recursive internally tagged enum nests up to the depth limit, streamed or buffered: a deep
/// input is an error on a 2 MiB stack, never a stack overflow; a shallow one reads as serde
/// reads it.
#[test]
fn deep_nesting_is_a_depth_error() {
    for tag_first in [true, false] {
        same_reading!(
            MsgPack,
            Chain<'_>,
            OwnedChain,
            &chain(20, tag_first),
            AnyMessage
        );
        let deep = chain(100_000, tag_first);
        let read = on_small_stack(move || {
            let bump = bumpalo::Bump::new();
            MsgPack.decode_in::<Chain<'_>, _>(&bump, &deep).map(|_| ())
        });
        let error = read.expect_err("too deep");
        assert!(error.contains("depth limit"), "{error}");
    }
}

#[derive(ArenaDeserialize, Debug, PartialEq)]
#[arena(tag = "type")]
enum Reading<'bump> {
    Sample { value: f64, unit: &'bump str },
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "type")]
enum OwnedReading {
    Sample { value: f64, unit: String },
}

#[derive(ArenaDeserialize, Debug, PartialEq)]
#[arena(tag = "type")]
enum Series<'bump> {
    Values {
        values: &'bump [u32],
        unit: &'bump str,
    },
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "type")]
enum OwnedSeries {
    Values { values: Vec<u32>, unit: String },
}

/// CBOR maps and arrays of indefinite length (serde writes a struct with a flattened field as
/// one) end with a break byte, which cbor4ii reads as it hands out the end: a variant's content,
/// read to its end, must not ask for an entry after that, or it reads past the break into the
/// value after the enum. Read with the tag first (streamed) and last (buffered), the variant's
/// array indefinite too, the enum followed by another value in an array.
#[test]
fn indefinite_length_cbor_content_is_read_to_its_end_and_no_further() {
    use arena_tests::cbor_indefinite::{indefinite, indefinite_maps};
    let series = OwnedSeries::Values {
        values: vec![1, 2, 3],
        unit: "K".to_owned(),
    };
    let tag_first = Cbor.to_bytes(&series);
    let tag_last = Cbor.to_bytes(&arena_tests::tagged::TagAt::new(&series, "type", 2));
    for enum_bytes in [tag_first, tag_last] {
        for rewritten in [indefinite_maps(&enum_bytes), indefinite(&enum_bytes)] {
            // [enum, 7]: a definite array of two, the enum's containers indefinite.
            let bytes = [&[0x82][..], &rewritten, &[0x07]].concat();
            let owned: (OwnedSeries, u8) = cbor4ii::serde::from_slice(&bytes).unwrap();
            assert_eq!(owned, (series.clone(), 7));
            arena_tests::with_each_arena!(|arena| {
                let read: (Series<'_>, u8) = arena_core::cbor::from_slice(arena, &bytes).unwrap();
                assert_eq!(
                    read,
                    (
                        Series::Values {
                            values: &[1, 2, 3],
                            unit: "K"
                        },
                        7
                    )
                );
            });
        }
    }
}

/// The content of a tag-first variant streams, but reads as serde reads it from its buffer:
/// in CBOR, whose own reader refuses an integer where a float is asked, a float field takes an
/// integer (serde's buffer visits what the input held), and an unknown field's value is read
/// whole, so a string that is not UTF-8 in it is refused as serde's buffer refuses it.
#[test]
fn tag_first_content_reads_as_serde_reads_its_buffer() {
    #[derive(Serialize)]
    struct Wire<'a> {
        r#type: &'a str,
        value: u64,
        unit: &'a str,
    }
    let bytes = cbor4ii::serde::to_vec(
        Vec::new(),
        &Wire {
            r#type: "Sample",
            value: 3,
            unit: "K",
        },
    )
    .unwrap();
    let owned: OwnedReading = cbor4ii::serde::from_slice(&bytes).unwrap();
    assert_eq!(
        owned,
        OwnedReading::Sample {
            value: 3.0,
            unit: "K".to_owned()
        }
    );
    let bump = bumpalo::Bump::new();
    let read: Reading<'_> = arena_core::cbor::from_slice(&bump, &bytes).unwrap();
    assert_eq!(
        read,
        Reading::Sample {
            value: 3.0,
            unit: "K"
        }
    );

    let mut json = br#"{"type": "Sample", "value": 1.5, "unit": "K", "note": "#.to_vec();
    json.extend_from_slice(b"\"\xff\xfe\"}");
    assert!(serde_json::from_slice::<OwnedReading>(&json).is_err());
    let arena = arena_core::json::from_slice::<Reading<'_>, _>(&bump, &json);
    assert!(arena.is_err(), "{arena:?}");
}

#[derive(ArenaDeserialize, Debug, PartialEq)]
#[arena(tag = "type")]
enum Shape<'bump> {
    Circle {
        r: u32,
        name: &'bump str,
    },
    Group {
        name: &'bump str,
        inner: &'bump [Shape<'bump>],
    },
}

/// Where the tag comes after other keys, the map is buffered to be replayed into the variant,
/// in the thread's buffer, given back once the variant is read: the arena being filled holds
/// the value and nothing else, as when the tag comes first. Nested buffers (a late tag inside
/// a map buffered for its own late tag) and a failed read give theirs back too.
#[test]
fn a_buffered_map_is_not_kept_in_the_arena() {
    use arena_core::{BumpAllocator, SlabArena};
    let used = |json: &str| {
        let arena = SlabArena::new();
        let shape: Shape<'_> = arena_core::json::from_str(&arena, json).unwrap();
        let circle = Shape::Circle {
            r: 1,
            name: "a name",
        };
        assert_eq!(
            shape,
            Shape::Group {
                name: "outer",
                inner: &[circle]
            }
        );
        BumpAllocator::stats(&arena).used_bytes
    };
    let first = used(
        r#"{"type": "Group", "name": "outer", "inner": [{"type": "Circle", "r": 1, "name": "a name"}]}"#,
    );
    let last = used(
        r#"{"name": "outer", "inner": [{"r": 1, "name": "a name", "with": [1, 2], "type": "Circle"}], "type": "Group"}"#,
    );
    // (The two differ by alignment padding only, less than a `Shape`'s alignment either way:
    // the strings come in another order; a buffered map in the arena would add at least an
    // entry of two `Value`s per key.)
    assert!(
        last < first + align_of::<Shape<'_>>(),
        "{last} bytes with the tag last, {first} with it first"
    );

    let arena = SlabArena::new();
    let failed = arena_core::json::from_str::<Shape<'_>, _>(
        &arena,
        r#"{"name": "outer", "inner": [{"r": "one", "type": "Circle"}], "type": "Group"}"#,
    );
    assert!(failed.is_err());
    let buffer = arena_core::thread_memory_stats().buffer_capacity;
    assert!(buffer > 0, "the buffer keeps its chunk for the next map");
    let again: Shape<'_> =
        arena_core::json::from_str(&arena, r#"{"inner": [], "name": "again", "type": "Group"}"#)
            .unwrap();
    assert_eq!(
        again,
        Shape::Group {
            name: "again",
            inner: &[]
        }
    );
    assert_eq!(arena_core::thread_memory_stats().buffer_capacity, buffer);
    arena_core::release_thread_scratch();
    assert_eq!(arena_core::thread_memory_stats().buffer_capacity, 0);
}

/// Elements left over in MessagePack's sequence form, after a unit variant or a struct
/// variant, are serde's length error in serde's words: MessagePack writes an array's length,
/// which the length check reads from the size hint (JSON gives none, and its error only says
/// that elements were left).
#[test]
fn internal_sequence_form_leftovers_have_serde_length_words_in_messagepack() {
    for (bytes, serde) in [
        (
            rmp_serde::to_vec(&("Started", 1)).unwrap(),
            "invalid length 1, expected 0 elements in sequence",
        ),
        (
            rmp_serde::to_vec(&("At", 1, 2, "l", 4)).unwrap(),
            "invalid length 4, expected 3 elements in sequence",
        ),
    ] {
        let refusal = same_reading!(MsgPack, Event<'_>, OwnedEvent, &bytes, AnyMessage).unwrap();
        assert_eq!(refusal.serde, serde, "{bytes:02x?}");
        for derive in &refusal.derive {
            assert_eq!(derive, serde, "{bytes:02x?}");
        }
    }
}

/// A struct read as content (a newtype variant's), through the visitor it shares with its
/// serde path in `Content` mode: a struct-typed field built in its slot, an optional one,
/// unknown fields read whole, the fields in any order around the tag, and a slice of an
/// externally tagged enum (its visitor shared the same way) of every variant shape.
#[derive(ArenaDeserialize, Debug)]
struct Leaf<'bump> {
    name: &'bump str,
    n: u32,
}

#[derive(Deserialize, Debug, PartialEq)]
struct OwnedLeaf {
    name: String,
    n: u32,
}

impl SameAs<OwnedLeaf> for Leaf<'_> {
    fn same_as(&self, o: &OwnedLeaf) -> bool {
        self.name.same_as(&o.name) && self.n == o.n
    }
}

/// An externally tagged enum read as content: its visitor too is shared with its serde path.
#[derive(ArenaDeserialize, Debug)]
enum Bud<'bump> {
    Closed,
    Named(&'bump str),
    Pair(u8, Leaf<'bump>),
    Open { petals: u8, leaf: Leaf<'bump> },
}

#[derive(Deserialize, Debug, PartialEq)]
enum OwnedBud {
    Closed,
    Named(String),
    Pair(u8, OwnedLeaf),
    Open { petals: u8, leaf: OwnedLeaf },
}

impl SameAs<OwnedBud> for Bud<'_> {
    fn same_as(&self, o: &OwnedBud) -> bool {
        match (self, o) {
            (Bud::Closed, OwnedBud::Closed) => true,
            (Bud::Named(a), OwnedBud::Named(b)) => a.same_as(b),
            (Bud::Pair(a, l), OwnedBud::Pair(b, m)) => a == b && l.same_as(m),
            (Bud::Open { petals, leaf }, OwnedBud::Open { petals: p, leaf: l }) => {
                petals == p && leaf.same_as(l)
            }
            _ => false,
        }
    }
}

#[derive(ArenaDeserialize, Debug)]
struct Branch<'bump> {
    leaf: Leaf<'bump>,
    spare: Option<Leaf<'bump>>,
    leaves: &'bump [Leaf<'bump>],
    #[serde(default)]
    buds: &'bump [Bud<'bump>],
}

#[derive(Deserialize, Debug, PartialEq)]
struct OwnedBranch {
    leaf: OwnedLeaf,
    spare: Option<OwnedLeaf>,
    leaves: Vec<OwnedLeaf>,
    #[serde(default)]
    buds: Vec<OwnedBud>,
}

impl SameAs<OwnedBranch> for Branch<'_> {
    fn same_as(&self, o: &OwnedBranch) -> bool {
        self.leaf.same_as(&o.leaf)
            && self.spare.same_as(&o.spare)
            && self.leaves.same_as(&o.leaves)
            && self.buds.same_as(&o.buds)
    }
}

#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "t")]
enum Tree<'bump> {
    Grow(Branch<'bump>),
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "t")]
enum OwnedTree {
    Grow(OwnedBranch),
}

impl SameAs<OwnedTree> for Tree<'_> {
    fn same_as(&self, o: &OwnedTree) -> bool {
        let (Tree::Grow(a), OwnedTree::Grow(b)) = (self, o);
        a.same_as(b)
    }
}

#[test]
fn a_struct_and_an_enum_read_as_content_share_their_visitors() {
    for json in [
        r#"{"t": "Grow", "leaf": {"name": "a", "n": 1}, "leaves": []}"#,
        r#"{"leaf": {"n": 1, "name": "a"}, "t": "Grow", "spare": null, "leaves": []}"#,
        r#"{"leaves": [{"name": "b", "n": 2}], "leaf": {"name": "a", "n": 1, "x": [1, {"y": 2}]}, "t": "Grow"}"#,
        r#"{"t": "Grow", "spare": {"name": "s", "n": 3}, "leaf": {"name": "a", "n": 1}, "leaves": [], "z": {"deep": [[]]}}"#,
        r#"{"t": "Grow", "leaf": ["a", 1], "leaves": [["b", 2]]}"#,
        r#"{"leaf": {"name": "a", "n": 1}, "leaves": [], "t": "Grow", "buds": ["Closed", {"Named": "x"}, {"Pair": [3, {"name": "p", "n": 4}]}, {"Open": {"leaf": {"name": "o", "n": 5}, "petals": 6}}]}"#,
        r#"{"t": "Grow", "leaf": {"name": "a", "n": 1}, "leaves": [], "buds": [{"Closed": null}, {"Open": [6, ["o", 5]]}]}"#,
    ] {
        json_reads!(Tree<'_>, OwnedTree, json);
    }
    for (json, prefix) in [
        (
            r#"{"t": "Grow", "leaf": {"name": "a", "n": 1}, "leaf": {"name": "b", "n": 2}, "leaves": []}"#,
            "duplicate field `leaf`",
        ),
        (
            r#"{"leaf": {"name": "a", "n": 1}, "leaves": [], "leaf": {"name": "b", "n": 2}, "t": "Grow"}"#,
            "duplicate field `leaf`",
        ),
        (r#"{"t": "Grow", "leaves": []}"#, "missing field `leaf`"),
        (
            r#"{"leaves": [], "t": "Grow", "leaf": {"name": "a"}}"#,
            "missing field `n`",
        ),
        (
            r#"{"t": "Grow", "leaf": {"name": "a", "n": -1}, "leaves": []}"#,
            "invalid value: integer `-1`, expected u32",
        ),
        (
            r#"{"t": "Grow", "leaf": 5, "leaves": []}"#,
            "invalid type: integer `5`, expected struct Leaf",
        ),
        (
            r#"{"leaf": {"name": "a", "n": 1}, "leaves": [], "buds": [{"Wilted": 1}], "t": "Grow"}"#,
            "unknown variant `Wilted`",
        ),
        (
            r#"{"t": "Grow", "leaf": {"name": "a", "n": 1}, "leaves": [], "buds": [{"Pair": [3]}]}"#,
            "invalid length 1, expected tuple variant Bud::Pair with 2 elements",
        ),
        (
            r#"{"t": "Grow", "leaf": {"name": "a", "n": 1}, "leaves": [], "buds": [{"Open": {"petals": 1, "petals": 2}}]}"#,
            "duplicate field `petals`",
        ),
    ] {
        let refusal = json_refuses!(Tree<'_>, OwnedTree, json, AnyMessage);
        // serde's buffer gives no position; the derive may, streamed or not.
        assert!(refusal.derive_says(prefix), "{json}: {refusal:?}");
        assert!(refusal.serde.starts_with(prefix), "{json}: {refusal:?}");
    }
}
