use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[arena(default)]
enum E {
    A,
}

fn main() {}
