//! The `json_differential` property: `arena_core::json::Reader` (the reader behind
//! `arena_core::json::from_slice`) reads any bytes as serde_json's `from_slice` does.
//!
//! The input's first byte says how many of the next bytes are the probe's script (see
//! `arena_tests::probe`), the rest is the JSON. Both readers are probed with the same
//! script, two values in a row: the traces (every visitor call and value) must be equal, and
//! both must fail or neither (the reader's error says nothing: the entry points take
//! serde_json's). Then `arena_core::Value` and the fuzz document type are read, into a bumpalo
//! `Bump` and into a `SlabArena`, through the entry point and through an `ArenaSeed` on
//! serde_json's reader: the same value or the same error, message and position included.

use core::fmt::Debug;

use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator, Value};
use arena_tests::probe::{probe_reader, with_large_stack};
use serde::de::DeserializeSeed;

use crate::Doc;

/// Checks the property on `data`; panics (a finding) when it does not hold.
pub fn check(data: &[u8]) {
    let Some((&script_len, rest)) = data.split_first() else {
        return;
    };
    let (choices, bytes) = rest.split_at(usize::from(script_len % 32).min(rest.len()));
    with_large_stack(|| {
        let (ours, our_error) = probe_reader(choices, arena_core::json::Reader::from_slice(bytes));
        let (theirs, their_error) =
            probe_reader(choices, serde_json::Deserializer::from_slice(bytes));
        assert_eq!(
            (&ours, our_error.is_some()),
            (&theirs, their_error.is_some()),
            "the probe reads {:?} differently ({their_error:?})",
            String::from_utf8_lossy(bytes)
        );

        entry_points_alike(&bumpalo::Bump::new(), bytes);
        // The crate's own arena too: its short strings are copied a window at a time.
        entry_points_alike(&arena_core::SlabArena::new(), bytes);
    });
}

/// `Value` and the fuzz document type read from `bytes` into `arena` through the entry point
/// and through an `ArenaSeed` on serde_json's reader: the same value or the same error.
fn entry_points_alike<A: BumpAllocator>(arena: &A, bytes: &[u8]) {
    read_alike::<Value<'_>, A>(arena, bytes, "Value");
    read_alike::<Doc<'_>, A>(arena, bytes, "Doc");
}

/// A `T` read from `bytes` into `arena` through the entry point and through an `ArenaSeed` on
/// serde_json's reader: the same value or the same error.
fn read_alike<'a, T, A>(arena: &'a A, bytes: &[u8], what: &str)
where
    T: ArenaDeserialize<'a, A> + Debug,
    A: BumpAllocator,
{
    let ours: Result<T, String> =
        arena_core::json::from_slice(arena, bytes).map_err(|e| e.to_string());
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let theirs: Result<T, String> = ArenaSeed::new(arena)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| e.to_string());
    assert_eq!(
        format!("{ours:?}"),
        format!("{theirs:?}"),
        "{what} reads {bytes:02x?} differently"
    );
}
