use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct S {
    #[serde(rename = "b")]
    #[arena(rename = "c")]
    a: u8,
}

fn main() {}
