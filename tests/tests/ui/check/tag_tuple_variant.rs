use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[arena(tag = "type")]
enum E {
    A { a: u8 },
    B(u8, u8),
}

fn main() {}
