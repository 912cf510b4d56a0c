//! `arena_core::json::Reader`, the reader behind `arena_core::json::from_slice`, against
//! `serde_json::Deserializer::from_slice` (with `float_roundtrip`), which it mirrors.
//!
//! The contract: on any input, the two make the same visitor calls (the probe of
//! `arena_tests::probe` records every call of every `deserialize_*` method it
//! scripts), and both fail or neither does. The entry points give serde_json's value or error
//! (message, line and column) on every input: an input the reader refuses is read again by
//! serde_json. A `Value`, which the entry points build straight from the text, is the value or
//! the error of the visitor path over serde_json under any limits.

use arena_core::{ArenaSeed, BStr, Limits, Value};
use arena_tests::probe::{probe_reader, with_large_stack};
use proptest::prelude::*;
use serde::de::DeserializeSeed;
use serde_json::error::Category;

/// The probe's trace and error with both readers, reading up to two values from `bytes`.
fn probe_both(bytes: &[u8], choices: &[u8]) -> [(Vec<String>, Option<String>); 2] {
    with_large_stack(|| {
        [
            probe_reader(choices, arena_core::json::Reader::from_slice(bytes)),
            probe_reader(choices, serde_json::Deserializer::from_slice(bytes)),
        ]
    })
}

/// Asserts that both readers probe `bytes` alike with the probe scripted by `choices`: the
/// same visitor calls, and an error in both or in neither.
fn assert_probes_alike(bytes: &[u8], choices: &[u8]) {
    let [(ours, our_error), (theirs, their_error)] = probe_both(bytes, choices);
    assert_eq!(
        (&ours, our_error.is_some()),
        (&theirs, their_error.is_some()),
        "{:?} choices {choices:?}, serde_json's error {their_error:?}",
        String::from_utf8_lossy(bytes)
    );
}

/// Reads each listed arena type from `bytes` through `arena_core::json::from_slice` and
/// through an [`ArenaSeed`] on serde_json's reader: the same value, or the same error.
macro_rules! arena_reads_alike {
    ($bytes:expr; $($ty:ty),* $(,)?) => {{
        let bytes: &[u8] = $bytes;
        $(
            arena_tests::with_each_arena!(|arena| {
                let ours: Result<$ty, String> =
                    arena_core::json::from_slice(arena, bytes).map_err(|e| e.to_string());
                let mut de = serde_json::Deserializer::from_slice(bytes);
                let theirs: Result<$ty, String> = ArenaSeed::new(arena)
                    .deserialize(&mut de)
                    .and_then(|v| de.end().map(|()| v))
                    .map_err(|e| e.to_string());
                assert_eq!(ours, theirs, "{} from {:?}", stringify!($ty), String::from_utf8_lossy(bytes));
            });
        )*
    }};
}

/// A struct with the field kinds of a document model.
#[derive(arena_core::ArenaDeserialize, Debug, PartialEq)]
struct Point<'bump> {
    name: &'bump str,
    x: i32,
    y: f64,
    tags: &'bump [&'bump str],
    next: Option<u16>,
}

/// An enum in each form.
#[derive(arena_core::ArenaDeserialize, Debug, PartialEq)]
enum Shape<'bump> {
    Empty,
    Circle(f32),
    Pair(u8, &'bump str),
    Named { id: u64, label: Option<&'bump str> },
}

/// A struct holding an enum, read through the derive's direct JSON path.
#[derive(arena_core::ArenaDeserialize, Debug, PartialEq)]
struct Holder<'bump> {
    shape: Shape<'bump>,
}

/// A struct read through the derive's direct JSON path with what changes its keys: an alias, a
/// name JSON escapes (a quote), a default, a skipped field, a struct field, a slice of structs.
#[derive(arena_core::ArenaDeserialize, Debug, PartialEq)]
struct Record<'bump> {
    #[serde(alias = "ident")]
    id: u32,
    #[serde(rename = "la\"bel")]
    label: Option<&'bump str>,
    #[serde(default)]
    count: u8,
    #[serde(skip)]
    skipped: u16,
    /// A name of more than the 8 bytes of one word, which `position_y` shares.
    #[serde(default)]
    position_x: Option<i16>,
    point: Option<Point<'bump>>,
    points: &'bump [Point<'bump>],
}

/// A struct that refuses unknown keys, with names around the 16 bytes an expected entry or key
/// is compared in (an entry `,"fourteen_bytes":` of 18 bytes whose key `fourteen_bytes"` fits,
/// and a name of 22 bytes that fits neither), and a field whose name is another's alias.
#[derive(arena_core::ArenaDeserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Strict {
    #[serde(alias = "b")]
    a: bool,
    #[serde(default)]
    b: i8,
    #[serde(default)]
    fourteen_bytes: u8,
    #[serde(default, rename = "a_name_of_twenty_bytes")]
    long: Option<u8>,
}

/// Reads each listed arena type from `bytes` with the reader's direct path alone (the hidden
/// `ArenaDeserialize::__deserialize_json_in`, with no serde_json to fall back on) and through
/// an [`ArenaSeed`] on serde_json's reader: the same value, or an error in both. A direct path
/// that refused a document serde_json reads would cost a second read, which the entry points'
/// answer hides.
macro_rules! direct_reads_alike {
    ($bytes:expr; $($ty:ty),* $(,)?) => {{
        let bytes: &[u8] = $bytes;
        $(
            arena_tests::with_each_arena!(|arena| {
                let mut reader = arena_core::json::Reader::from_slice(bytes);
                let ours: Option<$ty> =
                    <$ty as arena_core::ArenaDeserialize<'_, _>>::__deserialize_json_in(arena, &mut reader)
                        .and_then(|v| reader.end().map(|()| v))
                        .ok();
                let mut de = serde_json::Deserializer::from_slice(bytes);
                let theirs: Option<$ty> = ArenaSeed::new(arena)
                    .deserialize(&mut de)
                    .and_then(|v| de.end().map(|()| v))
                    .ok();
                assert_eq!(ours, theirs, "{} from {:?}", stringify!($ty), String::from_utf8_lossy(bytes));
            });
        )*
    }};
}

/// Reads `bytes` as the structs of the direct path, and slices of them, with the direct path
/// alone, through `arena_core::json::from_slice` and through serde_json: the same value, or an
/// error (the same error through the entry point).
fn direct_structs_read_alike(bytes: &[u8]) {
    direct_reads_alike!(bytes;
        Point<'_>, Record<'_>, Strict, &[Point<'_>], &[Record<'_>], &[Strict],
        Option<Record<'_>>, &[&[Point<'_>]],
    );
    arena_reads_alike!(bytes;
        Point<'_>, Record<'_>, Strict, &[Point<'_>], &[Record<'_>], &[Strict],
        Option<Record<'_>>, &[&[Point<'_>]],
    );
}

/// A key of the structs of the direct path, or close to one: each name, alias and escaped
/// spelling, a prefix, an extension, a case change, and keys of no field.
fn direct_key() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "\"id\"",
        "\"ident\"",
        "\"i\\u0064\"",
        "\"la\\\"bel\"",
        "\"la\\u0022bel\"",
        "\"label\"",
        "\"count\"",
        "\"skipped\"",
        "\"point\"",
        "\"points\"",
        "\"name\"",
        "\"nam\"",
        "\"names\"",
        "\"Name\"",
        "\"x\"",
        "\"y\"",
        "\"tags\"",
        "\"next\"",
        "\"a\"",
        "\"b\"",
        "\"long\"",
        "\"a_name_of_twenty_bytes\"",
        "\"fourteen_bytes\"",
        "\"fourteen_byte\"",
        "\"a_name_of_twenty_byte\"",
        "\"\"",
        "\"\\u0078\"",
        "\"position_x\"",
        "\"position_y\"",
    ])
    .prop_map(str::to_owned)
}

/// A value for an extra entry: of the right kind for some field, or any JSON.
fn extra_value() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => "[0-9]{1,3}",
        1 => Just("-1".to_owned()),
        1 => Just("null".to_owned()),
        1 => Just("true".to_owned()),
        2 => string(),
        1 => Just("[]".to_owned()),
        1 => json(),
    ]
}

/// An object of `fields` (each key as JSON writes it, spelled one of the given ways, and a
/// value of the field's type), each left out one time in ten, and up to three entries of the
/// direct path's keys, in any order: mostly objects the structs read, and some they refuse (a
/// field missing, repeated, unknown or of the wrong type).
fn object_of(fields: Vec<(Vec<&'static str>, BoxedStrategy<String>)>) -> BoxedStrategy<String> {
    let fields: Vec<_> = fields
        .into_iter()
        .map(|(spellings, value)| {
            (
                prop::bool::weighted(0.9),
                prop::sample::select(spellings),
                value,
            )
                .prop_map(|(keep, key, value)| keep.then(|| format!("{key}: {value}")))
        })
        .collect();
    (
        fields,
        prop::collection::vec((direct_key(), ws(), extra_value()), 0..4),
    )
        .prop_map(|(fields, extra)| {
            let mut entries: Vec<String> = fields.into_iter().flatten().collect();
            entries.extend(extra.into_iter().map(|(k, ws, v)| format!("{k}{ws}:{v}")));
            entries
        })
        .prop_shuffle()
        .prop_map(|entries| format!("{{{}}}", entries.join(",")))
        .boxed()
}

/// A `Point` object, as [`object_of`] writes one.
fn point_object() -> BoxedStrategy<String> {
    object_of(vec![
        (vec!["\"name\"", "\"n\\u0061me\""], string().boxed()),
        (vec!["\"x\""], "-?[0-9]{1,5}".boxed()),
        (vec!["\"y\""], "-?[0-9]{1,3}(\\.[0-9]{1,2})?".boxed()),
        (
            vec!["\"tags\""],
            prop::collection::vec(string(), 0..3)
                .prop_map(|s| format!("[{}]", s.join(",")))
                .boxed(),
        ),
        (
            vec!["\"next\""],
            prop_oneof![Just("null".to_owned()), "[0-9]{1,4}".boxed()].boxed(),
        ),
    ])
}

/// An array of up to three of `object`.
fn array_of(object: BoxedStrategy<String>) -> BoxedStrategy<String> {
    prop::collection::vec(object, 0..3)
        .prop_map(|o| format!("[{}]", o.join(", ")))
        .boxed()
}

/// A `Record` object, as [`object_of`] writes one.
fn record_object() -> BoxedStrategy<String> {
    object_of(vec![
        (
            vec!["\"id\"", "\"ident\"", "\"i\\u0064\""],
            "[0-9]{1,5}".boxed(),
        ),
        (
            vec!["\"la\\\"bel\"", "\"la\\u0022bel\""],
            prop_oneof![Just("null".to_owned()), string()].boxed(),
        ),
        (vec!["\"count\""], "[0-9]{1,3}".boxed()),
        (vec!["\"position_x\""], "[0-9]{1,3}".boxed()),
        (
            vec!["\"point\""],
            prop_oneof![Just("null".to_owned()), point_object()].boxed(),
        ),
        (vec!["\"points\""], array_of(point_object())),
    ])
}

/// A `Strict` object, as [`object_of`] writes one.
fn strict_object() -> BoxedStrategy<String> {
    object_of(vec![
        (
            vec!["\"a\"", "\"b\""],
            prop_oneof![Just("true".to_owned()), Just("false".to_owned())].boxed(),
        ),
        (vec!["\"b\""], "-?[0-9]{1,3}".boxed()),
        (vec!["\"fourteen_bytes\""], "[0-9]{1,3}".boxed()),
        (vec!["\"a_name_of_twenty_bytes\""], "[0-9]{1,3}".boxed()),
    ])
}

/// A document for the direct path: an object of one of its structs or an array of them,
/// sometimes spoiled as [`spoiled`] spoils.
fn direct_document() -> impl Strategy<Value = Vec<u8>> {
    let doc = prop_oneof![
        point_object(),
        record_object(),
        strict_object(),
        array_of(point_object()),
        array_of(record_object()),
        array_of(strict_object()),
    ];
    (doc, any::<prop::sample::Index>(), 0..12u8, any::<u8>())
        .prop_map(|(doc, at, how, byte)| spoil(doc.into_bytes(), at, how, byte))
}

fn arena_types_read_alike(bytes: &[u8]) {
    arena_reads_alike!(bytes;
        Value<'_>, Point<'_>, Shape<'_>, &[Shape<'_>], Option<Option<u8>>, Option<()>, (),
        u128, i128, u8, i64, u64, f32, f64, bool, char, &str, &[u8], &BStr,
        (u8, &str, f64), &[(&str, i64)], &[(u32, bool)], &[(bool, f32)], &[Option<&str>], [u16; 2],
    );
}

/// Whitespace as JSON allows it, often none, sometimes one space (as pretty-printers write
/// after a colon, which the reader skips apart).
fn ws() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just(String::new()),
        1 => Just(" ".to_owned()),
        1 => "[ \t\n\r]{1,3}",
    ]
}

/// A JSON number in any of its forms, some far outside what 64 bits hold.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u64>().prop_map(|v| v.to_string()),
        any::<i64>().prop_map(|v| v.to_string()),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| f.to_string()),
        any::<f32>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:e}")),
        "-?(0|[1-9][0-9]{0,30})(\\.[0-9]{1,30})?([eE][+-]?[0-9]{1,4})?",
        "-?[0-9]{1,3}(\\.[0-9]{0,3})?([eE][+-]?[0-9]{0,3})?",
        Just("-0".to_owned()),
        Just("1e400".to_owned()),
        Just("0e99999999999".to_owned()),
    ]
}

/// A JSON string: plain text, escapes of every kind, characters beyond ASCII, surrogate pairs,
/// and numbers and booleans in quotes (the keys serde_json reads as numbers).
fn string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => "[a-z0-9 ]{0,20}",
        1 => ".{0,4}",
        1 => prop::sample::select(vec![
            "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u00e9", "\\u0000",
            "\\uD83D\\uDE00", "\\u20AC", "é", "😀", "\u{7f}",
        ]).prop_map(str::to_owned),
    ];
    prop_oneof![
        4 => prop::collection::vec(piece, 0..4).prop_map(|p| format!("\"{}\"", p.concat())),
        1 => number().prop_map(|n| format!("\"{n}\"")),
        1 => prop::sample::select(vec!["\"true\"", "\"false\"", "\"Empty\"", "\"Circle\""]).prop_map(str::to_owned),
    ]
}

/// A JSON document, with whitespace between its tokens.
fn json() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        number(),
        string(),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            (prop::collection::vec((ws(), inner.clone(), ws()), 0..6))
                .prop_map(|items| format!("[{}]", join(items))),
            (prop::collection::vec((ws(), string(), ws(), ws(), inner, ws()), 0..6)).prop_map(
                |entries| {
                    let items = entries
                        .into_iter()
                        .map(|(a, k, b, c, v, d)| (a, format!("{k}{b}:{c}{v}"), d))
                        .collect();
                    format!("{{{}}}", join(items))
                }
            ),
        ]
    })
}

fn join(items: Vec<(String, String, String)>) -> String {
    items
        .into_iter()
        .map(|(a, v, b)| format!("{a}{v}{b}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// A document, or one spoiled: cut short, a byte changed or dropped, a comma added.
fn spoiled() -> impl Strategy<Value = Vec<u8>> {
    (
        json(),
        ws(),
        any::<prop::sample::Index>(),
        0..6u8,
        any::<u8>(),
    )
        .prop_map(|(doc, after, at, how, byte)| {
            spoil(format!("{doc}{after}").into_bytes(), at, how, byte)
        })
}

/// `bytes` spoiled at `at` as `how` says: cut short, a byte changed to `byte` or dropped, a
/// comma or a JSON token byte added; left as they are for `how` of 5 and more.
fn spoil(mut bytes: Vec<u8>, at: prop::sample::Index, how: u8, byte: u8) -> Vec<u8> {
    let i = at.index(bytes.len() + 1);
    match how {
        0 => bytes.truncate(i),
        1 if i < bytes.len() => bytes[i] = byte,
        2 if i < bytes.len() => {
            bytes.remove(i);
        }
        3 => bytes.insert(i, b','),
        4 => bytes.insert(i, b"[]{}\":,.-+e0 \\"[usize::from(byte) % 14]),
        _ => {}
    }
    bytes
}

/// A scalar's text, or something else a scalar is asked for: each integer type's bounds and
/// the numbers past them, any number, a string, a literal, any document; between whitespace,
/// sometimes spoiled.
fn scalar_document() -> impl Strategy<Value = Vec<u8>> {
    let bounds: Vec<String> = [
        i128::from(i64::MIN),
        i128::from(i32::MIN),
        i128::from(i16::MIN),
        i128::from(i8::MIN),
        -1,
        0,
        i128::from(i8::MAX),
        i128::from(u8::MAX),
        i128::from(i16::MAX),
        i128::from(u16::MAX),
        i128::from(i32::MAX),
        i128::from(u32::MAX),
        i128::from(i64::MAX),
        i128::from(u64::MAX),
    ]
    .into_iter()
    .flat_map(|n| [n - 1, n, n + 1])
    .map(|n| n.to_string())
    .collect();
    let value = prop_oneof![
        3 => prop::sample::select(bounds),
        3 => number(),
        3 => string(),
        1 => prop::sample::select(vec!["null", "true", "-", "-x", "1.", "01", "1e", "\"", "\"a"])
            .prop_map(str::to_owned),
        1 => json(),
    ];
    (
        ws(),
        value,
        ws(),
        any::<prop::sample::Index>(),
        0..24u8,
        any::<u8>(),
    )
        .prop_map(|(before, value, after, at, how, byte)| {
            spoil(
                format!("{before}{value}{after}").into_bytes(),
                at,
                how,
                byte,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(4096)))]

    #[test]
    fn the_reader_reads_every_document_as_serde_json(
        doc in json(),
        second in prop::option::of(json()),
        choices in prop::collection::vec(any::<u8>(), 1..48),
    ) {
        let text = match second {
            Some(second) => format!("{doc} {second}"),
            None => doc,
        };
        assert_probes_alike(text.as_bytes(), &choices);
    }

    #[test]
    fn the_reader_refuses_what_serde_json_refuses(
        bytes in spoiled(),
        choices in prop::collection::vec(any::<u8>(), 1..48),
    ) {
        assert_probes_alike(&bytes, &choices);
    }

    #[test]
    fn the_reader_reads_any_bytes_as_serde_json(
        bytes in prop::collection::vec(
            prop::sample::select(b"[]{}\":,.-+eE0123456789 \\untrfals/\x00\xff\xc3\xa9".to_vec()),
            0..40,
        ),
        choices in prop::collection::vec(any::<u8>(), 1..48),
    ) {
        assert_probes_alike(&bytes, &choices);
    }

    #[test]
    fn entry_points_read_every_document_as_serde_json(bytes in spoiled()) {
        arena_types_read_alike(&bytes);
    }

    /// Derived structs read through their direct path (keys compared as bytes, in the order of
    /// the fields first) what they read through serde_json, whatever the keys' order, spelling,
    /// repetition or absence, and refuse what it refuses, with its error.
    #[test]
    fn derived_structs_read_their_objects_as_through_serde_json(bytes in direct_document()) {
        direct_structs_read_alike(&bytes);
    }

    /// Integers, floats and strings read through their direct paths (with no serde visitor)
    /// what they read through serde_json, alone, in options and in slices, and refuse what it
    /// refuses.
    #[test]
    fn scalars_read_through_their_direct_paths_as_through_serde_json(bytes in scalar_document()) {
        direct_reads_alike!(&bytes;
            u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f64, &str,
            Option<u8>, Option<i64>, Option<f64>, Option<&str>, &[u16], &[f64], &[&str],
        );
    }

    /// Under limits, the direct path's structs and slices read what the serde path over
    /// serde_json reads, or fail as it fails, with its error.
    #[test]
    fn derived_structs_read_under_limits_as_through_serde_json(
        bytes in direct_document(),
        max_len in 0..4usize,
        max_str_len in 0..8usize,
        max_depth in 1..6usize,
        max_bytes in 0..600usize,
    ) {
        let limits = Limits::default()
            .max_len(max_len)
            .max_str_len(max_str_len)
            .max_depth(max_depth)
            .max_bytes(max_bytes);
        for limits in [limits, Limits::default().max_depth(max_depth)] {
            arena_tests::with_each_arena!(|arena| {
                let seed = ArenaSeed::<&[Record<'_>], _>::new(arena).with_limits(limits);
                let ours = arena_core::json::from_slice_seed(seed, &bytes).map_err(|e| e.to_string());
                let mut de = serde_json::Deserializer::from_slice(&bytes);
                let theirs = seed
                    .deserialize(&mut de)
                    .and_then(|v| de.end().map(|()| v))
                    .map_err(|e| e.to_string());
                prop_assert_eq!(ours, theirs, "{:?} under {:?}", String::from_utf8_lossy(&bytes), limits);
            });
        }
    }

    /// A `Value` reads straight from the text (`json::value`), outside the visitor path: under
    /// any limits, it is the value, or the error, that the visitor path over serde_json's
    /// reader gives. Small limits put each check at the edge of small documents; the length
    /// limit, the string length limit, the byte budget and the depth limit are also tried
    /// alone, as each of the first three alone makes the reader check every string and
    /// length, and the last alone none of them.
    #[test]
    fn a_value_reads_under_limits_as_through_serde_json(
        doc in json(),
        max_len in 0..6usize,
        max_str_len in 0..12usize,
        max_depth in 1..6usize,
        max_bytes in 0..1500usize,
    ) {
        let limits = Limits::default()
            .max_len(max_len)
            .max_str_len(max_str_len)
            .max_depth(max_depth)
            .max_bytes(max_bytes);
        let alone = [
            Limits::default().max_len(max_len),
            Limits::default().max_str_len(max_str_len),
            Limits::default().max_bytes(max_bytes),
            Limits::default().max_depth(max_depth),
        ];
        for limits in [limits, alone[0], alone[1], alone[2], alone[3], Limits::default()] {
            arena_tests::with_each_arena!(|arena| {
                let seed = ArenaSeed::<Value<'_>, _>::new(arena).with_limits(limits);
                let ours = arena_core::json::from_str_seed(seed, &doc).map_err(|e| e.to_string());
                let mut de = serde_json::Deserializer::from_str(&doc);
                let theirs = seed
                    .deserialize(&mut de)
                    .and_then(|v| de.end().map(|()| v))
                    .map_err(|e| e.to_string());
                prop_assert_eq!(ours, theirs, "{:?} under {:?}", doc, limits);
            });
        }
    }
}

/// The direct path's edge cases, written out: a key sharing a long name's first word, a key
/// an alias of an earlier field takes, a trailing comma among structs, a `null` option of a
/// struct, a struct written as an array, and escaped keys.
#[test]
fn derived_structs_read_the_edges_of_their_objects_as_through_serde_json() {
    let point = r#"{"name": "p", "x": 1, "y": 2.5, "tags": ["t"], "next": null}"#;
    for doc in [
        r#"{"id": 1, "count": 2, "position_y": 3, "points": []}"#.to_owned(),
        r#"{"id": 1, "count": 2, "position_x": 3, "points": []}"#.to_owned(),
        r#"{"a": true, "b": 2}"#.to_owned(),
        r#"{"b": true, "a": false}"#.to_owned(),
        format!("[{point},]"),
        format!("[{point}, {point}]"),
        format!(r#"{{"id": 1, "point": null, "points": [{point}]}}"#),
        format!(r#"{{"id": 1, "point": {point}, "points": [{point},]}}"#),
        r#"{"id": 1, "point": ["p", 1, 2.5, [], 7], "points": []}"#.to_owned(),
        r#"{"id": 1, "la"bel": "l", "points": []}"#.to_owned(),
        r#"{"id": 1, "la"bel": null, "points": [], "id": 2}"#.to_owned(),
        // A missing comma, after an unknown key and after a field.
        r#"{"extra":1"name":"p","x":1,"y":2.5,"tags":[],"next":null}"#.to_owned(),
        r#"{"name":"p""x":1,"y":2.5,"tags":[],"next":null}"#.to_owned(),
        r#"{"name":"p","x":1,"y":2.5,"tags":[],"next":null"}"#.to_owned(),
    ] {
        direct_structs_read_alike(doc.as_bytes());
    }
}

#[test]
fn numbers_read_as_serde_json_with_float_roundtrip() {
    for text in [
        "0",
        "-0",
        "-0.0",
        "1",
        "-1",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "1e22",
        "1e23",
        "0.1",
        "2.5e-324",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "4.9406564584124654e-324",
        "2.2250738585072011e-308",
        "123456789012345678901234567890",
        "9007199254740993",
        "3.4028235e38",
        "3.4028236e38",
        "1.00000005960464477539062499",
        "1e-400",
        "-1e-400",
        "0e99999999999999999999",
        "1e99999999999999999999",
        "[1.5, -2e3, 7E-1]",
    ] {
        for choices in [
            &[0u8][..],
            &[1],
            &[2],
            &[3],
            &[4],
            &[5],
            &[6],
            &[7],
            &[8],
            &[9],
            &[10],
        ] {
            assert_probes_alike(text.as_bytes(), choices);
        }
        arena_types_read_alike(text.as_bytes());
    }
}

#[test]
fn keys_read_as_numbers_and_booleans_as_serde_json_reads_them() {
    for text in [
        r#"[["1", true]]"#,
        r#"{"1": true, "-2": false}"#,
        r#"{"true": 1.5, "false": -0.0}"#,
        r#"{"1.5": true}"#,
        r#"{" 1": true}"#,
        r#"{"1 ": true}"#,
        r#"{"tru": 1}"#,
        r#"{"01": true}"#,
    ] {
        arena_types_read_alike(text.as_bytes());
    }
}

#[test]
fn the_entry_points_give_serde_json_errors_with_their_positions() {
    let bump = bumpalo::Bump::new();
    for text in [
        "[1, 2,]",
        "{\"a\" 1}",
        "[\"\\ud800\"]",
        "\"abc",
        "[1] x",
        "01",
        "{\"name\": 3}",
    ] {
        let ours =
            arena_core::json::from_slice::<Point<'_>, _>(&bump, text.as_bytes()).unwrap_err();
        let mut de = serde_json::Deserializer::from_slice(text.as_bytes());
        let theirs = ArenaSeed::<Point<'_>, _>::new(&bump)
            .deserialize(&mut de)
            .and_then(|_| de.end())
            .unwrap_err();
        assert!(ours.line() > 0 && ours.column() > 0, "{text}: {ours}");
        assert_eq!(ours.to_string(), theirs.to_string(), "{text}");
    }
}

/// A value followed by more than whitespace was read before the refusal: the entry point gives
/// serde_json's error and rewinds the arena, as a failed call does.
#[test]
fn a_value_with_trailing_characters_leaves_the_arena_as_it_was() {
    use arena_core::BumpAllocator;
    let arena = arena_core::SlabArena::new();
    let kept: &[&str] = arena_core::json::from_str(&arena, r#"["kept"]"#).unwrap();
    let before = BumpAllocator::stats(&arena).used_bytes;
    let text = r#"["a\nb", "a string long enough to be seen"] x"#;
    let err = arena_core::json::from_str::<&[&str], _>(&arena, text).unwrap_err();
    let theirs = serde_json::from_str::<Vec<String>>(text).unwrap_err();
    assert_eq!(err.to_string(), theirs.to_string());
    assert!(err.to_string().starts_with("trailing characters"), "{err}");
    assert_eq!(BumpAllocator::stats(&arena).used_bytes, before);
    assert_eq!(kept, ["kept"]);
    // The same text without the trailing character reads, and uses the arena.
    let read: &[&str] = arena_core::json::from_str(&arena, &text[..text.len() - 2]).unwrap();
    assert_eq!(read, ["a\nb", "a string long enough to be seen"]);
    assert!(BumpAllocator::stats(&arena).used_bytes > before);
}

#[test]
fn nesting_is_limited_as_in_serde_json_and_skipping_is_not() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    for n in [126, 127, 128, 129, 5000] {
        let text = deep(n);
        assert_probes_alike(text.as_bytes(), &[0]);
        // An ignored value nests as deep as it likes, in both.
        let ignored =
            format!("{{\"name\": \"a\", \"x\": 1, \"y\": 2, \"tags\": [], \"z\": {text}}}");
        arena_types_read_alike(ignored.as_bytes());
    }
}

/// Deep levels through a window (`from_reader` past its whole read): a syntax error deep inside
/// a value the reader skips is serde_json's syntax error, also where the window starts more
/// than 128 levels down, and a value visited too deep is refused at serde_json's 128th level,
/// as `from_slice` gives them.
#[test]
fn deep_levels_read_through_a_window_as_from_a_slice() {
    let bump = bumpalo::Bump::new();
    for (depth, fill, end) in [
        (200, 1_000, "x]"),
        (130, 10, "x]"),
        (127, 10, "x]"),
        (200, 200_000, "x]"),
        (200, 200_000, "1]"),
        (140, 10, &"]".repeat(140)),
    ] {
        let mut text = String::from(r#"{"name": "a", "x": 1, "y": 2, "tags": [], "z": "#);
        text.push_str(&"[".repeat(depth));
        text.push_str(&"1,".repeat(fill));
        text.push_str(end);
        text.push('}');
        let bytes = text.as_bytes();
        let slice =
            arena_core::json::from_slice::<Point<'_>, _>(&bump, bytes).map_err(|e| e.to_string());
        let window = arena_core::json::__from_reader_seed_whole_max::<Point<'_>, _, _>(
            ArenaSeed::new(&bump),
            bytes,
            0,
        )
        .map_err(|e| e.to_string());
        assert_eq!(
            window, slice,
            "depth {depth}, {fill} elements, then {end:?}"
        );
        // The same levels visited: a `Value` is refused at the 128th.
        let value = &text[text.find(": [").unwrap() + 2..text.len() - 1];
        let slice = arena_core::json::from_slice::<Value<'_>, _>(&bump, value.as_bytes())
            .map_err(|e| e.to_string());
        let window = arena_core::json::__from_reader_seed_whole_max::<Value<'_>, _, _>(
            ArenaSeed::new(&bump),
            value.as_bytes(),
            0,
        )
        .map_err(|e| e.to_string());
        assert_eq!(
            window.err(),
            slice.err(),
            "a value of depth {depth}, then {end:?}"
        );
    }
    // A value skipped deeper than 128 levels, then a field its type refuses: a `Data` error
    // there, where serde_json's reader places it (the window's message does not name the
    // type).
    let text = format!(
        r#"{{"z": {}{}, "x": 1, "y": 2, "tags": [], "name": 5}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let at = |e: serde_json::Error| (e.classify(), e.line(), e.column());
    let mut de = serde_json::Deserializer::from_reader(text.as_bytes());
    let theirs = ArenaSeed::<Point<'_>, _>::new(&bump)
        .deserialize(&mut de)
        .map_err(at);
    let window = arena_core::json::__from_reader_seed_whole_max::<Point<'_>, _, _>(
        ArenaSeed::new(&bump),
        text.as_bytes(),
        0,
    )
    .map_err(at);
    assert_eq!(
        window.err(),
        theirs.err(),
        "a skipped value 200 levels deep"
    );
}

/// A string of invalid UTF-8 in a value the reader skips, through a window: skipped as
/// serde_json skips it, and the error is the syntax error after it.
#[test]
fn invalid_utf8_in_a_skipped_value_reads_through_a_window_as_from_a_slice() {
    let bump = bumpalo::Bump::new();
    for tail in [&b"1 1}"[..], b"1}", b"[\"\xce\xce\"]}", b"[1,]}"] {
        let mut bytes = br#"{"name": "a", "x": 1, "y": 2, "tags": [], "z": {"": "#.to_vec();
        bytes.extend_from_slice(b"\"\xce\xce\xce\"}, \"w\": ");
        bytes.extend_from_slice(tail);
        window_reads_as_from_slice::<Point<'_>>(&bump, &bytes, &[usize::MAX, 7, 1]);
    }
}

/// Reads `bytes` as a `T` through a window, in reads of each of `sizes` bytes, and asserts that
/// the value or the error (its message, with its position) is `from_slice`'s.
fn window_reads_as_from_slice<'a, T>(bump: &'a bumpalo::Bump, bytes: &[u8], sizes: &[usize])
where
    T: arena_core::ArenaDeserialize<'a, bumpalo::Bump> + std::fmt::Debug,
{
    let slice = arena_core::json::from_slice::<T, _>(bump, bytes)
        .map(|v| format!("{v:?}"))
        .map_err(|e| e.to_string());
    for &size in sizes {
        let window = arena_core::json::__from_reader_seed_whole_max::<T, _, _>(
            ArenaSeed::new(bump),
            std::io::BufReader::with_capacity(size.min(1 << 16), bytes),
            0,
        )
        .map(|v| format!("{v:?}"))
        .map_err(|e| e.to_string());
        let shown = String::from_utf8_lossy(bytes);
        assert_eq!(window, slice, "{shown:?} in reads of {size}");
    }
}

/// A string of invalid UTF-8 skipped, then a syntax error outside the skipped value, through a
/// window: the syntax error, as from a slice.
#[test]
fn a_syntax_error_after_a_skipped_invalid_string_reads_through_a_window_as_from_a_slice() {
    let bump = bumpalo::Bump::new();
    for bytes in [
        &b"{\"name\": \"a\", \"z\": \"\xa0\" 4}"[..],
        b"{\"z\": [\"\xce\xce\"], \"name\" 1}",
        b"{\"alse\":\"   @ {\xa0-\"4\n `\x00M\x00\x00n\x00\x10",
    ] {
        window_reads_as_from_slice::<Point<'_>>(&bump, bytes, &[usize::MAX, 3, 1]);
    }
}

/// A key of invalid UTF-8 after a skipped string of invalid UTF-8, through a window: serde_json
/// skips the string unchecked and refuses the key, where its reader does; also across lines
/// and with a visited string of invalid UTF-8 in place of the key.
#[test]
fn an_invalid_key_after_a_skipped_invalid_string_reads_through_a_window_as_through_serde_json() {
    let bump = bumpalo::Bump::new();
    for bytes in [
        &b"{\"z\": [\"x\", \"\xddy\"], \"n\xff\xff\": 1}"[..],
        b"{\"z\": \"\xa0\",\n \"\xce\": 1}",
        b"{\"z\": {\"\xa0\": \"\xa0\"}, \"na\xffme\": \"a\"}",
        b"{\"z\": \"\xa0\", \"name\": \"\xce\"}",
        // Syntax errors after the key, which serde_json does not reach.
        b"{\"z\": [\"x\", \"\xddy\"], \"n\xff\xff\xffl,\"grid\": 1}",
        b"{\"z\": \"\xa0\", \"\xce\" 1}",
        b"{\"x\":1,\"z\":[\"x\",\"\xddy\"],\"n\xff\xffl,\"grid\":[[1,2],[3]],\"kind\":{\"Nam,\"w\":\",\"s\":3}}",
    ] {
        window_reads_as_serde_jsons_reader::<Point<'_>>(&bump, bytes);
    }
}

/// A `Value` whose arrays and objects are longer than a step of the scratch stack's large
/// moves (2 MiB of nodes), nested in shorter ones and holding them, reads with the direct path
/// alone as through serde_json: its long levels move into the arena in steps, its short ones
/// straight from the node stack, and each keeps its nodes.
#[test]
fn long_arrays_and_objects_read_into_a_value_as_through_serde_json() {
    use std::fmt::Write;
    let n = 100_000;
    let mut doc = String::from(r#"{"before":[1,"a",{"k":null}],"items":["#);
    for i in 0..n {
        if i > 0 {
            doc.push(',');
        }
        match i % 4 {
            0 => write!(doc, "{i}").unwrap(),
            1 => write!(doc, r#""s{i}""#).unwrap(),
            2 => write!(doc, r#"[{i},true]"#).unwrap(),
            _ => write!(doc, r#"{{"k":{i}}}"#).unwrap(),
        }
    }
    doc.push_str(r#"],"map":{"#);
    for i in 0..n {
        if i > 0 {
            doc.push(',');
        }
        write!(doc, r#""k{i}":[{i}]"#).unwrap();
    }
    doc.push_str(r#"},"after":"end"}"#);
    direct_reads_alike!(doc.as_bytes(); Value<'_>);
}

/// A `SlabArena` of its own pool whose chunks all have `chunk` bytes.
fn arena_of_chunks(chunk: usize) -> arena_core::SlabArena {
    arena_core::SlabArena::builder()
        .pool(std::sync::Arc::new(arena_core::ChunkPool::new()))
        .initial_chunk_size(chunk)
        .max_chunk_size(chunk)
        .build()
}

/// A sequence long enough to leave the scratch stack for the low edge of a `SlabArena`'s chunk
/// (and, in small chunks, to meet the strings coming down and move back to the stack), each
/// element read in place in that block while its own strings and nested sequences are read:
/// the same values as through serde_json.
#[test]
fn long_sequences_of_structs_read_in_place_at_the_low_edge_as_through_serde_json() {
    let points: Vec<String> = (0..40_000)
        .map(|i| {
            let next = if i % 3 == 0 {
                "null".to_owned()
            } else {
                (i % 1000).to_string()
            };
            let tags = ["\"t\"", "\"u\\n\""][..i % 3].join(",");
            format!(r#"{{"name":"n{i}","x":{i},"y":0.5,"tags":[{tags}],"next":{next}}}"#)
        })
        .collect();
    let doc = format!("[{}]", points.join(","));
    let bump = bumpalo::Bump::new();
    let mut de = serde_json::Deserializer::from_str(&doc);
    let theirs: &[Point<'_>] = ArenaSeed::new(&bump).deserialize(&mut de).unwrap();
    for chunk in [64 << 10, 256 << 10, 4 << 20] {
        let arena = arena_of_chunks(chunk);
        let ours: &[Point<'_>] = arena_core::json::from_str(&arena, &doc).unwrap();
        assert_eq!(ours, theirs, "chunks of {chunk} bytes");
        arena.check_invariants();
    }
}

/// Strings of every length up to past the reader's copy window (32 bytes), each after every
/// amount of input before it (so the window of input ending with it is there or not), read as
/// through serde_json: alone, in an array, as a key, and inside a `Value`.
#[test]
fn strings_of_every_length_after_every_offset_read_as_through_serde_json() {
    for len in 0..=40 {
        let text: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        for offset in 0..=40 {
            let pad = " ".repeat(offset);
            let doc = format!(r#"{pad}["{text}","{text}x",{{"{text}":"{text}"}}]"#);
            arena_reads_alike!(doc.as_bytes();
                Value<'_>, (&str, &str, Value<'_>), &[Value<'_>],
            );
            let alone = format!(r#"{pad}"{text}""#);
            arena_reads_alike!(alone.as_bytes(); &str, Value<'_>);
        }
    }
}

/// Many strings of mixed lengths in small chunks: copies at every position of a chunk, and at
/// its end, where there is no room for a whole window, keep their bytes.
#[test]
fn strings_across_chunk_edges_read_as_through_serde_json() {
    let strings: Vec<String> = (0..20_000)
        .map(|i| format!("\"{}\"", "s".repeat(i % 37)))
        .collect();
    let doc = format!("[{}]", strings.join(","));
    let bump = bumpalo::Bump::new();
    let mut de = serde_json::Deserializer::from_str(&doc);
    let theirs: &[&str] = ArenaSeed::new(&bump).deserialize(&mut de).unwrap();
    for chunk in [4 << 10, 64 << 10] {
        let arena = arena_of_chunks(chunk);
        let ours: &[&str] = arena_core::json::from_str(&arena, &doc).unwrap();
        assert_eq!(ours, theirs, "chunks of {chunk} bytes");
        let value: Value<'_> = arena_core::json::from_str(&arena, &doc).unwrap();
        let items = value.as_array().unwrap();
        assert!(
            items
                .iter()
                .map(|v| v.as_str().unwrap())
                .eq(theirs.iter().copied())
        );
        arena.check_invariants();
    }
}

/// Tuples and slices of pairs read their arrays through their direct paths: exactly as many
/// elements as the tuple has, whatever the whitespace, and a slice of pairs a map too; what
/// serde_json refuses (too few or too many elements, a trailing comma, another value) is
/// refused with its error.
#[test]
fn tuples_and_pairs_read_their_arrays_as_through_serde_json() {
    let docs = [
        "[1,2]",
        " [ 1 , 2 ] ",
        "[1]",
        "[1,2,3]",
        "[1,2,]",
        "[]",
        "{}",
        "1",
        "[[1,2],[3,4]]",
        "[[1,2] , [3,4,5]]",
        "[[1],[3,4]]",
        "[[1,2],]",
        r#"{"1":2,"3":4}"#,
        "[[1.5,-2e3],[0,1e400]]",
        "[[1,2],[3,4]] x",
        "[[1,2]",
    ];
    for doc in docs {
        arena_reads_alike!(doc.as_bytes();
            (u8, u8), (f64,), (u8, u8, u8), &[(u8, u8)], &[(f64, f64)], &[&[(f64, f64)]],
            &[(u8, u8, u8)], Option<(u8, u8)>, Value<'_>,
        );
    }
}

/// A string of invalid UTF-8 where a struct is asked for, through a window: serde_json reads
/// the string to name it in its error and refuses its UTF-8, as its reader does; also inside a
/// sequence, where a skipped string of invalid UTF-8 comes before a visited one, and (the
/// controls) where what follows the skipped string is refused otherwise or read.
#[test]
fn an_invalid_string_refused_for_its_type_reads_through_a_window_as_through_serde_json() {
    let bump = bumpalo::Bump::new();
    for bytes in [
        &b"\"\x900\"\x90"[..],
        b"\"\x900\"",
        b"  \n \"ab\xce\"",
        b"[\"\x900\"]",
        b"{\"z\": \"\xa0\",\n \"x\": \"\xce\xce\"}",
        b"{\"z\": [\"\xa0\"], \"x\": \"a\\q\"}",
        b"{\"z\": \"\xa0\", \"x\": \"ok\"}",
        b"{\"z\": \"\xa0\", \"name\": {}, \"x\": \"\xce\"}",
        b"{\"z\": \"\xa0\", \"name\": \"\\u00e9\", \"x\": 1, \"y\": 2, \"tags\": []}",
    ] {
        window_reads_as_serde_jsons_reader::<Point<'_>>(&bump, bytes);
    }
}

/// An enum written as an object that serde_json's grammar for enums refuses, where an object's
/// allows it, through a window: serde_json's error, at its place. No entry, an entry that is
/// not a string (a map, a number, a literal, a bad literal, a `]`), more than one entry and
/// bytes after the one, and values neither an object nor a string, at reads of every size,
/// each at the top, inside a sequence and as a struct's field.
#[test]
fn an_enum_object_refused_by_serde_jsons_enum_grammar_reads_through_a_window_as_through_serde_json()
{
    for shape in [
        &b"{}"[..],
        b"{ \n }",
        b"{{}}",
        b"{12 }",
        b"{-1.5e3}",
        b"{null}",
        b"{nul}",
        b"{tru",
        b"{]",
        b"{\"Circle\": 1.5, \"Empty\": null}",
        b"{\"Circle\": 1.5 \"Empty\"}",
        b"{\"Pair\": [1, \"a\"]]",
        b"{\"Named\": {\"id\": 1}\n :}",
        b"{\"Circle\": 2}",
        b"1",
        b"-",
        b"[]",
        b"null",
        b"tru",
        b"]",
        b"\"Empty\"",
        b"\"Circle\"",
        b"\"Named\"",
        b"\"Nope\"",
        b"{\"Nope\": 1}",
        b"{\"Empty\": 1}",
        b"{\"Circle\": \"x\"}",
        b"{\"Circle\" 1}",
        b"{\"Pair\": [1]}",
        b"{\"Pair\": [1, \"a\", 2]}",
        b"{\"Named\": []}",
        b"{\"Named\": [1, null]}",
        b"{\"Named\": {\"id\": 1, \"id\": 2}}",
        b"{\"Named\": {\"label\": \"a\"}}",
    ] {
        let bump = bumpalo::Bump::new();
        window_reads_as_serde_jsons_reader::<Shape<'_>>(&bump, shape);
        window_reads_as_serde_jsons_reader::<&[Shape<'_>]>(&bump, &[b"[", shape, b"]"].concat());
        let held = [&b"{\"shape\": "[..], shape, b"}"].concat();
        window_reads_as_serde_jsons_reader::<Holder<'_>>(&bump, &held);
    }
}

/// A `T` read from `bytes` through a window, in reads of every size and of 3 and 1 bytes, is
/// what serde_json's reader reads, or has its error's category, line and column (see the one
/// difference inside).
fn window_reads_as_serde_jsons_reader<'a, T>(bump: &'a bumpalo::Bump, bytes: &[u8])
where
    T: arena_core::ArenaDeserialize<'a, bumpalo::Bump> + std::fmt::Debug,
{
    let at = |e: serde_json::Error| (e.classify(), e.line(), e.column());
    let mut de = serde_json::Deserializer::from_reader(bytes);
    let theirs = ArenaSeed::<T, _>::new(bump)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map(|v| format!("{v:?}"))
        .map_err(at);
    for size in [usize::MAX, 3, 1] {
        let window = arena_core::json::__from_reader_seed_whole_max::<T, _, _>(
            ArenaSeed::new(bump),
            std::io::BufReader::with_capacity(size.min(1 << 16), bytes),
            0,
        )
        .map(|v| format!("{v:?}"))
        .map_err(at);
        let shown = String::from_utf8_lossy(bytes);
        if let (Err((Category::Data, _, _)), Err((Category::Data, 0, 0))) = (&window, &theirs) {
            // serde_json leaves a top-level enum's error of its variant's kind without a
            // position; the window's carries one.
            continue;
        }
        assert_eq!(window, theirs, "{shown:?} in reads of {size}");
    }
}

/// What serde_json's grammar for sequences and objects of a known shape says, through a
/// window: a tuple, an array or a tuple variant given more elements than it takes ("trailing
/// characters", "trailing comma"), a struct missing a field (placed after the object's `}`),
/// each at the top, nested and across lines.
#[test]
fn trailing_elements_and_missing_fields_read_through_a_window_as_through_serde_json() {
    let bump = bumpalo::Bump::new();
    for bytes in [
        &br#"[1, "a", 2]"#[..],
        br#"[1, "a",]"#,
        br#"[1, "a" 2]"#,
        b"[1, \"a\",\n\n  ]",
        b"[1, \"a\",\n2]",
        br#"[1, "a",,]"#,
    ] {
        window_reads_as_serde_jsons_reader::<(u8, &str)>(&bump, bytes);
        let nested = [&b"[["[..], bytes, b"]]"].concat();
        window_reads_as_serde_jsons_reader::<&[&[(u8, &str)]]>(&bump, &nested);
    }
    window_reads_as_serde_jsons_reader::<[u8; 2]>(&bump, b"[1, 2, 3]");
    window_reads_as_serde_jsons_reader::<[u8; 2]>(&bump, b"[1, 2\n,\n 3]");
    for bytes in [
        &br#"{"name": "a"}"#[..],
        br#"{"name": "a", "x": 1, "y": 2}"#,
        b"{\"name\": \"a\"\n\n   }",
        br#"{}"#,
        br#"{"name": "a", "x": 1, "y": 2, "tags": []}"#,
    ] {
        window_reads_as_serde_jsons_reader::<Point<'_>>(&bump, bytes);
        let nested = [
            &b"[{\"name\": \"b\", \"x\": 1, \"y\": 2, \"tags\": []}, "[..],
            bytes,
            b"]",
        ]
        .concat();
        window_reads_as_serde_jsons_reader::<&[Point<'_>]>(&bump, &nested);
    }
}

/// The one error of a window that differs from serde_json's: a key its struct refuses (a
/// duplicate, or one it denies as unknown) followed by a syntax error (no `:`, or no value
/// after it) is that syntax error, where serde_json gives the key's error, on the same line at
/// or after its column. With the `:` and a value there, the key's error, as serde_json gives
/// it, whatever the spacing and the value.
#[test]
fn a_refused_key_without_its_colon_is_the_syntax_error_through_a_window() {
    let bump = bumpalo::Bump::new();
    let at = |e: &serde_json::Error| (e.line(), e.column());
    for (bytes, with_colon) in [
        (
            &br#"{"name": "a", "name" 1}"#[..],
            &br#"{"name": "a", "name": 1}"#[..],
        ),
        (
            br#"{"name": "a", "name":}"#,
            br#"{"name": "a", "name":"b"}"#,
        ),
        (br#"{"name":"a","name"}"#, br#"{"name":"a","name":"b"}"#),
        (
            br#"{"x": 1, "y": 2, "x" 3}"#,
            br#"{"x": 1, "y": 2, "x": 3}"#,
        ),
    ] {
        let mut de = serde_json::Deserializer::from_reader(bytes);
        let theirs = ArenaSeed::<Point<'_>, _>::new(&bump)
            .deserialize(&mut de)
            .unwrap_err();
        let window = arena_core::json::__from_reader_seed_whole_max::<Point<'_>, _, _>(
            ArenaSeed::new(&bump),
            bytes,
            0,
        )
        .unwrap_err();
        let shown = String::from_utf8_lossy(bytes);
        assert!(
            theirs.to_string().starts_with("duplicate field"),
            "{shown:?}: {theirs}"
        );
        assert!(window.is_syntax(), "{shown:?}: {window}");
        assert_eq!(window.line(), theirs.line(), "{shown:?}");
        assert!(window.column() >= theirs.column(), "{shown:?}");
        // With its colon, the key's error where serde_json places it.
        window_reads_as_serde_jsons_reader::<Point<'_>>(&bump, with_colon);
    }
    let strict = br#"{"a": true, "other" 2}"#;
    let mut de = serde_json::Deserializer::from_reader(&strict[..]);
    let theirs = ArenaSeed::<Strict, _>::new(&bump)
        .deserialize(&mut de)
        .unwrap_err();
    let window = arena_core::json::__from_reader_seed_whole_max::<Strict, _, _>(
        ArenaSeed::new(&bump),
        &strict[..],
        0,
    )
    .unwrap_err();
    assert!(theirs.to_string().starts_with("unknown field"), "{theirs}");
    assert!(window.is_syntax(), "{window}");
    assert_eq!(at(&window), at(&theirs));
}

/// A `\u` escape whose 4 bytes are no hex digits, a quote among them, through a window:
/// serde_json reads the 4 bytes past the quote before it checks them, and places its "invalid
/// escape" after the 4th, as its reader does; at the top, in a sequence, as a key, across reads
/// of every size, where the stream ends inside those 4 bytes too, and as a type the string is
/// not.
#[test]
fn a_short_unicode_escape_reads_through_a_window_as_through_serde_json() {
    let bump = bumpalo::Bump::new();
    for bytes in [
        &b"\"r/\\ue\"\\C"[..],
        b"\"\\u\" 1234",
        b"\"ab\\u12\"",
        b"[\"\\u00\", 1]",
        b"{\"\\uzz\": 1}",
        b"\"\\u00e9\\u1\"  ",
        b"\"\\\\u\"",
        b"\"r/\\ue\"",
        b"[\"\\u1\"]",
    ] {
        window_reads_as_serde_jsons_reader::<Value<'_>>(&bump, bytes);
        window_reads_as_serde_jsons_reader::<&str>(&bump, bytes);
        // A type the string is not: serde_json reads it whole to name it in its error.
        window_reads_as_serde_jsons_reader::<Point<'_>>(&bump, bytes);
    }
}

/// A sequence that ends short of the elements its type takes, through a window: serde_json
/// reads the `]` before it places the visitor's "invalid length" after it; a struct read as a
/// sequence (its defaults taking their place), a tuple, an array, a tuple variant, at the top,
/// nested and across lines.
#[test]
fn a_sequence_short_of_its_length_reads_through_a_window_as_through_serde_json() {
    let bump = bumpalo::Bump::new();
    for bytes in [
        &br#"["a", 1]"#[..],
        br#"["a", 1, 2.5, [], 3]"#,
        b"[\n\"a\",\n 1\n  ]",
        br#"[["a", 1, 2.5, ["t"], null], ["b"]]"#,
        br#"["a"] x"#,
    ] {
        window_reads_as_serde_jsons_reader::<Point<'_>>(&bump, bytes);
        window_reads_as_serde_jsons_reader::<&[Point<'_>]>(&bump, bytes);
    }
    for bytes in [&b"[1]"[..], b"[[1, 2], [3]]", b"[\n1\n]", b"[]"] {
        window_reads_as_serde_jsons_reader::<(u8, u8)>(&bump, bytes);
        window_reads_as_serde_jsons_reader::<[u8; 2]>(&bump, bytes);
        window_reads_as_serde_jsons_reader::<&[(u8, u8)]>(&bump, bytes);
        window_reads_as_serde_jsons_reader::<&[[u8; 2]]>(&bump, bytes);
    }
    for bytes in [&br#"{"Pair": [1]}"#[..], br#"[{"Pair": []}]"#] {
        window_reads_as_serde_jsons_reader::<Shape<'_>>(&bump, bytes);
        window_reads_as_serde_jsons_reader::<&[Shape<'_>]>(&bump, bytes);
    }
    // A struct whose defaults stand in for its missing elements, up to a field with none.
    let record = br#"[7, "l", 1, 2]"#;
    window_reads_as_serde_jsons_reader::<Record<'_>>(&bump, record);
}
