use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[serde(untagged, tag = "t")]
enum E {
    A { a: u8 },
}

fn main() {}
