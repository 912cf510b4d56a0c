#![no_main]
//! Arbitrary bytes read as JSON, MessagePack and CBOR into `arena_core::Value`: see
//! `arena_fuzz::value::check`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz::value::check(data));
