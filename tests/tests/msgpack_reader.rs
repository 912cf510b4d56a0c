//! `arena_core::msgpack::Deserializer`, the reader behind `arena_core::msgpack::from_slice`,
//! against rmp-serde's `Deserializer::from_read_ref`, which it mirrors: the same visitor calls,
//! size hints, values and errors (compared with `Debug`) for every `deserialize_*` method on
//! any input (the probe of `arena_tests::probe`), the same values read into arena
//! types, and one test per rule of rmp-serde's that is easy to get wrong.

use arena_core::msgpack::Deserializer;
use arena_core::{ArenaSeed, BStr, Value};
use arena_tests::msgpack_encodings::{Msg, msg};
use arena_tests::probe::{probe_reader, with_large_stack};
use proptest::prelude::*;
use serde::de::{DeserializeSeed, IgnoredAny};
use serde::{Deserialize, Serialize};

/// The probe's trace and error, reading up to two values from `bytes` with both readers.
fn probe_both(bytes: &[u8], choices: &[u8]) -> [(Vec<String>, Option<String>); 2] {
    with_large_stack(|| probe_both_here(bytes, choices))
}

/// [`probe_both`] on this thread's stack.
fn probe_both_here(bytes: &[u8], choices: &[u8]) -> [(Vec<String>, Option<String>); 2] {
    [
        probe_reader(choices, Deserializer::from_slice(bytes)),
        probe_reader(choices, rmp_serde::Deserializer::from_read_ref(bytes)),
    ]
}

/// Asserts that both readers probe `bytes` alike.
fn assert_probes_alike(bytes: &[u8], choices: &[u8]) {
    let [ours, theirs] = probe_both(bytes, choices);
    assert_eq!(ours, theirs, "bytes {bytes:02x?} choices {choices:?}");
}

/// Reads a `T` with serde from `bytes` with both readers: the values or errors (`Debug`).
fn read_both<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> [Result<T, String>; 2] {
    let ours = T::deserialize(&mut Deserializer::from_slice(bytes)).map_err(|e| format!("{e:?}"));
    let theirs = rmp_serde::from_slice(bytes).map_err(|e| format!("{e:?}"));
    [ours, theirs]
}

/// Reads a `T` with serde with both readers, asserts they agree, and returns ours.
fn read_alike<'de, T>(bytes: &'de [u8]) -> Result<T, String>
where
    T: Deserialize<'de> + PartialEq + core::fmt::Debug,
{
    let [ours, theirs] = read_both::<T>(bytes);
    assert_eq!(ours, theirs, "bytes {bytes:02x?}");
    ours
}

/// Reads each listed arena type from `bytes` through `arena_core::msgpack::from_slice` and
/// through an [`ArenaSeed`] on rmp-serde's reader, and asserts the same value or error
/// (compared by `Debug`, so that a NaN the bytes hold equals itself).
macro_rules! arena_reads_alike {
    ($bytes:expr; $($ty:ty),* $(,)?) => {{
        let bytes: &[u8] = $bytes;
        $(
            arena_tests::with_each_arena!(|arena| {
                let ours: Result<$ty, String> =
                    arena_core::msgpack::from_slice(arena, bytes).map_err(|e| format!("{e:?}"));
                let theirs: Result<$ty, String> = ArenaSeed::new(arena)
                    .deserialize(&mut rmp_serde::Deserializer::from_read_ref(bytes))
                    .map_err(|e| format!("{e:?}"));
                assert_eq!(
                    format!("{ours:?}"),
                    format!("{theirs:?}"),
                    "{} from {bytes:02x?}",
                    stringify!($ty)
                );
            });
        )*
    }};
}

#[derive(Debug, PartialEq, arena_core::ArenaDeserialize)]
struct Point<'a> {
    name: &'a str,
    x: i32,
    tags: &'a [&'a str],
    next: Option<u16>,
}

#[derive(Debug, PartialEq, arena_core::ArenaDeserialize)]
enum Shape<'a> {
    Empty,
    Circle(f64),
    Pair(u8, &'a str),
    Named { id: u64, label: Option<&'a str> },
}

#[derive(Debug, PartialEq, Deserialize, Serialize)]
struct OwnedPoint {
    name: String,
    x: i32,
    tags: Vec<String>,
    next: Option<u16>,
}

#[derive(Debug, PartialEq, Deserialize, Serialize)]
enum OwnedShape {
    Empty,
    Circle(f64),
    Pair(u8, String),
    Named { id: u64, label: Option<String> },
}

/// Every arena type the typed differential reads.
fn arena_types_read_alike(bytes: &[u8]) {
    arena_reads_alike!(bytes;
        Value<'_>, Point<'_>, Shape<'_>, &[Shape<'_>], Option<Option<u8>>, Option<()>, (),
        u128, i128, u8, i64, u64, f32, f64, bool, char, &str, &[u8], &BStr,
        (u8, &str, f64), &[(&str, i64)], &[Option<&str>], [u16; 2],
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(2048)))]

    #[test]
    fn probe_reads_every_value_as_rmp_serde(
        first in msg(),
        second in msg(),
        choices in proptest::collection::vec(any::<u8>(), 1..48),
        cut in any::<prop::sample::Index>(),
        cut_it in any::<bool>(),
    ) {
        let mut bytes = first.to_bytes();
        second.encode(&mut bytes);
        if cut_it {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        assert_probes_alike(&bytes, &choices);
    }

    #[test]
    fn probe_reads_any_bytes_as_rmp_serde(
        bytes in proptest::collection::vec(any::<u8>(), 0..48),
        choices in proptest::collection::vec(any::<u8>(), 1..48),
    ) {
        assert_probes_alike(&bytes, &choices);
    }

    #[test]
    fn arena_types_read_every_value_as_through_rmp_serde(value in msg()) {
        arena_types_read_alike(&value.to_bytes());
    }

    #[test]
    fn arena_types_read_any_bytes_as_through_rmp_serde(
        bytes in proptest::collection::vec(any::<u8>(), 0..32),
    ) {
        arena_types_read_alike(&bytes);
    }

    #[test]
    fn written_models_read_as_rmp_serde(
        name in ".{0,8}",
        x in any::<i32>(),
        tags in proptest::collection::vec("[a-z]{0,4}", 0..4),
        next in any::<Option<u16>>(),
        label in any::<Option<String>>(),
        id in any::<u64>(),
    ) {
        let point = OwnedPoint { name, x, tags, next };
        let shapes = [
            OwnedShape::Empty,
            OwnedShape::Circle(f64::from(x)),
            OwnedShape::Pair(3, point.name.clone()),
            OwnedShape::Named { id, label },
        ];
        for bytes in [
            rmp_serde::to_vec(&point).unwrap(),
            rmp_serde::to_vec_named(&point).unwrap(),
            rmp_serde::to_vec(&shapes).unwrap(),
            rmp_serde::to_vec_named(&shapes).unwrap(),
        ] {
            arena_types_read_alike(&bytes);
            read_alike::<OwnedPoint>(&bytes).ok();
            read_alike::<Vec<OwnedShape>>(&bytes).ok();
            assert_probes_alike(&bytes, &[0]);
        }
        let bump = bumpalo::Bump::new();
        let compact = rmp_serde::to_vec(&point).unwrap();
        let named = rmp_serde::to_vec_named(&point).unwrap();
        let read: Point<'_> = arena_core::msgpack::from_slice(&bump, &compact).unwrap();
        let again: Point<'_> = arena_core::msgpack::from_slice(&bump, &named).unwrap();
        prop_assert_eq!(&read, &again);
        prop_assert_eq!(read.name, point.name.as_str());
        prop_assert_eq!(read.x, point.x);
    }
}

#[test]
fn ext_values_read_as_ext_struct() {
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename = "_ExtStruct")]
    struct Ext<'a>(#[serde(borrow)] (i8, &'a [u8]));

    // fixext 1..16, ext 8/16/32: the tag, then the data borrowed.
    for (bytes, tag, data) in [
        (&[0xD4, 0x05, 0xAA][..], 5, &[0xAA][..]),
        (&[0xD5, 0xFB, 0xAA, 0xBB], -5, &[0xAA, 0xBB]),
        (&[0xC7, 0x02, 0x05, 0xAA, 0xBB], 5, &[0xAA, 0xBB]),
        (&[0xC8, 0x00, 0x01, 0x7F, 0xAA], 127, &[0xAA]),
        (&[0xC9, 0x00, 0x00, 0x00, 0x00, 0x01], 1, &[]),
    ] {
        assert_eq!(read_alike::<Ext<'_>>(bytes), Ok(Ext((tag, data))));
    }
    // An ext where `_ExtStruct` is not asked for: a newtype holding the sequence (tag, data).
    assert_probes_alike(&[0xD6, 0x01, 1, 2, 3, 4], &[0, 1, 1, 0, 1, 1]);
    // Not an ext: a type mismatch; cut short: a data read error.
    assert!(
        read_alike::<Ext<'_>>(&[0xC4, 0x01, 0x00])
            .unwrap_err()
            .contains("TypeMismatch(Bin8)")
    );
    assert!(
        read_alike::<Ext<'_>>(&[0xD6, 0x01, 0x00])
            .unwrap_err()
            .contains("InvalidDataRead")
    );
}

#[test]
fn u128_reads_as_rmp_serde_writes_it() {
    for v in [0, 1, u128::from(u64::MAX) + 1, u128::MAX] {
        let bytes = rmp_serde::to_vec(&v).unwrap();
        assert_eq!(read_alike::<u128>(&bytes), Ok(v));
    }
    for v in [i128::MIN, -1, i128::MAX] {
        let bytes = rmp_serde::to_vec(&v).unwrap();
        assert_eq!(read_alike::<i128>(&bytes), Ok(v));
    }
    // Any integer marker; a negative one wraps into a u128, as rmp-serde casts it.
    assert_eq!(read_alike::<u128>(&[0xFF]), Ok(u128::MAX));
    assert_eq!(
        read_alike::<i128>(&[0xD3, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        Ok(i64::MIN.into())
    );
    // A fixarray of 16 holds the 16 bytes themselves; any other length is LengthMismatch(16).
    assert_eq!(
        read_alike::<u128>(&[0x9F]),
        Err("LengthMismatch(16)".to_owned())
    );
    assert_eq!(
        read_alike::<u128>(&[0x90]),
        Err("LengthMismatch(16)".to_owned())
    );
    let mut sixteen = vec![0xDC, 0x00, 0x10];
    sixteen.extend([0; 16]);
    assert!(
        read_alike::<u128>(&sixteen)
            .unwrap_err()
            .contains("TypeMismatch(Array16)")
    );
    assert_eq!(
        read_alike::<u128>(&[0xC4, 0x0F]),
        Err("LengthMismatch(16)".to_owned())
    );
    assert!(
        read_alike::<u128>(&[0xC4, 0x10, 0x01])
            .unwrap_err()
            .contains("InvalidDataRead")
    );
    assert!(
        read_alike::<u128>(&[0xCA, 0, 0, 0, 0])
            .unwrap_err()
            .contains("TypeMismatch(F32)")
    );
}

#[test]
fn enums_read_in_every_form_rmp_serde_reads() {
    // A unit variant as its name, as its index, or as a map to nil.
    assert_eq!(
        read_alike::<OwnedShape>(b"\xA5Empty"),
        Ok(OwnedShape::Empty)
    );
    assert_eq!(read_alike::<OwnedShape>(&[0x00]), Ok(OwnedShape::Empty));
    assert_eq!(
        read_alike::<OwnedShape>(b"\x81\xA5Empty\xC0"),
        Ok(OwnedShape::Empty)
    );
    assert_eq!(
        read_alike::<OwnedShape>(b"\x81\x00\xC0"),
        Ok(OwnedShape::Empty)
    );
    // A unit variant's content must be nil.
    assert!(
        read_alike::<OwnedShape>(b"\x81\xA5Empty\x90")
            .unwrap_err()
            .contains("TypeMismatch")
    );
    // Content: a newtype's value, a tuple's array, a struct's array or map.
    assert_eq!(
        read_alike::<OwnedShape>(b"\x81\xA6Circle\xCB\x3F\xF0\0\0\0\0\0\0"),
        Ok(OwnedShape::Circle(1.0))
    );
    assert_eq!(
        read_alike::<OwnedShape>(b"\x81\x02\x92\x03\xA1a"),
        Ok(OwnedShape::Pair(3, "a".to_owned()))
    );
    assert_eq!(
        read_alike::<OwnedShape>(b"\x81\xA5Named\x81\xA2id\x07"),
        Ok(OwnedShape::Named { id: 7, label: None })
    );
    // A map of any other length: LengthMismatch with its length; a variant with content
    // written bare: serde's invalid type.
    assert_eq!(
        read_alike::<OwnedShape>(&[0x80]),
        Err("LengthMismatch(0)".to_owned())
    );
    assert_eq!(
        read_alike::<OwnedShape>(&[0xDE, 0x00, 0x02]),
        Err("LengthMismatch(2)".to_owned())
    );
    assert!(
        read_alike::<OwnedShape>(b"\xA6Circle")
            .unwrap_err()
            .contains("invalid type: unit variant, expected newtype variant")
    );
    // A map16 cut in its length reads as a bare variant, whose read then fails.
    assert!(
        read_alike::<OwnedShape>(&[0xDE, 0x00])
            .unwrap_err()
            .contains("InvalidDataRead")
    );
}

#[test]
fn strings_that_are_not_utf8_read_as_bytes_or_fail() {
    let bytes = [0xA2, 0xC3, 0x28];
    // A visitor that takes bytes gets them, borrowed.
    assert_eq!(read_alike::<&[u8]>(&bytes), Ok(&[0xC3, 0x28][..]));
    assert_eq!(read_alike::<IgnoredAny>(&bytes).map(|_| ()), Ok(()));
    // One that refuses bytes: rmp-serde's Utf8Error.
    assert!(
        read_alike::<String>(&bytes)
            .unwrap_err()
            .starts_with("Utf8Error")
    );
    assert!(
        read_alike::<&str>(&bytes)
            .unwrap_err()
            .starts_with("Utf8Error")
    );
    arena_reads_alike!(&bytes; &str, &[u8], &BStr, Value<'_>);
    // Valid UTF-8 is borrowed from the input.
    let ok = *b"\xA3abc";
    let s: &str = read_alike(&ok).unwrap();
    assert!(ok.as_ptr_range().contains(&s.as_ptr()));
}

#[test]
fn depth_is_limited_as_in_rmp_serde() {
    with_large_stack(|| {
        for depth in [1022, 1023, 1024, 1025] {
            let mut bytes = vec![0x91; depth];
            bytes.push(0xC0);
            let [ours, theirs] = read_both::<IgnoredAny>(&bytes).map(|r| r.map(|_| ()));
            assert_eq!(ours, theirs, "{depth} arrays");
            assert_eq!(ours.is_ok(), depth < 1024, "{depth} arrays");
            let maps: Vec<u8> = (0..depth)
                .flat_map(|_| [0x81, 0x00])
                .chain([0xC0])
                .collect();
            let [ours, theirs] = read_both::<IgnoredAny>(&maps).map(|r| r.map(|_| ()));
            assert_eq!(ours, theirs, "{depth} maps");
            let exts: Vec<u8> = (0..depth)
                .flat_map(|_| [0x91])
                .chain([0xD4, 0, 0])
                .collect();
            assert_probes_alike(&exts, &[0]);
        }
        // The limit set by hand, as rmp-serde's `set_max_depth`.
        let bytes = [0x91, 0x91, 0x91, 0xC0];
        for max in [0, 1, 2, 3, 4, 5] {
            let mut ours = Deserializer::from_slice(&bytes);
            ours.set_max_depth(max.max(1));
            let mut theirs = rmp_serde::Deserializer::from_read_ref(&bytes);
            theirs.set_max_depth(max.max(1));
            assert_eq!(
                IgnoredAny::deserialize(&mut ours)
                    .map(|_| ())
                    .map_err(|e| format!("{e:?}")),
                IgnoredAny::deserialize(&mut theirs)
                    .map(|_| ())
                    .map_err(|e| format!("{e:?}")),
            );
        }
    });
}

/// The one difference: rmp-serde does not count an enum's map as a level, so enums nested
/// deep enough overflow its stack; this reader counts them and refuses the input.
#[test]
fn enums_nested_past_the_depth_limit_are_refused_not_overflowed() {
    #[derive(Debug, Deserialize)]
    #[expect(dead_code, reason = "read, never looked at")]
    enum Nested {
        Leaf,
        Inner(Box<Nested>),
    }
    let shallow: Vec<u8> = (0..1000)
        .flat_map(|_| *b"\x81\xA5Inner")
        .chain(*b"\xA4Leaf")
        .collect();
    let deep: Vec<u8> = (0..100_000)
        .flat_map(|_| *b"\x81\xA5Inner")
        .chain(*b"\xA4Leaf")
        .collect();
    with_large_stack(|| {
        let [ours, theirs] = read_both::<Nested>(&shallow).map(|r| r.map(|_| ()));
        assert_eq!(ours, theirs);
        assert!(ours.is_ok());
    });
    let ours = Nested::deserialize(&mut Deserializer::from_slice(&deep));
    assert_eq!(format!("{:?}", ours.unwrap_err()), "DepthLimitExceeded");
}

#[test]
fn a_visitor_stopping_early_is_a_length_mismatch() {
    // A tuple of one read from an array of two: rmp-serde reports how many were read.
    assert_eq!(
        read_alike::<(u8,)>(&[0x92, 0x01, 0x02]),
        Err("LengthMismatch(1)".to_owned())
    );
    assert_eq!(read_alike::<(u8, u8)>(&[0x92, 0x01, 0x02]), Ok((1, 2)));
    // A struct from a longer array.
    assert_eq!(
        read_alike::<OwnedShape>(b"\x81\x02\x93\x03\xA1a\x00"),
        Err("LengthMismatch(2)".to_owned())
    );
    // The size hint is the announced length, as the arena reads it.
    assert_probes_alike(&[0xDC, 0x00, 0x03, 1, 2, 3], &[0, 1, 1, 1, 1]);
}

#[test]
fn options_units_and_conversions_read_as_rmp_serde() {
    assert_eq!(read_alike::<Option<()>>(&[0xC0]), Ok(None));
    assert_eq!(read_alike::<Option<Option<u8>>>(&[0xC0]), Ok(None));
    assert_eq!(read_alike::<Option<Option<u8>>>(&[0x05]), Ok(Some(Some(5))));
    assert_eq!(read_alike::<()>(&[0xC0]), Ok(()));
    assert!(read_alike::<()>(&[0x90]).is_err());
    // A u8 marker into an i64, a negative into a u32, an integer into an f64.
    assert_eq!(read_alike::<i64>(&[0xCC, 0xFF]), Ok(255));
    assert!(
        read_alike::<u32>(&[0xFF])
            .unwrap_err()
            .contains("invalid value")
    );
    assert_eq!(read_alike::<f64>(&[0x07]), Ok(7.0));
    assert_eq!(
        read_alike::<f32>(&[0xCB, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0]),
        Ok(1.0)
    );
    // A number method on a string: rmp-serde's TypeMismatch, not the visitor's error.
    assert_eq!(
        read_alike::<u8>(b"\xA1a"),
        Err("TypeMismatch(FixStr(1))".to_owned())
    );
    assert_eq!(
        read_alike::<bool>(&[0xC1]),
        Err("TypeMismatch(Reserved)".to_owned())
    );
    // A bin read as a sequence of bytes where a sequence is asked for.
    assert_eq!(
        read_alike::<Vec<u8>>(&[0xC4, 0x02, 0x07, 0x08]),
        Ok(vec![7, 8])
    );
    assert_eq!(
        read_alike::<(u8, u8)>(&[0xC4, 0x02, 0x07, 0x08]),
        Ok((7, 8))
    );
    // Not human readable.
    struct Human;
    impl<'de> Deserialize<'de> for Human {
        fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
            assert!(!de.is_human_readable());
            IgnoredAny::deserialize(de).map(|_| Human)
        }
    }
    let [ours, theirs] = read_both::<Human>(&[0xC0]);
    assert!(ours.is_ok() && theirs.is_ok());
}

#[test]
fn input_ending_early_fails_as_in_rmp_serde() {
    for bytes in [
        &[][..],
        &[0xCD, 0x01],
        &[0xA3, b'a'],
        &[0xD9],
        &[0x92, 0x01],
        &[0x81, 0x01],
        &[0xC5, 0x00],
        &[0xD4],
    ] {
        let [ours, theirs] = read_both::<IgnoredAny>(bytes).map(|r| r.map(|_| ()));
        assert_eq!(ours, theirs, "{bytes:02x?}");
        let message = ours.unwrap_err();
        assert!(message.contains("UnexpectedEof"), "{message}");
        for choices in [[0u8], [6], [17], [24], [29], [35]] {
            assert_probes_alike(bytes, &choices);
        }
    }
}

#[test]
fn bytes_after_the_value_are_ignored() {
    let bytes = [0x01, 0xC1, 0xFF];
    assert_eq!(read_alike::<u8>(&bytes), Ok(1));
    let bump = bumpalo::Bump::new();
    assert_eq!(
        arena_core::msgpack::from_slice::<u8, _>(&bump, &bytes).ok(),
        Some(1)
    );
    let mut de = Deserializer::from_slice(&bytes);
    u8::deserialize(&mut de).unwrap();
    assert_eq!(de.remaining_slice(), &[0xC1, 0xFF]);
}

#[test]
fn the_probe_sees_every_encoding_alike() {
    // A few fixed values in every width, under every method of the probe.
    let values = [
        Msg::Int(-1, 0, false),
        Msg::Int(200, 4, true),
        Msg::Int(-200, 2, false),
        Msg::Str(b"abc".to_vec(), 3),
        Msg::Str(vec![0xFF], 0),
        Msg::Bin(vec![1, 2], 2),
        Msg::Ext(-3, vec![9; 16], 0),
        Msg::Array(vec![Msg::Nil, Msg::Bool(true)], 2),
        Msg::Map(vec![(Msg::Str(b"A".to_vec(), 0), Msg::Nil)], 1),
        Msg::F32(f32::NAN),
        Msg::Reserved,
    ];
    for value in &values {
        let bytes = value.to_bytes();
        for choice in 0..40 {
            for refuse in [1, 2, 3] {
                assert_probes_alike(&bytes, &[choice, refuse, 1, refuse, 1, 1, 2]);
            }
        }
    }
}

#[test]
fn a_nan_reads_as_rmp_serde_reads_it() {
    // An f32 NaN with a payload: equal to itself only by `Debug`.
    arena_types_read_alike(&[0xCA, 0x7F, 0x80, 0x00, 0x01]);
    arena_types_read_alike(&[0xCB, 0x7F, 0xF8, 0, 0, 0, 0, 0, 1]);
}
