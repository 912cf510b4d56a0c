use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
enum E {
    #[arena(skip_it)]
    A,
}

fn main() {}
