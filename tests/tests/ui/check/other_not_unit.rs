use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
enum E {
    A,
    #[arena(other)]
    B(u8),
}

fn main() {}
