#![no_main]
//! Arbitrary bytes read as Bincode into the fuzz document type: see `arena_fuzz::check`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz::check(arena_fuzz::Format::Bincode, data));
