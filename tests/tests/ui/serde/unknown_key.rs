//! `serde(...)` takes `deserialize_with` or `with`; every wrong key is reported at once.
use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct S {
    #[arena(serde(deserialize = "f"))]
    a: u8,
    #[arena(serde(with = "m", deserialize_with = "f"))]
    b: u8,
}

fn main() {}
