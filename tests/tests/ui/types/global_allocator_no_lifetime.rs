use arena_core::ArenaDeserialize;

// No lifetime parameter: the suggestion names `'bump` and says to add it.
#[derive(ArenaDeserialize)]
struct NoLifetime {
    s: String,
}

fn main() {}
