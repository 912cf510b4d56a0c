use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[serde(untagged)]
enum E {
    A(u8),
    #[serde(other)]
    B,
}

#[derive(ArenaDeserialize)]
enum F {
    A(u8),
    #[serde(untagged, other)]
    B,
}

fn main() {}
