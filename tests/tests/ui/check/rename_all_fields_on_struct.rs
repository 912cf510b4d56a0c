use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
#[arena(rename_all_fields = "camelCase")]
struct S {
    a_b: u8,
}

fn main() {}
