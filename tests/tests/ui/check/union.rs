use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
union U {
    a: u8,
}

fn main() {}
