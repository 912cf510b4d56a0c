//! Compile-fail cases of `SlabArena`: what the borrow checker and the auto traits forbid, one
//! case each (`tests/ui/<topic>/<case>.rs` and the expected `.stderr`).
//!
//! Not under AddressSanitizer (`arena_asan`): trybuild runs cargo to compile the cases and runs
//! none of arena-core's code, so there is nothing for ASan to watch. `.ci/run`'s valgrind step
//! skips this binary for the same reason. Not on wasm32 either: a test there cannot start a
//! process, and the cases are compiled for the host anyway.

#![cfg(not(any(arena_asan, target_family = "wasm")))]

use std::path::Path;

#[test]
fn ui() {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let topics = std::fs::read_dir(&ui).expect("tests/ui is readable");
    let cases = topics
        .map(|topic| topic.expect("tests/ui entry").path())
        .flat_map(|topic| std::fs::read_dir(topic).expect("a topic is a directory"))
        .map(|case| case.expect("tests/ui/<topic> entry").path())
        .filter(|case| case.extension().is_some_and(|ext| ext == "rs"))
        .count();
    // A glob that matched nothing would pass without testing anything.
    assert!(
        cases >= 4,
        "{cases} compile-fail cases under {}",
        ui.display()
    );
    trybuild::TestCases::new().compile_fail("tests/ui/*/*.rs");
}
