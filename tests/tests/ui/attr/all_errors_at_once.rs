//! Every attribute error is reported, not only the first.
use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[arena(deny_unknown_field, rename_all = "nope")]
struct S<'bump> {
    #[arena(rename = "x", rename = "y")]
    a: u8,
    #[serde(bound = "T: Default")]
    b: &'bump str,
    c: String,
}

fn main() {}
