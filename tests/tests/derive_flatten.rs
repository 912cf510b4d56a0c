//! `#[serde(flatten)]` in `#[derive(ArenaDeserialize)]`: for every type below, values of the
//! owned twin are generated with proptest, serialized in every format, and read back both by
//! serde_derive and by the derive on every arena: the same value, or both an error (postcard
//! and bincode cannot read a map's keys, and both fail); then the same with corrupted bytes. A
//! struct with a flattened field is a buffered representation: its errors compare as errors
//! (`Errors::AnyMessage`), whatever the message. Hand-written JSON and MessagePack inputs then
//! pin down what serde decides (the cases of serde's `test_annotations.rs` among them): where a
//! refusal has a reason any reader names the same way (a missing, duplicate or unknown field, a
//! value of the wrong type), the derive's message names it; otherwise serde's message shows the
//! input breaks the rule under test. Named tests show what this crate does better: 128-bit
//! integers in flattened data, and the format's `is_human_readable`.

use std::collections::HashMap;

use allocator_api2::alloc::Allocator;
use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator, Limits, Value};
use arena_tests::corruption::{corrupt, corruption};
use arena_tests::derive_support::Errors::AnyMessage;
use arena_tests::derive_support::{Bytes, Pairs, SameAs};
use arena_tests::owned_value::OwnedValue;
use arena_tests::{
    Format, differential, json_reads, json_refuses, same_reading, twins, with_each_arena,
};
use proptest::prelude::*;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny};
use serde::{Deserialize, Serialize};

/// `Arbitrary` for a twin, from a strategy for it.
macro_rules! arbitrary {
    ($ty:ty => $strategy:expr) => {
        impl Arbitrary for $ty {
            type Parameters = ();
            type Strategy = BoxedStrategy<Self>;

            fn arbitrary_with((): ()) -> Self::Strategy {
                $strategy.boxed()
            }
        }
    };
}

/// A map key: often one of the names the types below read, so that keys collide with fields.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, Hash)]
#[serde(transparent)]
struct Key(String);

impl SameAs<Key> for &str {
    fn same_as(&self, owned: &Key) -> bool {
        *self == owned.0
    }
}

arbitrary!(Key => {
    const NAMES: [&str; 9] = [
        "id", "tag", "label", "name", "page", "cursor", "total", "y", "z",
    ];
    prop_oneof![
        3 => "[a-z]{1,3}".prop_map(Key),
        1 => prop::sample::select(&NAMES[..]).prop_map(|name| Key(name.to_owned())),
    ]
});

// ---- Flattened structs: the fields several types share.

twins! {
    /// The fields shared by several types below.
    #[derive(Default)]
    struct Meta<'bump> / OwnedMeta {
        id: u32 => u32,
        #[serde(alias = "label")]
        tag: &'bump str => String,
    }
}

twins! {
    /// A flattened struct among renamed, defaulted and optional fields of its own.
    #[serde(rename_all = "camelCase")]
    struct Page<'bump> / OwnedPage {
        page_title: &'bump str => String,
        #[serde(flatten)]
        meta: Meta<'bump> => OwnedMeta,
        #[serde(default)]
        view_count: u64 => u64,
        note: Option<&'bump str> => Option<String>,
    }
}

fn seven() -> u32 {
    7
}

twins! {
    /// A flattened struct after a skipped field, an aliased one and one with a default function.
    struct Mixed<'bump> / OwnedMixed {
        #[serde(skip)]
        cache: u8 => u8,
        #[serde(alias = "nom")]
        name: &'bump str => String,
        #[serde(flatten)]
        meta: Meta<'bump> => OwnedMeta,
        #[serde(default = "seven")]
        count: u32 => u32,
    }
}

twins! {
    /// A container `default` fills the own fields; the flattened struct is read all the same,
    /// and a flattened field that is skipped is its default.
    #[derive(Default)]
    #[serde(default)]
    struct Defaulted<'bump> / OwnedDefaulted {
        name: &'bump str => String,
        #[serde(flatten)]
        meta: Meta<'bump> => OwnedMeta,
        #[serde(flatten, skip_deserializing)]
        never: Paging<'bump> => OwnedPaging,
    }
}

/// A flattened type parameter (serde's `test_lifetime_propagation_for_flatten`).
#[derive(ArenaDeserialize, Debug)]
struct Wrapped<T> {
    #[serde(flatten)]
    t: T,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedWrapped<T> {
    #[serde(flatten)]
    t: T,
}

impl<T: SameAs<O>, O> SameAs<OwnedWrapped<O>> for Wrapped<T> {
    fn same_as(&self, o: &OwnedWrapped<O>) -> bool {
        self.t.same_as(&o.t)
    }
}

// ---- Flattened maps: whatever is left.

twins! {
    /// A catch-all for every key that is not `name` (serde's `CollectOther`).
    struct Record<'bump> / OwnedRecord {
        name: &'bump str => String,
        #[serde(flatten)]
        extra: &'bump [(&'bump str, Value<'bump>)] => Pairs<Key, OwnedValue>,
    }
}

twins! {
    /// A flattened map of typed values before a field of its own.
    struct Tally<'bump> / OwnedTally {
        #[serde(flatten)]
        counts: &'bump [(&'bump str, u16)] => Pairs<Key, u16>,
        total: u32 => u32,
    }
}

/// A flattened hashbrown map in the arena `A`.
#[derive(ArenaDeserialize, Debug)]
struct Counters<'bump, A: BumpAllocator + ?Sized>
where
    &'bump A: Allocator,
{
    name: &'bump str,
    #[serde(flatten)]
    counts: hashbrown::HashMap<&'bump str, u32, hashbrown::DefaultHashBuilder, &'bump A>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedCounters {
    name: String,
    #[serde(flatten)]
    counts: HashMap<Key, u32>,
}

impl<'bump, A: BumpAllocator + ?Sized> SameAs<OwnedCounters> for Counters<'bump, A>
where
    &'bump A: Allocator,
{
    fn same_as(&self, o: &OwnedCounters) -> bool {
        self.name == o.name
            && self.counts.len() == o.counts.len()
            && o.counts
                .iter()
                .all(|(k, v)| self.counts.get(k.0.as_str()) == Some(v))
    }
}

/// A flattened map read with `deserialize_with`: the function is handed the flattened data.
#[derive(ArenaDeserialize, Debug)]
struct Reversed<'bump> {
    name: &'bump str,
    #[arena(flatten, deserialize_with = "arena_reversed")]
    rest: &'bump [(&'bump str, u8)],
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedReversed {
    name: String,
    #[serde(flatten, deserialize_with = "owned_reversed")]
    rest: Pairs<Key, u8>,
}

impl SameAs<OwnedReversed> for Reversed<'_> {
    fn same_as(&self, o: &OwnedReversed) -> bool {
        self.name == o.name && self.rest.same_as(&o.rest)
    }
}

fn arena_reversed<'de, 'bump, D, A>(
    deserializer: D,
    arena: &'bump A,
) -> Result<&'bump [(&'bump str, u8)], D::Error>
where
    D: Deserializer<'de>,
    A: BumpAllocator + ?Sized,
{
    let pairs = <&mut [(&str, u8)]>::deserialize_in(arena, deserializer)?;
    pairs.reverse();
    Ok(pairs)
}

fn owned_reversed<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Pairs<Key, u8>, D::Error> {
    let mut pairs = Pairs::<Key, u8>::deserialize(deserializer)?;
    pairs.0.reverse();
    Ok(pairs)
}

// ---- Flattened options: `Some` if the content reads.

twins! {
    struct Paging<'bump> / OwnedPaging {
        page: u32 => u32,
        cursor: &'bump str => String,
    }
}

impl Default for OwnedPaging {
    fn default() -> Self {
        Self {
            page: 1,
            cursor: "start".to_owned(),
        }
    }
}

impl Default for Paging<'_> {
    fn default() -> Self {
        Self {
            page: 1,
            cursor: "start",
        }
    }
}

twins! {
    /// A flattened `Option` of a struct: `None` when its fields are missing.
    struct Listing<'bump> / OwnedListing {
        items: &'bump [u16] => Vec<u16>,
        #[serde(flatten)]
        paging: Option<Paging<'bump>> => Option<OwnedPaging>,
    }
}

twins! {
    struct Hints<'bump> / OwnedHints {
        lang: Option<&'bump str> => Option<String>,
        #[serde(default)]
        ttl: u32 => u32,
    }
}

twins! {
    /// Two flattened options (serde's `test_flatten_option`), one of a struct that reads from
    /// nothing: always `Some`.
    struct Tuned<'bump> / OwnedTuned {
        #[serde(flatten)]
        hints: Option<Hints<'bump>> => Option<OwnedHints>,
        #[serde(flatten)]
        paging: Option<Paging<'bump>> => Option<OwnedPaging>,
    }
}

twins! {
    /// A flattened `Option` of a map: `Some` of whatever is left, even nothing.
    struct Loose<'bump> / OwnedLoose {
        id: u32 => u32,
        #[serde(flatten)]
        rest: Option<&'bump [(&'bump str, bool)]> => Option<Pairs<Key, bool>>,
    }
}

// ---- Flattened externally tagged enums: the first key that names a variant.

/// Every kind of variant a flattened enum can be written with (a unit variant cannot).
#[derive(ArenaDeserialize, Debug)]
enum Payment<'bump> {
    Card { number: &'bump str, cvc: u16 },
    Cash(u32),
    Transfer(&'bump str, u8),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum OwnedPayment {
    Card { number: String, cvc: u16 },
    Cash(u32),
    Transfer(String, u8),
}

impl SameAs<OwnedPayment> for Payment<'_> {
    fn same_as(&self, o: &OwnedPayment) -> bool {
        match (self, o) {
            (Self::Card { number, cvc }, OwnedPayment::Card { number: n, cvc: c }) => {
                number == n && cvc == c
            }
            (Self::Cash(a), OwnedPayment::Cash(b)) => a == b,
            (Self::Transfer(a, b), OwnedPayment::Transfer(c, d)) => a == c && b == d,
            _ => false,
        }
    }
}

arbitrary!(OwnedPayment => {
    prop_oneof![
        any::<(String, u16)>().prop_map(|(number, cvc)| Self::Card { number, cvc }),
        any::<u32>().prop_map(Self::Cash),
        any::<(String, u8)>().prop_map(|(to, n)| Self::Transfer(to, n)),
    ]
});

twins! {
    /// A flattened enum after a field of its own.
    struct Order<'bump> / OwnedOrder {
        id: u32 => u32,
        #[serde(flatten)]
        payment: Payment<'bump> => OwnedPayment,
    }
}

/// Renamed variants (serde's `FlattenStructEnum`), and a newtype variant holding a map
/// (serde's `test_flatten_enum_newtype`).
#[derive(ArenaDeserialize, Debug)]
#[serde(rename_all = "snake_case")]
enum Change<'bump> {
    InsertInteger { index: u32, value: u32 },
    Rename(&'bump [(&'bump str, &'bump str)]),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "snake_case")]
enum OwnedChange {
    InsertInteger { index: u32, value: u32 },
    Rename(Pairs<String, String>),
}

impl SameAs<OwnedChange> for Change<'_> {
    fn same_as(&self, o: &OwnedChange) -> bool {
        match (self, o) {
            (
                Self::InsertInteger { index, value },
                OwnedChange::InsertInteger { index: i, value: v },
            ) => index == i && value == v,
            (Self::Rename(a), OwnedChange::Rename(b)) => a.same_as(b),
            _ => false,
        }
    }
}

arbitrary!(OwnedChange => {
    prop_oneof![
        any::<(u32, u32)>().prop_map(|(index, value)| Self::InsertInteger { index, value }),
        any::<Pairs<String, String>>().prop_map(Self::Rename),
    ]
});

twins! {
    /// A flattened enum and a flattened map of what it leaves (serde's
    /// `FlattenStructEnumWrapper`).
    struct ChangeRequest<'bump> / OwnedChangeRequest {
        #[serde(flatten)]
        data: Change<'bump> => OwnedChange,
        #[serde(flatten)]
        extra: &'bump [(&'bump str, &'bump str)] => Pairs<Key, String>,
    }
}

twins! {
    /// Two flattened enums: each takes the first entry naming one of its variants.
    struct Split<'bump> / OwnedSplit {
        #[serde(flatten)]
        first: Payment<'bump> => OwnedPayment,
        #[serde(flatten)]
        second: Change<'bump> => OwnedChange,
    }
}

// ---- Several flattened fields, and flattened fields within flattened fields.

twins! {
    struct First<'bump> / OwnedFirst {
        a: u32 => u32,
        b: bool => bool,
        c: &'bump [&'bump str] => Vec<String>,
        d: &'bump str => String,
        e: Option<u64> => Option<u64>,
    }
}

twins! {
    /// Two flattened structs between own fields (serde's `test_complex_flatten`).
    struct Complex<'bump> / OwnedComplex {
        y: u32 => u32,
        #[serde(flatten)]
        first: First<'bump> => OwnedFirst,
        #[serde(flatten)]
        second: Meta<'bump> => OwnedMeta,
        z: u32 => u32,
    }
}

twins! {
    /// A flattened struct between two flattened maps (serde's `test_flatten_map_twice`): the
    /// first map reads every entry, the struct takes its own, the second map reads the rest.
    struct MapTwice<'bump> / OwnedMapTwice {
        #[serde(flatten)]
        first: &'bump [(&'bump str, Value<'bump>)] => Pairs<Key, OwnedValue>,
        #[serde(flatten)]
        between: Meta<'bump> => OwnedMeta,
        #[serde(flatten)]
        second: &'bump [(&'bump str, Value<'bump>)] => Pairs<Key, OwnedValue>,
    }
}

twins! {
    /// A flattened struct that has a flattened struct of its own.
    struct Nest<'bump> / OwnedNest {
        top: u8 => u8,
        #[serde(flatten)]
        page: Page<'bump> => OwnedPage,
    }
}

twins! {
    /// A flattened catch-all under a flattened struct.
    struct NestRecord<'bump> / OwnedNestRecord {
        level: u8 => u8,
        #[serde(flatten)]
        record: Record<'bump> => OwnedRecord,
    }
}

twins! {
    /// A nested flattened struct then a catch-all: serde reads the nested struct (it has a
    /// flattened field) as a map, which takes nothing, so the catch-all sees its keys too.
    struct Deeper<'bump> / OwnedDeeper {
        #[serde(flatten)]
        nest: Nest<'bump> => OwnedNest,
        #[serde(flatten)]
        rest: &'bump [(&'bump str, Value<'bump>)] => Pairs<Key, OwnedValue>,
    }
}

// ---- Struct variants with a flattened field.

/// Struct variants with flattened fields among the other kinds, fields renamed.
#[derive(ArenaDeserialize, Debug)]
#[serde(rename_all_fields = "camelCase")]
enum Event<'bump> {
    Created {
        created_at: u64,
        #[serde(flatten)]
        meta: Meta<'bump>,
    },
    Tagged {
        #[serde(flatten)]
        labels: &'bump [(&'bump str, &'bump str)],
        tagged_by: &'bump str,
    },
    Moved {
        #[serde(flatten)]
        from: Option<Paging<'bump>>,
        #[serde(flatten)]
        to: Payment<'bump>,
    },
    Deleted(u32),
    Ping,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all_fields = "camelCase")]
enum OwnedEvent {
    Created {
        created_at: u64,
        #[serde(flatten)]
        meta: OwnedMeta,
    },
    Tagged {
        #[serde(flatten)]
        labels: Pairs<Key, String>,
        tagged_by: String,
    },
    Moved {
        #[serde(flatten)]
        from: Option<OwnedPaging>,
        #[serde(flatten)]
        to: OwnedPayment,
    },
    Deleted(u32),
    Ping,
}

impl SameAs<OwnedEvent> for Event<'_> {
    fn same_as(&self, o: &OwnedEvent) -> bool {
        match (self, o) {
            (
                Self::Created { created_at, meta },
                OwnedEvent::Created {
                    created_at: c,
                    meta: m,
                },
            ) => created_at == c && meta.same_as(m),
            (
                Self::Tagged { labels, tagged_by },
                OwnedEvent::Tagged {
                    labels: l,
                    tagged_by: t,
                },
            ) => labels.same_as(l) && tagged_by == t,
            (Self::Moved { from, to }, OwnedEvent::Moved { from: f, to: t }) => {
                from.same_as(f) && to.same_as(t)
            }
            (Self::Deleted(a), OwnedEvent::Deleted(b)) => a == b,
            (Self::Ping, OwnedEvent::Ping) => true,
            _ => false,
        }
    }
}

arbitrary!(OwnedEvent => {
    prop_oneof![
        any::<(u64, OwnedMeta)>()
            .prop_map(|(created_at, meta)| Self::Created { created_at, meta }),
        any::<(Pairs<Key, String>, String)>()
            .prop_map(|(labels, tagged_by)| Self::Tagged { labels, tagged_by }),
        any::<(Option<OwnedPaging>, OwnedPayment)>()
            .prop_map(|(from, to)| Self::Moved { from, to }),
        any::<u32>().prop_map(Self::Deleted),
        Just(Self::Ping),
    ]
});

// ---- `deny_unknown_fields`: an entry no flattened field took is an error.

twins! {
    #[serde(deny_unknown_fields)]
    struct StrictPage<'bump> / OwnedStrictPage {
        title: &'bump str => String,
        #[serde(flatten)]
        meta: Meta<'bump> => OwnedMeta,
    }
}

twins! {
    /// A flattened map takes nothing: every entry it read is left, and unknown.
    #[serde(deny_unknown_fields)]
    struct StrictMap<'bump> / OwnedStrictMap {
        name: &'bump str => String,
        #[serde(flatten)]
        extra: &'bump [(&'bump str, u8)] => Pairs<Key, u8>,
    }
}

twins! {
    /// A flattened option and a flattened enum take what they read.
    #[serde(deny_unknown_fields)]
    struct StrictOrder<'bump> / OwnedStrictOrder {
        #[serde(flatten)]
        paging: Option<Paging<'bump>> => Option<OwnedPaging>,
        #[serde(flatten)]
        payment: Payment<'bump> => OwnedPayment,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(32)))]

    #[test]
    fn flattened_structs(page in any::<OwnedPage>(), mixed in any::<OwnedMixed>(), defaulted in any::<OwnedDefaulted>(), meta in any::<OwnedMeta>(), pairs in any::<Pairs<Key, u32>>()) {
        differential!(Page<'_>, OwnedPage, &page, AnyMessage);
        differential!(Mixed<'_>, OwnedMixed, &mixed, AnyMessage);
        differential!(Defaulted<'_>, OwnedDefaulted, &defaulted, AnyMessage);
        differential!(Wrapped<Meta<'_>>, OwnedWrapped<OwnedMeta>, &OwnedWrapped { t: meta }, AnyMessage);
        differential!(Wrapped<&[(&str, u32)]>, OwnedWrapped<Pairs<Key, u32>>, &OwnedWrapped { t: pairs }, AnyMessage);
    }

    #[test]
    fn flattened_maps(record in any::<OwnedRecord>(), tally in any::<OwnedTally>(), name in any::<String>(), counts in any::<HashMap<Key, u32>>(), reversed in any::<(String, Pairs<Key, u8>)>()) {
        differential!(Record<'_>, OwnedRecord, &record, AnyMessage);
        differential!(Tally<'_>, OwnedTally, &tally, AnyMessage);
        differential!(Counters<'_, _>, OwnedCounters, &OwnedCounters { name, counts }, AnyMessage);
        let (name, rest) = reversed;
        differential!(Reversed<'_>, OwnedReversed, &OwnedReversed { name, rest }, AnyMessage);
    }

    #[test]
    fn flattened_options(listing in any::<OwnedListing>(), tuned in any::<OwnedTuned>(), loose in any::<OwnedLoose>()) {
        differential!(Listing<'_>, OwnedListing, &listing, AnyMessage);
        differential!(Tuned<'_>, OwnedTuned, &tuned, AnyMessage);
        differential!(Loose<'_>, OwnedLoose, &loose, AnyMessage);
    }

    #[test]
    fn flattened_enums(order in any::<OwnedOrder>(), request in any::<OwnedChangeRequest>(), split in any::<OwnedSplit>()) {
        differential!(Order<'_>, OwnedOrder, &order, AnyMessage);
        differential!(ChangeRequest<'_>, OwnedChangeRequest, &request, AnyMessage);
        differential!(Split<'_>, OwnedSplit, &split, AnyMessage);
    }

    #[test]
    fn several_and_nested(complex in any::<OwnedComplex>(), twice in any::<OwnedMapTwice>(), nest in any::<OwnedNest>(), record in any::<OwnedNestRecord>(), deeper in any::<OwnedDeeper>()) {
        differential!(Complex<'_>, OwnedComplex, &complex, AnyMessage);
        differential!(MapTwice<'_>, OwnedMapTwice, &twice, AnyMessage);
        differential!(Nest<'_>, OwnedNest, &nest, AnyMessage);
        differential!(NestRecord<'_>, OwnedNestRecord, &record, AnyMessage);
        differential!(Deeper<'_>, OwnedDeeper, &deeper, AnyMessage);
    }

    #[test]
    fn struct_variants(event in any::<OwnedEvent>()) {
        differential!(Event<'_>, OwnedEvent, &event, AnyMessage);
    }

    #[test]
    fn deny_unknown_fields(page in any::<OwnedStrictPage>(), map in any::<OwnedStrictMap>(), order in any::<OwnedStrictOrder>()) {
        differential!(StrictPage<'_>, OwnedStrictPage, &page, AnyMessage);
        differential!(StrictMap<'_>, OwnedStrictMap, &map, AnyMessage);
        differential!(StrictOrder<'_>, OwnedStrictOrder, &order, AnyMessage);
    }
}

/// `corrupted!`, but for the inputs serde fails on only because its buffer cannot hold a
/// 128-bit integer (a corrupted CBOR input can hold a bignum), which the derive reads: that
/// difference is `i128_in_flattened_data_reads_exactly`'s to check.
macro_rules! corrupted_flat {
    ($arena_ty:ty, $owned_ty:ty, $value:expr, $corruptions:expr) => {{
        let value: &$owned_ty = $value;
        for format in Format::ALL {
            let bytes = corrupt(format.to_bytes(value), $corruptions);
            if let Err(serde) = format.decode_owned::<$owned_ty>(&bytes)
                && (serde.contains("i128") || serde.contains("u128"))
            {
                continue;
            }
            differential!(@bytes format, $arena_ty, $owned_ty, &bytes, AnyMessage);
        }
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(24)))]

    #[test]
    fn corrupted_structs_and_maps(page in any::<OwnedPage>(), record in any::<OwnedRecord>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted_flat!(Page<'_>, OwnedPage, &page, &c);
        corrupted_flat!(Record<'_>, OwnedRecord, &record, &c);
    }

    #[test]
    fn corrupted_options_and_enums(listing in any::<OwnedListing>(), request in any::<OwnedChangeRequest>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted_flat!(Listing<'_>, OwnedListing, &listing, &c);
        corrupted_flat!(ChangeRequest<'_>, OwnedChangeRequest, &request, &c);
    }

    #[test]
    fn corrupted_nested_variants_and_strict(deeper in any::<OwnedDeeper>(), event in any::<OwnedEvent>(), strict in any::<OwnedStrictOrder>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted_flat!(Deeper<'_>, OwnedDeeper, &deeper, &c);
        corrupted_flat!(Event<'_>, OwnedEvent, &event, &c);
        corrupted_flat!(StrictOrder<'_>, OwnedStrictOrder, &strict, &c);
    }
}

#[test]
fn keys_of_the_struct_and_of_its_flattened_fields_interleave() {
    json_reads!(
        Page<'_>,
        OwnedPage,
        r#"{"id": 1, "pageTitle": "t", "viewCount": 2, "label": "x", "note": null}"#
    );
    json_reads!(
        Complex<'_>,
        OwnedComplex,
        r#"{"e": 2, "z": 4, "tag": "t", "a": 1, "c": ["a"], "y": 0, "b": true, "d": "c", "id": 9}"#
    );
    let bump = bumpalo::Bump::new();
    let json = r#"{"tag": "x", "pageTitle": "t", "id": 3}"#;
    let page = json_reads!(in &bump, Page<'_>, OwnedPage, json);
    assert_eq!((page.meta.id, page.meta.tag, page.view_count), (3, "x", 0));
}

#[test]
fn unknown_keys_are_ignored_or_an_error_with_deny_unknown_fields() {
    json_reads!(
        Page<'_>,
        OwnedPage,
        r#"{"zz": [1, {"a": null}], "pageTitle": "t", "id": 1, "tag": "x", "q": 1.5}"#
    );
    let unknown = json_refuses!(
        StrictPage<'_>,
        OwnedStrictPage,
        r#"{"title": "t", "zz": [1], "id": 1, "tag": "x", "q": 2}"#,
        AnyMessage
    );
    assert!(unknown.derive_says("unknown field `zz`"), "{unknown:?}");
    json_reads!(
        StrictPage<'_>,
        OwnedStrictPage,
        r#"{"id": 1, "title": "t", "label": "x"}"#
    );
    // A flattened map leaves its entries: with `deny_unknown_fields`, they are unknown
    // (serde's behaviour), and without any the struct reads.
    let left = json_refuses!(
        StrictMap<'_>,
        OwnedStrictMap,
        r#"{"name": "n", "a": 1, "b": 2}"#,
        AnyMessage
    );
    assert!(left.derive_says("unknown field `a`"), "{left:?}");
    json_reads!(StrictMap<'_>, OwnedStrictMap, r#"{"name": "n"}"#);
    // serde's `test_unknown_field_in_flatten`.
    let bar = json_refuses!(
        StrictOuter<'_>,
        OwnedStrictOuter,
        r#"{"dummy": "23", "counts": {"a": 1, "b": 2}, "bar": 23}"#,
        AnyMessage
    );
    assert!(bar.derive_says("unknown field `bar`"), "{bar:?}");
}

twins! {
    struct Inner<'bump> / OwnedInner {
        counts: &'bump [(&'bump str, u32)] => Pairs<String, u32>,
    }
}

twins! {
    #[serde(deny_unknown_fields)]
    struct StrictOuter<'bump> / OwnedStrictOuter {
        dummy: &'bump str => String,
        #[serde(flatten)]
        inner: Inner<'bump> => OwnedInner,
    }
}

#[test]
fn duplicate_and_missing_keys_have_serde_wording() {
    let own = json_refuses!(
        Page<'_>,
        OwnedPage,
        r#"{"pageTitle": "t", "id": 1, "tag": "x", "pageTitle": "u"}"#,
        AnyMessage
    );
    assert!(own.derive_says("duplicate field `pageTitle`"), "{own:?}");
    // Both entries go to the flattened struct, which sees the key twice.
    let flattened = json_refuses!(
        Page<'_>,
        OwnedPage,
        r#"{"pageTitle": "t", "id": 1, "tag": "x", "id": 2}"#,
        AnyMessage
    );
    assert!(
        flattened.derive_says("duplicate field `id`"),
        "{flattened:?}"
    );
    let alias = json_refuses!(
        Page<'_>,
        OwnedPage,
        r#"{"pageTitle": "t", "id": 1, "tag": "x", "label": "y"}"#,
        AnyMessage
    );
    assert!(alias.derive_says("duplicate field `tag`"), "{alias:?}");
    let missing = json_refuses!(
        Page<'_>,
        OwnedPage,
        r#"{"pageTitle": "t", "id": 1}"#,
        AnyMessage
    );
    assert!(missing.derive_says("missing field `tag`"), "{missing:?}");
    let own_missing = json_refuses!(Page<'_>, OwnedPage, r#"{"id": 1, "tag": "x"}"#, AnyMessage);
    assert!(
        own_missing.derive_says("missing field `pageTitle`"),
        "{own_missing:?}"
    );
    // A duplicate key of a catch-all is kept twice, in order.
    let bump = bumpalo::Bump::new();
    let json = r#"{"k": 1, "name": "n", "k": [2]}"#;
    let record = json_reads!(in &bump, Record<'_>, OwnedRecord, json);
    assert_eq!(record.extra.len(), 2);
    assert_eq!(record.extra[1].1[0], 2);
}

#[test]
fn flattened_options_are_none_without_their_fields() {
    json_reads!(Listing<'_>, OwnedListing, r#"{"items": [1]}"#);
    // Half of the fields: `None`, the half it read taken all the same.
    let bump = bumpalo::Bump::new();
    let half = r#"{"items": [], "page": 2}"#;
    let listing = json_reads!(in &bump, Listing<'_>, OwnedListing, half);
    assert!(listing.paging.is_none());
    json_reads!(
        Listing<'_>,
        OwnedListing,
        r#"{"cursor": "c", "items": [], "page": 2}"#
    );
    let tuned = json_reads!(in &bump, Tuned<'_>, OwnedTuned, "{}");
    assert!(tuned.hints.is_some() && tuned.paging.is_none());
    // serde's `test_flatten_option`.
    for json in [
        r#"{"page": 1, "cursor": "c", "lang": "en"}"#,
        r#"{"ttl": 5}"#,
        r#"{"page": 1, "cursor": "c"}"#,
        "{}",
    ] {
        json_reads!(Tuned<'_>, OwnedTuned, json);
    }
}

#[test]
fn flattened_enums_take_the_first_key_naming_a_variant() {
    json_reads!(
        Order<'_>,
        OwnedOrder,
        r#"{"x": 1, "Cash": 5, "id": 2, "Card": {"number": "n", "cvc": 1}}"#
    );
    json_reads!(Order<'_>, OwnedOrder, r#"{"Transfer": ["to", 3], "id": 2}"#);
    let none = json_refuses!(
        Order<'_>,
        OwnedOrder,
        r#"{"id": 2, "Cheque": 1}"#,
        AnyMessage
    );
    assert!(
        none.serde
            .starts_with("no variant of enum Payment found in flattened data"),
        "{none:?}"
    );
    let wrong = json_refuses!(
        Order<'_>,
        OwnedOrder,
        r#"{"id": 2, "Cash": "five"}"#,
        AnyMessage
    );
    assert!(
        wrong.derive_says("invalid type: string \"five\""),
        "{wrong:?}"
    );
    // serde's `test_flatten_struct_enum` and `test_flatten_enum_newtype`.
    json_reads!(
        ChangeRequest<'_>,
        OwnedChangeRequest,
        r#"{"insert_integer": {"index": 0, "value": 42}, "extra_key": "extra value"}"#
    );
    json_reads!(
        ChangeRequest<'_>,
        OwnedChangeRequest,
        r#"{"rename": {"k": "v"}}"#
    );
    // The enum's content is replayed as serde's buffer by value: a unit reads from `{}`.
    json_reads!(Unitary<'_>, OwnedUnitary, r#"{"Nothing": {}, "n": 1}"#);
    json_reads!(Unitary<'_>, OwnedUnitary, r#"{"Nothing": null, "n": 1}"#);
    json_reads!(Unitary<'_>, OwnedUnitary, r#"{"Marker": [], "n": 1}"#);
    let unit = json_refuses!(
        Unitary<'_>,
        OwnedUnitary,
        r#"{"Nothing": [], "n": 1}"#,
        AnyMessage
    );
    assert!(
        unit.serde
            .starts_with("invalid type: sequence, expected unit"),
        "{unit:?}"
    );
}

#[derive(ArenaDeserialize, Debug, Serialize, Deserialize, Clone, PartialEq)]
struct Marker;

impl SameAs<Marker> for Marker {
    fn same_as(&self, _: &Marker) -> bool {
        true
    }
}

arbitrary!(Marker => Just(Marker));

twins! {
    struct Units<'bump> / OwnedUnits {
        unit: () => (),
        marker: Marker => Marker,
        #[serde(skip)]
        unused: Option<&'bump str> => Option<String>,
    }
}

twins! {
    struct HasUnits<'bump> / OwnedHasUnits {
        n: u8 => u8,
        #[serde(flatten)]
        units: Units<'bump> => OwnedUnits,
    }
}

/// A flattened struct's fields are replayed as serde's buffer by value: a unit reads from
/// `{}`, a unit struct from `{}` or `[]` too.
#[test]
fn flattened_struct_fields_read_units_as_serde_does() {
    for json in [
        r#"{"n": 1, "unit": null, "marker": null}"#,
        r#"{"n": 1, "unit": {}, "marker": []}"#,
        r#"{"marker": {}, "n": 1, "unit": {}}"#,
    ] {
        json_reads!(HasUnits<'_>, OwnedHasUnits, json);
    }
    let unit = json_refuses!(
        HasUnits<'_>,
        OwnedHasUnits,
        r#"{"n": 1, "unit": [], "marker": []}"#,
        AnyMessage
    );
    assert!(
        unit.serde
            .starts_with("invalid type: sequence, expected unit"),
        "{unit:?}"
    );
    let marker = json_refuses!(
        HasUnits<'_>,
        OwnedHasUnits,
        r#"{"n": 1, "unit": null, "marker": [1]}"#,
        AnyMessage
    );
    assert!(
        marker
            .serde
            .starts_with("invalid type: sequence, expected unit struct"),
        "{marker:?}"
    );
}

/// Variants holding a unit and a unit struct, flattened.
#[derive(ArenaDeserialize, Debug)]
enum Empty {
    Nothing(()),
    Marker(Marker),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum OwnedEmpty {
    Nothing(()),
    Marker(Marker),
}

arbitrary!(OwnedEmpty => prop_oneof![
    Just(OwnedEmpty::Nothing(())),
    Just(OwnedEmpty::Marker(Marker)),
]);

impl SameAs<OwnedEmpty> for Empty {
    fn same_as(&self, o: &OwnedEmpty) -> bool {
        matches!(
            (self, o),
            (Self::Nothing(()), OwnedEmpty::Nothing(()))
                | (Self::Marker(Marker), OwnedEmpty::Marker(Marker))
        )
    }
}

twins! {
    struct Unitary<'bump> / OwnedUnitary {
        n: u8 => u8,
        #[serde(flatten)]
        empty: Empty => OwnedEmpty,
        #[serde(skip)]
        unused: Option<&'bump str> => Option<String>,
    }
}

#[test]
fn struct_variants_with_flattened_fields() {
    json_reads!(
        Event<'_>,
        OwnedEvent,
        r#"{"Created": {"id": 1, "createdAt": 5, "tag": "t"}}"#
    );
    json_reads!(
        Event<'_>,
        OwnedEvent,
        r#"{"Tagged": {"a": "b", "taggedBy": "me", "c": "d"}}"#
    );
    json_reads!(Event<'_>, OwnedEvent, r#"{"Moved": {"Cash": 1}}"#);
    // A struct variant with a flattened field reads only a map (serde's
    // `newtype_variant_seed`): not a sequence.
    let seq = json_refuses!(
        Event<'_>,
        OwnedEvent,
        r#"{"Created": [5, 1, "t"]}"#,
        AnyMessage
    );
    assert!(
        seq.serde
            .starts_with("invalid type: sequence, expected struct variant")
            && seq.derive_says("invalid type: sequence"),
        "{seq:?}"
    );
    let missing = json_refuses!(
        Event<'_>,
        OwnedEvent,
        r#"{"Created": {"createdAt": 5}}"#,
        AnyMessage
    );
    assert!(missing.derive_says("missing field `id`"), "{missing:?}");
}

#[test]
fn what_cannot_be_flattened_has_serde_wording() {
    // serde's `test_flatten_unsupported_type`.
    let string = json_refuses!(
        Unsupported<'_>,
        OwnedUnsupported,
        r#"{"outer": "foo", "a": "b"}"#,
        AnyMessage
    );
    assert!(
        string
            .serde
            .starts_with("can only flatten structs and maps"),
        "{string:?}"
    );
    // A struct with a flattened field reads only a map.
    let seq = json_refuses!(Page<'_>, OwnedPage, r#"["t", 1, "x", 2, null]"#, AnyMessage);
    assert!(
        seq.serde
            .starts_with("invalid type: sequence, expected struct Page")
            && seq.derive_says("invalid type: sequence"),
        "{seq:?}"
    );
}

twins! {
    struct Unsupported<'bump> / OwnedUnsupported {
        outer: &'bump str => String,
        #[serde(flatten)]
        inner: &'bump str => String,
    }
}

twins! {
    /// Integer keys in a flattened map (serde's `test_non_string_keys`).
    struct Numbered<'bump> / OwnedNumbered {
        name: &'bump str => String,
        #[serde(flatten)]
        mapping: &'bump [(u32, &'bump str)] => Pairs<u32, String>,
    }
}

twins! {
    /// Byte-string keys in a flattened map (serde's `test_lifetime_propagation_for_flatten`).
    struct ByBytes<'bump> / OwnedByBytes {
        #[serde(flatten)]
        t: &'bump [(&'bump [u8], u32)] => Pairs<Bytes<u8>, u32>,
    }
}

twins! {
    /// Keys of any kind.
    struct AnyKeys<'bump> / OwnedAnyKeys {
        name: &'bump str => String,
        #[serde(flatten)]
        rest: &'bump [(Value<'bump>, Value<'bump>)] => Pairs<OwnedValue, OwnedValue>,
    }
}

/// MessagePack: a map of `entries`, each key and value already encoded.
fn msgpack_map(entries: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    let mut out = vec![0x80 | u8::try_from(entries.len()).expect("a small map")];
    for (key, value) in entries {
        out.extend_from_slice(key);
        out.extend_from_slice(value);
    }
    out
}

/// MessagePack: a short string.
fn msgpack_str(s: &str) -> Vec<u8> {
    let mut out = vec![0xa0 | u8::try_from(s.len()).expect("a short string")];
    out.extend_from_slice(s.as_bytes());
    out
}

#[test]
fn non_string_keys_reach_a_flattened_map() {
    use Format::MsgPack;
    let (name, peter, a) = (msgpack_str("name"), msgpack_str("peter"), msgpack_str("a"));
    // {"name": "peter", 0: "a", 200: "a"}
    let ints = msgpack_map(&[
        (name.clone(), peter.clone()),
        (vec![0x00], a.clone()),
        (vec![0xcc, 200], a.clone()),
    ]);
    assert_eq!(
        same_reading!(MsgPack, Numbered<'_>, OwnedNumbered, &ints, AnyMessage),
        None
    );
    // An integer key is never a field index when there is a flattened field: `0` is kept.
    let bump = bumpalo::Bump::new();
    let numbered: Numbered<'_> = MsgPack.decode_in(&bump, &ints).unwrap();
    assert_eq!(numbered.mapping, [(0, "a"), (200, "a")]);
    // A key of the wrong type for the map: both fail, alike.
    let string_key = msgpack_map(&[(name.clone(), peter.clone()), (a.clone(), a.clone())]);
    assert!(
        same_reading!(
            MsgPack,
            Numbered<'_>,
            OwnedNumbered,
            &string_key,
            AnyMessage
        )
        .is_some()
    );
    // A boolean, a negative integer and a float as keys.
    let mixed = msgpack_map(&[
        (vec![0xc3], a.clone()),
        (vec![0xff], vec![0x01]),
        (name.clone(), peter.clone()),
        (vec![0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0], vec![0xc0]),
    ]);
    assert_eq!(
        same_reading!(MsgPack, AnyKeys<'_>, OwnedAnyKeys, &mixed, AnyMessage),
        None
    );
    let any: AnyKeys<'_> = MsgPack.decode_in(&bump, &mixed).unwrap();
    assert_eq!(any.rest[0].0, Value::Bool(true));
    assert_eq!(any.rest[1].0, Value::I64(-1));
    assert_eq!(any.rest[2].0, Value::F64(1.5));
    // Byte-string keys (serde's `C<'a>`).
    let bytes = msgpack_map(&[(vec![0xc4, 1, b'x'], vec![42])]);
    assert_eq!(
        same_reading!(MsgPack, ByBytes<'_>, OwnedByBytes, &bytes, AnyMessage),
        None
    );
    // A key that is not a name, left over with `deny_unknown_fields`.
    let strict = msgpack_map(&[
        (msgpack_str("title"), a.clone()),
        (vec![0x07], a.clone()),
        (msgpack_str("id"), vec![0x01]),
        (msgpack_str("tag"), a.clone()),
    ]);
    let left = same_reading!(
        MsgPack,
        StrictPage<'_>,
        OwnedStrictPage,
        &strict,
        AnyMessage
    );
    assert_eq!(left.map(|r| r.serde).as_deref(), Some("unexpected map key"));
    // A key that cannot be one (an array): the field identifier's error.
    let array_key = msgpack_map(&[(vec![0x90], a.clone())]);
    let refusal = same_reading!(MsgPack, Record<'_>, OwnedRecord, &array_key, AnyMessage).unwrap();
    assert!(
        refusal.serde.contains("expected field identifier"),
        "{refusal:?}"
    );
}

#[test]
fn hashbrown_maps_are_flattened_in_every_arena() {
    // serde's `test_collect_other`, in JSON and MessagePack.
    let owned = OwnedCounters {
        name: "n".to_owned(),
        counts: [(Key("c".to_owned()), 3), (Key("d".to_owned()), 4)].into(),
    };
    differential!(Counters<'_, _>, OwnedCounters, &owned, AnyMessage);
    with_each_arena!(|arena| {
        let json = br#"{"c": 3, "name": "n", "c": 5}"#;
        let read: Counters<'_, _> = Format::Json.decode_in(arena, json).unwrap();
        assert_eq!(read.counts.len(), 1);
        assert_eq!(
            read.counts["c"], 5,
            "the last duplicate wins, as with serde's map"
        );
    });
}

#[test]
fn a_flattened_deserialize_with_reads_the_flattened_data() {
    let bump = bumpalo::Bump::new();
    let json = r#"{"a": 1, "name": "n", "b": 2}"#;
    let read = json_reads!(in &bump, Reversed<'_>, OwnedReversed, json);
    assert_eq!(read.rest, [("b", 2), ("a", 1)]);
}

#[test]
fn a_map_read_with_deserialize_any_after_a_flattened_struct() {
    // serde's `test_flatten_any_after_flatten_struct`: `Value` reads with `deserialize_any`.
    json_reads!(AnyAfter<'_>, OwnedAnyAfter, r#"{"page": 0, "cursor": "c"}"#);
    json_reads!(
        AnyAfter<'_>,
        OwnedAnyAfter,
        r#"{"page": 0, "x": [1], "cursor": "c"}"#
    );
}

twins! {
    struct Y<'bump> / OwnedY {
        y: &'bump str => String,
    }
}

twins! {
    /// serde's `test_flatten_map_twice`, and a unit and a unit struct flattened: they read from
    /// any entries.
    struct Twice<'bump> / OwnedTwice {
        #[serde(flatten)]
        first: &'bump [(&'bump str, &'bump str)] => Pairs<String, String>,
        #[serde(flatten)]
        between: Y<'bump> => OwnedY,
        #[serde(flatten)]
        second: &'bump [(&'bump str, &'bump str)] => Pairs<String, String>,
        #[serde(flatten)]
        nothing: () => (),
        #[serde(flatten)]
        marker: Marker => Marker,
    }
}

#[test]
fn a_map_reads_what_a_struct_before_it_left() {
    let bump = bumpalo::Bump::new();
    let json = r#"{"x": "X", "y": "Y"}"#;
    let twice = json_reads!(in &bump, Twice<'_>, OwnedTwice, json);
    assert_eq!(twice.first, [("x", "X"), ("y", "Y")]);
    assert_eq!(twice.between.y, "Y");
    assert_eq!(twice.second, [("x", "X")]);
}

twins! {
    struct AnyAfter<'bump> / OwnedAnyAfter {
        #[serde(flatten)]
        inner: Paging<'bump> => OwnedPaging,
        #[serde(flatten)]
        extra: Value<'bump> => OwnedValue,
    }
}

/// Integers of 128 bits, a flattened struct's fields.
#[derive(ArenaDeserialize, Debug)]
struct Wide {
    small: i128,
    big: u128,
}

#[derive(ArenaDeserialize, Debug)]
struct HasWide<'bump> {
    name: &'bump str,
    #[arena(flatten)]
    wide: Wide,
}

#[derive(Serialize, Deserialize, Debug)]
struct OwnedWide {
    small: i128,
    big: u128,
}

#[derive(Serialize, Deserialize, Debug)]
struct OwnedHasWide {
    name: String,
    #[serde(flatten)]
    wide: OwnedWide,
}

/// Beyond serde: a 128-bit integer in flattened data reads exactly, where serde's buffer
/// cannot hold it (serde issue #1682: "i128 is not supported"). In JSON within 64 bits (what
/// serde_json hands over as an integer), in CBOR over the whole range (bignums), in MessagePack
/// from 64-bit integers (rmp-serde writes an `i128` as bytes, hence the hand-written map).
#[test]
fn i128_in_flattened_data_reads_exactly() {
    let wide = |small, big| OwnedHasWide {
        name: "n".to_owned(),
        wide: OwnedWide { small, big },
    };
    // {"name": "n", "small": i64::MIN, "big": u64::MAX}
    let mut min = vec![0xd3];
    min.extend_from_slice(&i64::MIN.to_be_bytes());
    let mut max = vec![0xcf];
    max.extend_from_slice(&u64::MAX.to_be_bytes());
    let msgpack = msgpack_map(&[
        (msgpack_str("name"), msgpack_str("n")),
        (msgpack_str("small"), min),
        (msgpack_str("big"), max),
    ]);
    let cases = [
        (Format::Json, Format::Json.to_bytes(&wide(-5, 7)), -5, 7),
        (
            Format::Cbor,
            Format::Cbor.to_bytes(&wide(i128::MIN, u128::MAX)),
            i128::MIN,
            u128::MAX,
        ),
        (
            Format::MsgPack,
            msgpack,
            i128::from(i64::MIN),
            u128::from(u64::MAX),
        ),
    ];
    for (format, bytes, small, big) in cases {
        let serde = format.decode_owned::<OwnedHasWide>(&bytes);
        assert!(serde.is_err(), "{format}: serde reads {serde:?}");
        with_each_arena!(|arena| {
            let read: HasWide<'_> = format.decode_in(arena, &bytes).unwrap();
            assert_eq!(
                (read.name, read.wide.small, read.wide.big),
                ("n", small, big)
            );
        });
    }
}

/// Records the `is_human_readable` of the deserializer it is read from (the value itself is
/// skipped).
fn arena_human_readable<'de, D, A>(deserializer: D, _arena: &A) -> Result<bool, D::Error>
where
    D: Deserializer<'de>,
    A: ?Sized,
{
    owned_human_readable(deserializer)
}

fn owned_human_readable<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    let human_readable = deserializer.is_human_readable();
    IgnoredAny::deserialize(deserializer)?;
    Ok(human_readable)
}

#[derive(ArenaDeserialize, Debug)]
struct Seen {
    #[arena(deserialize_with = "arena_human_readable")]
    field: bool,
}

#[derive(ArenaDeserialize, Debug)]
struct HasSeen {
    #[arena(flatten)]
    seen: Seen,
    #[arena(flatten, deserialize_with = "arena_human_readable")]
    itself: bool,
}

#[derive(Serialize, Deserialize, Debug)]
struct OwnedSeen {
    #[serde(deserialize_with = "owned_human_readable")]
    field: bool,
}

#[derive(Serialize, Deserialize, Debug)]
struct OwnedHasSeen {
    #[serde(flatten)]
    seen: OwnedSeen,
    #[serde(flatten, deserialize_with = "owned_human_readable")]
    itself: bool,
}

/// Beyond serde: the flattened fields are asked `is_human_readable` with the source format's
/// answer, where serde's flattened deserializer answers `true` (serde issue #2172).
#[test]
fn flattened_fields_see_the_formats_is_human_readable() {
    // {"field": 1}
    let msgpack = msgpack_map(&[(msgpack_str("field"), vec![0x01])]);
    let serde = Format::MsgPack
        .decode_owned::<OwnedHasSeen>(&msgpack)
        .unwrap();
    assert!(serde.seen.field && serde.itself, "serde says true");
    with_each_arena!(|arena| {
        let read: HasSeen = Format::MsgPack.decode_in(arena, &msgpack).unwrap();
        assert!(
            !read.seen.field && !read.itself,
            "MessagePack is not human-readable"
        );
        let read: HasSeen = Format::Json.decode_in(arena, br#"{"field": 1}"#).unwrap();
        assert!(read.seen.field && read.itself, "JSON is");
    });
}

/// `T` read from `json` into `bump` under `limits`; the message of its error.
fn read_limited<'b, T>(bump: &'b bumpalo::Bump, json: &str, limits: Limits) -> Result<T, String>
where
    T: ArenaDeserialize<'b, bumpalo::Bump>,
{
    let mut de = serde_json::Deserializer::from_str(json);
    ArenaSeed::<T, _>::new(bump)
        .with_limits(limits)
        .deserialize(&mut de)
        .map_err(|e| e.to_string())
}

#[derive(ArenaDeserialize)]
struct Id {
    #[arena(rename = "id")]
    _id: u32,
}

#[derive(ArenaDeserialize)]
struct Keys {
    #[arena(flatten)]
    _id: Id,
}

/// The entries a struct buffers for its flattened fields count against the call's limits:
/// their number, their depth, their bytes.
#[test]
fn buffered_entries_count_against_the_limits() {
    let bump = bumpalo::Bump::new();
    let three = r#"{"name": "n", "a": 1, "b": 2, "c": 3}"#;
    let four = r#"{"name": "n", "a": 1, "b": 2, "c": 3, "d": 4}"#;
    let len = Limits::default().max_len(3);
    assert!(read_limited::<Record<'_>>(&bump, three, len).is_ok());
    let err = read_limited::<Record<'_>>(&bump, four, len).err().unwrap();
    assert!(
        err.starts_with("sequence length limit of 3 elements exceeded"),
        "{err}"
    );
    // Even when no flattened field reads them.
    let keys = r#"{"id": 1, "a": 1, "b": 2, "c": 3, "d": 4}"#;
    let err = read_limited::<Keys>(&bump, keys, len).err().unwrap();
    assert!(err.starts_with("sequence length limit"), "{err}");
    let deep = r#"{"name": "n", "a": [[[[1]]]]}"#;
    let depth = Limits::default().max_depth(4);
    let err = read_limited::<Record<'_>>(&bump, deep, depth)
        .err()
        .unwrap();
    assert!(
        err.starts_with("nesting depth limit of 4 exceeded"),
        "{err}"
    );
    let long_key = format!(r#"{{"name": "n", "{}": 1}}"#, "k".repeat(100));
    let short = Limits::default().max_str_len(50);
    let err = read_limited::<Record<'_>>(&bump, &long_key, short)
        .err()
        .unwrap();
    assert!(err.starts_with("string length limit of 50"), "{err}");
    let budget = Limits::default().max_bytes(100);
    let unclaimed_key = format!(r#"{{"id": 1, "{}": 1}}"#, "k".repeat(100));
    let err = read_limited::<Keys>(&bump, &unclaimed_key, budget)
        .err()
        .unwrap();
    assert!(err.starts_with("arena byte limit of 100 bytes"), "{err}");
}

#[derive(ArenaDeserialize, Debug, PartialEq)]
struct Header {
    id: u32,
    ts: u64,
}

#[derive(ArenaDeserialize, Debug, PartialEq)]
struct WithHeader {
    #[arena(flatten)]
    header: Header,
    x: u32,
}

/// A flattened struct (the first flattened field, reading its entries by name) takes its
/// entries as the map is read: nothing is buffered, so a read that holds no string or slice
/// fits a byte budget of zero, and the struct's own keys may come before, between and after.
#[test]
fn a_flattened_struct_reads_its_entries_unbuffered() {
    let bump = bumpalo::Bump::new();
    let none = Limits::default().max_bytes(0);
    for json in [
        r#"{"id": 1, "ts": 2, "x": 3}"#,
        r#"{"x": 3, "ts": 2, "id": 1}"#,
        r#"{"ts": 2, "x": 3, "id": 1}"#,
    ] {
        let read = read_limited::<WithHeader>(&bump, json, none).unwrap();
        let expected = WithHeader {
            header: Header { id: 1, ts: 2 },
            x: 3,
        };
        assert_eq!(read, expected, "{json}");
    }
    // An unknown key is still buffered for the flattened fields after it: it needs the budget.
    let err = read_limited::<WithHeader>(&bump, r#"{"id": 1, "ts": 2, "x": 3, "y": 4}"#, none)
        .err()
        .unwrap();
    assert!(err.starts_with("arena byte limit of 0 bytes"), "{err}");
    // A second entry of the flattened struct's is serde's duplicate field.
    let err = read_limited::<WithHeader>(&bump, r#"{"id": 1, "x": 3, "id": 1, "ts": 2}"#, none)
        .err()
        .unwrap();
    assert!(err.starts_with("duplicate field `id`"), "{err}");
}
