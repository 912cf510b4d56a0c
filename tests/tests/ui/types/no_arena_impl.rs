//! A field type without a lifetime and with no `ArenaDeserialize` impl is an error at the
//! field, when the type is derived: such a type holds nothing in an arena, so the derive asks
//! for its impl on every arena. The trait's notes say what to do.
use arena_core::ArenaDeserialize;

/// A foreign id type with serde's `Deserialize` only.
#[derive(serde::Deserialize, Clone, Copy)]
struct RepoId(u64);

#[derive(ArenaDeserialize)]
struct Repo<'bump> {
    id: RepoId,
    name: &'bump str,
}

fn main() {}
