//! `serde` and the arena-aware `deserialize_with` both say how to read the field.
use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct S {
    #[arena(serde, deserialize_with = "f")]
    a: u8,
}

fn main() {}
