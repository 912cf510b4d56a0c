use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[serde(untagged)]
struct S {
    a: u8,
}

fn main() {}
