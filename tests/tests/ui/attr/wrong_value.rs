use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct S {
    #[arena(rename = 5)]
    a: u8,
}

fn main() {}
