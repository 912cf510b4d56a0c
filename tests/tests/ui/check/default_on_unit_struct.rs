use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize, Default)]
#[arena(default)]
struct S;

fn main() {}
