use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[arena(transparent)]
struct S;

fn main() {}
