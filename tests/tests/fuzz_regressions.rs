//! Inputs the fuzzers (`fuzz/`) found, replayed through every format into arena types: each must
//! give a value or an error, never a panic or an abort. Drop a new finding into
//! `tests/tests/fuzz_regressions/` and it is covered.

use arena_core::BStr;
use arena_tests::{Format, with_each_arena};

/// Arena types close to the fuzz document's fields.
fn replay(input: &[u8]) {
    for fmt in Format::ALL {
        with_each_arena!(|arena| {
            let _ = fmt.decode_in::<(u64, &str), _>(arena, input);
            let _ = fmt.decode_in::<(u64, BStr), _>(arena, input);
            let _ = fmt.decode_in::<&[&str], _>(arena, input);
            let _ = fmt.decode_in::<&[(&str, u16)], _>(arena, input);
            let _ = fmt.decode_in::<&[&[i32]], _>(arena, input);
            let _ = fmt.decode_in::<Option<&[u8]>, _>(arena, input);
        });
    }
}

#[test]
fn every_recorded_finding_is_an_error_or_a_value() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        replay(&std::fs::read(&path).unwrap());
        seen += 1;
    }
    assert!(seen > 0, "no findings in {}", dir.display());
}

/// The first finding: bincode's own owned `String` decode (no limit configured) allocates a
/// claimed length of ~2^56 bytes and aborts. The arena path borrows the string from the input
/// instead, so it reports the truncation; with 32-bit pointers the claim is no `usize`, which
/// bincode reports before that.
#[test]
fn an_absurd_string_length_in_bincode_is_an_error_in_the_arena() {
    let input = include_bytes!("fuzz_regressions/bincode-owned-string-abort.bin");
    with_each_arena!(|arena| {
        // bincode's standard configuration, no limit: the case that aborts serde's owned path.
        let seed = arena_core::ArenaSeed::<(u64, &str), _>::new(arena);
        let e = bincode::serde::seed_decode_from_slice(seed, input, bincode::config::standard())
            .unwrap_err();
        #[cfg(target_pointer_width = "64")]
        assert!(e.to_string().contains("UnexpectedEnd"), "{e}");
        #[cfg(target_pointer_width = "32")]
        assert!(e.to_string().contains("OutsideUsizeRange"), "{e}");
    });
}
