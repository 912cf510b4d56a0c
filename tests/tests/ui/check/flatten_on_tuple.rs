use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct Meta {
    id: u32,
}

#[derive(ArenaDeserialize)]
struct Tuple(u8, #[serde(flatten)] Meta);

#[derive(ArenaDeserialize)]
struct Newtype(#[arena(flatten)] Meta);

#[derive(ArenaDeserialize)]
enum E {
    Pair(u8, #[serde(flatten)] Meta),
    Named {
        #[serde(flatten)]
        meta: Meta,
    },
}

fn main() {}
