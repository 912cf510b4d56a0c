//! A function with serde's signature given to the arena-aware `deserialize_with` is called
//! with the arena too: rustc says so at the path. `serde(deserialize_with = "...")` is the
//! spelling for it.
use arena_core::ArenaDeserialize;
use serde::Deserialize;

fn seconds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    u64::deserialize(d)
}

#[derive(ArenaDeserialize)]
struct S {
    #[arena(deserialize_with = "seconds")]
    a: u64,
}

fn main() {}
