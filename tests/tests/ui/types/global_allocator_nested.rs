use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
enum E<'bump> {
    Option(Option<String>),
    Tuple((u8, Vec<u8>)),
    Array { items: [String; 2] },
    Slice(&'bump [String]),
    Arena(bumpalo::collections::Vec<'bump, String>),
}

fn main() {}
