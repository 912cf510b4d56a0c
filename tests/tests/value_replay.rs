//! The proof of `ValueDeserializer`: a document serialized in JSON, MessagePack (compact and with
//! struct maps) or CBOR, read into a `Value` and replayed into a type, reads what the bytes read
//! directly, into serde_derive types and, through `ArenaSeed`, into derived arena types. Where
//! serde's own buffer (`ContentRefDeserializer`, serde 1.0.229) reads differently from a format,
//! the replay does what the buffer does, with the buffer's messages; where `Value` holds more
//! than the buffer (128-bit integers, `Enum`), a named test says what it does. The source
//! format's `is_human_readable` reaches every visitor.

use std::collections::BTreeMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr};

use arena_core::{ArenaSeed, BumpAllocator, Value};
use arena_tests::derive_support::{Bytes, Pairs, SameAs, compare};
use arena_tests::shapes::{OwnedShape, Shape, shape};
use arena_tests::{Format, twins, with_each_arena};
use proptest::prelude::*;
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess};
use serde::{Deserialize, Serialize};

/// The formats that describe themselves, so a document can be read into a `Value`.
const FORMATS: [Format; 4] = [
    Format::Json,
    Format::MsgPack,
    Format::MsgPackNamed,
    Format::Cbor,
];

/// The error type of the replays: its message is the bare text serde's calls give it.
type Error = serde::de::value::Error;

/// The source format's `is_human_readable`.
fn human_readable(format: Format) -> bool {
    format == Format::Json
}

/// `bytes` read into a `Value` in `arena`.
fn read_value<'bump, A: BumpAllocator + ?Sized>(
    format: Format,
    arena: &'bump A,
    bytes: &[u8],
) -> Value<'bump> {
    format
        .decode_in(arena, bytes)
        .unwrap_or_else(|e| panic!("{format}: reading a Value: {e}"))
}

/// `value` replayed into a `T` with serde's `Deserialize`.
fn replay<'bump, T: Deserialize<'bump>>(
    value: &Value<'bump>,
    human_readable: bool,
) -> Result<T, String> {
    T::deserialize(value.deserializer::<Error>(human_readable)).map_err(|e| e.to_string())
}

/// A serde_json message without the position it ends with.
fn without_position(message: &str) -> &str {
    message
        .find(" at line ")
        .map_or(message, |at| &message[..at])
}

/// `value` serialized in every format, read into a `Value` and replayed into a `T`: the same
/// as the bytes read into a `T` directly (compared by `Debug`, so NaN equals NaN), or both fail,
/// with the same message in JSON.
fn same_as_direct<S: Serialize, T: DeserializeOwned + fmt::Debug>(value: &S) {
    same_as_direct_in::<S, T>(&FORMATS, value);
}

/// [`same_as_direct`] in `formats` only.
fn same_as_direct_in<S: Serialize, T: DeserializeOwned + fmt::Debug>(
    formats: &[Format],
    value: &S,
) {
    for &format in formats {
        let bytes = format.to_bytes(value);
        let bump = bumpalo::Bump::new();
        let doc = read_value(format, &bump, &bytes);
        let direct = format.decode_owned::<T>(&bytes);
        let replayed = replay::<T>(&doc, human_readable(format));
        match (direct, replayed) {
            (Ok(d), Ok(r)) => assert_eq!(format!("{d:?}"), format!("{r:?}"), "{format}: {doc:?}"),
            (Err(d), Err(r)) if format == Format::Json => {
                assert_eq!(without_position(&d), r, "{format}: {doc:?}");
            }
            (Err(_), Err(_)) => {}
            (d, r) => panic!("{format}: direct {d:?}, replay {r:?}, of {doc:?}"),
        }
    }
}

/// `value` serialized in every format, read into a `Value` on every arena and replayed into
/// the arena type `$arena_ty` through `ArenaSeed`: the same as serde_derive reading the bytes
/// into the twin `$owned_ty` directly, or both fail.
macro_rules! arena_same_as_direct {
    ($arena_ty:ty, $owned_ty:ty, $owned:expr) => {{
        let owned: &$owned_ty = $owned;
        for format in FORMATS {
            let bytes = format.to_bytes(owned);
            with_each_arena!(|arena| {
                let doc = read_value(format, arena, &bytes);
                let direct = format.decode_owned::<$owned_ty>(&bytes);
                let replayed: Result<$arena_ty, Error> =
                    ArenaSeed::new(arena).deserialize(doc.deserializer(human_readable(format)));
                let context = format!("{format} {}: {doc:?}", stringify!($arena_ty));
                compare(&context, direct, replayed.map_err(|e| e.to_string()));
            });
        }
    }};
}

twins! {
    struct Record<'bump> / OwnedRecord {
        name: &'bump str => String,
        count: u32 => u32,
        flag: bool => bool,
        ratio: f64 => f64,
        small: f32 => f32,
        letter: char => char,
        nick: Option<&'bump str> => Option<String>,
        list: &'bump [i64] => Vec<i64>,
        data: &'bump [u8] => Vec<u8>,
        blob: &'bump [u8] => Blob,
        named: &'bump [(&'bump str, u16)] => Pairs<String, u16>,
        pair: (u8, &'bump str) => (u8, String),
    }
}

twins! {
    #[serde(rename_all = "camelCase")]
    struct Batch<'bump> / OwnedBatch {
        first_record: Record<'bump> => OwnedRecord,
        records: &'bump [Record<'bump>] => Vec<OwnedRecord>,
        grid: [[u16; 2]; 2] => [[u16; 2]; 2],
        deep: Option<&'bump [&'bump [&'bump str]]> => Option<Vec<Vec<String>>>,
    }
}

/// A byte buffer: written as bytes (an array in JSON), read from bytes or an array.
#[derive(Debug, Clone, PartialEq)]
struct Blob(Bytes<u8>);

impl Serialize for Blob {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0.0)
    }
}

impl<'de> Deserialize<'de> for Blob {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Bytes::deserialize(deserializer).map(Blob)
    }
}

impl Arbitrary for Blob {
    type Parameters = ();
    type Strategy = BoxedStrategy<Self>;

    fn arbitrary_with((): ()) -> Self::Strategy {
        any::<Bytes<u8>>().prop_map(Blob).boxed()
    }
}

impl SameAs<Blob> for &[u8] {
    fn same_as(&self, owned: &Blob) -> bool {
        self.same_as(&owned.0)
    }
}

/// A newtype struct, a tuple struct and a unit struct.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Meters(f64);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Span(u8, String, Option<Meters>);

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Marker;

/// Collections of collections, maps with string keys, options of options.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Nests {
    by_name: BTreeMap<String, Vec<Option<u32>>>,
    rows: Vec<Vec<(String, bool)>>,
    maybe: Option<Option<Vec<u8>>>,
    spans: Vec<Span>,
    shapes: Vec<OwnedShape>,
}

proptest! {
    // Each case runs 4 formats and 3 arenas; a batch holds up to 100 records.
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(32)))]

    #[test]
    fn records_replay_as_read_directly(v in any::<OwnedRecord>()) {
        same_as_direct::<_, OwnedRecord>(&v);
        arena_same_as_direct!(Record<'_>, OwnedRecord, &v);
    }

    #[test]
    fn batches_replay_as_read_directly(v in any::<OwnedBatch>()) {
        same_as_direct::<_, OwnedBatch>(&v);
        arena_same_as_direct!(Batch<'_>, OwnedBatch, &v);
    }

    #[test]
    fn enums_replay_as_read_directly(v in shape()) {
        same_as_direct::<_, OwnedShape>(&v);
        arena_same_as_direct!(Shape<'_>, OwnedShape, &v);
    }

    #[test]
    fn scalars_replay_as_read_directly(
        v in any::<(i8, u16, i32, u64, i64, f32, char, bool, String)>()
    ) {
        same_as_direct::<_, (i8, u16, i32, u64, i64, f32, char, bool, String)>(&v);
    }
}

#[test]
fn structs_tuples_and_collections_replay_as_read_directly() {
    let nests = Nests {
        by_name: BTreeMap::from([
            ("a".to_owned(), vec![Some(1), None]),
            ("b".to_owned(), vec![]),
        ]),
        rows: vec![vec![("x".to_owned(), true)], vec![]],
        maybe: Some(Some(vec![1, 2])),
        spans: vec![
            Span(1, "one".to_owned(), Some(Meters(1.5))),
            Span(2, String::new(), None),
        ],
        shapes: vec![
            OwnedShape::Empty,
            OwnedShape::Circle(2.0),
            OwnedShape::Rect(3, 4),
            OwnedShape::Labelled {
                label_text: "tri".to_owned(),
                side_count: 3,
            },
            OwnedShape::Polygon {
                corner_points: vec![[0, 0], [1, -1]],
            },
            OwnedShape::Nested(Some(Box::new(OwnedShape::Empty))),
        ],
    };
    same_as_direct::<_, Nests>(&nests);
    same_as_direct::<_, Meters>(&Meters(-0.0));
    same_as_direct::<_, Span>(&Span(7, "seven".to_owned(), None));
    same_as_direct::<_, (u8, (String, [char; 2]), Vec<Vec<u8>>)>(&(
        1,
        ("a".to_owned(), ['é', 'z']),
        vec![vec![], vec![255]],
    ));
    same_as_direct::<_, Blob>(&Blob(Bytes(vec![0, 1, 255])));
    same_as_direct::<_, Option<Option<u8>>>(&Some(None::<u8>));
    same_as_direct::<_, Vec<Option<String>>>(&vec![None, Some("x".to_owned())]);
}

/// 128-bit integers replay in every format whose `deserialize_any` keeps them: CBOR in full,
/// JSON within 64 bits (its `deserialize_any` turns wider numbers into floats). MessagePack
/// writes them as 16 bytes, which only its own `deserialize_i128` reads.
#[test]
fn wide_integers_replay_as_read_directly() {
    let bump = bumpalo::Bump::new();
    let bytes = Format::Cbor.to_bytes(&(i128::MIN, u128::MAX, -5_i128, 7_u128));
    let doc = read_value(Format::Cbor, &bump, &bytes);
    let direct = Format::Cbor
        .decode_owned::<(i128, u128, i128, u128)>(&bytes)
        .unwrap();
    assert_eq!(replay::<(i128, u128, i128, u128)>(&doc, false), Ok(direct));

    let in_range = (i128::from(i64::MIN), u128::from(u64::MAX));
    same_as_direct_in::<_, (i128, u128)>(&[Format::Json, Format::Cbor], &in_range);
}

/// Deliberately unlike serde's buffer, which cannot hold 128-bit integers and whose
/// `deserialize_i128` fails with "i128 is not supported": `I128` and `U128` replay with
/// `visit_i128` and `visit_u128`, for every integer and float type, and an `I64` or `U64`
/// replays into an `i128` or `u128`.
#[test]
fn i128_and_u128_replay_unlike_serde_buffer() {
    assert_eq!(
        replay::<i128>(&Value::I128(&i128::MIN), true),
        Ok(i128::MIN)
    );
    assert_eq!(
        replay::<u128>(&Value::U128(&u128::MAX), true),
        Ok(u128::MAX)
    );
    assert_eq!(replay::<i128>(&Value::U64(5), true), Ok(5));
    assert_eq!(replay::<u128>(&Value::I64(5), true), Ok(5));
    // At the stored width, for the visitor to convert: serde's `u8` takes no `i128`.
    assert_eq!(replay::<i128>(&Value::I128(&200), true), Ok(200));
    assert_eq!(
        replay::<u8>(&Value::I128(&200), true),
        Err("invalid type: integer `200` as i128, expected u8".to_owned())
    );
    assert_eq!(replay::<f64>(&Value::F32(1.5), true), Ok(1.5));
    assert_eq!(
        replay::<f64>(&Value::U128(&1), true),
        Err("invalid type: integer `1` as u128, expected f64".to_owned())
    );
    assert_eq!(
        replay::<String>(&Value::I128(&i128::MIN), true),
        Err(
            "invalid type: integer `-170141183460469231731687303715884105728` as i128, \
             expected a string"
                .to_owned()
        )
    );
    assert_eq!(
        replay::<String>(&Value::U128(&7), true),
        Err("invalid type: integer `7`, expected a string".to_owned())
    );
}

/// Deliberately beyond serde's buffer, which has no enum node: `Enum` replays with
/// `visit_enum` from `deserialize_any`, and is an enum to `deserialize_enum`, its content
/// always present (`Unit` for a unit variant).
#[test]
fn enum_value_replays_with_visit_enum() {
    let newtype = Value::Enum(&(Value::Str("circle"), Value::F64(2.0)));
    let unit = Value::Enum(&(Value::Str("empty"), Value::Unit));
    let by_index = Value::Enum(&(Value::U64(2), Value::Array(&[Value::U64(3), Value::U64(4)])));
    assert_eq!(replay(&newtype, true), Ok(OwnedShape::Circle(2.0)));
    assert_eq!(replay(&unit, true), Ok(OwnedShape::Empty));
    assert_eq!(replay(&by_index, true), Ok(OwnedShape::Rect(3, 4)));
    assert_eq!(
        replay::<OwnedShape>(&Value::Enum(&(Value::Str("empty"), Value::U64(1))), true),
        Err("invalid type: integer `1`, expected unit".to_owned())
    );
    assert_eq!(
        replay::<u8>(&unit, true),
        Err("invalid type: enum, expected u8".to_owned())
    );
    with_each_arena!(|arena| {
        // `deserialize_any`: a `Value` replays into a `Value` node for node.
        let again: Result<Value, Error> =
            ArenaSeed::new(arena).deserialize(newtype.deserializer(true));
        assert_eq!(again, Ok(newtype));
    });
}

/// serde's buffer reads an enum from a map with a single key or a string, and says so when it
/// is neither (`deserialize_enum`, `VariantRefDeserializer`).
#[test]
fn enum_errors_are_serde_buffer_messages() {
    let cases: [(Value, &str); 9] = [
        (
            Value::Map(&[
                (Value::Str("empty"), Value::Unit),
                (Value::Str("empty"), Value::Unit),
            ]),
            "invalid value: map, expected map with a single key",
        ),
        (
            Value::Map(&[]),
            "invalid value: map, expected map with a single key",
        ),
        (
            Value::U64(1),
            "invalid type: integer `1`, expected string or map",
        ),
        (
            Value::Array(&[Value::Str("circle")]),
            "invalid type: sequence, expected string or map",
        ),
        (
            Value::Str("circle"),
            "invalid type: unit variant, expected newtype variant",
        ),
        (
            Value::Str("rect"),
            "invalid type: unit variant, expected tuple variant",
        ),
        (
            Value::Str("labelled"),
            "invalid type: unit variant, expected struct variant",
        ),
        (
            Value::Map(&[(Value::Str("rect"), Value::Map(&[]))]),
            "invalid type: map, expected tuple variant",
        ),
        (
            Value::Map(&[(Value::Str("labelled"), Value::Bool(true))]),
            "invalid type: boolean `true`, expected struct variant",
        ),
    ];
    for (value, message) in cases {
        assert_eq!(
            replay::<OwnedShape>(&value, true),
            Err(message.to_owned()),
            "{value:?}"
        );
    }
    // An unknown variant is the visitor's own error, as when read directly.
    same_as_direct::<_, OwnedShape>(&BTreeMap::from([("Hexagon", 6)]));
    same_as_direct::<_, OwnedShape>(&"Hexagon");
}

/// A struct variant reads from an array too, as a struct does (MessagePack writes both
/// without names).
#[test]
fn struct_variants_and_structs_read_from_arrays() {
    let variant = Value::Map(&[(
        Value::Str("labelled"),
        Value::Array(&[Value::Str("sq"), Value::U64(4)]),
    )]);
    assert_eq!(
        replay(&variant, true),
        Ok(OwnedShape::Labelled {
            label_text: "sq".to_owned(),
            side_count: 4
        })
    );
    let record = Value::Array(&[Value::U64(1), Value::Str("one"), Value::Unit]);
    assert_eq!(replay(&record, true), Ok(Span(1, "one".to_owned(), None)));
}

/// The visitor must read every element (serde's `SeqRefDeserializer::end`): the length is
/// the array's, the expected count what the visitor read.
#[test]
fn unread_elements_are_serde_buffer_length_errors() {
    let three = Value::Array(&[Value::U64(1), Value::U64(2), Value::U64(3)]);
    assert_eq!(
        replay::<(u8, u8)>(&three, true),
        Err("invalid length 3, expected 2 elements in sequence".to_owned())
    );
    assert_eq!(
        replay::<[u8; 1]>(&three, true),
        Err("invalid length 3, expected 1 element in sequence".to_owned())
    );
    assert_eq!(
        replay::<Meters>(&Value::Array(&[Value::F64(1.0), Value::F64(2.0)]), true),
        Err("invalid type: sequence, expected f64".to_owned())
    );
    // Too few is the visitor's error, as when read directly.
    same_as_direct::<_, (u8, u8, u8)>(&(1, 2));
    same_as_direct::<_, Span>(&(1,));
}

/// A map visitor that reads one entry and stops.
struct FirstEntry;

impl<'de> Deserialize<'de> for FirstEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = FirstEntry;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<FirstEntry, M::Error> {
                map.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?;
                Ok(FirstEntry)
            }
        }
        deserializer.deserialize_map(V)
    }
}

/// The visitor must read every entry (serde's `MapRefDeserializer::end`).
#[test]
fn unread_entries_are_serde_buffer_length_errors() {
    let two = Value::Map(&[(Value::U64(1), Value::Unit), (Value::U64(2), Value::Unit)]);
    assert_eq!(
        replay::<FirstEntry>(&two, true).err(),
        Some("invalid length 2, expected 1 element in map".to_owned())
    );
    assert!(replay::<FirstEntry>(&Value::Map(&[(Value::Unit, Value::Unit)]), true).is_ok());
}

/// Wrong types: the same message as a direct read of JSON, where serde_json's direct read and
/// serde's buffer agree; serde's `content_unexpected` wording where only the buffer reads.
#[test]
fn wrong_types_are_serde_messages() {
    same_as_direct::<_, u32>(&"x");
    same_as_direct::<_, String>(&12);
    same_as_direct::<_, bool>(&[1]);
    same_as_direct::<_, Vec<u8>>(&BTreeMap::from([("a", 1)]));
    same_as_direct::<_, Span>(&(1, 2, 3));
    same_as_direct::<_, OwnedRecord>(&BTreeMap::from([("name", "only")]));
    same_as_direct::<_, u8>(&300);
    same_as_direct::<_, i8>(&-300);
    same_as_direct::<_, char>(&"two");

    /// Replays a value into some type, keeping only the error.
    type Read = fn(&Value) -> Result<(), String>;
    let cases: [(Value, &str, Read); 6] = [
        (
            Value::Char('x'),
            "invalid type: character `x`, expected a string",
            |v| replay::<String>(v, true).map(drop),
        ),
        (
            Value::None,
            "invalid type: Option value, expected unit",
            |v| replay::<()>(v, true),
        ),
        (
            Value::Newtype(&Value::U64(1)),
            "invalid type: newtype struct, expected u8",
            |v| replay::<u8>(v, true).map(drop),
        ),
        (
            Value::Bytes(b"ab"),
            "invalid type: byte array, expected a sequence",
            |v| replay::<Vec<u8>>(v, true).map(drop),
        ),
        (
            Value::F32(1.5),
            "invalid type: floating point `1.5`, expected u8",
            |v| replay::<u8>(v, true).map(drop),
        ),
        (
            Value::Some(&Value::U64(1)),
            "invalid type: Option value, expected u8",
            |v| replay::<u8>(v, true).map(drop),
        ),
    ];
    for (value, message, read) in cases {
        assert_eq!(read(&value), Err(message.to_owned()), "{value:?}");
    }
}

/// serde's `deserialize_option`: `None` and `Unit` are absent, `Some(v)` and anything else
/// present.
#[test]
fn options_follow_serde_buffer_rules() {
    assert_eq!(replay::<Option<u8>>(&Value::None, true), Ok(None));
    assert_eq!(replay::<Option<u8>>(&Value::Unit, true), Ok(None));
    assert_eq!(replay::<Option<()>>(&Value::Unit, true), Ok(None));
    assert_eq!(
        replay::<Option<u8>>(&Value::Some(&Value::U64(1)), true),
        Ok(Some(1))
    );
    assert_eq!(replay::<Option<u8>>(&Value::U64(1), true), Ok(Some(1)));
    assert_eq!(
        replay::<Option<Option<u8>>>(&Value::Some(&Value::None), true),
        Ok(Some(None))
    );
}

/// serde's `deserialize_newtype_struct`: `Newtype(v)` is the content, anything else the
/// content itself.
#[test]
fn newtypes_follow_serde_buffer_rules() {
    assert_eq!(
        replay(&Value::Newtype(&Value::F64(2.5)), true),
        Ok(Meters(2.5))
    );
    assert_eq!(replay(&Value::F64(2.5), true), Ok(Meters(2.5)));
    assert_eq!(replay(&Value::I64(-2), true), Ok(Meters(-2.0)));
}

/// serde's `deserialize_identifier` takes `U8` and `U64`; `Value` keeps both as `U64`: a
/// field or a variant by index.
#[test]
fn identifiers_read_from_u64_indices() {
    let by_index = Value::Map(&[
        (Value::U64(0), Value::Str("sq")),
        (Value::U64(1), Value::U64(4)),
    ]);
    let variant = Value::Map(&[(Value::U64(3), by_index)]);
    assert_eq!(
        replay(&variant, true),
        Ok(OwnedShape::Labelled {
            label_text: "sq".to_owned(),
            side_count: 4
        })
    );
    assert_eq!(
        replay::<OwnedShape>(&Value::Map(&[(Value::U64(9), Value::Unit)]), true),
        Err("invalid value: integer `9`, expected variant index 0 <= i < 6".to_owned())
    );
    assert_eq!(
        replay::<OwnedShape>(&Value::Map(&[(Value::I64(1), Value::Unit)]), true),
        Err("invalid type: integer `1`, expected variant identifier".to_owned())
    );
}

/// A unit struct is `Unit` only (serde's `deserialize_unit`): MessagePack and CBOR write it as
/// an empty array, which serde's buffer refuses, though the formats read it directly.
#[test]
fn unit_struct_written_as_empty_array_fails_as_in_serde_buffer() {
    same_as_direct_in::<_, Marker>(&[Format::Json], &Marker);
    same_as_direct_in::<_, ()>(&[Format::Json, Format::MsgPack], &());
    for format in [Format::MsgPack, Format::Cbor] {
        let bump = bumpalo::Bump::new();
        let bytes = format.to_bytes(&Marker);
        assert_eq!(format.decode_owned::<Marker>(&bytes), Ok(Marker));
        let doc = read_value(format, &bump, &bytes);
        assert_eq!(
            replay::<Marker>(&doc, false),
            Err("invalid type: sequence, expected unit struct Marker".to_owned())
        );
    }
}

/// JSON writes integer keys as strings; serde_json's direct read parses them back, serde's
/// buffer does not (an integer is asked for, a string is there).
#[test]
fn json_integer_keys_stay_strings_as_in_serde_buffer() {
    let bump = bumpalo::Bump::new();
    let bytes = Format::Json.to_bytes(&BTreeMap::from([(1_u8, "a")]));
    assert!(
        Format::Json
            .decode_owned::<BTreeMap<u8, String>>(&bytes)
            .is_ok()
    );
    let doc = read_value(Format::Json, &bump, &bytes);
    assert_eq!(
        replay::<BTreeMap<u8, String>>(&doc, true),
        Err("invalid type: string \"1\", expected u8".to_owned())
    );
}

/// A serde type borrows the document's strings and byte strings for the arena's lifetime
/// (`visit_borrowed_str`, `visit_borrowed_bytes`), escaped JSON strings included.
#[test]
fn serde_types_borrow_strings_from_the_value() {
    #[derive(Deserialize)]
    struct Borrowed<'a> {
        name: &'a str,
        #[serde(borrow)]
        tags: Vec<&'a str>,
        data: &'a [u8],
    }
    let name = Value::Str("quote \" inside");
    let tag = Value::Str("t");
    let data = Value::Bytes(b"\x00\x01");
    let entries = [
        (Value::Str("name"), name),
        (
            Value::Str("tags"),
            Value::Array(core::slice::from_ref(&tag)),
        ),
        (Value::Str("data"), data),
    ];
    let doc = Value::Map(&entries);
    let read: Borrowed = replay(&doc, false).unwrap();
    let (Value::Str(n), Value::Str(t), Value::Bytes(d)) = (name, tag, data) else {
        unreachable!()
    };
    assert!(core::ptr::eq(read.name, n));
    assert!(core::ptr::eq(read.tags[0], t));
    assert!(core::ptr::eq(read.data, d));
}

/// `&'bump str`'s `ArenaDeserialize` copies every string it is visited with, borrowed or not:
/// replayed into the arena the value lives in, a string is a second copy.
#[test]
fn arena_str_copies_the_value_string_on_replay() {
    with_each_arena!(|arena| {
        let doc: Value = Format::Json.decode_in(arena, br#"["shared"]"#).unwrap();
        let Value::Array([Value::Str(original)]) = doc else {
            panic!("{doc:?}")
        };
        let read: Result<&[&str], Error> =
            ArenaSeed::new(arena).deserialize(doc.deserializer(true));
        let read = read.unwrap();
        assert_eq!(read, ["shared"]);
        assert!(!core::ptr::eq(read[0], *original));
    });
}

/// Reports `is_human_readable` of the deserializer it is read from, whatever the value.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Readable(bool);

impl<'de> Deserialize<'de> for Readable {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let human_readable = deserializer.is_human_readable();
        serde::de::IgnoredAny::deserialize(deserializer)?;
        Ok(Readable(human_readable))
    }
}

/// `Readable` in every place a replay hands a visitor a deserializer.
#[derive(Deserialize, Debug, PartialEq)]
struct EveryPlace {
    top: Readable,
    list: Vec<Readable>,
    map: BTreeMap<Readable, Readable>,
    option: Option<Readable>,
    newtype: Wrapped,
    variant: Choice,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Wrapped(Readable);

#[derive(Deserialize, Debug, PartialEq)]
enum Choice {
    Plain(Readable),
    Tagged(Readable, Readable),
}

/// The flag given at construction reaches every visitor: elements, keys, values, options,
/// newtypes, enum variants and their content (serde issue #2172 is what losing it does).
#[test]
fn is_human_readable_reaches_every_visitor() {
    let doc = Value::Map(&[
        (Value::Str("top"), Value::Unit),
        (Value::Str("list"), Value::Array(&[Value::Unit])),
        (
            Value::Str("map"),
            Value::Map(&[(Value::U64(1), Value::Unit)]),
        ),
        (Value::Str("option"), Value::Some(&Value::Unit)),
        (Value::Str("newtype"), Value::Newtype(&Value::Unit)),
        (
            Value::Str("variant"),
            Value::Map(&[(
                Value::Str("Tagged"),
                Value::Array(&[Value::Unit, Value::Unit]),
            )]),
        ),
    ]);
    for flag in [true, false] {
        let r = || Readable(flag);
        assert_eq!(
            replay(&doc, flag),
            Ok(EveryPlace {
                top: r(),
                list: vec![r()],
                map: BTreeMap::from([(r(), r())]),
                option: Some(r()),
                newtype: Wrapped(r()),
                variant: Choice::Tagged(r(), r()),
            })
        );
        let plain = Value::Enum(&(Value::Str("Plain"), Value::Unit));
        assert_eq!(replay(&plain, flag), Ok(Choice::Plain(r())));
    }
    // `IntoDeserializer` for `&Value` answers serde's default.
    let into: Result<Readable, Error> = Readable::deserialize((&Value::Unit).into_deserializer());
    assert_eq!(into, Ok(Readable(true)));
}

/// An IP address reads a string from human-readable formats and an enum of octets from the
/// others: replayed with its source's flag it reads from both; with serde's default `true`,
/// a MessagePack document fails.
#[test]
fn is_human_readable_of_the_source_reads_an_ip_address() {
    let ip = IpAddr::V4(Ipv4Addr::new(192, 168, 0, 1));
    same_as_direct::<_, IpAddr>(&ip);
    let bump = bumpalo::Bump::new();
    let bytes = Format::MsgPack.to_bytes(&ip);
    let doc = read_value(Format::MsgPack, &bump, &bytes);
    assert_eq!(replay::<IpAddr>(&doc, false), Ok(ip));
    assert_eq!(
        replay::<IpAddr>(&doc, true),
        Err("invalid type: map, expected IP address".to_owned())
    );
}

#[test]
fn a_value_reference_is_a_deserializer_as_a_serde_json_value_reference_is() {
    let json = r#"{"name": "Lyon", "tags": ["a", "bc"], "size": [3, -4], "note": null}"#;
    #[derive(Deserialize, Debug, PartialEq)]
    struct Owned {
        name: String,
        tags: Vec<String>,
        size: (u8, i64),
        note: Option<String>,
    }
    with_each_arena!(|arena| {
        let doc: Value<'_> = arena_core::json::from_str(arena, json).unwrap();
        // Into serde types, as `T::deserialize(&serde_json_value)` reads.
        let through_ref = Owned::deserialize(&doc).unwrap();
        let through_json =
            Owned::deserialize(&serde_json::from_str::<serde_json::Value>(json).unwrap()).unwrap();
        assert_eq!(through_ref, through_json);
        // Into arena types, with an `ArenaSeed`: what the replay with an explicit error type reads.
        let seed = ArenaSeed::<&[(&str, Value<'_>)], _>::new(arena);
        let by_ref = seed.deserialize(&doc).unwrap();
        let by_replay = seed.deserialize(doc.deserializer::<Error>(true)).unwrap();
        assert_eq!(by_ref, by_replay);
        assert_eq!(by_ref.len(), 4);
        // Its errors are serde's own, as the explicit replay's.
        let err = u32::deserialize(&doc).unwrap_err();
        assert_eq!(Err(err.to_string()), replay::<u32>(&doc, true));
        assert!(err.to_string().starts_with("invalid type: map"), "{err}");
    });
}

#[test]
fn a_value_reference_replays_as_the_human_readable_replay_with_the_crates_error() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct P<'a> {
        x: u8,
        #[serde(borrow)]
        y: Vec<&'a str>,
    }
    with_each_arena!(|arena| {
        for text in [
            r#"{"x": 1, "y": ["a", "b"]}"#,
            r#"{"x": "one", "y": []}"#,
            r#"{"x": 300, "y": []}"#,
            r#"{"y": []}"#,
            r#"[1, ["c"]]"#,
            r#"[1, ["c"], 2]"#,
        ] {
            let value: Value<'_> = arena_core::json::from_str(arena, text).unwrap();
            let through_reference: Result<P<'_>, arena_core::ValueError> = P::deserialize(&value);
            let through_replay = replay::<P<'_>>(&value, true);
            assert_eq!(
                through_reference.map_err(|e| e.message().to_owned()),
                through_replay,
                "{text}"
            );
            let seeded: Result<&[(&str, Value<'_>)], arena_core::ValueError> =
                ArenaSeed::new(arena).deserialize(&value);
            assert_eq!(seeded.is_ok(), text.starts_with('{'), "{text}");
        }
    });
}
