use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[arena(renam = "x")]
struct S {
    a: u8,
}

fn main() {}
