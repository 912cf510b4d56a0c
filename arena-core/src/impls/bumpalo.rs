//! bumpalo's collections, for a `bumpalo::Bump` arena: adopted from the exactly sized arena
//! slice the sequence (or string) was read into, so nothing is copied twice.

use bumpalo::Bump;
use bumpalo::collections::{String, Vec};
use serde::Deserializer;

use super::str::deserialize_str_mut;
use crate::ArenaDeserialize;

/// Turns an exactly sized slice allocated in `bump` into a `Vec` of the same elements.
fn adopt<'bump, T>(bump: &'bump Bump, slice: &'bump mut [T]) -> Vec<'bump, T> {
    if slice.is_empty() || size_of::<T>() == 0 {
        let mut vec = Vec::new_in(bump);
        // Zero-sized elements need no memory: move each one (a no-op read) into the vector.
        // SAFETY: each element is initialised and read exactly once; the slice is never used
        // again, so the reads are moves.
        vec.extend(slice.iter_mut().map(|x| unsafe { core::ptr::read(x) }));
        return vec;
    }
    let len = slice.len();
    // SAFETY: `slice` is a unique borrow of `len` initialised elements allocated from `bump`
    // with `Layout::array::<T>(len)` (by `BumpAllocator::try_alloc_layout`, which is
    // `Bump::try_alloc_layout`), so it is exactly an allocation of capacity `len` made by this
    // bump, as `from_raw_parts_in` requires; the borrow is consumed, so the vector owns it.
    unsafe { Vec::from_raw_parts_in(slice.as_mut_ptr(), len, len, bump) }
}

impl<'bump, T> ArenaDeserialize<'bump, Bump> for Vec<'bump, T>
where
    T: ArenaDeserialize<'bump, Bump> + 'bump,
{
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump Bump,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        T::__deserialize_slice(arena, deserializer).map(|slice| adopt(arena, slice))
    }
}

impl<'bump> ArenaDeserialize<'bump, Bump> for String<'bump> {
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump Bump,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        let s = deserialize_str_mut(arena, deserializer)?;
        // SAFETY: a `str`'s bytes are valid UTF-8, and the unique borrow is given up for them.
        let bytes = unsafe { s.as_bytes_mut() };
        // SAFETY: the bytes were valid UTF-8 and are unchanged.
        Ok(unsafe { String::from_utf8_unchecked(adopt(arena, bytes)) })
    }
}
