use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct S {
    #[arena(rename(read = "b"))]
    a: u8,
}

fn main() {}
