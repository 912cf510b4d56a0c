use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[serde(remote = "Other")]
enum E {
    A,
}

fn main() {}
