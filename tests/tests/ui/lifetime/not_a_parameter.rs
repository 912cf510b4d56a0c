use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[arena(lifetime = "'c")]
struct S<'a, 'b> {
    a: &'a str,
    b: &'b str,
}

fn main() {}
