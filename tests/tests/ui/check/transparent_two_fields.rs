use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[arena(transparent)]
struct S {
    a: u8,
    b: u8,
}

fn main() {}
