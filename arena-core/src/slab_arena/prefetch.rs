//! [`SlabArena::prefetch_below_cursor`]: asking the cache for the lines the next allocations
//! will write.
//!
//! A reader that builds a large tree writes the arena as one stream, downwards, a few bytes at
//! a time: a string, then a node slice, then the next string. The chunk under the cursor was
//! last written by an earlier document, if at all, so it is out of the core's own caches, and
//! a store to a line not in them waits for the line to be fetched (the store buffer fills, and
//! the reader stalls behind it). A reader that knows it is about to write a burst (a `Value`
//! array or object opening: its strings, then its nodes) asks for the lines below the cursor
//! first, and the fetches overlap the parsing in between.

use super::SlabArena;

impl SlabArena {
    /// Asks the CPU to bring the 8 cache lines below the cursor's own into its cache,
    /// for the allocations that follow; a hint, with no effect on what the arena holds. A
    /// no-op where the target has no prefetch instruction in stable Rust (it has one on
    /// x86_64).
    #[inline(always)]
    pub(crate) fn prefetch_below_cursor(&self) {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            /// How many lines: about what one object of a typical document takes in the
            /// arena (its strings and its entries).
            const LINES: usize = 8;
            /// A cache line's size on x86_64.
            const LINE: usize = 64;
            let cursor = self.cursor.get();
            for line in 1..=LINES {
                // `wrapping_sub` computes the address without claiming it is in the chunk.
                let at = cursor.wrapping_sub(line * LINE);
                // SAFETY: SSE, which `_mm_prefetch` needs, is part of the x86_64 baseline; and
                // a prefetch neither reads nor writes memory and never faults, whatever the
                // address: one below the chunk (the cursor near its bottom) or past any
                // mapping is dropped.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(at.cast::<i8>()) };
            }
        }
    }
}
