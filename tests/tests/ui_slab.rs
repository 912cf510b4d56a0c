//! Compile-fail tests of `SlabArena`: what the borrow checker and the auto traits forbid.

#[test]
fn slab_ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/slab/*.rs");
}
