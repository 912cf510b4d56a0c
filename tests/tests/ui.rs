//! Every diagnostic of `#[derive(ArenaDeserialize)]`, one compile-fail case each
//! (`tests/ui/<topic>/<case>.rs` and the expected `.stderr`).
//!
//! Not on wasm32: trybuild runs cargo, and a test there cannot start a process (the cases are
//! compiled for the host anyway).

#![cfg(not(target_family = "wasm"))]

use std::path::Path;

#[test]
fn ui() {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let mut topics: Vec<String> = std::fs::read_dir(&ui)
        .expect("tests/ui is readable")
        .map(|entry| entry.expect("tests/ui entry"))
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().into_string().expect("UTF-8 topic"))
        .collect();
    topics.sort();
    // A glob that matched nothing would pass without testing anything.
    assert!(topics.len() >= 5, "derive UI topics: {topics:?}");
    let cases = trybuild::TestCases::new();
    for topic in &topics {
        cases.compile_fail(format!("tests/ui/{topic}/*.rs"));
    }
}
