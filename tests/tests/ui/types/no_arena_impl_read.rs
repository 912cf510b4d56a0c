//! A field type with a lifetime may have impls for some arenas only, so the impl is bounded
//! field by field and a type with no impl for the arena is reported where the model is read
//! with that arena (rustc reports an unsatisfiable impl at its use): the note points at the
//! field's type, and the trait's notes say what to do.
use arena_core::{ArenaDeserialize, SlabArena};

/// A type borrowing its input, with serde's `Deserialize` only.
#[derive(serde::Deserialize)]
struct Label<'a>(&'a str);

#[derive(ArenaDeserialize)]
struct Issue<'bump> {
    label: Label<'bump>,
    title: &'bump str,
}

fn main() {
    let arena = SlabArena::new();
    let _ = arena_core::json::from_str::<Issue, _>(&arena, "{}");
}
