//! Untagged enums (`#[serde(untagged)]`) and the variants marked `untagged` at the end of an
//! externally tagged enum, against serde_derive: values from proptest in every format on every
//! arena (postcard and bincode fail where serde_derive fails there: `deserialize_any`),
//! corrupted bytes, and hand-written JSON, MessagePack and CBOR for the edge cases (serde's
//! `test_enum_untagged.rs` among them). Both are buffered representations: their errors compare
//! as errors (`Errors::AnyMessage`), whatever the message. Where no variant matches, serde's
//! message shows it; one test checks the derive's names the enum or its `expecting`.
//!
//! Then what is ours: a failed variant is rewound out of the arena and the byte budget before
//! the next is tried, and the buffer keeps what serde's loses (128-bit integers, the format's
//! `is_human_readable`).

use core::fmt;
use std::net::Ipv4Addr;

use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator, Limits, SlabArena};
use arena_tests::Format::{self, Cbor, Json, MsgPack};
use arena_tests::corruption::corruption;
use arena_tests::derive_support::Errors::AnyMessage;
use arena_tests::derive_support::{Pairs, SameAs};
use arena_tests::{corrupted, differential, same_reading, with_each_arena};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------------
// Untagged enums.

/// A string or a number: the commonest untagged enum.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum StrOrNum<'bump> {
    Int(i64),
    Float(f64),
    Text(&'bump str),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedStrOrNum {
    Int(i64),
    Float(f64),
    Text(String),
}

impl SameAs<OwnedStrOrNum> for StrOrNum<'_> {
    fn same_as(&self, o: &OwnedStrOrNum) -> bool {
        match (self, o) {
            (Self::Int(a), OwnedStrOrNum::Int(b)) => a == b,
            (Self::Float(a), OwnedStrOrNum::Float(b)) => a.same_as(b),
            (Self::Text(a), OwnedStrOrNum::Text(b)) => a == b,
            _ => false,
        }
    }
}

fn str_or_num() -> impl Strategy<Value = OwnedStrOrNum> + Clone {
    prop_oneof![
        any::<i64>().prop_map(OwnedStrOrNum::Int),
        any::<f64>().prop_map(OwnedStrOrNum::Float),
        any::<String>().prop_map(OwnedStrOrNum::Text),
    ]
}

/// A derived struct, read as a newtype variant.
#[derive(ArenaDeserialize, Debug)]
struct Inner<'bump> {
    name: &'bump str,
    #[serde(default)]
    tags: &'bump [&'bump str],
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedInner {
    name: String,
    #[serde(default)]
    tags: Vec<String>,
}

impl SameAs<OwnedInner> for Inner<'_> {
    fn same_as(&self, o: &OwnedInner) -> bool {
        self.name == o.name && self.tags.same_as(&o.tags)
    }
}

/// Every variant kind, `rename_all` (which renames nothing read: untagged variants have no
/// names on the wire), a variant's `rename_all` for its fields, a skipped variant, skipped
/// fields, defaults, `deserialize_with`, and `Option` inside.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged, rename_all = "snake_case")]
enum Mixed<'bump> {
    Nothing,
    #[serde(rename_all = "camelCase")]
    Point {
        x_pos: i32,
        #[serde(default)]
        y_pos: i32,
        #[serde(skip)]
        cached: u8,
    },
    Pair(u8, &'bump str),
    Named(Inner<'bump>),
    Shout {
        #[arena(deserialize_with = "arena_upper")]
        shout: &'bump str,
    },
    Maybe(Option<&'bump [u16]>),
    #[serde(skip)]
    #[allow(dead_code)]
    Never(u8),
    Skipped(#[serde(skip)] u8),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged, rename_all = "snake_case")]
enum OwnedMixed {
    Nothing,
    #[serde(rename_all = "camelCase")]
    Point {
        x_pos: i32,
        #[serde(default)]
        y_pos: i32,
        #[serde(skip)]
        cached: u8,
    },
    Pair(u8, String),
    Named(OwnedInner),
    Shout {
        #[serde(deserialize_with = "owned_upper")]
        shout: String,
    },
    Maybe(Option<Vec<u16>>),
    #[serde(skip)]
    #[allow(dead_code)]
    Never(u8),
    Skipped(#[serde(skip)] u8),
}

impl SameAs<OwnedMixed> for Mixed<'_> {
    fn same_as(&self, o: &OwnedMixed) -> bool {
        match (self, o) {
            (Self::Nothing, OwnedMixed::Nothing) => true,
            (
                Self::Point {
                    x_pos,
                    y_pos,
                    cached,
                },
                OwnedMixed::Point {
                    x_pos: x,
                    y_pos: y,
                    cached: c,
                },
            ) => x_pos == x && y_pos == y && cached == c,
            (Self::Pair(a, b), OwnedMixed::Pair(oa, ob)) => a == oa && b == ob,
            (Self::Named(a), OwnedMixed::Named(b)) => a.same_as(b),
            (Self::Shout { shout }, OwnedMixed::Shout { shout: s }) => shout == s,
            (Self::Maybe(a), OwnedMixed::Maybe(b)) => a.same_as(b),
            (Self::Never(a), OwnedMixed::Never(b)) | (Self::Skipped(a), OwnedMixed::Skipped(b)) => {
                a == b
            }
            _ => false,
        }
    }
}

fn mixed() -> impl Strategy<Value = OwnedMixed> {
    prop_oneof![
        Just(OwnedMixed::Nothing),
        any::<(i32, i32)>().prop_map(|(x_pos, y_pos)| OwnedMixed::Point {
            x_pos,
            y_pos,
            cached: 0
        }),
        any::<(u8, String)>().prop_map(|(a, b)| OwnedMixed::Pair(a, b)),
        any::<(String, Vec<String>)>()
            .prop_map(|(name, tags)| OwnedMixed::Named(OwnedInner { name, tags })),
        any::<String>().prop_map(|shout| OwnedMixed::Shout { shout }),
        any::<Option<Vec<u16>>>().prop_map(OwnedMixed::Maybe),
        any::<u8>().prop_map(OwnedMixed::Skipped),
    ]
}

fn arena_upper<'de, 'bump, D, A>(deserializer: D, arena: &'bump A) -> Result<&'bump str, D::Error>
where
    D: serde::Deserializer<'de>,
    A: BumpAllocator + ?Sized,
{
    let s: &str = serde::de::DeserializeSeed::deserialize(ArenaSeed::new(arena), deserializer)?;
    arena
        .try_alloc_str(&s.to_uppercase())
        .map_err(serde::de::Error::custom)
}

fn owned_upper<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    String::deserialize(deserializer).map(|s| s.to_uppercase())
}

/// Generic, with `expecting`: one value, a list of them, or one with a note.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged, expecting = "a value, a list of values or a noted value")]
enum OneOrMany<'bump, T> {
    One(T),
    Many(&'bump [T]),
    Noted {
        value: T,
        #[serde(default)]
        note: Option<&'bump str>,
    },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged, expecting = "a value, a list of values or a noted value")]
enum OwnedOneOrMany<T> {
    One(T),
    Many(Vec<T>),
    Noted {
        value: T,
        #[serde(default)]
        note: Option<String>,
    },
}

impl<T: SameAs<O>, O> SameAs<OwnedOneOrMany<O>> for OneOrMany<'_, T> {
    fn same_as(&self, o: &OwnedOneOrMany<O>) -> bool {
        match (self, o) {
            (Self::One(a), OwnedOneOrMany::One(b)) => a.same_as(b),
            (Self::Many(a), OwnedOneOrMany::Many(b)) => a.same_as(b),
            (Self::Noted { value, note }, OwnedOneOrMany::Noted { value: v, note: n }) => {
                value.same_as(v) && note.same_as(n)
            }
            _ => false,
        }
    }
}

/// Any [`OwnedOneOrMany`] of the values of `value`.
fn one_or_many<T: Clone + fmt::Debug>(
    value: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = OwnedOneOrMany<T>> {
    prop_oneof![
        value.clone().prop_map(OwnedOneOrMany::One),
        prop::collection::vec(value.clone(), 0..4).prop_map(OwnedOneOrMany::Many),
        (value, any::<Option<String>>())
            .prop_map(|(value, note)| OwnedOneOrMany::Noted { value, note }),
    ]
}

// ---------------------------------------------------------------------------------------------
// Externally tagged enums with an untagged tail.

/// Tagged unit, newtype and struct variants, then a string or a number, untagged.
#[derive(ArenaDeserialize, Debug)]
enum Setting<'bump> {
    Off,
    Level(u8),
    Range {
        min: i32,
        max: i32,
    },
    #[serde(untagged)]
    Raw(&'bump str),
    #[serde(untagged)]
    Number(f64),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum OwnedSetting {
    Off,
    Level(u8),
    Range {
        min: i32,
        max: i32,
    },
    #[serde(untagged)]
    Raw(String),
    #[serde(untagged)]
    Number(f64),
}

impl SameAs<OwnedSetting> for Setting<'_> {
    fn same_as(&self, o: &OwnedSetting) -> bool {
        match (self, o) {
            (Self::Off, OwnedSetting::Off) => true,
            (Self::Level(a), OwnedSetting::Level(b)) => a == b,
            (Self::Range { min, max }, OwnedSetting::Range { min: n, max: x }) => {
                min == n && max == x
            }
            (Self::Raw(a), OwnedSetting::Raw(b)) => a == b,
            (Self::Number(a), OwnedSetting::Number(b)) => a.same_as(b),
            _ => false,
        }
    }
}

fn setting() -> impl Strategy<Value = OwnedSetting> {
    prop_oneof![
        Just(OwnedSetting::Off),
        any::<u8>().prop_map(OwnedSetting::Level),
        any::<(i32, i32)>().prop_map(|(min, max)| OwnedSetting::Range { min, max }),
        any::<String>().prop_map(OwnedSetting::Raw),
        any::<f64>().prop_map(OwnedSetting::Number),
    ]
}

/// Generic, renamed, with a skipped variant among the tagged ones, and an untagged tail of a
/// tuple, a list and a unit variant. (serde_derive wants `other` on the last variant, so an
/// enum with an untagged tail has none.)
#[derive(ArenaDeserialize, Debug)]
#[serde(rename_all = "lowercase")]
enum Command<'bump, T> {
    Stop,
    Go {
        to: T,
    },
    #[serde(skip)]
    #[allow(dead_code)]
    Hidden,
    #[serde(untagged)]
    Move(T, T),
    #[serde(untagged)]
    Path(&'bump [T]),
    #[serde(untagged)]
    Idle,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "lowercase")]
enum OwnedCommand<T> {
    Stop,
    Go {
        to: T,
    },
    #[serde(skip)]
    #[allow(dead_code)]
    Hidden,
    #[serde(untagged)]
    Move(T, T),
    #[serde(untagged)]
    Path(Vec<T>),
    #[serde(untagged)]
    Idle,
}

impl<T: SameAs<O>, O> SameAs<OwnedCommand<O>> for Command<'_, T> {
    fn same_as(&self, o: &OwnedCommand<O>) -> bool {
        match (self, o) {
            (Self::Stop, OwnedCommand::Stop)
            | (Self::Hidden, OwnedCommand::Hidden)
            | (Self::Idle, OwnedCommand::Idle) => true,
            (Self::Go { to }, OwnedCommand::Go { to: t }) => to.same_as(t),
            (Self::Move(a, b), OwnedCommand::Move(oa, ob)) => a.same_as(oa) && b.same_as(ob),
            (Self::Path(a), OwnedCommand::Path(b)) => a.same_as(b),
            _ => false,
        }
    }
}

fn command() -> impl Strategy<Value = OwnedCommand<i16>> {
    prop_oneof![
        Just(OwnedCommand::Stop),
        any::<i16>().prop_map(|to| OwnedCommand::Go { to }),
        any::<(i16, i16)>().prop_map(|(a, b)| OwnedCommand::Move(a, b)),
        any::<Vec<i16>>().prop_map(OwnedCommand::Path),
        Just(OwnedCommand::Idle),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(48)))]

    #[test]
    fn strings_or_numbers(v in str_or_num()) {
        differential!(StrOrNum<'_>, OwnedStrOrNum, &v, AnyMessage)
    }
    #[test]
    fn mixed_variants(v in mixed()) { differential!(Mixed<'_>, OwnedMixed, &v, AnyMessage) }
    #[test]
    fn generic_one_or_many(v in one_or_many(any::<u32>())) {
        differential!(OneOrMany<'_, u32>, OwnedOneOrMany<u32>, &v, AnyMessage)
    }
    /// Untagged in untagged: each level buffers and rewinds on its own.
    #[test]
    fn nested_untagged(v in one_or_many(str_or_num())) {
        differential!(OneOrMany<'_, StrOrNum<'_>>, OwnedOneOrMany<OwnedStrOrNum>, &v, AnyMessage)
    }
    #[test]
    fn settings_with_untagged_tail(v in setting()) {
        differential!(Setting<'_>, OwnedSetting, &v, AnyMessage)
    }
    #[test]
    fn generic_commands_with_untagged_tail(v in command()) {
        differential!(Command<'_, i16>, OwnedCommand<i16>, &v, AnyMessage)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(32)))]

    #[test]
    fn corrupted_strings_or_numbers(v in str_or_num(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(StrOrNum<'_>, OwnedStrOrNum, &v, &c)
    }
    #[test]
    fn corrupted_mixed(v in mixed(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Mixed<'_>, OwnedMixed, &v, &c)
    }
    #[test]
    fn corrupted_one_or_many(v in one_or_many(str_or_num()), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(OneOrMany<'_, StrOrNum<'_>>, OwnedOneOrMany<OwnedStrOrNum>, &v, &c)
    }
    #[test]
    fn corrupted_settings(v in setting(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Setting<'_>, OwnedSetting, &v, &c)
    }
    #[test]
    fn corrupted_commands(v in command(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Command<'_, i16>, OwnedCommand<i16>, &v, &c)
    }
}

/// A NaN the bytes hold replays from a `Value` as serde's buffer reads it: the same value,
/// though not equal to itself (corrupted CBOR drew it: an f64 NaN with a payload).
#[test]
fn a_nan_replays_as_serde_buffers_it() {
    let bytes = [0xfb, 0xff, 0xf6, 0x72, 0x2a, 0x00, 0xe6, 0xe8, 0xab];
    let direct = Cbor.decode_owned::<OwnedSetting>(&bytes);
    assert!(matches!(&direct, Ok(OwnedSetting::Number(_))), "{direct:?}");
    let arena = bumpalo::Bump::new();
    arena_tests::derive_support::compare_replay(&"a NaN", Cbor, &arena, &bytes, &direct);
}

// ---------------------------------------------------------------------------------------------
// Hand-written inputs: serde's `test_enum_untagged.rs`, and the edge cases of the buffer.

/// serde's `complex`: struct, unit, newtype and tuple variants side by side.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum Complex<'bump> {
    A { a: u8 },
    B { b: u8 },
    C,
    D(u8),
    E(&'bump str),
    F(u8, u8),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedComplex {
    A { a: u8 },
    B { b: u8 },
    C,
    D(u8),
    E(String),
    F(u8, u8),
}

impl SameAs<OwnedComplex> for Complex<'_> {
    fn same_as(&self, o: &OwnedComplex) -> bool {
        match (self, o) {
            (Self::A { a }, OwnedComplex::A { a: b })
            | (Self::B { b: a }, OwnedComplex::B { b })
            | (Self::D(a), OwnedComplex::D(b)) => a == b,
            (Self::C, OwnedComplex::C) => true,
            (Self::E(a), OwnedComplex::E(b)) => a == b,
            (Self::F(a, b), OwnedComplex::F(c, d)) => a == c && b == d,
            _ => false,
        }
    }
}

/// What `$bytes` reads as with serde_derive, asserting the derive reads the same.
macro_rules! reads_as {
    ($format:expr, $arena_ty:ty, $owned_ty:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        assert_eq!(
            same_reading!($format, $arena_ty, $owned_ty, bytes, AnyMessage),
            None
        );
        $format.decode_owned::<$owned_ty>(bytes).unwrap()
    }};
}

/// serde's message where no variant of `Complex` reads the input.
const NO_MATCH: &str = "data did not match any variant of untagged enum Complex";

#[test]
fn complex_reads_each_variant_kind_and_refuses_wrong_lengths() {
    use OwnedComplex::{A, B, C, D, E, F};
    let json = |text: &str| reads_as!(Json, Complex<'_>, OwnedComplex, text.as_bytes());
    assert_eq!(json(r#"{"a": 1}"#), A { a: 1 });
    assert_eq!(json(r#"{"b": 2}"#), B { b: 2 });
    assert_eq!(json("null"), C);
    assert_eq!(json("4"), D(4));
    assert_eq!(json(r#""e""#), E("e".to_owned()));
    assert_eq!(json("[1, 2]"), F(1, 2));
    // The first variant that reads wins: `A` ignores the unknown `b`.
    assert_eq!(json(r#"{"a": 1, "b": 2}"#), A { a: 1 });
    for no_match in ["[1]", "[1, 2, 3]", "300", "true", r#"{"c": 1}"#] {
        let refusal = same_reading!(
            Json,
            Complex<'_>,
            OwnedComplex,
            no_match.as_bytes(),
            AnyMessage
        );
        assert_eq!(refusal.map(|r| r.serde).as_deref(), Some(NO_MATCH));
    }

    // The same in MessagePack: {"a": 1}, nil, 4, "e", [1, 2], [1], [1, 2, 3].
    let msgpack = |bytes: &[u8]| reads_as!(MsgPack, Complex<'_>, OwnedComplex, bytes);
    assert_eq!(msgpack(&[0x81, 0xa1, b'a', 0x01]), A { a: 1 });
    assert_eq!(msgpack(&[0xc0]), C);
    assert_eq!(msgpack(&[0x04]), D(4));
    assert_eq!(msgpack(&[0xa1, b'e']), E("e".to_owned()));
    assert_eq!(msgpack(&[0x92, 0x01, 0x02]), F(1, 2));
    for no_match in [&[0x91, 0x01][..], &[0x93, 0x01, 0x02, 0x03]] {
        let refusal = same_reading!(MsgPack, Complex<'_>, OwnedComplex, no_match, AnyMessage);
        assert_eq!(refusal.map(|r| r.serde).as_deref(), Some(NO_MATCH));
    }
}

#[test]
fn unit_variants_read_unit_and_none() {
    // JSON null and MessagePack nil are a unit; CBOR's null and undefined a `None`.
    for (format, bytes) in [
        (Json, &b"null"[..]),
        (MsgPack, &[0xc0]),
        (Cbor, &[0xf6]),
        (Cbor, &[0xf7]),
    ] {
        assert_eq!(
            reads_as!(format, Complex<'_>, OwnedComplex, bytes),
            OwnedComplex::C,
            "{format}"
        );
    }
}

/// A struct variant reads a map only; an empty one is not a unit.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum Shapeless {
    Point { x: u8, y: u8 },
    Empty {},
    Nothing,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedShapeless {
    Point { x: u8, y: u8 },
    Empty {},
    Nothing,
}

impl SameAs<OwnedShapeless> for Shapeless {
    fn same_as(&self, o: &OwnedShapeless) -> bool {
        match (self, o) {
            (Self::Point { x, y }, OwnedShapeless::Point { x: a, y: b }) => x == a && y == b,
            (Self::Empty {}, OwnedShapeless::Empty {})
            | (Self::Nothing, OwnedShapeless::Nothing) => true,
            _ => false,
        }
    }
}

#[test]
fn struct_variants_read_maps_only_and_an_empty_map_is_not_a_unit() {
    let json = |text: &str| reads_as!(Json, Shapeless, OwnedShapeless, text.as_bytes());
    assert_eq!(
        json(r#"{"x": 1, "y": 2}"#),
        OwnedShapeless::Point { x: 1, y: 2 }
    );
    assert_eq!(json("{}"), OwnedShapeless::Empty {});
    assert_eq!(json(r#"{"z": 0}"#), OwnedShapeless::Empty {});
    assert_eq!(json("null"), OwnedShapeless::Nothing);
    // A sequence reads as no struct variant (an externally tagged one would take it).
    let seq = same_reading!(Json, Shapeless, OwnedShapeless, b"[1, 2]", AnyMessage);
    assert_eq!(
        seq.map(|r| r.serde).as_deref(),
        Some("data did not match any variant of untagged enum Shapeless")
    );
    // MessagePack: {} is Empty, [] nothing, nil Nothing.
    let msgpack = |bytes: &[u8]| reads_as!(MsgPack, Shapeless, OwnedShapeless, bytes);
    assert_eq!(msgpack(&[0x80]), OwnedShapeless::Empty {});
    assert_eq!(msgpack(&[0xc0]), OwnedShapeless::Nothing);
    assert!(same_reading!(MsgPack, Shapeless, OwnedShapeless, &[0x90], AnyMessage).is_some());
    assert!(
        same_reading!(
            MsgPack,
            Shapeless,
            OwnedShapeless,
            &[0x92, 0x01, 0x02],
            AnyMessage
        )
        .is_some()
    );
}

/// serde's `newtype_unit_and_empty_map`: a unit struct does not read an empty map from the
/// buffer, the map variant after it does.
#[derive(ArenaDeserialize, Debug)]
struct UnitStruct;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedUnitStruct;

#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum Message<'bump> {
    Unit(UnitStruct),
    Map(&'bump [(&'bump str, &'bump str)]),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedMessage {
    Unit(OwnedUnitStruct),
    Map(Pairs<String, String>),
}

impl SameAs<OwnedMessage> for Message<'_> {
    fn same_as(&self, o: &OwnedMessage) -> bool {
        match (self, o) {
            (Self::Unit(UnitStruct), OwnedMessage::Unit(OwnedUnitStruct)) => true,
            (Self::Map(a), OwnedMessage::Map(b)) => a.same_as(b),
            _ => false,
        }
    }
}

#[test]
fn an_empty_map_is_a_map_not_a_unit_struct() {
    let json = |text: &str| reads_as!(Json, Message<'_>, OwnedMessage, text.as_bytes());
    assert_eq!(json("{}"), OwnedMessage::Map(Pairs(Vec::new())));
    assert_eq!(json("null"), OwnedMessage::Unit(OwnedUnitStruct));
    assert_eq!(
        json(r#"{"k": "v"}"#),
        OwnedMessage::Map(Pairs(vec![("k".to_owned(), "v".to_owned())]))
    );
    let msgpack = |bytes: &[u8]| reads_as!(MsgPack, Message<'_>, OwnedMessage, bytes);
    assert_eq!(msgpack(&[0x80]), OwnedMessage::Map(Pairs(Vec::new())));
    assert_eq!(msgpack(&[0xc0]), OwnedMessage::Unit(OwnedUnitStruct));
}

/// Integers read into the first variant wide enough; a float only into the float.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum Widths {
    Small(u8),
    Signed(i64),
    Real(f64),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedWidths {
    Small(u8),
    Signed(i64),
    Real(f64),
}

impl SameAs<OwnedWidths> for Widths {
    fn same_as(&self, o: &OwnedWidths) -> bool {
        match (self, o) {
            (Self::Small(a), OwnedWidths::Small(b)) => a == b,
            (Self::Signed(a), OwnedWidths::Signed(b)) => a == b,
            (Self::Real(a), OwnedWidths::Real(b)) => a.same_as(b),
            _ => false,
        }
    }
}

#[test]
fn integers_widen_into_the_first_variant_that_holds_them() {
    use OwnedWidths::{Real, Signed, Small};
    let json = |text: &str| reads_as!(Json, Widths, OwnedWidths, text.as_bytes());
    assert_eq!(json("7"), Small(7));
    assert_eq!(json("300"), Signed(300));
    assert_eq!(json("-1"), Signed(-1));
    assert_eq!(json("1.5"), Real(1.5));
    #[allow(clippy::cast_precision_loss)]
    let max = u64::MAX as f64;
    assert_eq!(json("18446744073709551615"), Real(max));
    // MessagePack: 7, uint16 300, fixint -1, float64 1.5, uint64 max, float32 0.5.
    let msgpack = |bytes: &[u8]| reads_as!(MsgPack, Widths, OwnedWidths, bytes);
    assert_eq!(msgpack(&[0x07]), Small(7));
    assert_eq!(msgpack(&[0xcd, 0x01, 0x2c]), Signed(300));
    assert_eq!(msgpack(&[0xff]), Signed(-1));
    let mut float = vec![0xcb];
    float.extend(1.5_f64.to_be_bytes());
    assert_eq!(msgpack(&float), Real(1.5));
    assert_eq!(
        msgpack(&[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
        Real(max)
    );
    let mut float = vec![0xca];
    float.extend(0.5_f32.to_be_bytes());
    assert_eq!(msgpack(&float), Real(0.5));
}

/// `deny_unknown_fields` on an untagged enum: a struct variant refuses a map with more keys,
/// and the next variant gets it.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged, deny_unknown_fields)]
enum Strict {
    A { a: u8 },
    B { a: u8, b: u8 },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged, deny_unknown_fields)]
enum OwnedStrict {
    A { a: u8 },
    B { a: u8, b: u8 },
}

impl SameAs<OwnedStrict> for Strict {
    fn same_as(&self, o: &OwnedStrict) -> bool {
        match (self, o) {
            (Self::A { a }, OwnedStrict::A { a: x }) => a == x,
            (Self::B { a, b }, OwnedStrict::B { a: x, b: y }) => a == x && b == y,
            _ => false,
        }
    }
}

#[test]
fn deny_unknown_fields_passes_a_larger_map_to_the_next_variant() {
    let json = |text: &str| reads_as!(Json, Strict, OwnedStrict, text.as_bytes());
    assert_eq!(json(r#"{"a": 1}"#), OwnedStrict::A { a: 1 });
    assert_eq!(json(r#"{"a": 1, "b": 2}"#), OwnedStrict::B { a: 1, b: 2 });
    let unknown = same_reading!(
        Json,
        Strict,
        OwnedStrict,
        br#"{"a": 1, "c": 3}"#,
        AnyMessage
    );
    assert_eq!(
        unknown.map(|r| r.serde).as_deref(),
        Some("data did not match any variant of untagged enum Strict")
    );
    // {"a": 1, "b": 2} in MessagePack.
    let msgpack = [0x82, 0xa1, b'a', 0x01, 0xa1, b'b', 0x02];
    assert_eq!(
        reads_as!(MsgPack, Strict, OwnedStrict, &msgpack),
        OwnedStrict::B { a: 1, b: 2 }
    );
}

/// `expecting` replaces the message of an input no variant reads (serde's `expecting_message`).
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged, expecting = "something strange...")]
enum Strange {
    Untagged,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged, expecting = "something strange...")]
enum OwnedStrange {
    Untagged,
}

impl SameAs<OwnedStrange> for Strange {
    fn same_as(&self, _: &OwnedStrange) -> bool {
        true
    }
}

#[test]
fn no_variant_matching_is_an_error_naming_the_enum_or_its_expecting() {
    let strange = same_reading!(Json, Strange, OwnedStrange, br#""Untagged""#, AnyMessage);
    assert!(
        strange
            .as_ref()
            .is_some_and(|r| r.derive_says("something strange...")),
        "{strange:?}"
    );
    let msgpack = same_reading!(MsgPack, Strange, OwnedStrange, &[0xa1, b'x'], AnyMessage);
    assert!(
        msgpack
            .as_ref()
            .is_some_and(|r| r.derive_says("something strange...")),
        "{msgpack:?}"
    );
    let generic = same_reading!(
        Json,
        OneOrMany<'_, u32>,
        OwnedOneOrMany<u32>,
        br#""x""#,
        AnyMessage
    );
    assert!(
        generic
            .as_ref()
            .is_some_and(|r| r.derive_says("a value, a list of values or a noted value")),
        "{generic:?}"
    );
    let plain = same_reading!(Json, StrOrNum<'_>, OwnedStrOrNum, b"[]", AnyMessage);
    assert!(
        plain
            .as_ref()
            .is_some_and(|r| r.derive_says("untagged enum StrOrNum")),
        "{plain:?}"
    );
}

/// serde's `newtype_struct` and `newtype_enum`: a derived newtype struct and a derived
/// externally tagged enum, replayed from the buffer.
#[derive(ArenaDeserialize, Debug)]
struct NewtypeStruct(u32);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedNewtypeStruct(u32);

#[derive(ArenaDeserialize, Debug)]
enum InnerEnum {
    Unit,
    Newtype(u8),
    Tuple2(u8, u8),
    Struct { f: u8 },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum OwnedInnerEnum {
    Unit,
    Newtype(u8),
    Tuple2(u8, u8),
    Struct { f: u8 },
}

#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum Outer {
    Newtype(NewtypeStruct),
    Inner(InnerEnum),
    Optional { optional: Option<u32> },
    Null,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedOuter {
    Newtype(OwnedNewtypeStruct),
    Inner(OwnedInnerEnum),
    Optional { optional: Option<u32> },
    Null,
}

impl SameAs<OwnedOuter> for Outer {
    fn same_as(&self, o: &OwnedOuter) -> bool {
        match (self, o) {
            (Self::Newtype(NewtypeStruct(a)), OwnedOuter::Newtype(OwnedNewtypeStruct(b))) => a == b,
            (Self::Inner(a), OwnedOuter::Inner(b)) => {
                matches!((a, b), (InnerEnum::Unit, OwnedInnerEnum::Unit))
                    || matches!((a, b), (InnerEnum::Newtype(x), OwnedInnerEnum::Newtype(y)) if x == y)
                    || matches!((a, b), (InnerEnum::Tuple2(x, y), OwnedInnerEnum::Tuple2(v, w)) if x == v && y == w)
                    || matches!((a, b), (InnerEnum::Struct { f }, OwnedInnerEnum::Struct { f: g }) if f == g)
            }
            (Self::Optional { optional }, OwnedOuter::Optional { optional: b }) => optional == b,
            (Self::Null, OwnedOuter::Null) => true,
            _ => false,
        }
    }
}

#[test]
fn newtype_structs_enums_and_options_replay_from_the_buffer() {
    use OwnedInnerEnum::{Newtype, Struct, Tuple2, Unit};
    let json = |text: &str| reads_as!(Json, Outer, OwnedOuter, text.as_bytes());
    assert_eq!(json("5"), OwnedOuter::Newtype(OwnedNewtypeStruct(5)));
    assert_eq!(json(r#""Unit""#), OwnedOuter::Inner(Unit));
    assert_eq!(json(r#"{"Newtype": 1}"#), OwnedOuter::Inner(Newtype(1)));
    assert_eq!(
        json(r#"{"Tuple2": [1, 1]}"#),
        OwnedOuter::Inner(Tuple2(1, 1))
    );
    assert_eq!(
        json(r#"{"Struct": {"f": 1}}"#),
        OwnedOuter::Inner(Struct { f: 1 })
    );
    assert_eq!(
        json(r#"{"optional": 42}"#),
        OwnedOuter::Optional { optional: Some(42) }
    );
    assert_eq!(
        json(r#"{"optional": null}"#),
        OwnedOuter::Optional { optional: None }
    );
    assert_eq!(json("{}"), OwnedOuter::Optional { optional: None });
    assert_eq!(json("null"), OwnedOuter::Null);
    // Each value written by serde in every format, read back both ways.
    for value in [
        OwnedOuter::Newtype(OwnedNewtypeStruct(5)),
        OwnedOuter::Inner(Unit),
        OwnedOuter::Inner(Newtype(1)),
        OwnedOuter::Inner(Tuple2(1, 2)),
        OwnedOuter::Inner(Struct { f: 3 }),
        OwnedOuter::Optional { optional: Some(42) },
        OwnedOuter::Optional { optional: None },
        OwnedOuter::Null,
    ] {
        differential!(Outer, OwnedOuter, &value, AnyMessage);
    }
}

#[test]
fn tagged_variants_come_first_then_the_untagged_ones_in_order() {
    use OwnedSetting::{Level, Number, Off, Range, Raw};
    let json = |text: &str| reads_as!(Json, Setting<'_>, OwnedSetting, text.as_bytes());
    assert_eq!(json(r#""Off""#), Off);
    assert_eq!(json(r#"{"Level": 3}"#), Level(3));
    assert_eq!(
        json(r#"{"Range": {"min": -1, "max": 1}}"#),
        Range { min: -1, max: 1 }
    );
    assert_eq!(json(r#""hello""#), Raw("hello".to_owned()));
    assert_eq!(json("2.5"), Number(2.5));
    assert_eq!(json("7"), Number(7.0));
    // The untagged variants have no tag: `Raw` is not a variant name.
    for no_match in [r#"{"Level": 300}"#, r#"{"Raw": "x"}"#, "[1]", "null"] {
        let refusal = same_reading!(
            Json,
            Setting<'_>,
            OwnedSetting,
            no_match.as_bytes(),
            AnyMessage
        );
        assert_eq!(
            refusal.map(|r| r.serde).as_deref(),
            Some("data did not match any variant of untagged enum Setting"),
            "{no_match}"
        );
    }
    // MessagePack: "Off", {"Level": 3}, "Level" (a newtype variant without content), 2.5.
    let msgpack = |bytes: &[u8]| reads_as!(MsgPack, Setting<'_>, OwnedSetting, bytes);
    assert_eq!(msgpack(&[0xa3, b'O', b'f', b'f']), Off);
    let level = [0x81, 0xa5, b'L', b'e', b'v', b'e', b'l', 0x03];
    assert_eq!(msgpack(&level), Level(3));
    assert_eq!(msgpack(&level[1..7]), Raw("Level".to_owned()));
    let mut float = vec![0xcb];
    float.extend(2.5_f64.to_be_bytes());
    assert_eq!(msgpack(&float), Number(2.5));

    use OwnedCommand::{Go, Idle, Move, Path, Stop};
    let json = |text: &str| reads_as!(Json, Command<'_, i16>, OwnedCommand<i16>, text.as_bytes());
    assert_eq!(json(r#""stop""#), Stop);
    assert_eq!(json(r#"{"go": {"to": 4}}"#), Go { to: 4 });
    assert_eq!(json("[1, 2]"), Move(1, 2));
    assert_eq!(json("[1, 2, 3]"), Path(vec![1, 2, 3]));
    assert_eq!(json("[]"), Path(Vec::new()));
    assert_eq!(json("null"), Idle);
    // `Hidden` is skipped, and the renamed `Stop` is not `"Stop"`.
    for no_match in [r#""hidden""#, r#""Stop""#, r#"{"go": {}}"#] {
        let refusal = same_reading!(
            Json,
            Command<'_, i16>,
            OwnedCommand<i16>,
            no_match.as_bytes(),
            AnyMessage
        );
        assert_eq!(
            refusal.map(|r| r.serde).as_deref(),
            Some("data did not match any variant of untagged enum Command"),
            "{no_match}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Beyond serde: what the buffer keeps, and the rewind between attempts.

/// 128-bit integers, which serde's buffer cannot hold (serde issue #1682).
#[derive(ArenaDeserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Wide {
    Unsigned(u128),
    Signed(i128),
    Record { id: u128, delta: i128 },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedWide {
    Unsigned(u128),
    Signed(i128),
    Record { id: u128, delta: i128 },
}

#[test]
fn beyond_serde_128_bit_integers_in_untagged_data_read_exactly() {
    let cases = [
        (OwnedWide::Unsigned(u128::MAX), Wide::Unsigned(u128::MAX)),
        (OwnedWide::Signed(i128::MIN), Wide::Signed(i128::MIN)),
        (
            OwnedWide::Record {
                id: u128::MAX - 1,
                delta: i128::MIN + 1,
            },
            Wide::Record {
                id: u128::MAX - 1,
                delta: i128::MIN + 1,
            },
        ),
    ];
    for (owned, expected) in cases {
        let bytes = Cbor.to_bytes(&owned);
        let serde = Cbor.decode_owned::<OwnedWide>(&bytes);
        assert!(serde.is_err(), "serde's buffer read {serde:?}");
        with_each_arena!(|arena| {
            let read: Wide = Cbor.decode_in(arena, &bytes).unwrap();
            assert_eq!(read, expected);
            arena_core::__private::check_call_invariants();
        });
    }
}

/// An address read as `Ipv4Addr` reads it: a string in human-readable formats, four bytes in
/// the others.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum Host<'bump> {
    Ip(#[arena(deserialize_with = "arena_ipv4")] Ipv4Addr),
    Name(&'bump str),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedHost {
    Ip(Ipv4Addr),
    Name(String),
}

impl SameAs<OwnedHost> for Host<'_> {
    fn same_as(&self, o: &OwnedHost) -> bool {
        match (self, o) {
            (Self::Ip(a), OwnedHost::Ip(b)) => a == b,
            (Self::Name(a), OwnedHost::Name(b)) => a == b,
            _ => false,
        }
    }
}

fn arena_ipv4<'de, D, A>(deserializer: D, _arena: &A) -> Result<Ipv4Addr, D::Error>
where
    D: serde::Deserializer<'de>,
    A: ?Sized,
{
    Ipv4Addr::deserialize(deserializer)
}

#[test]
fn beyond_serde_variants_see_whether_the_format_is_human_readable() {
    let ip = OwnedHost::Ip(Ipv4Addr::new(192, 168, 0, 1));
    // JSON is human-readable: a string, which serde's buffer (always "human-readable") reads
    // too.
    differential!(@bytes Json, Host<'_>, OwnedHost, &Json.to_bytes(&ip), AnyMessage);
    // MessagePack and CBOR are not: four bytes, which serde's buffer hands to `Ipv4Addr` as
    // if they were human-readable (serde issue #2172), so no variant reads them.
    for format in [MsgPack, Format::MsgPackNamed, Cbor] {
        let bytes = format.to_bytes(&ip);
        let serde = format.decode_owned::<OwnedHost>(&bytes);
        let err = serde.unwrap_err();
        assert!(
            err.contains("data did not match any variant of untagged enum OwnedHost"),
            "{format}: {err}"
        );
        with_each_arena!(|arena| {
            let read: Host<'_> = format.decode_in(arena, &bytes).unwrap();
            assert!(read.same_as(&ip), "{format}: {read:?}");
        });
    }
}

/// Three struct variants that each copy a long string before finding their own field missing,
/// and the one that matches, alone.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
#[allow(dead_code)]
enum Late<'bump> {
    First { text: &'bump str, first: u8 },
    Second { text: &'bump str, second: u8 },
    Third { text: &'bump str, third: u8 },
}

#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum ThirdAlone<'bump> {
    Third { text: &'bump str, third: u8 },
}

/// The text of [`Late`]'s input: long enough that a copy is most of what a read uses.
const LATE_TEXT_LEN: usize = 16 << 10;

fn late_input() -> Vec<u8> {
    format!(r#"{{"text": "{}", "third": 7}}"#, "t".repeat(LATE_TEXT_LEN)).into_bytes()
}

/// Reads `Late` (with `limits`, if given), checks it is `Third`, and returns the bytes the
/// arena used.
fn read_late<A: BumpAllocator + ?Sized>(
    arena: &A,
    limits: Option<Limits>,
) -> Result<usize, String> {
    let bytes = late_input();
    let mut seed = ArenaSeed::<Late<'_>, A>::new(arena);
    if let Some(limits) = limits {
        seed = seed.with_limits(limits);
    }
    let read = Json.decode_seed(seed, &bytes);
    arena_core::__private::check_call_invariants();
    match read? {
        Late::Third { text, third: 7 } if text.len() == LATE_TEXT_LEN => {
            Ok(arena.stats().used_bytes)
        }
        other => panic!("read {other:?}"),
    }
}

/// The bytes the arena used to read the matching variant alone.
fn alone_used<A: BumpAllocator + ?Sized>(arena: &A) -> usize {
    let read: ThirdAlone<'_> = Json.decode_in(arena, &late_input()).unwrap();
    let ThirdAlone::Third { text, third } = read;
    assert_eq!((text.len(), third), (LATE_TEXT_LEN, 7));
    arena.stats().used_bytes
}

#[test]
fn beyond_serde_failed_variants_leave_nothing_in_the_arena() {
    // Neither do the buffered input nor its copy of the text: the buffer is the thread's.
    assert_eq!(alone_used(&SlabArena::new()), LATE_TEXT_LEN);
    let slab = SlabArena::new();
    assert_eq!(read_late(&slab, None), Ok(alone_used(&SlabArena::new())));
    let bump: bump_scope::Bump = bump_scope::Bump::new();
    let alone: bump_scope::Bump = bump_scope::Bump::new();
    assert_eq!(read_late(&bump, None), Ok(alone_used(&alone)));
    // bumpalo cannot rewind: it reads the same, and keeps the two failed copies.
    let bump = bumpalo::Bump::new();
    let used = read_late(&bump, None).unwrap();
    assert!(used >= alone_used(&bumpalo::Bump::new()) + 2 * LATE_TEXT_LEN);
}

#[test]
fn beyond_serde_failed_variants_give_their_bytes_back_to_the_budget() {
    // Room for the copy the read keeps and the buffered input (a copy of the text in the
    // thread's buffer, and its map's nodes, counted against the call's budget too), not for
    // the two failed copies.
    let limits = Limits::default().max_bytes(alone_used(&SlabArena::new()) + LATE_TEXT_LEN + 1024);
    assert!(read_late(&SlabArena::new(), Some(limits)).is_ok());
    let bump: bump_scope::Bump = bump_scope::Bump::new();
    assert!(read_late(&bump, Some(limits)).is_ok());
    // Without a rewind the budget counts every copy: the same limit refuses the read. The
    // variant that hits it ends the read with the limit's error: no other variant could do
    // better with what is left.
    let err = read_late(&bumpalo::Bump::new(), Some(limits)).unwrap_err();
    assert!(
        err.starts_with("arena byte limit of ") && err.ends_with(" bytes exceeded"),
        "{err}"
    );
    assert!(read_late(&bumpalo::Bump::new(), None).is_ok());
}

/// An untagged enum with no variant to read buffers the input, then fails.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum AllSkipped {
    #[serde(skip)]
    #[allow(dead_code)]
    Never,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedAllSkipped {
    #[serde(skip)]
    #[allow(dead_code)]
    Never,
}

impl SameAs<OwnedAllSkipped> for AllSkipped {
    fn same_as(&self, _: &OwnedAllSkipped) -> bool {
        true
    }
}

#[test]
fn an_untagged_enum_without_variants_reads_nothing() {
    for text in ["null", "1", r#"{"Never": null}"#, "[", ""] {
        let refusal = same_reading!(
            Json,
            AllSkipped,
            OwnedAllSkipped,
            text.as_bytes(),
            AnyMessage
        );
        assert!(refusal.is_some(), "{text}");
    }
}

/// `untagged` on a variant of an untagged enum changes nothing: every variant is tried in
/// order.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum Doubly<'bump> {
    Number(u8),
    #[serde(untagged)]
    Text(&'bump str),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedDoubly {
    Number(u8),
    #[serde(untagged)]
    Text(String),
}

impl SameAs<OwnedDoubly> for Doubly<'_> {
    fn same_as(&self, o: &OwnedDoubly) -> bool {
        match (self, o) {
            (Self::Number(a), OwnedDoubly::Number(b)) => a == b,
            (Self::Text(a), OwnedDoubly::Text(b)) => a == b,
            _ => false,
        }
    }
}

#[test]
fn an_untagged_variant_of_an_untagged_enum_is_tried_in_order() {
    let json = |text: &str| reads_as!(Json, Doubly<'_>, OwnedDoubly, text.as_bytes());
    assert_eq!(json("3"), OwnedDoubly::Number(3));
    assert_eq!(json(r#""three""#), OwnedDoubly::Text("three".to_owned()));
    let refusal = same_reading!(Json, Doubly<'_>, OwnedDoubly, b"300", AnyMessage);
    assert_eq!(
        refusal.map(|r| r.serde).as_deref(),
        Some("data did not match any variant of untagged enum Doubly")
    );
}

/// A plain struct with the fields of `Complex::A`, read directly (no buffer), for the test
/// below.
#[derive(Deserialize, Debug, PartialEq)]
struct OwnedA {
    a: u8,
}

/// A MessagePack key written as a 16-bit integer (a valid, non-minimal encoding some writers
/// produce) names field 0 to a direct read; serde's buffer keeps the integer's width and its
/// replay takes only 8- and 64-bit integers as identifiers, so serde_derive's untagged enum
/// matches no variant. A `Value` keeps every unsigned integer as a `u64`: the buffered read
/// takes the key as the direct read does.
#[test]
fn beyond_serde_integer_keys_of_any_width_name_fields_in_buffered_input() {
    // {u16 0: 5}
    let bytes = [0x81, 0xcd, 0x00, 0x00, 0x05];
    assert_eq!(MsgPack.decode_owned::<OwnedA>(&bytes), Ok(OwnedA { a: 5 }));
    assert_eq!(
        MsgPack.decode_owned::<OwnedComplex>(&bytes),
        Err(NO_MATCH.replace("Complex", "OwnedComplex"))
    );
    with_each_arena!(|arena| {
        let read: Complex = MsgPack.decode_in(arena, &bytes).unwrap();
        assert!(matches!(read, Complex::A { a: 5 }), "{read:?}");
        arena_core::__private::check_call_invariants();
    });
}
