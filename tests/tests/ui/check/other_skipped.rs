use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
enum E {
    A,
    #[arena(other, skip)]
    B,
}

fn main() {}
