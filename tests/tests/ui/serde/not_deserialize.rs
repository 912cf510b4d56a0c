//! `#[arena(serde)]` needs serde's `Deserialize` for every input lifetime: the error points at
//! the field's type.
use arena_core::ArenaDeserialize;

struct NotSerde;

#[derive(ArenaDeserialize)]
struct S {
    #[arena(serde)]
    a: NotSerde,
}

fn main() {}
