#![no_main]
//! Arbitrary bytes read by arena_core's JSON reader and by serde_json's: see
//! `arena_fuzz::json_differential::check`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz::json_differential::check(data));
