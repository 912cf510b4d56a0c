//! `arena_core::Value` written back and printed: the json-benchmark corpus read on every arena
//! and written back as the same JSON (floats to the bit); random documents in JSON, MessagePack
//! and CBOR read, written and read again unchanged (byte for byte); `Display` compact and pretty
//! read back by serde_json as the documented JSON; the accessors on real documents.

use arena_core::{BumpAllocator, Value};
use arena_tests::{Format, with_each_arena};
use proptest::prelude::*;
use serde_json::Value as Json;

/// The json-benchmark documents in `arena-bench/data/`.
const CORPUS: [&str; 3] = ["twitter", "citm_catalog", "canada"];

fn corpus(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../arena-bench/data/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Whether two JSON documents are equal with every float compared by its bits (serde_json's
/// `==` holds `0.0 == -0.0`).
fn same_json(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) if x.is_f64() || y.is_f64() => {
            x.is_f64() && y.is_f64() && x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits)
        }
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, x), (ky, y))| kx == ky && same_json(x, y))
        }
        _ => a == b,
    }
}

fn parse(text: &[u8]) -> Json {
    serde_json::from_slice(text).unwrap_or_else(|e| panic!("not JSON ({e})"))
}

/// A node is a slice (two pointers) after its tag, or a 64-bit scalar after it where that is
/// wider: 24 bytes with 64-bit pointers, 16 on wasm32 (8-byte aligned `u64`), 12 on 32-bit x86
/// (4-byte aligned `u64`).
#[test]
fn value_is_its_size_per_pointer_width() {
    let size = size_of::<Value<'_>>();
    #[cfg(target_pointer_width = "64")]
    assert_eq!(size, 24);
    #[cfg(target_arch = "wasm32")]
    assert_eq!(size, 16);
    #[cfg(target_arch = "x86")]
    assert_eq!(size, 12);
    #[cfg(target_pointer_width = "32")]
    assert!(size <= 16, "{size}");
}

#[test]
fn corpus_is_written_back_as_read_on_every_arena() {
    for name in CORPUS {
        let bytes = corpus(name);
        let original = parse(&bytes);
        with_each_arena!(|arena| {
            let doc: Value = Format::Json.decode_in(arena, &bytes).expect(name);
            let written = serde_json::to_vec(&doc).expect(name);
            assert!(same_json(&parse(&written), &original), "{name}: Serialize");
            let compact = doc.to_string();
            assert!(
                same_json(&parse(compact.as_bytes()), &original),
                "{name}: {{}}"
            );
            let pretty = format!("{doc:#}");
            assert!(
                same_json(&parse(pretty.as_bytes()), &original),
                "{name}: {{:#}}"
            );
            // Written again, the document is the same to the byte.
            let again: Value = Format::Json.decode_in(arena, &written).expect(name);
            assert_eq!(serde_json::to_vec(&again).expect(name), written, "{name}");
        });
    }
}

#[test]
fn corpus_without_floats_prints_as_serde_json_writes() {
    // twitter and citm_catalog hold no floats, so the text is serde_json's to the byte.
    for name in ["twitter", "citm_catalog"] {
        let bytes = corpus(name);
        let arena = bumpalo::Bump::new();
        let doc: Value = Format::Json.decode_in(&arena, &bytes).expect(name);
        assert_eq!(doc.to_string(), serde_json::to_string(&doc).unwrap());
        assert_eq!(
            format!("{doc:#}"),
            serde_json::to_string_pretty(&doc).unwrap()
        );
    }
}

#[test]
fn accessors_read_the_corpus_as_serde_json_does() {
    let bytes = corpus("twitter");
    let json = parse(&bytes);
    with_each_arena!(|arena| {
        let doc: Value = Format::Json.decode_in(arena, &bytes).unwrap();
        for pointer in [
            "/statuses/0/id",
            "/statuses/0/id_str",
            "/statuses/0/user/screen_name",
            "/statuses/0/entities/hashtags",
            "/statuses/0/favorited",
            "/statuses/3/metadata/result_type",
            "/search_metadata/max_id",
            "/search_metadata/completed_in",
            "/statuses/99/in_reply_to_status_id",
            "/missing",
            "/statuses/100",
            "/statuses/01",
        ] {
            let ours = doc.pointer(pointer);
            let theirs = json.pointer(pointer);
            assert_eq!(ours.is_some(), theirs.is_some(), "{pointer}");
            let (Some(ours), Some(theirs)) = (ours, theirs) else {
                continue;
            };
            assert_eq!(ours.as_str(), theirs.as_str(), "{pointer}");
            assert_eq!(ours.as_u64(), theirs.as_u64(), "{pointer}");
            assert_eq!(ours.as_i64(), theirs.as_i64(), "{pointer}");
            assert_eq!(ours.as_f64(), theirs.as_f64(), "{pointer}");
            assert_eq!(ours.as_bool(), theirs.as_bool(), "{pointer}");
            assert_eq!(ours.is_null(), theirs.is_null(), "{pointer}");
            assert_eq!(ours.is_f64(), theirs.is_f64(), "{pointer}");
            assert_eq!(ours.is_i64(), theirs.is_i64(), "{pointer}");
            assert_eq!(ours.is_u64(), theirs.is_u64(), "{pointer}");
            assert_eq!(
                ours.as_array().map(<[_]>::len),
                theirs.as_array().map(Vec::len)
            );
            let keys = ours
                .as_object()
                .map(|o| o.map(|(k, _)| k).collect::<Vec<_>>());
            let mut keys = keys.unwrap_or_default();
            keys.sort_unstable();
            let theirs_keys: Vec<&str> = theirs
                .as_object()
                .map(|o| o.keys().map(String::as_str).collect())
                .unwrap_or_default();
            assert_eq!(keys, theirs_keys, "{pointer}");
        }
        assert_eq!(
            doc["statuses"][0]["user"]["id"].as_u64(),
            json["statuses"][0]["user"]["id"].as_u64()
        );
        assert_eq!(doc["statuses"][0]["lang"], "ja");
        assert_eq!("ja", doc["statuses"][0]["lang"]);
        assert!(doc["statuses"][1000]["nope"].is_null());
    });
}

#[test]
fn duplicate_keys_the_last_wins_as_in_serde_json() {
    let text = r#"{"a": 1, "b": 2, "a": 3}"#;
    let json = parse(text.as_bytes());
    let arena = arena_core::SlabArena::new();
    let doc: Value = Format::Json.decode_in(&arena, text.as_bytes()).unwrap();
    assert_eq!(doc.as_map().map(<[_]>::len), Some(3));
    assert_eq!(doc["a"], 3);
    assert_eq!(json["a"], 3);
    assert_eq!(doc.to_string(), r#"{"a":1,"b":2,"a":3}"#);
}

#[test]
fn display_writes_what_json_cannot_hold_deterministically() {
    let arena = bumpalo::Bump::new();
    let key = Value::array(&arena, [Value::U64(1), Value::str(&arena, "x\"y")]);
    let map = Value::map(
        &arena,
        [
            (Value::U64(1), Value::Bytes(&[0, 255])),
            (Value::None, Value::F64(f64::NAN)),
            (key, Value::F32(f32::INFINITY)),
            (Value::Char('c'), Value::F32(0.1)),
            (
                Value::some(&arena, Value::Str("s")),
                Value::i128(&arena, i128::MIN),
            ),
            (Value::F64(-0.0), Value::F64(1e300)),
        ],
    );
    let text = r#"{"1":[0,255],"null":null,"[1,\"x\\\"y\"]":null,"c":0.1,"s":-170141183460469231731687303715884105728,"-0.0":1e300}"#;
    assert_eq!(map.to_string(), text);
    let parsed = parse(text.as_bytes());
    assert_eq!(parsed[r#"[1,"x\"y"]"#], Json::Null);
    assert_eq!(Value::Str("\u{1}\n\t\\").to_string(), r#""\u0001\n\t\\""#);
    assert_eq!(format!("{:#}", Value::Array(&[])), "[]");
    assert_eq!(format!("{:#}", Value::Map(&[])), "{}");
}

#[test]
fn enums_are_written_externally_tagged() {
    let arena = bumpalo::Bump::new();
    let unit = Value::variant(&arena, Value::Str("Empty"), Value::Unit);
    let newtype = Value::variant(&arena, Value::U64(2), Value::Bool(true));
    let doc = Value::array(&arena, [unit, newtype]);
    assert_eq!(
        serde_json::to_string(&doc).unwrap(),
        r#"["Empty",{"2":true}]"#
    );
    assert_eq!(doc.to_string(), r#"["Empty",{"2":true}]"#);
    let cbor = Format::Cbor.to_bytes(&doc);
    let read: Value = Format::Cbor.decode_in(&arena, &cbor).unwrap();
    let entry = [(Value::U64(2), Value::Bool(true))];
    assert_eq!(
        read,
        Value::Array(&[Value::Str("Empty"), Value::Map(&entry)])
    );
}

/// A document to generate: the owned shape of a `Value`.
#[derive(Clone, Debug)]
enum Node {
    Unit,
    None,
    Some(Box<Node>),
    Bool(bool),
    I64(i64),
    U64(u64),
    I128(i128),
    U128(u128),
    F32(f32),
    F64(f64),
    Char(char),
    Str(String),
    Bytes(Vec<u8>),
    Newtype(Box<Node>),
    Array(Vec<Node>),
    Map(Vec<(Node, Node)>),
    Enum(Box<(Node, Node)>),
}

impl Node {
    /// The value in `arena`, built with `Value`'s constructors.
    fn build<'b, A: BumpAllocator + ?Sized>(&self, arena: &'b A) -> Value<'b> {
        match self {
            Node::Unit => Value::Unit,
            Node::None => Value::None,
            Node::Some(v) => Value::some(arena, v.build(arena)),
            Node::Bool(v) => Value::Bool(*v),
            Node::I64(v) => Value::I64(*v),
            Node::U64(v) => Value::U64(*v),
            Node::I128(v) => Value::i128(arena, *v),
            Node::U128(v) => Value::u128(arena, *v),
            Node::F32(v) => Value::F32(*v),
            Node::F64(v) => Value::F64(*v),
            Node::Char(v) => Value::Char(*v),
            Node::Str(v) => Value::str(arena, v),
            Node::Bytes(v) => Value::bytes(arena, v),
            Node::Newtype(v) => Value::newtype(arena, v.build(arena)),
            Node::Array(v) => Value::array(arena, v.iter().map(|n| n.build(arena))),
            Node::Map(v) => Value::map(
                arena,
                v.iter().map(|(k, v)| (k.build(arena), v.build(arena))),
            ),
            Node::Enum(e) => Value::variant(arena, e.0.build(arena), e.1.build(arena)),
        }
    }
}

/// Which nodes a format gives back as they were written.
#[derive(Clone, Copy, Debug)]
enum Profile {
    /// serde_json: null as `Unit`, finite `f64`s, string keys.
    Json,
    /// rmp-serde: nil as `Unit`, `f32` apart, byte strings, any keys; no 128-bit integers (it
    /// writes them as byte strings).
    MsgPack,
    /// cbor4ii: null as `None` (its unit is an empty array), `f32` apart, byte strings, any
    /// keys, 128-bit integers beyond 64 bits (bignums and wide negatives).
    Cbor,
    /// Everything, for `Display`.
    All,
}

/// An integer as the formats read it back: non-negative as `U64`, negative as `I64`.
fn int() -> impl Strategy<Value = Node> {
    any::<i64>().prop_map(|v| u64::try_from(v).map_or(Node::I64(v), Node::U64))
}

fn leaf(profile: Profile) -> BoxedStrategy<Node> {
    let common = prop_oneof![
        any::<bool>().prop_map(Node::Bool),
        int(),
        any::<u64>().prop_map(Node::U64),
        ".{0,8}".prop_map(Node::Str),
    ]
    .boxed();
    let bytes = prop::collection::vec(any::<u8>(), 0..8).prop_map(Node::Bytes);
    // What MessagePack and CBOR both keep: every float but NaN (not equal to itself), the two
    // widths apart, and byte strings.
    let binary = prop_oneof![
        common.clone(),
        any::<f64>()
            .prop_filter("not NaN", |v| !v.is_nan())
            .prop_map(Node::F64),
        any::<f32>()
            .prop_filter("not NaN", |v| !v.is_nan())
            .prop_map(Node::F32),
        bytes.clone(),
    ];
    match profile {
        Profile::Json => prop_oneof![
            Just(Node::Unit),
            common,
            any::<f64>()
                .prop_filter("JSON holds finite numbers", |v| v.is_finite())
                .prop_map(Node::F64),
        ]
        .boxed(),
        Profile::MsgPack => prop_oneof![Just(Node::Unit), binary].boxed(),
        Profile::Cbor => prop_oneof![
            Just(Node::None),
            binary,
            (i128::MIN..i128::from(i64::MIN)).prop_map(Node::I128),
            (u128::from(u64::MAX) + 1..=u128::MAX).prop_map(Node::U128),
        ]
        .boxed(),
        Profile::All => prop_oneof![
            Just(Node::Unit),
            Just(Node::None),
            common,
            any::<f64>().prop_map(Node::F64),
            any::<f32>().prop_map(Node::F32),
            bytes,
            any::<i128>().prop_map(Node::I128),
            any::<u128>().prop_map(Node::U128),
            any::<char>().prop_map(Node::Char),
        ]
        .boxed(),
    }
}

/// Documents of `profile`: leaves, arrays and maps nested a few levels (and for `All`, options,
/// newtypes and enums).
fn document(profile: Profile) -> impl Strategy<Value = Node> {
    leaf(profile).prop_recursive(4, 48, 6, move |inner| {
        let key = match profile {
            Profile::Json => ".{0,6}".prop_map(Node::Str).boxed(),
            _ => inner.clone(),
        };
        let containers = prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Node::Array),
            prop::collection::vec((key, inner.clone()), 0..6).prop_map(Node::Map),
        ];
        match profile {
            Profile::All => prop_oneof![
                containers,
                inner.clone().prop_map(|v| Node::Some(Box::new(v))),
                inner.clone().prop_map(|v| Node::Newtype(Box::new(v))),
                (inner.clone(), inner).prop_map(|e| Node::Enum(Box::new(e))),
            ]
            .boxed(),
            _ => containers.boxed(),
        }
    })
}

/// `node` written in `format` and read back on every arena: the same value, written back to
/// the same bytes, and read again the same.
fn written_and_read_back(format: Format, node: &Node) -> Result<(), TestCaseError> {
    with_each_arena!(|arena| {
        let built = node.build(arena);
        let bytes = format.to_bytes(&built);
        let read: Value = format
            .decode_in(arena, &bytes)
            .map_err(TestCaseError::fail)?;
        prop_assert_eq!(read, built);
        let again = format.to_bytes(&read);
        prop_assert_eq!(&again, &bytes);
        let reread: Value = format
            .decode_in(arena, &again)
            .map_err(TestCaseError::fail)?;
        prop_assert_eq!(reread, read);
    });
    Ok(())
}

/// The text a map key is written as: a string key itself, else the key's compact JSON.
fn key_text(key: Value<'_>) -> String {
    match key {
        Value::Some(v) | Value::Newtype(v) => key_text(*v),
        Value::Enum(&(variant, Value::Unit)) => key_text(variant),
        Value::Str(s) => s.to_owned(),
        Value::Char(c) => c.to_string(),
        other => other.to_string(),
    }
}

/// Whether `json`, read back from `value`'s `Display`, is what the documentation says `value`
/// is written as.
fn displayed_as(value: Value<'_>, json: &Json) -> Result<(), String> {
    let ok = match (value, json) {
        (Value::Some(v) | Value::Newtype(v), _) => return displayed_as(*v, json),
        (Value::Enum(&(variant, Value::Unit)), _) => return displayed_as(variant, json),
        (Value::Enum(&(variant, content)), _) => {
            let entry = [(variant, content)];
            return displayed_as(Value::Map(&entry), json);
        }
        (Value::Unit | Value::None, Json::Null) => true,
        (Value::F32(v), Json::Null) => !v.is_finite(),
        (Value::F64(v), Json::Null) => !v.is_finite(),
        (Value::F32(v), Json::Number(n)) if n.is_f64() => {
            #[expect(clippy::cast_possible_truncation, reason = "the text is an f32's")]
            let back = n.as_f64().map(|x| x as f32);
            back.map(f32::to_bits) == Some(v.to_bits())
        }
        (Value::F64(v), Json::Number(n)) if n.is_f64() => {
            n.as_f64().map(f64::to_bits) == Some(v.to_bits())
        }
        (Value::I128(v), Json::Number(n)) => match i64::try_from(*v) {
            Ok(v) => n.as_i64() == Some(v),
            #[expect(clippy::cast_precision_loss, reason = "serde_json reads it as an f64")]
            Err(_) => {
                u64::try_from(*v).map_or(n.as_f64() == Some(*v as f64), |v| n.as_u64() == Some(v))
            }
        },
        (Value::U128(v), Json::Number(n)) => match u64::try_from(*v) {
            Ok(v) => n.as_u64() == Some(v),
            #[expect(clippy::cast_precision_loss, reason = "serde_json reads it as an f64")]
            Err(_) => n.as_f64() == Some(*v as f64),
        },
        (Value::Char(c), Json::String(s)) => *s == c.to_string(),
        (Value::Bytes(b), Json::Array(items)) => {
            items.len() == b.len() && items.iter().zip(b).all(|(j, b)| *j == *b)
        }
        (Value::Array(items), Json::Array(js)) => {
            if items.len() != js.len() {
                return Err(format!("{value}: length {}", js.len()));
            }
            for (item, j) in items.iter().zip(js) {
                displayed_as(*item, j)?;
            }
            true
        }
        (Value::Map(entries), Json::Object(object)) => {
            let texts: Vec<String> = entries.iter().map(|(k, _)| key_text(*k)).collect();
            for (i, ((key, v), text)) in entries.iter().zip(&texts).enumerate() {
                if !key_is_string(*key) {
                    displayed_as(*key, &parse(text.as_bytes()))?;
                }
                // serde_json keeps the last entry of a key.
                if !texts[i + 1..].contains(text) {
                    let j = object.get(text).ok_or(format!("{value}: no key {text}"))?;
                    displayed_as(*v, j)?;
                }
            }
            let mut distinct = texts.clone();
            distinct.sort_unstable();
            distinct.dedup();
            distinct.len() == object.len()
        }
        (Value::Bool(v), Json::Bool(b)) => v == *b,
        (Value::I64(v), Json::Number(n)) => n.as_i64() == Some(v),
        (Value::U64(v), Json::Number(n)) => n.as_u64() == Some(v),
        (Value::Str(v), Json::String(s)) => v == s,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{value} read back as {json}"))
    }
}

/// Whether a key is written as the string it holds (else as its JSON text).
fn key_is_string(key: Value<'_>) -> bool {
    match key {
        Value::Some(v) | Value::Newtype(v) => key_is_string(*v),
        Value::Enum(&(variant, Value::Unit)) => key_is_string(variant),
        Value::Str(_) | Value::Char(_) => true,
        _ => false,
    }
}

/// Whether `value` holds a float anywhere (where serde_json's text may differ from ours).
fn has_float(value: Value<'_>) -> bool {
    match value {
        Value::F32(_) | Value::F64(_) => true,
        Value::Some(v) | Value::Newtype(v) => has_float(*v),
        Value::Array(items) => items.iter().any(|v| has_float(*v)),
        Value::Map(entries) => entries.iter().any(|(k, v)| has_float(*k) || has_float(*v)),
        Value::Enum((k, v)) => has_float(*k) || has_float(*v),
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(64)))]

    #[test]
    fn json_is_written_back_as_read(node in document(Profile::Json)) {
        written_and_read_back(Format::Json, &node)?;
    }

    #[test]
    fn msgpack_is_written_back_as_read(node in document(Profile::MsgPack)) {
        written_and_read_back(Format::MsgPack, &node)?;
    }

    #[test]
    fn cbor_is_written_back_as_read(node in document(Profile::Cbor)) {
        written_and_read_back(Format::Cbor, &node)?;
    }

    #[test]
    fn display_reads_back_as_documented(node in document(Profile::All)) {
        let arena = arena_core::SlabArena::new();
        let value = node.build(&arena);
        let compact = value.to_string();
        displayed_as(value, &parse(compact.as_bytes())).map_err(TestCaseError::fail)?;
        let pretty = format!("{value:#}");
        displayed_as(value, &parse(pretty.as_bytes())).map_err(TestCaseError::fail)?;
        prop_assert_eq!(parse(pretty.as_bytes()), parse(compact.as_bytes()));
    }

    #[test]
    fn display_of_json_is_what_serde_json_reads(node in document(Profile::Json)) {
        let arena = bumpalo::Bump::new();
        let value = node.build(&arena);
        let written = serde_json::to_vec(&value).unwrap();
        let expected = parse(&written);
        let (compact, pretty) = (value.to_string(), format!("{value:#}"));
        prop_assert!(same_json(&parse(compact.as_bytes()), &expected));
        prop_assert!(same_json(&parse(pretty.as_bytes()), &expected));
        if !has_float(value) {
            // Without floats, the text is serde_json's to the byte.
            prop_assert_eq!(value.to_string().into_bytes(), written);
            prop_assert_eq!(format!("{value:#}"), serde_json::to_string_pretty(&value).unwrap());
        }
    }
}

#[test]
fn a_messagepack_extension_is_written_back_as_one() {
    // fixext 1 (tag 5, one byte) and ext 8 (tag -3, three bytes): read as a newtype of
    // `(tag, bytes)`, written back as the same extension, byte for byte.
    for input in [vec![0xd4, 0x05, 0x2a], vec![0xc7, 0x03, 0xfd, 1, 2, 3]] {
        with_each_arena!(|arena| {
            let value: Value = Format::MsgPack.decode_in(arena, &input).unwrap();
            assert!(matches!(value, Value::Newtype(_)), "{value:?}");
            assert_eq!(rmp_serde::to_vec(&value).unwrap(), input);
        });
    }
    // Any other newtype is written as its content.
    let bump = bumpalo::Bump::new();
    let newtype = Value::newtype(&bump, Value::U64(7));
    assert_eq!(rmp_serde::to_vec(&newtype).unwrap(), [7]);
    assert_eq!(serde_json::to_string(&newtype).unwrap(), "7");
}
