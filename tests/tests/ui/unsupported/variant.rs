use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
enum E {
    #[serde(deserialize_with = "f")]
    A(u8),
}

fn main() {}
