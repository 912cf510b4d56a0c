//! The buffered representations under fuzzing: an event whose model uses `flatten`, an
//! untagged enum, an internally tagged enum and an adjacently tagged one, read from any bytes
//! by serde_derive (into the owned twin) and by the derive (on every arena).
//!
//! The property is the main target's ([`crate::check`]): no panic, abort or stack overflow;
//! the arena reads what serde reads, or refuses it (its limits, and its deliberate differences,
//! aside: below); a failed read leaves a bump-scope or slab arena's used bytes as they were.
//!
//! Where the derive deliberately reads more than serde_derive (each a named test in `tests/`),
//! an input serde refuses may read: a 128-bit integer inside buffered data, or a key given as a
//! 16- or 32-bit integer naming a field in buffered data. Those inputs are recognised by serde's
//! message (and, for keys, by the variant read) and allowed to read.

use arena_core::ArenaDeserialize;
use serde::Deserialize;

use crate::{Format, decode_in, decode_rewinding};

/// The owned twin, read by serde_derive.
#[derive(Debug, Deserialize)]
pub struct OwnedEvent {
    #[serde(flatten)]
    pub header: OwnedHeader,
    pub target: OwnedTarget,
    #[serde(default)]
    pub extra: Option<OwnedTarget>,
    pub action: OwnedAction,
    pub payload: OwnedPayload,
}

/// What happened: internally tagged, with an untagged tail.
#[derive(Debug, Deserialize)]
#[serde(tag = "type")]
pub enum OwnedAction {
    Click {
        x: i32,
        y: i32,
    },
    Key(OwnedKey),
    Quit,
    #[serde(untagged)]
    Other(String),
}

/// A newtype variant's content in [`OwnedAction`].
#[derive(Debug, Deserialize)]
pub struct OwnedKey {
    pub code: u16,
    #[serde(default)]
    pub text: Option<String>,
}

/// What came with it: adjacently tagged.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", content = "c")]
pub enum OwnedPayload {
    Text(String),
    Pair(u8, i64),
    Fields { a: u8, b: String },
    Empty,
}

/// Fields every event shares, flattened into it.
#[derive(Debug, Deserialize)]
pub struct OwnedHeader {
    pub id: u64,
    #[serde(default)]
    pub user: Option<String>,
    pub at: i64,
}

/// "A number, a text, a pair or a record".
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum OwnedTarget {
    Num(u64),
    Text(String),
    Pair(u8, String),
    Rec { x: i32, y: i32 },
}

/// The arena type, read by `#[derive(ArenaDeserialize)]`.
#[derive(Debug, ArenaDeserialize)]
pub struct Event<'bump> {
    #[arena(flatten)]
    pub header: Header<'bump>,
    pub target: Target<'bump>,
    #[arena(default)]
    pub extra: Option<Target<'bump>>,
    pub action: Action<'bump>,
    pub payload: Payload<'bump>,
}

#[derive(Debug, ArenaDeserialize)]
#[arena(tag = "type")]
pub enum Action<'bump> {
    Click {
        x: i32,
        y: i32,
    },
    Key(Key<'bump>),
    Quit,
    #[arena(untagged)]
    Other(&'bump str),
}

#[derive(Debug, ArenaDeserialize)]
pub struct Key<'bump> {
    pub code: u16,
    #[arena(default)]
    pub text: Option<&'bump str>,
}

#[derive(Debug, ArenaDeserialize)]
#[arena(tag = "t", content = "c")]
pub enum Payload<'bump> {
    Text(&'bump str),
    Pair(u8, i64),
    Fields { a: u8, b: &'bump str },
    Empty,
}

fn same_action(a: &Action<'_>, o: &OwnedAction) -> bool {
    match (a, o) {
        (Action::Click { x, y }, OwnedAction::Click { x: u, y: v }) => (x, y) == (u, v),
        (Action::Key(k), OwnedAction::Key(o)) => k.code == o.code && k.text == o.text.as_deref(),
        (Action::Quit, OwnedAction::Quit) => true,
        (Action::Other(a), OwnedAction::Other(o)) => a == o,
        _ => false,
    }
}

fn same_payload(a: &Payload<'_>, o: &OwnedPayload) -> bool {
    match (a, o) {
        (Payload::Text(a), OwnedPayload::Text(o)) => a == o,
        (Payload::Pair(a, b), OwnedPayload::Pair(c, d)) => a == c && b == d,
        (Payload::Fields { a, b }, OwnedPayload::Fields { a: c, b: d }) => a == c && b == d,
        (Payload::Empty, OwnedPayload::Empty) => true,
        _ => false,
    }
}

#[derive(Debug, ArenaDeserialize)]
pub struct Header<'bump> {
    pub id: u64,
    #[arena(default)]
    pub user: Option<&'bump str>,
    pub at: i64,
}

#[derive(Debug, ArenaDeserialize)]
#[arena(untagged)]
pub enum Target<'bump> {
    Num(u64),
    Text(&'bump str),
    Pair(u8, &'bump str),
    Rec { x: i32, y: i32 },
}

fn same_target(a: &Target<'_>, o: &OwnedTarget) -> bool {
    match (a, o) {
        (Target::Num(a), OwnedTarget::Num(o)) => a == o,
        (Target::Text(a), OwnedTarget::Text(o)) => a == o,
        (Target::Pair(a, b), OwnedTarget::Pair(c, d)) => a == c && b == d,
        (Target::Rec { x, y }, OwnedTarget::Rec { x: u, y: v }) => (x, y) == (u, v),
        _ => false,
    }
}

/// Field-by-field equality of the arena value with serde's.
fn same(event: &Event<'_>, owned: &OwnedEvent) -> bool {
    let extra = match (&event.extra, &owned.extra) {
        (Some(a), Some(o)) => same_target(a, o),
        (None, None) => true,
        _ => false,
    };
    event.header.id == owned.header.id
        && event.header.user == owned.header.user.as_deref()
        && event.header.at == owned.header.at
        && same_target(&event.target, &owned.target)
        && extra
        && same_action(&event.action, &owned.action)
        && same_payload(&event.payload, &owned.payload)
}

/// Whether serde's refusal `error`, where the arena read `event`, is one of the derive's
/// deliberate differences (see the module docs): a 128-bit integer serde's buffer cannot hold,
/// or a value read by its keys from a buffer (a record target, a tagged enum's fields) that
/// serde's buffer refused, which it does for keys given as 16- or 32-bit integers.
fn beyond_serde(error: &str, event: &Event<'_>) -> bool {
    let record = |target: &Target<'_>| matches!(target, Target::Rec { .. });
    let keyed_action = matches!(event.action, Action::Click { .. } | Action::Key(_));
    let keyed_payload = matches!(event.payload, Payload::Fields { .. });
    error.contains("` as i128")
        || error.contains("` as u128")
        || error.contains("i128 is not supported")
        || error.contains("u128 is not supported")
        || (error.contains("data did not match any variant of untagged enum OwnedTarget")
            && (record(&event.target) || event.extra.as_ref().is_some_and(record)))
        || (error.contains("expected field identifier") && (keyed_action || keyed_payload))
        || (error.contains("data did not match any variant of untagged enum OwnedAction")
            && keyed_action)
}

/// The property for [`Event`]; panics (a finding) when it does not hold.
pub fn check(format: Format, data: &[u8]) {
    let owned = format.decode_owned::<OwnedEvent>(data);
    let bump = bumpalo::Bump::new();
    compare(format, &decode_in::<Event, _>(format, &bump, data), &owned);
    let scope: bump_scope::Bump = bump_scope::Bump::new();
    compare(
        format,
        &decode_rewinding::<Event, _>(format, &scope, data),
        &owned,
    );
    let slab = arena_core::SlabArena::new();
    compare(
        format,
        &decode_rewinding::<Event, _>(format, &slab, data),
        &owned,
    );
    slab.check_invariants();
}

fn compare(format: Format, arena: &Result<Event<'_>, String>, owned: &Result<OwnedEvent, String>) {
    match (arena, owned) {
        (Ok(event), Ok(owned)) => {
            assert!(same(event, owned), "{format:?}: {event:?} != {owned:?}");
        }
        (Ok(event), Err(e)) => assert!(
            beyond_serde(e, event),
            "{format:?}: serde refused ({e}) but the arena read {event:?}"
        ),
        (Err(e), Ok(owned)) => assert!(
            e.contains("limit"),
            "{format:?}: serde read {owned:?}, the arena refused: {e}"
        ),
        (Err(_), Err(_)) => {}
    }
}
