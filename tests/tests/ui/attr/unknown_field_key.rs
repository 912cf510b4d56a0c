use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct S {
    #[serde(defualt)]
    a: u8,
}

fn main() {}
