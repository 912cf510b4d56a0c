use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct Inner {
    a: u8,
}

#[derive(ArenaDeserialize)]
struct S {
    #[serde(flatten)]
    inner: Inner,
}

fn main() {}
