//! `through_serde!` refuses a type that needs drop: the arena would never free what it owns.
#[derive(serde::Deserialize)]
struct Tags(Vec<String>);

arena_core::through_serde!(Tags);

fn main() {}
