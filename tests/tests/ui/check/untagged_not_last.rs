use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
enum E {
    #[serde(untagged)]
    A(u8),
    B,
}

fn main() {}
