//! The `msgpack_differential` property: `arena_core::msgpack::Deserializer` (the reader behind
//! `arena_core::msgpack::from_slice`) reads any bytes as rmp-serde's `from_read_ref` does.
//!
//! The input's first byte says how many of the next bytes are the probe's script (see
//! `arena_tests::probe`), the rest is the MessagePack. Both readers are probed with the
//! same script, two values in a row: the traces (every visitor call, size hint and value) and
//! the errors (`Debug`) must be equal. Then `arena_core::Value` and the fuzz document type are
//! read through the entry point and through an `ArenaSeed` on rmp-serde's reader: the same
//! value or the same error.

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
        let ours = probe_reader(
            choices,
            arena_core::msgpack::Deserializer::from_slice(bytes),
        );
        let theirs = probe_reader(choices, rmp_serde::Deserializer::from_read_ref(bytes));
        assert_eq!(ours, theirs, "the probe reads {bytes:02x?} differently");

        let bump = bumpalo::Bump::new();
        let ours: Result<Value<'_>, String> =
            arena_core::msgpack::from_slice(&bump, bytes).map_err(|e| format!("{e:?}"));
        let theirs: Result<Value<'_>, String> = ArenaSeed::new(&bump)
            .deserialize(&mut rmp_serde::Deserializer::from_read_ref(bytes))
            .map_err(|e| format!("{e:?}"));
        assert_eq!(
            format!("{ours:?}"),
            format!("{theirs:?}"),
            "Value reads {bytes:02x?} differently"
        );
        let ours: Result<Doc<'_>, String> =
            arena_core::msgpack::from_slice(&bump, bytes).map_err(|e| format!("{e:?}"));
        let theirs: Result<Doc<'_>, String> = ArenaSeed::new(&bump)
            .deserialize(&mut rmp_serde::Deserializer::from_read_ref(bytes))
            .map_err(|e| format!("{e:?}"));
        assert_eq!(
            format!("{ours:?}"),
            format!("{theirs:?}"),
            "Doc reads {bytes:02x?} differently"
        );
    });
}
