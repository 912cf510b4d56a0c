//! The buffered representations together, as real models combine them: a tagged enum with an
//! untagged tail, `flatten` inside tagged struct variants, flattened tagged and untagged enums,
//! tagged enums inside untagged ones. Each reads exactly what serde_derive reads for the owned
//! twin, in every format and on every arena, and the same on corrupted bytes; where serde_derive
//! fails the derive fails too, whatever its message (`Errors::AnyMessage`: serde's buffer loses
//! the input's position, the derive's error may carry it).

use arena_core::ArenaDeserialize;
use arena_tests::corruption::corruption;
use arena_tests::derive_support::Errors::AnyMessage;
use arena_tests::derive_support::SameAs;
use arena_tests::{corrupted, differential, twins};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

twins! {
    /// Fields every message shares, flattened into it.
    struct Header<'bump> / OwnedHeader {
        id: u64 => u64,
        source: &'bump str => String,
    }
}

/// An internally tagged enum whose last variant is untagged: a struct variant with a flattened
/// header, a unit variant, and a raw string for anything else.
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Message<'bump> {
    Ping,
    Data {
        #[serde(flatten)]
        header: Header<'bump>,
        value: u32,
    },
    #[serde(untagged)]
    Raw(&'bump str),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
enum OwnedMessage {
    Ping,
    Data {
        #[serde(flatten)]
        header: OwnedHeader,
        value: u32,
    },
    #[serde(untagged)]
    Raw(String),
}

impl SameAs<OwnedMessage> for Message<'_> {
    fn same_as(&self, o: &OwnedMessage) -> bool {
        match (self, o) {
            (Self::Ping, OwnedMessage::Ping) => true,
            (
                Self::Data { header, value },
                OwnedMessage::Data {
                    header: h,
                    value: v,
                },
            ) => header.same_as(h) && value == v,
            (Self::Raw(a), OwnedMessage::Raw(b)) => a.same_as(b),
            _ => false,
        }
    }
}

fn message() -> impl Strategy<Value = OwnedMessage> {
    prop_oneof![
        Just(OwnedMessage::Ping),
        (any::<OwnedHeader>(), any::<u32>())
            .prop_map(|(header, value)| OwnedMessage::Data { header, value }),
        any::<String>().prop_map(OwnedMessage::Raw),
    ]
}

/// An adjacently tagged payload.
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "kind", content = "data")]
enum Payload<'bump> {
    Text(&'bump str),
    Pair(u8, i64),
    Empty,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind", content = "data")]
enum OwnedPayload {
    Text(String),
    Pair(u8, i64),
    Empty,
}

impl SameAs<OwnedPayload> for Payload<'_> {
    fn same_as(&self, o: &OwnedPayload) -> bool {
        match (self, o) {
            (Self::Text(a), OwnedPayload::Text(b)) => a.same_as(b),
            (Self::Pair(a, b), OwnedPayload::Pair(c, d)) => a == c && b == d,
            (Self::Empty, OwnedPayload::Empty) => true,
            _ => false,
        }
    }
}

fn payload() -> impl Strategy<Value = OwnedPayload> {
    prop_oneof![
        any::<String>().prop_map(OwnedPayload::Text),
        (any::<u8>(), any::<i64>()).prop_map(|(a, b)| OwnedPayload::Pair(a, b)),
        Just(OwnedPayload::Empty),
    ]
}

/// "A number or a text", or a tagged payload.
#[derive(ArenaDeserialize, Debug)]
#[serde(untagged)]
enum Target<'bump> {
    Num(u64),
    Text(&'bump str),
    Tagged(Payload<'bump>),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum OwnedTarget {
    Num(u64),
    Text(String),
    Tagged(OwnedPayload),
}

impl SameAs<OwnedTarget> for Target<'_> {
    fn same_as(&self, o: &OwnedTarget) -> bool {
        match (self, o) {
            (Self::Num(a), OwnedTarget::Num(b)) => a == b,
            (Self::Text(a), OwnedTarget::Text(b)) => a.same_as(b),
            (Self::Tagged(a), OwnedTarget::Tagged(b)) => a.same_as(b),
            _ => false,
        }
    }
}

fn target() -> impl Strategy<Value = OwnedTarget> {
    prop_oneof![
        any::<u64>().prop_map(OwnedTarget::Num),
        any::<String>().prop_map(OwnedTarget::Text),
        payload().prop_map(OwnedTarget::Tagged),
    ]
}

/// An event: a flattened header, a flattened internally tagged kind, an untagged target and an
/// adjacently tagged payload.
#[derive(ArenaDeserialize, Debug)]
struct Event<'bump> {
    #[serde(flatten)]
    header: Header<'bump>,
    #[serde(flatten)]
    kind: Kind<'bump>,
    target: Target<'bump>,
    payload: Payload<'bump>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OwnedEvent {
    #[serde(flatten)]
    header: OwnedHeader,
    #[serde(flatten)]
    kind: OwnedKind,
    target: OwnedTarget,
    payload: OwnedPayload,
}

/// The flattened, internally tagged part of [`Event`].
#[derive(ArenaDeserialize, Debug)]
#[serde(tag = "event")]
enum Kind<'bump> {
    Click { x: i32, y: i32 },
    Key { key: &'bump str },
    Idle,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "event")]
enum OwnedKind {
    Click { x: i32, y: i32 },
    Key { key: String },
    Idle,
}

impl SameAs<OwnedKind> for Kind<'_> {
    fn same_as(&self, o: &OwnedKind) -> bool {
        match (self, o) {
            (Self::Click { x, y }, OwnedKind::Click { x: a, y: b }) => (x, y) == (a, b),
            (Self::Key { key }, OwnedKind::Key { key: k }) => key.same_as(k),
            (Self::Idle, OwnedKind::Idle) => true,
            _ => false,
        }
    }
}

fn kind() -> impl Strategy<Value = OwnedKind> {
    prop_oneof![
        (any::<i32>(), any::<i32>()).prop_map(|(x, y)| OwnedKind::Click { x, y }),
        any::<String>().prop_map(|key| OwnedKind::Key { key }),
        Just(OwnedKind::Idle),
    ]
}

impl SameAs<OwnedEvent> for Event<'_> {
    fn same_as(&self, o: &OwnedEvent) -> bool {
        self.header.same_as(&o.header)
            && self.kind.same_as(&o.kind)
            && self.target.same_as(&o.target)
            && self.payload.same_as(&o.payload)
    }
}

fn event() -> impl Strategy<Value = OwnedEvent> {
    (any::<OwnedHeader>(), kind(), target(), payload()).prop_map(
        |(header, kind, target, payload)| OwnedEvent {
            header,
            kind,
            target,
            payload,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(64)))]

    #[test]
    fn tagged_enum_with_an_untagged_tail_and_a_flattened_header(v in message()) {
        differential!(Message<'_>, OwnedMessage, &v, AnyMessage)
    }
    #[test]
    fn untagged_enum_of_an_adjacently_tagged_one(v in target()) {
        differential!(Target<'_>, OwnedTarget, &v, AnyMessage)
    }
    #[test]
    fn event_with_every_representation(v in event()) {
        differential!(Event<'_>, OwnedEvent, &v, AnyMessage)
    }
    #[test]
    fn corrupted_messages(v in message(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Message<'_>, OwnedMessage, &v, &c)
    }
    #[test]
    fn corrupted_events(v in event(), c in prop::collection::vec(corruption(), 1..4)) {
        corrupted!(Event<'_>, OwnedEvent, &v, &c)
    }
}
