#![no_main]
//! Arbitrary bytes read by arena_core's MessagePack reader and by rmp-serde's: see
//! `arena_fuzz::msgpack_differential::check`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz::msgpack_differential::check(data));
