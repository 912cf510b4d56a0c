use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct S {
    #[arena(deserialize_with = "f", with = "m")]
    a: u8,
}

fn main() {}
