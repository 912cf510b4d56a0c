#![no_main]
//! Arbitrary bytes in chunks of arbitrary sizes read by `arena_core::json::from_reader` and by
//! `from_slice`: see `arena_fuzz::json_reader::check`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz::json_reader::check(data));
