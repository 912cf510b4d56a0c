//! Adjacently tagged enums (`#[serde(tag = "...", content = "...")]`): the derive reads
//! exactly what serde_derive reads for the owned twin, on every format and arena, and fails
//! where it fails. A buffered representation's errors compare as errors
//! (`Errors::AnyMessage`): serde's buffer loses the input's position, the derive's error may
//! carry it. Where a refusal has a reason any reader names the same way (a missing, duplicate
//! or unknown field or variant, a value of the wrong type, what was expected), the derive's
//! message names it; otherwise serde's message shows the input breaks the rule under test.
//!
//! - Property runs: values of each twin serialized in every format (serde puts the tag first,
//!   so the content streams), the same values in the self-describing formats with the content
//!   first (the buffered path), and corrupted bytes.
//! - Hand-written inputs for each rule of serde's `TagOrContentFieldVisitor` and its adjacent
//!   visitor: the tag and the content in either order, missing and duplicate keys, the sequence
//!   form, keys by bytes and index, `deny_unknown_fields`, `other`, an internally tagged enum as
//!   the content (the cases of serde's `test_enum_adjacently_tagged.rs` that apply).
//! - A named test for where the derive deliberately does better than serde:
//!   `is_human_readable`.
//! - A recursive enum nests up to the depth limit.
//! - Content buffered before its tag is not kept in the arena.

use arena_core::ArenaDeserialize;
use arena_tests::Format::MsgPack;
use arena_tests::corruption::corruption;
use arena_tests::derive_support::Errors::AnyMessage;
use arena_tests::derive_support::SameAs;
use arena_tests::hostile::on_small_stack;
use arena_tests::shapes::{OwnedShape, Shape, shape};
use arena_tests::tagged::{Event, Key, OwnedEvent, OwnedPoint, Point, Readable, event, msgpack};
use arena_tests::{corrupted, differential, json_reads, json_refuses, same_reading, tag_at};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(128)))]

    #[test]
    fn blocks(v in block()) { differential!(Block<'_>, OwnedBlock, &v, AnyMessage) }

    #[test]
    fn stricts(v in strict()) { differential!(Strict<'_>, OwnedStrict, &v, AnyMessage) }

    #[test]
    fn settings(v in setting()) { differential!(Setting<'_>, OwnedSetting, &v, AnyMessage) }

    #[test]
    fn blocks_content_first(v in block(), at in 0..2_usize) {
        tag_at!(Block<'_>, OwnedBlock, &v, "t", at, AnyMessage)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(64)))]

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
    // The content first, refused: for a reason the derive names ...
    for (json, reason) in [
        (
            r#"{"c": 5, "t": "Text"}"#,
            "invalid type: integer `5`, expected a string",
        ),
        (
            r#"{"c": {"name": "n"}, "t": "Item"}"#,
            "missing field `parts`",
        ),
    ] {
        let refusal = json_refuses!(Block<'_>, OwnedBlock, json, AnyMessage);
        assert!(refusal.derive_says(reason), "{json}: {refusal:?}");
    }
    // ... or for what serde's buffer answers the variant: serde's words.
    for (json, serde) in [
        (
            r#"{"c": {}, "t": "Empty"}"#,
            "invalid type: map, expected unit variant Block::Empty",
        ),
        (
            r#"{"c": [1, "a", 2], "t": "Pair"}"#,
            "invalid length 3, expected 2 elements in sequence",
        ),
    ] {
        let refusal = json_refuses!(Block<'_>, OwnedBlock, json, AnyMessage);
        assert!(refusal.serde.starts_with(serde), "{json}: {refusal:?}");
    }
}

/// The tag alone: a unit variant, a newtype of an `Option` (`None`); anything else misses its
/// content. No tag, the tag or the content twice.
#[test]
fn adjacent_missing_and_duplicate_keys() {
    json_reads!(Block<'_>, OwnedBlock, r#"{"t": "Empty"}"#);
    json_reads!(Block<'_>, OwnedBlock, r#"{"t": "Maybe"}"#);
    for (json, reason) in [
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
        (r#"{"t": "Nope", "c": 1}"#, "unknown variant `Nope`"),
        ("5", "expected adjacently tagged enum Block"),
    ] {
        let refusal = json_refuses!(Block<'_>, OwnedBlock, json, AnyMessage);
        assert!(refusal.derive_says(reason), "{json}: {refusal:?}");
    }
    // The tag's value is read as an enum, a unit variant by name: anything else is refused, in
    // the words of whatever reads it (serde's are shown).
    for (json, serde) in [
        (r#"{"t": 5}"#, "expected value at line 1 column 7"),
        (
            r#"{"t": {"Empty": 1}}"#,
            "invalid type: integer `1`, expected unit",
        ),
    ] {
        let refusal = json_refuses!(Block<'_>, OwnedBlock, json, AnyMessage);
        assert!(refusal.serde.starts_with(serde), "{json}: {refusal:?}");
    }
}

/// `[tag, content]`; missing or extra elements are refused (serde's words shown).
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
    for (json, serde) in [
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
        let refusal = json_refuses!(Block<'_>, OwnedBlock, json, AnyMessage);
        assert!(refusal.serde.starts_with(serde), "{json}: {refusal:?}");
    }
}

/// Keys by name, bytes and index (0 the tag, 1 the content); other indexes and names skipped,
/// or refused under `deny_unknown_fields` (serde's words shown).
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
        assert_eq!(
            same_reading!(MsgPack, Block<'_>, OwnedBlock, &bytes, AnyMessage),
            None
        );
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
    for json in [
        r#"{"kind": "word", "data": "w", "extra": 1}"#,
        r#"{"extra": 1, "kind": "word", "data": "w"}"#,
    ] {
        let refusal = json_refuses!(Strict<'_>, OwnedStrict, json, AnyMessage);
        assert!(
            refusal
                .serde
                .starts_with("invalid value: string \"extra\", expected \"kind\" or \"data\""),
            "{json}: {refusal:?}"
        );
    }
    let secret = json_refuses!(
        Strict<'_>,
        OwnedStrict,
        r#"{"kind": "secret", "data": 1}"#,
        AnyMessage
    );
    assert!(secret.derive_says("unknown variant `secret`"), "{secret:?}");
    let boolean = json_refuses!(Strict<'_>, OwnedStrict, "true", AnyMessage);
    assert!(
        boolean.derive_says("expected a strict block"),
        "{boolean:?}"
    );
    let index_out = msgpack(&[(Key::Index(2), json!(1))]);
    assert_eq!(
        same_reading!(MsgPack, Strict<'_>, OwnedStrict, &index_out, AnyMessage)
            .map(|r| r.serde)
            .as_deref(),
        Some("invalid value: integer `2`, expected \"kind\" or \"data\"")
    );
    let bytes_out = msgpack(&[(Key::Bytes(b"zz"), json!(1))]);
    assert!(same_reading!(MsgPack, Strict<'_>, OwnedStrict, &bytes_out, AnyMessage).is_some());
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
    // Refused for a reason the derive names ...
    for (json, reason) in [
        (
            r#"{"value": {"text": "a", "tags": []}, "type": "Nested"}"#,
            "missing field `type`",
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
        let refusal = json_refuses!(Setting<'_>, OwnedSetting, json, AnyMessage);
        assert!(refusal.derive_says(reason), "{json}: {refusal:?}");
    }
    // ... or for what serde's buffer answers the variant, or meets first: serde's words.
    for (json, serde) in [
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
            r#"{"value": {"type": "Message", "type": "Message"}, "type": "Nested"}"#,
            "duplicate field `type`",
        ),
    ] {
        let refusal = json_refuses!(Setting<'_>, OwnedSetting, json, AnyMessage);
        assert!(refusal.serde.starts_with(serde), "{json}: {refusal:?}");
    }
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

/// Beyond serde: the variant sees the source format's `is_human_readable` (false for
/// MessagePack). The content first is buffered (serde's replay says `true`); the tag first
/// streams it (serde reads it from the format too).
#[test]
fn human_readable_reaches_the_variant_beyond_serde() {
    use serde_json::json;
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
// Hostile input.

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

/// A recursive adjacently tagged enum nests up to the depth limit, the tag first or the
/// content first: a deep input is an error on a 2 MiB stack, never a stack overflow; a shallow
/// one reads as serde reads it.
#[test]
fn deep_nesting_is_a_depth_error() {
    for tag_first in [true, false] {
        same_reading!(
            MsgPack,
            Nest<'_>,
            OwnedNest,
            &nest(20, tag_first),
            AnyMessage
        );
        let deep = nest(100_000, tag_first);
        let read = on_small_stack(move || {
            let bump = bumpalo::Bump::new();
            MsgPack.decode_in::<Nest<'_>, _>(&bump, &deep).map(|_| ())
        });
        let error = read.expect_err("too deep");
        assert!(error.contains("depth limit"), "{error}");
    }
}

/// Where the content comes before the tag, it is buffered to be replayed into the variant, in
/// the thread's buffer, given back once the variant is read: the arena being filled holds the
/// value and nothing else, as when the tag comes first.
#[test]
fn content_buffered_before_its_tag_is_not_kept_in_the_arena() {
    use arena_core::{BumpAllocator, SlabArena};
    let used = |json: &str| {
        let arena = SlabArena::new();
        let block: Block<'_> = arena_core::json::from_str(&arena, json).unwrap();
        let Block::Item { name, qty, parts } = block else {
            panic!("read {block:?}");
        };
        assert_eq!((name, qty, parts), ("bolt", Some(3), &[1, 2, 3][..]));
        BumpAllocator::stats(&arena).used_bytes
    };
    let first = used(r#"{"t": "Item", "c": {"name": "bolt", "qty": 3, "parts": [1, 2, 3]}}"#);
    let last = used(r#"{"c": {"name": "bolt", "qty": 3, "parts": [1, 2, 3]}, "t": "Item"}"#);
    assert_eq!(last, first);
}
