use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[arena(tag = "t", content = "t")]
enum E {
    A(u8),
}

fn main() {}
