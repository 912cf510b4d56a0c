//! bump-scope's collections, for a `bump_scope::Bump` arena: adopted from the exactly sized
//! arena slice the sequence (or string) was read into, so nothing is copied twice.

use core::ptr::NonNull;

use bump_scope::settings::BumpAllocatorSettings;
use bump_scope::{BaseAllocator, Bump, BumpBox, BumpString, BumpVec, FixedBumpVec};
use serde::Deserializer;

use super::str::deserialize_str_mut;
use crate::ArenaDeserialize;

/// Turns an exactly sized slice allocated in `bump` into a `BumpVec` of the same elements.
fn adopt<'bump, T, BA, S>(
    bump: &'bump Bump<BA, S>,
    slice: &'bump mut [T],
) -> BumpVec<T, &'bump Bump<BA, S>>
where
    BA: BaseAllocator<S::GuaranteedAllocated>,
    S: BumpAllocatorSettings,
{
    // SAFETY: `slice` is a unique borrow of initialised elements that live in `bump` for
    // `'bump` (allocated by `Bump::allocate`, or an empty/zero-sized dangling slice, which
    // bump-scope itself uses for those); giving up the borrow hands their ownership to the box.
    let boxed = unsafe { BumpBox::<'bump, [T]>::from_raw(NonNull::from(slice)) };
    BumpVec::from_parts(FixedBumpVec::from_init(boxed), bump)
}

impl<'bump, T, BA, S> ArenaDeserialize<'bump, Bump<BA, S>> for BumpVec<T, &'bump Bump<BA, S>>
where
    T: ArenaDeserialize<'bump, Bump<BA, S>> + 'bump,
    BA: BaseAllocator<S::GuaranteedAllocated>,
    S: BumpAllocatorSettings,
{
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump Bump<BA, S>,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        T::__deserialize_slice(arena, deserializer).map(|slice| adopt(arena, slice))
    }
}

impl<'bump, BA, S> ArenaDeserialize<'bump, Bump<BA, S>> for BumpString<&'bump Bump<BA, S>>
where
    BA: BaseAllocator<S::GuaranteedAllocated>,
    S: BumpAllocatorSettings,
{
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump Bump<BA, S>,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        let s = deserialize_str_mut(arena, deserializer)?;
        // SAFETY: a `str`'s bytes are valid UTF-8, and the unique borrow is given up for them.
        let bytes = unsafe { s.as_bytes_mut() };
        // SAFETY: the bytes were valid UTF-8 and are unchanged.
        Ok(unsafe { BumpString::from_utf8_unchecked(adopt(arena, bytes)) })
    }
}
