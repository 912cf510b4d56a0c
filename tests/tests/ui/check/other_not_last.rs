use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
enum E {
    A,
    #[arena(other)]
    Unknown,
    B,
}

fn main() {}
