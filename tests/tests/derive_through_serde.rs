//! Types read by their serde `Deserialize` (`#[arena(serde)]`, `serde(deserialize_with)`,
//! `serde(with)`, `through_serde!`, the std and feature impls) and the path types, each against
//! serde_derive on the owned twin, in every format and on every arena.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use arena_core::{ArenaDeserialize, SlabArena, Value};
use arena_tests::derive_support::{Errors, SameAs};
use arena_tests::{Format, differential};
use camino::{Utf8Path, Utf8PathBuf};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An id with a hand-written `Deserialize`, as octocrab's ids have: a number, or a numeric
/// string.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
struct UserId(u64);

impl<'de> Deserialize<'de> for UserId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = UserId;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a user id")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<UserId, E> {
                Ok(UserId(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<UserId, E> {
                v.parse().map(UserId).map_err(E::custom)
            }
        }
        deserializer.deserialize_u64(V)
    }
}

arena_core::through_serde!(UserId);

/// An enum deriving serde's `Deserialize` only: read with `#[arena(serde)]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Visibility {
    Public,
    Private,
}

/// A `deserialize_with` function with serde's signature.
fn seconds<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
    u64::deserialize(deserializer).map(Duration::from_secs)
}

fn write_seconds<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    duration.as_secs().serialize(serializer)
}

/// A `with` module with serde's signatures.
mod millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
        u64::deserialize(deserializer).map(Duration::from_millis)
    }

    #[allow(clippy::cast_possible_truncation)]
    pub fn serialize<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
        (duration.as_millis() as u64).serialize(serializer)
    }
}

#[derive(ArenaDeserialize, Debug)]
struct Event<'bump> {
    id: uuid::Uuid,
    user: UserId,
    #[arena(serde)]
    visibility: Visibility,
    #[arena(serde)]
    reviewed: Option<Visibility>,
    at: chrono::DateTime<chrono::Utc>,
    seen: time::OffsetDateTime,
    from: IpAddr,
    peer: SocketAddr,
    logged: SystemTime,
    #[arena(serde(deserialize_with = "seconds"))]
    timeout: Duration,
    #[arena(serde(with = "millis"))]
    delay: Duration,
    path: &'bump Path,
    os: &'bump OsStr,
    utf8: &'bump Utf8Path,
    title: &'bump str,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedEvent {
    id: uuid::Uuid,
    user: UserId,
    visibility: Visibility,
    reviewed: Option<Visibility>,
    at: chrono::DateTime<chrono::Utc>,
    seen: time::OffsetDateTime,
    from: IpAddr,
    peer: SocketAddr,
    logged: SystemTime,
    #[serde(deserialize_with = "seconds", serialize_with = "write_seconds")]
    timeout: Duration,
    #[serde(with = "millis")]
    delay: Duration,
    path: PathBuf,
    os: OsString,
    utf8: Utf8PathBuf,
    title: String,
}

impl SameAs<OwnedEvent> for Event<'_> {
    fn same_as(&self, o: &OwnedEvent) -> bool {
        self.id == o.id
            && self.user == o.user
            && self.visibility == o.visibility
            && self.reviewed == o.reviewed
            && self.at == o.at
            && self.seen == o.seen
            && self.from == o.from
            && self.peer == o.peer
            && self.logged == o.logged
            && self.timeout == o.timeout
            && self.delay == o.delay
            && self.path.same_as(&o.path)
            && self.os.same_as(&o.os)
            && self.utf8.same_as(&o.utf8)
            && self.title.same_as(&o.title)
    }
}

fn event(n: u64) -> OwnedEvent {
    OwnedEvent {
        id: uuid::Uuid::from_u128(0x9f0e_3c1a_77d2_4b51_8a6e_1f2d_3c4b_5a69 + u128::from(n)),
        user: UserId(n * 1000 + 7),
        visibility: if n.is_multiple_of(2) {
            Visibility::Public
        } else {
            Visibility::Private
        },
        reviewed: (!n.is_multiple_of(3)).then_some(Visibility::Private),
        at: chrono::DateTime::from_timestamp(1_700_000_000 + n.cast_signed(), 123_456_789)
            .expect("a valid timestamp"),
        seen: time::OffsetDateTime::from_unix_timestamp(1_600_000_000 + n.cast_signed() * 86_400)
            .expect("a valid timestamp"),
        from: if n.is_multiple_of(2) {
            IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1))
        } else {
            IpAddr::V6(Ipv6Addr::LOCALHOST)
        },
        peer: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 8080),
        logged: SystemTime::UNIX_EPOCH + Duration::new(1_234_567 + n, 89),
        timeout: Duration::from_secs(30 * n),
        delay: Duration::from_millis(250 + n),
        path: PathBuf::from(format!("/srv/data/{n}/cities.json")),
        os: OsString::from(format!("café-{n}")),
        utf8: Utf8PathBuf::from(format!("crates/{n}/Cargo.toml")),
        title: format!("event {n}"),
    }
}

#[test]
fn serde_read_fields_match_serde_derive_in_every_format() {
    for n in 0..4 {
        differential!(Event<'_>, OwnedEvent, &event(n));
    }
}

/// A field read with `#[arena(serde)]` that is missing is `None` for an `Option`, and serde's
/// `missing field` error otherwise, as serde_derive decides.
#[test]
fn missing_serde_fields_match_serde_derive() {
    let full = serde_json::to_value(event(1)).expect("serializes");
    for key in ["reviewed", "visibility", "timeout", "delay", "os"] {
        let mut doc = full.clone();
        doc.as_object_mut().expect("an object").remove(key);
        let bytes = serde_json::to_vec(&doc).expect("serializes");
        differential!(@bytes Format::Json, Event<'_>, OwnedEvent, &bytes, Errors::SameMessage);
    }
}

/// Wrong input for a serde-read field gives serde's error, word for word.
#[test]
fn serde_read_fields_give_serde_errors() {
    let full = serde_json::to_value(event(2)).expect("serializes");
    for (key, bad) in [
        ("user", serde_json::json!("forty-two")),
        ("visibility", serde_json::json!("secret")),
        ("id", serde_json::json!("not-a-uuid")),
        ("at", serde_json::json!(17)),
        ("from", serde_json::json!("999.0.0.1")),
        ("timeout", serde_json::json!(-1)),
        ("path", serde_json::json!(3)),
        ("os", serde_json::json!({"Windows": [1, 2]})),
        ("utf8", serde_json::json!([1])),
    ] {
        let mut doc = full.clone();
        doc[key] = bad;
        let bytes = serde_json::to_vec(&doc).expect("serializes");
        differential!(@bytes Format::Json, Event<'_>, OwnedEvent, &bytes, Errors::SameMessage);
    }
}

/// `rust_decimal::Decimal` reads through `deserialize_any`: JSON and the self-describing
/// formats read it, postcard and bincode fail as serde fails, with the same message.
#[derive(ArenaDeserialize, Debug)]
struct Price<'bump> {
    amount: rust_decimal::Decimal,
    currency: &'bump str,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedPrice {
    amount: rust_decimal::Decimal,
    currency: String,
}

impl SameAs<OwnedPrice> for Price<'_> {
    fn same_as(&self, o: &OwnedPrice) -> bool {
        self.amount == o.amount && self.currency.same_as(&o.currency)
    }
}

#[test]
fn decimals_match_serde_derive() {
    for amount in ["0", "19.99", "-0.000001", "79228162514264337593543950335"] {
        let price = OwnedPrice {
            amount: amount.parse().expect("a decimal"),
            currency: "EUR".to_owned(),
        };
        differential!(Price<'_>, OwnedPrice, &price);
    }
}

/// A `Value` field with `#[serde(default)]` is `Value::Unit` (null) when missing, as a
/// `serde_json::Value` field is `Null`.
#[test]
fn a_defaulted_value_field_is_null() {
    #[derive(ArenaDeserialize)]
    struct Package<'bump> {
        name: &'bump str,
        #[serde(default)]
        metadata: Value<'bump>,
    }
    #[derive(Deserialize)]
    struct OwnedPackage {
        #[serde(default)]
        metadata: serde_json::Value,
    }
    let arena = SlabArena::new();
    for json in [
        r#"{"name": "a"}"#,
        r#"{"name": "a", "metadata": {"k": [1]}}"#,
    ] {
        let ours: Package = arena_core::json::from_str(&arena, json).expect("reads");
        let theirs: OwnedPackage = serde_json::from_str(json).expect("reads");
        assert_eq!(ours.name, "a");
        assert_eq!(ours.metadata.is_null(), theirs.metadata.is_null(), "{json}");
        assert_eq!(
            ours.metadata.to_string(),
            theirs.metadata.to_string(),
            "{json}"
        );
    }
}

/// `Value` is `Eq` and `Hash` as documented: equal values hash alike (`0.0` and `-0.0`
/// included), and a NaN is the one value not equal to itself.
#[test]
fn values_are_eq_and_hash() {
    let arena = SlabArena::new();
    let read =
        |json: &str| -> Value<'_> { arena_core::json::from_str(&arena, json).expect("reads") };
    let docs = [
        r#"{"a": [1, 2.5, null], "b": "x"}"#,
        r#"{"b": "x", "a": [1, 2.5, null]}"#,
        "[0.0]",
        "[-0.0]",
        "[1]",
        "[1.0]",
        "null",
    ];
    let mut set = HashSet::new();
    for json in docs {
        set.insert(read(json));
    }
    // `0.0 == -0.0`: one entry for both; maps keep their order, so the two maps differ;
    // `1` (an integer) is not `1.0`.
    assert_eq!(set.len(), docs.len() - 1);
    for json in docs {
        assert!(set.contains(&read(json)), "{json}");
    }
    assert_eq!(Value::default(), Value::Unit);
    let nan = Value::F64(f64::NAN);
    assert_ne!(nan, nan);
}

/// `#[arena(serde)]` in the other shapes: a generic field (its assertion runs when the impl is
/// instantiated), a tuple struct, and an adjacently tagged newtype variant whose content is
/// missing (`None` for an `Option`, as serde).
#[derive(ArenaDeserialize, Debug)]
struct Tagged<'bump, T> {
    name: &'bump str,
    #[arena(serde)]
    tag: T,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedTagged<T> {
    name: String,
    tag: T,
}

impl<T: PartialEq> SameAs<OwnedTagged<T>> for Tagged<'_, T> {
    fn same_as(&self, o: &OwnedTagged<T>) -> bool {
        self.name.same_as(&o.name) && self.tag == o.tag
    }
}

#[derive(ArenaDeserialize, Debug)]
struct Pair(#[arena(serde)] Visibility, UserId);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedPair(Visibility, UserId);

impl SameAs<OwnedPair> for Pair {
    fn same_as(&self, o: &OwnedPair) -> bool {
        self.0 == o.0 && self.1 == o.1
    }
}

#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "t", content = "c")]
enum Change {
    Set(#[arena(serde)] Option<Visibility>),
    Clear,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "t", content = "c")]
enum OwnedChange {
    Set(Option<Visibility>),
    Clear,
}

impl SameAs<OwnedChange> for Change {
    fn same_as(&self, o: &OwnedChange) -> bool {
        match (self, o) {
            (Change::Set(a), OwnedChange::Set(b)) => a == b,
            (Change::Clear, OwnedChange::Clear) => true,
            _ => false,
        }
    }
}

#[test]
fn serde_read_fields_in_other_shapes_match_serde_derive() {
    differential!(
        Tagged<'_, Visibility>,
        OwnedTagged<Visibility>,
        &OwnedTagged {
            name: "a".to_owned(),
            tag: Visibility::Private
        }
    );
    differential!(
        Tagged<'_, (u8, char)>,
        OwnedTagged<(u8, char)>,
        &OwnedTagged {
            name: "b".to_owned(),
            tag: (7, 'x')
        }
    );
    differential!(Pair, OwnedPair, &OwnedPair(Visibility::Public, UserId(9)));
    for change in [
        OwnedChange::Set(Some(Visibility::Public)),
        OwnedChange::Set(None),
        OwnedChange::Clear,
    ] {
        differential!(Change, OwnedChange, &change, Errors::AnyMessage);
    }
    for json in [r#"{"t": "Set"}"#, r#"{"c": "public", "t": "Set"}"#] {
        differential!(@bytes Format::Json, Change, OwnedChange, json.as_bytes(), Errors::AnyMessage);
    }
}
