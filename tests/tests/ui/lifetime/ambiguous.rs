use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct S<'a, 'b> {
    a: &'a str,
    b: &'b str,
}

fn main() {}
