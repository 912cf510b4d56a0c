use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[serde(from = "u8", try_from = "u8")]
struct S(u8);

#[derive(ArenaDeserialize)]
#[serde(transparent, from = "u8")]
struct T(u8);

fn main() {}
