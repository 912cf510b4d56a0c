//! The proof of `#[derive(ArenaDeserialize)]`: for every type below, values of the owned twin
//! (deriving serde's `Serialize + Deserialize` with the same attributes) are generated with
//! proptest, serialized with serde to JSON, postcard, bincode 2, MessagePack (compact and with
//! struct maps) and CBOR, and read back both by serde_derive (into the twin) and by the derive
//! (into the arena type, on bumpalo, bump-scope and `SlabArena`). Both must read the same value,
//! or both fail with the same message. Then the same with corrupted bytes.

use arena_core::ArenaDeserialize;
use arena_tests::corruption::corruption;
use arena_tests::derive_support::Errors::SameMessage;
use arena_tests::derive_support::{Bytes, Pairs, SameAs};
use arena_tests::shapes::{OwnedShape, Shape, shape};
use arena_tests::{corrupted, differential, same_reading, twins};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

twins! {
    struct Plain<'bump> / OwnedPlain {
        name: &'bump str => String,
        count: u32 => u32,
        flag: bool => bool,
        ratio: f64 => f64,
        letter: char => char,
        nick: Option<&'bump str> => Option<String>,
        list: &'bump [i64] => Vec<i64>,
        wide: (i128, u8) => (i128, u8),
    }
}

twins! {
    struct Nested<'bump> / OwnedNested {
        head: Plain<'bump> => OwnedPlain,
        items: &'bump [Plain<'bump>] => Vec<OwnedPlain>,
        grid: [u16; 3] => [u16; 3],
        deep: Option<&'bump [&'bump [&'bump str]]> => Option<Vec<Vec<String>>>,
    }
}

twins! {
    #[serde(rename = "Renamed", rename_all = "camelCase")]
    struct Camel<'bump> / OwnedCamel {
        first_name: &'bump str => String,
        last_seen_at: u64 => u64,
        #[serde(rename = "ID")]
        user_id: u32 => u32,
    }
}

twins! {
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    struct Screaming<'bump> / OwnedScreaming {
        first_name: &'bump str => String,
        zip_code: u16 => u16,
    }
}

twins! {
    #[serde(rename_all = "kebab-case")]
    struct Kebab<'bump> / OwnedKebab {
        first_name: &'bump str => String,
        zip_code: u16 => u16,
    }
}

twins! {
    #[serde(rename_all = "SCREAMING-KEBAB-CASE")]
    struct ScreamingKebab<'bump> / OwnedScreamingKebab {
        first_name: &'bump str => String,
        zip_code: u16 => u16,
    }
}

twins! {
    #[serde(rename_all = "PascalCase")]
    struct Pascal<'bump> / OwnedPascal {
        first_name: &'bump str => String,
        zip_code: u16 => u16,
    }
}

twins! {
    #[serde(rename_all = "UPPERCASE")]
    struct Upper<'bump> / OwnedUpper {
        first_name: &'bump str => String,
        #[serde(rename = "keep")]
        zip_code: u16 => u16,
    }
}

twins! {
    #[serde(rename_all(deserialize = "lowercase", serialize = "lowercase"))]
    struct Lower<'bump> / OwnedLower {
        first_name: &'bump str => String,
        r#type: u8 => u8,
    }
}

twins! {
    struct Aliased<'bump> / OwnedAliased {
        #[serde(alias = "n", alias = "nom")]
        name: &'bump str => String,
        #[serde(rename = "v", alias = "value")]
        val: i32 => i32,
    }
}

twins! {
    #[serde(deny_unknown_fields)]
    struct Strict<'bump> / OwnedStrict {
        name: &'bump str => String,
        #[serde(alias = "number")]
        num: u8 => u8,
    }
}

fn seven() -> u32 {
    7
}

twins! {
    struct Defaults<'bump> / OwnedDefaults {
        #[serde(default)]
        count: u8 => u8,
        #[serde(default = "seven")]
        seven: u32 => u32,
        #[serde(default)]
        text: &'bump str => String,
        maybe: Option<u8> => Option<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        often_missing: Option<&'bump str> => Option<String>,
    }
}

twins! {
    #[derive(Default)]
    #[serde(default)]
    struct ContainerDefault<'bump> / OwnedContainerDefault {
        name: &'bump str => String,
        count: u16 => u16,
        list: &'bump [u16] => Vec<u16>,
    }
}

twins! {
    struct Skips<'bump> / OwnedSkips {
        #[serde(skip)]
        skipped: u8 => u8,
        name: &'bump str => String,
        #[serde(skip_deserializing)]
        read_never: u16 => u16,
        #[serde(skip_serializing)]
        written_never: Option<u8> => Option<u8>,
        #[serde(skip_deserializing, default = "seven")]
        seven: u32 => u32,
    }
}

twins! {
    struct Binary<'bump> / OwnedBinary {
        data: &'bump [u8] => Bytes<u8>,
        pairs: &'bump [(u16, &'bump str)] => Pairs<u16, String>,
        text: &'bump str => String,
    }
}

twins! {
    #[serde(expecting = "a point in the plane")]
    struct Point<'bump> / OwnedPoint {
        x: i32 => i32,
        y: i32 => i32,
        label: &'bump str => String,
    }
}

twins! {
    /// No lifetime is named `'bump`: the only lifetime parameter is the arena's.
    struct OnlyLifetime<'a> / OwnedOnlyLifetime {
        name: &'a str => String,
        tags: &'a [&'a str] => Vec<String>,
        data: &'a [u8] => Bytes<u8>,
    }
}

/// Only scalars: no lifetime, the impl works with every arena.
#[derive(ArenaDeserialize, Debug, Serialize, Deserialize, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
struct Scalars {
    a: u8,
    b: i64,
    c: bool,
}

impl SameAs<Scalars> for Scalars {
    fn same_as(&self, owned: &Scalars) -> bool {
        self == owned
    }
}

fn scalars() -> impl Strategy<Value = Scalars> {
    (any::<u8>(), any::<i64>(), any::<bool>()).prop_map(|(a, b, c)| Scalars { a, b, c })
}

/// A tuple struct, a newtype struct and a unit struct.
#[derive(ArenaDeserialize, Debug)]
struct Pair<'bump>(u8, &'bump str);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedPair(u8, String);

impl SameAs<OwnedPair> for Pair<'_> {
    fn same_as(&self, o: &OwnedPair) -> bool {
        self.0 == o.0 && self.1 == o.1
    }
}

#[derive(ArenaDeserialize, Debug)]
struct Newtype<'bump>(&'bump [u32]);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedNewtype(Vec<u32>);

impl SameAs<OwnedNewtype> for Newtype<'_> {
    fn same_as(&self, o: &OwnedNewtype) -> bool {
        self.0.same_as(&o.0)
    }
}

#[derive(ArenaDeserialize, Debug, Serialize, Deserialize, Clone, PartialEq)]
struct Unit;

impl SameAs<Unit> for Unit {
    fn same_as(&self, _: &Unit) -> bool {
        true
    }
}

/// A newtype struct whose field is `skip_deserializing`: read by `visit_newtype_struct` all the
/// same, as serde_derive reads it (the skip holds when read as a sequence).
#[derive(ArenaDeserialize, Debug)]
struct SkippedNewtype<'bump>(#[serde(skip_deserializing)] &'bump str);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedSkippedNewtype(#[serde(skip_deserializing)] String);

impl SameAs<OwnedSkippedNewtype> for SkippedNewtype<'_> {
    fn same_as(&self, o: &OwnedSkippedNewtype) -> bool {
        self.0 == o.0
    }
}

/// A tuple struct with a skipped field and defaults.
#[derive(ArenaDeserialize, Debug)]
struct TupleSkip<'bump>(u8, #[serde(skip)] u8, &'bump str, #[serde(default)] u16);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedTupleSkip(u8, #[serde(skip)] u8, String, #[serde(default)] u16);

impl SameAs<OwnedTupleSkip> for TupleSkip<'_> {
    fn same_as(&self, o: &OwnedTupleSkip) -> bool {
        self.0 == o.0 && self.1 == o.1 && self.2 == o.2 && self.3 == o.3
    }
}

/// `transparent` with a skipped field.
#[derive(ArenaDeserialize, Debug)]
#[serde(transparent)]
struct Transparent<'bump> {
    inner: &'bump [&'bump str],
    #[serde(skip)]
    extra: u8,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(transparent)]
struct OwnedTransparent {
    inner: Vec<String>,
    #[serde(skip)]
    extra: u8,
}

impl SameAs<OwnedTransparent> for Transparent<'_> {
    fn same_as(&self, o: &OwnedTransparent) -> bool {
        self.inner.same_as(&o.inner) && self.extra == o.extra
    }
}

twins! {
    /// `transparent` reads the one field that is neither skipped, nor has a default, nor is a
    /// `PhantomData` (serde_derive's `allow_transparent`): `text`.
    #[serde(transparent)]
    struct TransparentAmongOthers<'bump> / OwnedTransparentAmongOthers {
        #[serde(skip)]
        before: bool => bool,
        text: &'bump str => String,
        #[serde(skip)]
        after: bool => bool,
        // `skip_serializing`: serde's `Serialize` counts the fields it writes.
        #[serde(default, skip_serializing)]
        defaulted: u8 => u8,
        marker: core::marker::PhantomData<()> => core::marker::PhantomData<()>,
    }
}

/// A container `default` on a generic struct whose `Default` is for one `T` only: the impl is
/// bounded by `Self: Default`, as serde_derive bounds it. The arena type and its twin come from
/// one definition (`twins!` takes no type parameters).
macro_rules! generic_default {
    ($name:ident: $($derive:path),+) => {
        #[derive($($derive),+)]
        #[serde(default)]
        struct $name<T> {
            a: i32,
            b: T,
        }

        impl Default for $name<u16> {
            fn default() -> Self {
                Self { a: 7, b: 9 }
            }
        }
    };
}

generic_default!(GenericDefault: ArenaDeserialize, Debug);
generic_default!(OwnedGenericDefault: Serialize, Deserialize, Debug, Clone, PartialEq);

impl SameAs<OwnedGenericDefault<u16>> for GenericDefault<u16> {
    fn same_as(&self, o: &OwnedGenericDefault<u16>) -> bool {
        self.a == o.a && self.b == o.b
    }
}

/// A type with neither a serde nor an arena impl.
#[derive(Debug, Clone, PartialEq)]
struct Opaque;

/// `[T; 0]` needs nothing of `T`, as in serde: the arena type is generic (no bound may name
/// `T`), the twin names `Opaque`.
#[derive(ArenaDeserialize, Debug)]
struct EmptyArray<'bump, T> {
    name: &'bump str,
    empty: [T; 0],
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedEmptyArray {
    name: String,
    empty: [Opaque; 0],
}

impl SameAs<OwnedEmptyArray> for EmptyArray<'_, Opaque> {
    fn same_as(&self, o: &OwnedEmptyArray) -> bool {
        self.name == o.name && self.empty.len() == o.empty.len()
    }
}

/// The same read by `visit_newtype_struct`.
#[derive(ArenaDeserialize, Debug)]
struct EmptyNewtype<T>([T; 0]);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedEmptyNewtype([Opaque; 0]);

impl SameAs<OwnedEmptyNewtype> for EmptyNewtype<Opaque> {
    fn same_as(&self, o: &OwnedEmptyNewtype) -> bool {
        self.0.len() == o.0.len()
    }
}

/// Generic type parameters, a const generic and bounds.
#[derive(ArenaDeserialize, Debug)]
struct Generic<'bump, T: Copy, const N: usize> {
    fixed: [T; N],
    rest: &'bump [T],
}

/// The twin fixes `N = 2`: serde derives `Deserialize` for arrays of a known length only.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedGeneric<T> {
    fixed: [T; 2],
    rest: Vec<T>,
}

impl<T: Copy + SameAs<T>> SameAs<OwnedGeneric<T>> for Generic<'_, T, 2> {
    fn same_as(&self, o: &OwnedGeneric<T>) -> bool {
        self.fixed.same_as(&o.fixed) && self.rest.same_as(&o.rest)
    }
}

/// `other`, and variants skipped when reading.
#[derive(ArenaDeserialize, Debug)]
enum Status {
    Active,
    #[serde(skip_deserializing)]
    #[allow(dead_code)]
    Retired,
    #[serde(alias = "Paused")]
    Idle,
    #[serde(other)]
    Unknown,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum OwnedStatus {
    Active,
    #[serde(skip_deserializing)]
    Retired,
    #[serde(alias = "Paused")]
    Idle,
    #[serde(other)]
    Unknown,
}

impl SameAs<OwnedStatus> for Status {
    fn same_as(&self, o: &OwnedStatus) -> bool {
        matches!(
            (self, o),
            (Status::Active, OwnedStatus::Active)
                | (Status::Retired, OwnedStatus::Retired)
                | (Status::Idle, OwnedStatus::Idle)
                | (Status::Unknown, OwnedStatus::Unknown)
        )
    }
}

fn status() -> impl Strategy<Value = OwnedStatus> {
    prop_oneof![
        Just(OwnedStatus::Active),
        Just(OwnedStatus::Retired),
        Just(OwnedStatus::Idle),
        Just(OwnedStatus::Unknown),
    ]
}

/// A generic enum over two type parameters, with a skipped variant.
#[derive(ArenaDeserialize, Debug)]
enum Either<'bump, L, R> {
    Left(L),
    Right(R),
    Both {
        left: L,
        right: &'bump [R],
    },
    #[serde(skip)]
    #[allow(dead_code)]
    Neither,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum OwnedEither<L, R> {
    Left(L),
    Right(R),
    Both {
        left: L,
        right: Vec<R>,
    },
    #[serde(skip)]
    #[allow(dead_code)]
    Neither,
}

impl<L: SameAs<OL>, R: SameAs<OR>, OL, OR> SameAs<OwnedEither<OL, OR>> for Either<'_, L, R> {
    fn same_as(&self, o: &OwnedEither<OL, OR>) -> bool {
        match (self, o) {
            (Either::Left(a), OwnedEither::Left(b)) => a.same_as(b),
            (Either::Right(a), OwnedEither::Right(b)) => a.same_as(b),
            (Either::Both { left, right }, OwnedEither::Both { left: l, right: r }) => {
                left.same_as(l) && right.same_as(r)
            }
            (Either::Neither, OwnedEither::Neither) => true,
            _ => false,
        }
    }
}

fn either() -> impl Strategy<Value = OwnedEither<u8, String>> {
    prop_oneof![
        any::<u8>().prop_map(OwnedEither::Left),
        any::<String>().prop_map(OwnedEither::Right),
        (any::<u8>(), any::<Vec<String>>())
            .prop_map(|(left, right)| OwnedEither::Both { left, right }),
    ]
}

/// Attributes read from `#[arena(...)]`, the twin with the same keys in `#[serde(...)]`.
#[derive(ArenaDeserialize, Debug)]
#[arena(rename_all = "camelCase", deny_unknown_fields)]
struct ArenaNamespace<'bump> {
    #[arena(alias = "n")]
    user_name: &'bump str,
    #[arena(default)]
    login_count: u32,
    #[arena(skip)]
    cache: u8,
    #[arena(borrow)]
    motto: Option<&'bump str>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OwnedArenaNamespace {
    #[serde(alias = "n")]
    user_name: String,
    #[serde(default)]
    login_count: u32,
    #[serde(skip)]
    cache: u8,
    motto: Option<String>,
}

impl SameAs<OwnedArenaNamespace> for ArenaNamespace<'_> {
    fn same_as(&self, o: &OwnedArenaNamespace) -> bool {
        self.user_name == o.user_name
            && self.login_count == o.login_count
            && self.cache == o.cache
            && self.motto.same_as(&o.motto)
    }
}

/// `deserialize_with` and `with`, generic over the arena; the twin uses the owned equivalents.
#[derive(ArenaDeserialize, Debug)]
struct WithFns<'bump> {
    #[arena(deserialize_with = "arena_upper")]
    #[serde(serialize_with = "ignored_by_the_derive")]
    shout: &'bump str,
    #[arena(with = "arena_doubled")]
    twice: u32,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedWithFns {
    #[serde(deserialize_with = "owned_upper")]
    shout: String,
    #[serde(deserialize_with = "owned_doubled")]
    twice: u32,
}

impl SameAs<OwnedWithFns> for WithFns<'_> {
    fn same_as(&self, o: &OwnedWithFns) -> bool {
        self.shout == o.shout && self.twice == o.twice
    }
}

/// `with` on fields whose types do not name the type parameter `T`: the wrapper reading them
/// is given every type argument, as serde_derive's `__DeserializeWith` is.
#[derive(ArenaDeserialize, Debug)]
struct GenericWith<T> {
    value: T,
    #[arena(with = "arena_doubled")]
    twice: u32,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedGenericWith<T> {
    value: T,
    #[serde(deserialize_with = "owned_doubled")]
    twice: u32,
}

impl SameAs<OwnedGenericWith<i8>> for GenericWith<i8> {
    fn same_as(&self, o: &OwnedGenericWith<i8>) -> bool {
        self.value == o.value && self.twice == o.twice
    }
}

/// The same in a tuple variant and a newtype variant.
#[derive(ArenaDeserialize, Debug)]
enum GenericWithVariants<T> {
    Pair(T, #[arena(with = "arena_doubled")] u32),
    Alone(#[arena(with = "arena_doubled")] u32),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum OwnedGenericWithVariants<T> {
    Pair(T, #[serde(deserialize_with = "owned_doubled")] u32),
    Alone(#[serde(deserialize_with = "owned_doubled")] u32),
}

impl SameAs<OwnedGenericWithVariants<i8>> for GenericWithVariants<i8> {
    fn same_as(&self, o: &OwnedGenericWithVariants<i8>) -> bool {
        match (self, o) {
            (Self::Pair(a, b), OwnedGenericWithVariants::Pair(oa, ob)) => a == oa && b == ob,
            (Self::Alone(a), OwnedGenericWithVariants::Alone(oa)) => a == oa,
            _ => false,
        }
    }
}

fn owned_generic_with_variants() -> impl Strategy<Value = OwnedGenericWithVariants<i8>> {
    prop_oneof![
        (any::<i8>(), any::<u32>()).prop_map(|(a, b)| OwnedGenericWithVariants::Pair(a, b)),
        any::<u32>().prop_map(OwnedGenericWithVariants::Alone),
    ]
}

#[allow(dead_code)]
fn ignored_by_the_derive<S: serde::Serializer>(_: &&str, _: S) -> Result<S::Ok, S::Error> {
    unreachable!("never serialized")
}

fn arena_upper<'de, 'bump, D, A>(deserializer: D, arena: &'bump A) -> Result<&'bump str, D::Error>
where
    D: serde::Deserializer<'de>,
    A: arena_core::BumpAllocator + ?Sized,
{
    let s: &str =
        serde::de::DeserializeSeed::deserialize(arena_core::ArenaSeed::new(arena), deserializer)?;
    arena
        .try_alloc_str(&s.to_uppercase())
        .map_err(serde::de::Error::custom)
}

fn owned_upper<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    String::deserialize(deserializer).map(|s| s.to_uppercase())
}

mod arena_doubled {
    pub fn deserialize<'de, 'bump, D, A>(deserializer: D, _arena: &'bump A) -> Result<u32, D::Error>
    where
        D: serde::Deserializer<'de>,
        A: ?Sized,
    {
        <u32 as serde::Deserialize>::deserialize(deserializer).map(|v| v.wrapping_mul(2))
    }
}

fn owned_doubled<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    u32::deserialize(deserializer).map(|v| v.wrapping_mul(2))
}

/// Serialize-only keys, which the derive accepts and ignores: container `into`, field `getter`,
/// variant `skip_serializing` and `serialize_with`. serde_derive takes `getter` only with
/// `remote`, so the twin has none of them; the derive must read every variant as serde_derive
/// reads the plain twin (a skipped-when-writing variant is still read).
#[derive(ArenaDeserialize, Debug)]
#[serde(into = "OwnedSerializeOnly")]
enum SerializeOnly<'bump> {
    #[serde(skip_serializing)]
    Hidden(u8),
    #[serde(serialize_with = "never_serialized")]
    Custom(&'bump str, u16),
    Record {
        #[serde(getter = "SerializeOnly::record_name")]
        name: &'bump str,
    },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum OwnedSerializeOnly {
    Hidden(u8),
    Custom(String, u16),
    Record { name: String },
}

#[allow(dead_code)]
impl SerializeOnly<'_> {
    fn record_name(&self) -> &str {
        unreachable!("never serialized")
    }
}

#[allow(dead_code)]
fn never_serialized<S: serde::Serializer>(_: &&str, _: &u16, _: S) -> Result<S::Ok, S::Error> {
    unreachable!("never serialized")
}

impl SameAs<OwnedSerializeOnly> for SerializeOnly<'_> {
    fn same_as(&self, o: &OwnedSerializeOnly) -> bool {
        match (self, o) {
            (SerializeOnly::Hidden(a), OwnedSerializeOnly::Hidden(b)) => a == b,
            (SerializeOnly::Custom(s, n), OwnedSerializeOnly::Custom(t, m)) => s == t && n == m,
            (SerializeOnly::Record { name }, OwnedSerializeOnly::Record { name: n }) => name == n,
            _ => false,
        }
    }
}

fn serialize_only() -> impl Strategy<Value = OwnedSerializeOnly> {
    prop_oneof![
        any::<u8>().prop_map(OwnedSerializeOnly::Hidden),
        any::<(String, u16)>().prop_map(|(s, n)| OwnedSerializeOnly::Custom(s, n)),
        any::<String>().prop_map(|name| OwnedSerializeOnly::Record { name }),
    ]
}

/// A container `default = "path"`, and `crate = "..."` through a re-export.
mod reexport {
    pub use arena_core as core_again;
}

#[derive(ArenaDeserialize, Debug)]
#[arena(crate = "reexport::core_again", default = "Config::fallback")]
struct Config<'bump> {
    host: &'bump str,
    port: u16,
}

impl Config<'_> {
    fn fallback() -> Self {
        Config {
            host: "localhost",
            port: 80,
        }
    }
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(default = "OwnedConfig::fallback")]
struct OwnedConfig {
    host: String,
    port: u16,
}

impl OwnedConfig {
    fn fallback() -> Self {
        OwnedConfig {
            host: "localhost".into(),
            port: 80,
        }
    }
}

impl SameAs<OwnedConfig> for Config<'_> {
    fn same_as(&self, o: &OwnedConfig) -> bool {
        self.host == o.host && self.port == o.port
    }
}

twins! {
    /// What a sensor sends: tenths of a degree.
    struct RawReading<'bump> / OwnedRawReading {
        sensor: &'bump str => String,
        tenths: i32 => i32,
    }
}

/// A reading in degrees, read as a [`RawReading`] and converted (`from`).
#[derive(ArenaDeserialize, Debug)]
#[serde(from = "RawReading<'bump>")]
struct Reading<'bump> {
    sensor: &'bump str,
    degrees: f64,
}

impl<'bump> From<RawReading<'bump>> for Reading<'bump> {
    fn from(raw: RawReading<'bump>) -> Self {
        Self {
            sensor: raw.sensor,
            degrees: f64::from(raw.tenths) / 10.0,
        }
    }
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(from = "OwnedRawReading", into = "OwnedRawReading")]
struct OwnedReading {
    sensor: String,
    degrees: f64,
}

impl From<OwnedRawReading> for OwnedReading {
    fn from(raw: OwnedRawReading) -> Self {
        Self {
            sensor: raw.sensor,
            degrees: f64::from(raw.tenths) / 10.0,
        }
    }
}

impl From<OwnedReading> for OwnedRawReading {
    fn from(reading: OwnedReading) -> Self {
        #[expect(clippy::cast_possible_truncation, reason = "built from tenths")]
        let tenths = (reading.degrees * 10.0).round() as i32;
        Self {
            sensor: reading.sensor,
            tenths,
        }
    }
}

impl SameAs<OwnedReading> for Reading<'_> {
    fn same_as(&self, o: &OwnedReading) -> bool {
        self.sensor == o.sensor && self.degrees.to_bits() == o.degrees.to_bits()
    }
}

/// An even number: read as an `i64`, refused when odd (`try_from`, the error's message as
/// the format's custom error). No lifetime: one type is both twins.
#[derive(ArenaDeserialize, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(try_from = "i64", into = "i64")]
struct Even(i64);

impl TryFrom<i64> for Even {
    type Error = String;

    fn try_from(n: i64) -> Result<Self, String> {
        if n % 2 == 0 {
            Ok(Self(n))
        } else {
            Err(format!("{n} is odd"))
        }
    }
}

impl From<Even> for i64 {
    fn from(even: Even) -> Self {
        even.0
    }
}

impl SameAs<Even> for Even {
    fn same_as(&self, o: &Even) -> bool {
        self == o
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(48)))]

    #[test]
    fn plain(v in any::<OwnedPlain>()) { differential!(Plain<'_>, OwnedPlain, &v) }
    #[test]
    fn nested(v in any::<OwnedNested>()) { differential!(Nested<'_>, OwnedNested, &v) }
    #[test]
    fn camel(v in any::<OwnedCamel>()) { differential!(Camel<'_>, OwnedCamel, &v) }
    #[test]
    fn screaming(v in any::<OwnedScreaming>()) { differential!(Screaming<'_>, OwnedScreaming, &v) }
    #[test]
    fn kebab(v in any::<OwnedKebab>()) { differential!(Kebab<'_>, OwnedKebab, &v) }
    #[test]
    fn screaming_kebab(v in any::<OwnedScreamingKebab>()) {
        differential!(ScreamingKebab<'_>, OwnedScreamingKebab, &v)
    }
    #[test]
    fn pascal(v in any::<OwnedPascal>()) { differential!(Pascal<'_>, OwnedPascal, &v) }
    #[test]
    fn upper(v in any::<OwnedUpper>()) { differential!(Upper<'_>, OwnedUpper, &v) }
    #[test]
    fn lower(v in any::<OwnedLower>()) { differential!(Lower<'_>, OwnedLower, &v) }
    #[test]
    fn aliased(v in any::<OwnedAliased>()) { differential!(Aliased<'_>, OwnedAliased, &v) }
    #[test]
    fn strict(v in any::<OwnedStrict>()) { differential!(Strict<'_>, OwnedStrict, &v) }
    #[test]
    fn defaults(v in any::<OwnedDefaults>()) { differential!(Defaults<'_>, OwnedDefaults, &v) }
    #[test]
    fn container_default(v in any::<OwnedContainerDefault>()) {
        differential!(ContainerDefault<'_>, OwnedContainerDefault, &v)
    }
    #[test]
    fn skips(v in any::<OwnedSkips>()) { differential!(Skips<'_>, OwnedSkips, &v) }
    #[test]
    fn binary(v in any::<OwnedBinary>()) { differential!(Binary<'_>, OwnedBinary, &v) }
    #[test]
    fn point(v in any::<OwnedPoint>()) { differential!(Point<'_>, OwnedPoint, &v) }
    #[test]
    fn only_lifetime(v in any::<OwnedOnlyLifetime>()) {
        differential!(OnlyLifetime<'_>, OwnedOnlyLifetime, &v)
    }
    #[test]
    fn scalars_any_arena(v in scalars()) { differential!(Scalars, Scalars, &v) }
    #[test]
    fn pair(a in any::<u8>(), b in any::<String>()) {
        differential!(Pair<'_>, OwnedPair, &OwnedPair(a, b))
    }
    #[test]
    fn newtype(v in any::<Vec<u32>>()) { differential!(Newtype<'_>, OwnedNewtype, &OwnedNewtype(v)) }
    #[test]
    fn skipped_newtype(v in any::<String>()) {
        differential!(SkippedNewtype<'_>, OwnedSkippedNewtype, &OwnedSkippedNewtype(v))
    }
    #[test]
    fn tuple_skip(a in any::<u8>(), s in any::<String>(), d in any::<u16>()) {
        differential!(TupleSkip<'_>, OwnedTupleSkip, &OwnedTupleSkip(a, 0, s, d))
    }
    #[test]
    fn transparent(v in any::<Vec<String>>()) {
        differential!(Transparent<'_>, OwnedTransparent, &OwnedTransparent { inner: v, extra: 0 })
    }
    #[test]
    fn transparent_among_others(v in any::<OwnedTransparentAmongOthers>()) {
        differential!(TransparentAmongOthers<'_>, OwnedTransparentAmongOthers, &v)
    }
    #[test]
    fn generic_default(a in any::<i32>(), b in any::<u16>()) {
        differential!(GenericDefault<u16>, OwnedGenericDefault<u16>, &OwnedGenericDefault { a, b })
    }
    #[test]
    fn empty_array(name in any::<String>()) {
        differential!(EmptyArray<'_, Opaque>, OwnedEmptyArray, &OwnedEmptyArray { name, empty: [] })
    }
    #[test]
    fn generic(fixed in any::<[u16; 2]>(), rest in any::<Vec<u16>>()) {
        differential!(Generic<'_, u16, 2>, OwnedGeneric<u16>, &OwnedGeneric { fixed, rest })
    }
    #[test]
    fn shapes(v in shape()) { differential!(Shape<'_>, OwnedShape, &v) }
    #[test]
    fn statuses(v in status()) { differential!(Status, OwnedStatus, &v) }
    #[test]
    fn eithers(v in either()) { differential!(Either<'_, u8, &str>, OwnedEither<u8, String>, &v) }
    #[test]
    fn arena_namespace(user_name in any::<String>(), login_count in any::<u32>(), motto in any::<Option<String>>()) {
        let v = OwnedArenaNamespace { user_name, login_count, cache: 0, motto };
        differential!(ArenaNamespace<'_>, OwnedArenaNamespace, &v)
    }
    #[test]
    fn with_fns(shout in any::<String>(), twice in any::<u32>()) {
        differential!(WithFns<'_>, OwnedWithFns, &OwnedWithFns { shout, twice })
    }
    #[test]
    fn generic_with(value in any::<i8>(), twice in any::<u32>()) {
        differential!(GenericWith<i8>, OwnedGenericWith<i8>, &OwnedGenericWith { value, twice })
    }
    #[test]
    fn generic_with_variants(v in owned_generic_with_variants()) {
        differential!(GenericWithVariants<i8>, OwnedGenericWithVariants<i8>, &v)
    }
    #[test]
    fn serialize_only_keys(v in serialize_only()) {
        differential!(SerializeOnly<'_>, OwnedSerializeOnly, &v)
    }
    #[test]
    fn config(host in any::<String>(), port in any::<u16>()) {
        differential!(Config<'_>, OwnedConfig, &OwnedConfig { host, port })
    }
}

#[test]
fn from_and_try_from_convert_as_serde_converts() {
    for tenths in [-273, 0, 215] {
        let raw = OwnedRawReading {
            sensor: "porch".to_owned(),
            tenths,
        };
        differential!(Reading<'_>, OwnedReading, &OwnedReading::from(raw));
    }
    // Odd numbers are written by hand (an `Even` cannot hold one): refused with the
    // conversion's message in every format.
    for n in [-4, 0, 7, i64::MAX] {
        for format in arena_tests::Format::ALL {
            let bytes = format.to_bytes(&n);
            differential!(@bytes format, Even, Even, &bytes, SameMessage);
        }
    }
}

#[test]
fn unit_struct() {
    differential!(Unit, Unit, &Unit);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(32)))]

    #[test]
    fn corrupted_plain(v in any::<OwnedPlain>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Plain<'_>, OwnedPlain, &v, &c)
    }
    #[test]
    fn corrupted_nested(v in any::<OwnedNested>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Nested<'_>, OwnedNested, &v, &c)
    }
    #[test]
    fn corrupted_strict(v in any::<OwnedStrict>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Strict<'_>, OwnedStrict, &v, &c)
    }
    #[test]
    fn corrupted_defaults(v in any::<OwnedDefaults>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Defaults<'_>, OwnedDefaults, &v, &c)
    }
    #[test]
    fn corrupted_skips(v in any::<OwnedSkips>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Skips<'_>, OwnedSkips, &v, &c)
    }
    #[test]
    fn corrupted_camel(v in any::<OwnedCamel>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Camel<'_>, OwnedCamel, &v, &c)
    }
    #[test]
    fn corrupted_shapes(v in shape(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Shape<'_>, OwnedShape, &v, &c)
    }
    #[test]
    fn corrupted_statuses(v in status(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Status, OwnedStatus, &v, &c)
    }
    #[test]
    fn corrupted_eithers(v in either(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Either<'_, u8, &str>, OwnedEither<u8, String>, &v, &c)
    }
    #[test]
    fn corrupted_tuple(a in any::<u8>(), s in any::<String>(), d in any::<u16>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(TupleSkip<'_>, OwnedTupleSkip, &OwnedTupleSkip(a, 0, s, d), &c)
    }
    #[test]
    fn corrupted_config(host in any::<String>(), port in any::<u16>(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Config<'_>, OwnedConfig, &OwnedConfig { host, port }, &c)
    }
}

#[test]
fn missing_duplicate_and_unknown_fields_have_serde_wording() {
    use arena_tests::Format::Json;
    let missing = same_reading!(Json, Strict<'_>, OwnedStrict, br#"{"num": 1}"#, SameMessage);
    assert_eq!(
        missing.map(|r| r.serde).as_deref(),
        Some("missing field `name` at line 1 column 10")
    );
    let duplicate = same_reading!(
        Json,
        Strict<'_>,
        OwnedStrict,
        br#"{"name": "a", "name": "b"}"#,
        SameMessage
    );
    assert_eq!(
        duplicate.map(|r| r.serde).as_deref(),
        Some("duplicate field `name` at line 1 column 20")
    );
    let unknown = same_reading!(
        Json,
        Strict<'_>,
        OwnedStrict,
        br#"{"name": "a", "extra": 1}"#,
        SameMessage
    );
    assert_eq!(
        unknown.map(|r| r.serde).as_deref(),
        Some("unknown field `extra`, expected one of `name`, `num`, `number` at line 1 column 21")
    );
    let alias_dup = same_reading!(
        Json,
        Strict<'_>,
        OwnedStrict,
        br#"{"num": 1, "number": 2}"#,
        SameMessage
    );
    assert!(
        alias_dup
            .unwrap()
            .serde
            .starts_with("duplicate field `num`")
    );
    // Unknown fields are skipped without `deny_unknown_fields`, whatever their value.
    let none = same_reading!(
        Json,
        Camel<'_>,
        OwnedCamel,
        br#"{"x": [1, {"y": null}], "firstName": "a", "lastSeenAt": 1, "ID": 2}"#,
        SameMessage
    );
    assert_eq!(none, None);
    // A missing `Option` is `None`; a missing field with `deserialize_with` is an error.
    let none = same_reading!(
        Json,
        Plain<'_>,
        OwnedPlain,
        br#"{"name": "", "count": 1, "flag": true, "ratio": 0.5, "letter": "x", "list": [], "wide": [1, 2]}"#,
        SameMessage
    );
    assert_eq!(none, None);
    let missing_with = same_reading!(
        Json,
        WithFns<'_>,
        OwnedWithFns,
        br#"{"twice": 1}"#,
        SameMessage
    );
    assert_eq!(
        missing_with.map(|r| r.serde).as_deref(),
        Some("missing field `shout` at line 1 column 12")
    );
}

#[test]
fn variants_and_expecting_have_serde_wording() {
    use arena_tests::Format::{Json, Postcard};
    let unknown = same_reading!(Json, Shape<'_>, OwnedShape, br#""triangle""#, SameMessage);
    assert_eq!(
        unknown.map(|r| r.serde).as_deref(),
        Some(
            "unknown variant `triangle`, expected one of `empty`, `circle`, `round`, `rect`, \
             `labelled`, `polygon`, `nested` at line 1 column 10"
        )
    );
    // Aliases, `other` and variants skipped when reading.
    assert_eq!(
        same_reading!(
            Json,
            Shape<'_>,
            OwnedShape,
            br#"{"round": 2.0}"#,
            SameMessage
        ),
        None
    );
    assert_eq!(
        same_reading!(Json, Status, OwnedStatus, br#""Paused""#, SameMessage),
        None
    );
    assert_eq!(
        same_reading!(Json, Status, OwnedStatus, br#""Whatever""#, SameMessage),
        None
    );
    assert!(same_reading!(Json, Status, OwnedStatus, br#""Retired""#, SameMessage).is_none());
    // Variants by index: 6 is out of range for `Shape`, 3 is `Unknown` (the `other` variant).
    let out_of_range = same_reading!(Postcard, Shape<'_>, OwnedShape, &[6], SameMessage);
    assert!(out_of_range.is_some());
    assert_eq!(
        same_reading!(Postcard, Status, OwnedStatus, &[9], SameMessage),
        None
    );
    let expecting = same_reading!(Json, Point<'_>, OwnedPoint, b"5", SameMessage);
    assert_eq!(
        expecting.map(|r| r.serde).as_deref(),
        Some("invalid type: integer `5`, expected a point in the plane at line 1 column 1")
    );
    let short = same_reading!(Json, Pair<'_>, OwnedPair, b"[1]", SameMessage);
    assert_eq!(
        short.map(|r| r.serde).as_deref(),
        Some("invalid length 1, expected tuple struct Pair with 2 elements at line 1 column 3")
    );
}

/// Missing fields of a generic struct with a container `default` come from `Self::default()`.
#[test]
fn generic_container_default_fills_missing_fields() {
    use arena_tests::Format::{Json, MsgPackNamed};
    assert_eq!(
        same_reading!(
            Json,
            GenericDefault<u16>,
            OwnedGenericDefault<u16>,
            b"{}",
            SameMessage
        ),
        None
    );
    assert_eq!(
        same_reading!(
            Json,
            GenericDefault<u16>,
            OwnedGenericDefault<u16>,
            br#"{"b": 3}"#,
            SameMessage
        ),
        None
    );
    // {"a": 5}
    let only_a = [0x81, 0xa1, b'a', 0x05];
    assert_eq!(
        same_reading!(
            MsgPackNamed,
            GenericDefault<u16>,
            OwnedGenericDefault<u16>,
            &only_a,
            SameMessage
        ),
        None
    );
    let bump = bumpalo::Bump::new();
    let read: GenericDefault<u16> = Json.decode_in(&bump, br#"{"b": 3}"#).unwrap();
    assert_eq!((read.a, read.b), (7, 3));
}

/// `[T; 0]` with a `T` that nothing can read: as a newtype struct, and missing from a map (an
/// error, as serde's `missing_field` is for everything but `Option`).
#[test]
fn empty_arrays_need_nothing_of_the_element() {
    use arena_tests::Format::Json;
    differential!(
        EmptyNewtype<Opaque>,
        OwnedEmptyNewtype,
        &OwnedEmptyNewtype([])
    );
    let missing = same_reading!(
        Json,
        EmptyArray<'_, Opaque>,
        OwnedEmptyArray,
        br#"{"name": "a"}"#,
        SameMessage
    );
    assert_eq!(
        missing.map(|r| r.serde).as_deref(),
        Some("missing field `empty` at line 1 column 13")
    );
    let not_empty = same_reading!(
        Json,
        EmptyArray<'_, Opaque>,
        OwnedEmptyArray,
        br#"{"name": "a", "empty": [1]}"#,
        SameMessage
    );
    assert!(not_empty.is_some());
}

/// Field identifiers by index and by bytes, which only hand-written MessagePack produces.
#[test]
fn field_identifiers_by_index_and_bytes() {
    use arena_tests::Format::MsgPack;
    // {0: 7, 1: "s"}: `Pair` has no map form, `Strict` reads indexes (`name`, `num`).
    let by_index = [0x82, 0x00, 0xa1, b's', 0x01, 0x07];
    assert_eq!(
        same_reading!(MsgPack, Strict<'_>, OwnedStrict, &by_index, SameMessage),
        None
    );
    // Index 2 is out of range: an error with `deny_unknown_fields` ...
    let index_out = [0x82, 0x00, 0xa1, b's', 0x02, 0x07];
    assert_eq!(
        same_reading!(MsgPack, Strict<'_>, OwnedStrict, &index_out, SameMessage)
            .map(|r| r.serde)
            .as_deref(),
        Some("invalid value: integer `2`, expected field index 0 <= i < 2")
    );
    // ... and skipped without it.
    let camel = [0x84, 0x00, 0xa1, b's', 0x01, 0x07, 0x02, 0x08, 0x07, 0x09];
    assert_eq!(
        same_reading!(MsgPack, Camel<'_>, OwnedCamel, &camel, SameMessage),
        None
    );
    // Keys as bytes: {b"name": "s", b"num": 7}, and an unknown bytes key.
    let by_bytes = [
        0x82, 0xc4, 4, b'n', b'a', b'm', b'e', 0xa1, b's', 0xc4, 3, b'n', b'u', b'm', 0x07,
    ];
    assert_eq!(
        same_reading!(MsgPack, Strict<'_>, OwnedStrict, &by_bytes, SameMessage),
        None
    );
    let unknown_bytes = [0x81, 0xc4, 2, b'z', 0xff, 0x07];
    assert!(
        same_reading!(
            MsgPack,
            Strict<'_>,
            OwnedStrict,
            &unknown_bytes,
            SameMessage
        )
        .unwrap()
        .serde
        .starts_with("unknown field `z\u{fffd}`")
    );
}
