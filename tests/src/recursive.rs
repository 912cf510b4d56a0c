//! Recursive arena types, for depth, budget and fuzz-finding tests.

use arena_core::{ArenaDeserialize, BumpAllocator};

/// A tree through slices: `[[], [[]]]`.
#[derive(Debug)]
pub struct Tree<'bump>(pub &'bump [Tree<'bump>]);

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for Tree<'bump> {
    fn deserialize_in<'de, D: serde::Deserializer<'de>>(
        arena: &'bump A,
        d: D,
    ) -> Result<Self, D::Error> {
        <&'bump [Tree<'bump>]>::deserialize_in(arena, d).map(Tree)
    }
}

/// A list through `&T`: `Some(Some(None))`.
#[derive(Debug)]
pub struct Chain<'bump> {
    /// The rest of the list.
    pub next: Option<&'bump Chain<'bump>>,
}

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for Chain<'bump> {
    fn deserialize_in<'de, D: serde::Deserializer<'de>>(
        arena: &'bump A,
        d: D,
    ) -> Result<Self, D::Error> {
        let next = Option::<&'bump Chain<'bump>>::deserialize_in(arena, d)?;
        Ok(Chain { next })
    }
}
