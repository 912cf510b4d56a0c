//! [`SlabArena::try_alloc_window_tail`]: a short copy into the arena without a branch on its
//! length.
//!
//! A reader copies millions of short strings, of lengths that vary from one to the next. A
//! copy of exactly `n` bytes picks its loads and stores by `n` (one word, two overlapping
//! words, a `memcpy`), and those branches mispredict as the lengths change. The arena bumps
//! down, so the bytes just below its cursor are free: a copy that writes a whole window of `W`
//! bytes ending at the cursor, then takes only its last `n` as the allocation, costs the same
//! whatever `n` is. The caller provides the window: the `W` bytes of its input that end where
//! the string ends, when that many are there.

use core::ptr;

use super::SlabArena;
use crate::chunk_pool::poison;
use crate::{AllocError, BumpAllocator};

impl SlabArena {
    /// Copies the last `n` bytes of `window` into the arena, as
    /// [`try_alloc_bytes`](crate::BumpAllocator::try_alloc_bytes) copies them, writing the
    /// whole window below the cursor when the current chunk has room for it (the bytes below
    /// the copy stay free: a later allocation overwrites them).
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    #[inline(always)]
    pub(crate) fn try_alloc_window_tail<const W: usize>(
        &self,
        window: &[u8; W],
        n: usize,
    ) -> Result<&[u8], AllocError> {
        let Some(skip) = W.checked_sub(n) else {
            return Err(AllocError::size_overflow(1));
        };
        let cursor = self.cursor.get();
        // `bottom <= cursor` (field invariant), so the room never underflows.
        let room = cursor.addr() - self.bottom.get();
        if room < W {
            return self.try_alloc_bytes(&window[skip..]);
        }
        let block = cursor.wrapping_sub(W);
        poison::unpoison(block, W);
        // SAFETY: the `W` bytes below the cursor are at or above `bottom` (`room >= W`), so they
        // are in the current chunk and no live allocation holds them (the `try_alloc_layout`
        // contract: allocations lie at or above the cursor, the low edge's below `bottom`);
        // the write is unaligned, and `window` is a borrow of other memory.
        unsafe { ptr::write_unaligned(block.cast::<[u8; W]>(), *window) };
        poison::poison(block, skip);
        // `skip <= W <= room`: the allocation's start is still at or above `bottom`.
        let start = cursor.wrapping_sub(n);
        self.cursor.set(start);
        // SAFETY: `start..cursor` is the window's last `n` bytes, just written, in the current
        // chunk, and now below the cursor: handed out once, until the arena is reset or
        // dropped (`&self` keeps it borrowed).
        Ok(unsafe { core::slice::from_raw_parts(start, n) })
    }
}

#[cfg(test)]
mod tests {
    use crate::{BumpAllocator, SlabArena};

    /// Every length of each window, many in a row so that chunks fill and refill: each copy
    /// holds the window's tail, and none is overwritten by the next.
    #[test]
    fn each_copy_holds_the_windows_tail_and_keeps_it() {
        let arena = SlabArena::new();
        let window: [u8; 32] = core::array::from_fn(|i| u8::try_from(i).unwrap() + 1);
        let mut copies = Vec::new();
        for round in 0..2000 {
            let n = round % 33;
            let copy = arena.try_alloc_window_tail(&window, n).unwrap();
            copies.push((n, copy));
            // An allocation of odd size in between: the cursor at every alignment.
            arena.try_alloc_bytes(&[0xEE; 3]).unwrap();
        }
        for (n, copy) in copies {
            assert_eq!(copy, &window[32 - n..]);
        }
        arena.check_invariants();
    }

    #[test]
    fn a_length_past_the_window_is_refused() {
        let arena = SlabArena::new();
        assert!(arena.try_alloc_window_tail(&[1u8; 16], 17).is_err());
    }

    /// At the edge of a chunk: the copy that has no room for the window takes exactly its
    /// bytes, and an arena limit is kept.
    #[test]
    fn without_room_for_the_window_only_the_tail_is_taken() {
        let arena = SlabArena::builder().limit(4096).build();
        let window = [7u8; 32];
        let mut taken = 0;
        while let Ok(copy) = arena.try_alloc_window_tail(&window, 5) {
            assert_eq!(copy, [7; 5]);
            taken += 5;
            assert!(taken <= 4096, "past the arena's limit");
        }
        arena.check_invariants();
    }
}
