//! The impl is bounded field by field, so a field type with no `ArenaDeserialize` impl for the
//! arena is reported where the type is used with that arena, naming the field type (rustc
//! reports an unsatisfiable impl at its use, not at the derive).
use arena_core::ArenaDeserialize;

struct NotArena;

#[derive(ArenaDeserialize)]
struct S {
    a: NotArena,
}

fn main() {
    let bump = bumpalo::Bump::new();
    let mut json = serde_json::Deserializer::from_str("{}");
    let _ = S::deserialize_in(&bump, &mut json);
}
