//! The `json_differential` property: `arena_core::json::Reader` (the reader behind
//! `arena_core::json::from_slice`) reads any bytes as serde_json's `from_slice` does.
//!
//! The input's first byte says how many of the next bytes are the probe's script (see
//! `arena_tests::probe`), the rest is the JSON. Both readers are probed with the same
//! script, two values in a row: the traces (every visitor call and value) must be equal, and
//! both must fail or neither (the reader's error says nothing: the entry points take
//! serde_json's). Then `arena_core::Value` and the fuzz document type are read through the
//! entry point and through an `ArenaSeed` on serde_json's reader: the same value or the same
//! error, message and position included.

use arena_core::{ArenaSeed, Value};
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

        let bump = bumpalo::Bump::new();
        let read_theirs = |bump| {
            let mut de = serde_json::Deserializer::from_slice(bytes);
            ArenaSeed::<Value<'_>, _>::new(bump)
                .deserialize(&mut de)
                .and_then(|v| de.end().map(|()| v))
                .map_err(|e| e.to_string())
        };
        let ours: Result<Value<'_>, String> =
            arena_core::json::from_slice(&bump, bytes).map_err(|e| e.to_string());
        assert_eq!(
            format!("{ours:?}"),
            format!("{:?}", read_theirs(&bump)),
            "Value reads {bytes:02x?} differently"
        );
        let ours: Result<Doc<'_>, String> =
            arena_core::json::from_slice(&bump, bytes).map_err(|e| e.to_string());
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let theirs: Result<Doc<'_>, String> = ArenaSeed::new(&bump)
            .deserialize(&mut de)
            .and_then(|v| de.end().map(|()| v))
            .map_err(|e| e.to_string());
        assert_eq!(
            format!("{ours:?}"),
            format!("{theirs:?}"),
            "Doc reads {bytes:02x?} differently"
        );
    });
}
