use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[arena(transparent)]
enum E {
    A(u8),
}

fn main() {}
