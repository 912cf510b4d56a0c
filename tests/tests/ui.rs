//! Every diagnostic of `#[derive(ArenaDeserialize)]`, one compile-fail case each
//! (`tests/ui/<topic>/<case>.rs` and the expected `.stderr`).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*/*.rs");
}
