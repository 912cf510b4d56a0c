//! A model read through an entry point whose field type has no `ArenaDeserialize` impl: the
//! error names the type, the note points at the field, and the trait's notes say what to do.
use arena_core::{ArenaDeserialize, SlabArena};

/// A foreign id type with serde's `Deserialize` only.
#[derive(serde::Deserialize, Clone, Copy)]
struct RepoId(u64);

#[derive(ArenaDeserialize)]
struct Repo<'bump> {
    id: RepoId,
    name: &'bump str,
}

fn main() {
    let arena = SlabArena::new();
    let _ = arena_core::json::from_str::<Repo, _>(&arena, "{}");
}
