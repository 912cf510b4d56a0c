use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
enum E {
    #[arena(other)]
    A,
    #[arena(other)]
    B,
}

fn main() {}
