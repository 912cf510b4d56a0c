//! The impl is bounded field by field, so a field type with no `ArenaDeserialize` impl for the
//! arena is reported where the type is used with that arena (rustc reports an unsatisfiable
//! impl at its use, not at the derive): the note points at the field's type, and the trait's
//! notes say what to do.
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
