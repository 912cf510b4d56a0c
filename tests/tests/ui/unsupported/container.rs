use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[serde(remote = "Other", from = "u8", try_from = "u8")]
enum E {
    A,
}

fn main() {}
