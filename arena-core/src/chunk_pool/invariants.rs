//! [`ChunkPool::check_invariants`], which walks a pool's state and asserts that its counts and
//! byte totals add up and its free chunks are sound, and [`assert_disjoint`], which the
//! arena's own check shares.

use super::{ChunkPool, PAGE, size_class, trim_threshold};

impl ChunkPool {
    /// Asserts the pool's invariants: counts and byte totals add up, free chunks are
    /// distinct, page aligned and within the limit. For tests; takes the lock.
    ///
    /// # Panics
    ///
    /// When an invariant does not hold.
    #[doc(hidden)]
    pub fn check_invariants(&self) {
        let state = self.lock();
        let mut free_bytes = 0usize;
        let mut in_use_bytes = state.dedicated_bytes;
        let mut starts = Vec::new();
        for (index, class) in state.classes.iter().enumerate() {
            let size = self.classes.size(index);
            let c = class.counts;
            assert_eq!(
                c.in_use as u64 + class.free.len() as u64 + c.released,
                c.ever_mapped,
                "class {size}: in use + free + released != ever mapped"
            );
            let mut last_tick = 0;
            for free in &class.free {
                assert_eq!(
                    free.ptr.as_ptr() as usize % PAGE,
                    0,
                    "free chunk not page aligned"
                );
                assert!(free.freed_at >= last_tick, "free list out of age order");
                last_tick = free.freed_at;
                starts.push((free.ptr.as_ptr() as usize, size));
            }
            free_bytes += class.free.len() * size;
            in_use_bytes += c.in_use * size;
        }
        let d = state.dedicated;
        assert_eq!(
            d.in_use as u64 + state.dedicated_free.len() as u64 + d.released,
            d.ever_mapped,
            "dedicated: in use + free + released != ever mapped"
        );
        let mut last_tick = 0;
        for free in &state.dedicated_free {
            assert_eq!(
                free.ptr.as_ptr() as usize % PAGE,
                0,
                "free chunk not page aligned"
            );
            assert_eq!(
                self.classes.fit_exact(free.size),
                Some(size_class::Fit::Dedicated(free.size)),
                "a free dedicated chunk of a class size"
            );
            assert!(free.freed_at >= last_tick, "free list out of age order");
            last_tick = free.freed_at;
            starts.push((free.ptr.as_ptr() as usize, free.size));
            free_bytes += free.size;
        }
        assert_eq!(state.bytes_free, free_bytes, "free bytes");
        assert_eq!(state.bytes_in_use, in_use_bytes, "bytes in use");
        assert_eq!(
            state.bytes_mapped,
            free_bytes + in_use_bytes,
            "mapped != in use + free"
        );
        assert!(state.peak_bytes_mapped >= state.bytes_mapped);
        assert!(
            state.epoch_peak >= state.bytes_in_use,
            "in use past its peak"
        );
        let reserve = self.reserve_bytes(&state);
        assert!(
            state.bytes_free <= trim_threshold(reserve),
            "{} free bytes past the trim threshold of a {reserve}-byte reserve",
            state.bytes_free
        );
        if let Some(limit) = self.limit {
            assert!(state.bytes_mapped <= limit, "over the pool limit");
        }
        assert_disjoint(&mut starts, "free chunks");
    }
}

/// Asserts that no two `(start, len)` ranges overlap (sorts them). For `check_invariants`.
pub(crate) fn assert_disjoint(ranges: &mut [(usize, usize)], what: &str) {
    ranges.sort_unstable();
    for pair in ranges.windows(2) {
        assert!(
            pair[0].0 + pair[0].1 <= pair[1].0,
            "{what} overlap: {pair:x?}"
        );
    }
}
