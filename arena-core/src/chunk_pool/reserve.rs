//! [`Reserve`]: how many free bytes a pool keeps mapped, and the history of recent arenas
//! that [`Reserve::Auto`] and the first-chunk hint
//! ([`ChunkPool::first_chunk_hint`]) are computed from.
//!
//! An arena giving its chunks back on drop or reset reports an [`ArenaUse`]; the pool keeps the
//! latest ones in [`State`]'s ring buffers and derives the automatic reserve from them at that
//! moment, so chunks taken in between do not move it.

use super::{ChunkPool, State};

/// How many of the latest arena sizes the automatic reserve remembers.
pub(super) const RECENT_ARENAS: usize = 16;
/// How many of the latest arenas' used bytes the first-chunk hint is the minimum of: two, so
/// one spike does not make the next arena take a spike-sized chunk.
pub(super) const HINT_ARENAS: usize = 2;

/// What an arena giving its chunks back (on drop or reset) held and used, which the pool
/// remembers: the reserved bytes for [`Reserve::Auto`], the used bytes for
/// [`first_chunk_hint`](ChunkPool::first_chunk_hint).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ArenaUse {
    /// Bytes of the chunks the arena held.
    pub(crate) reserved: usize,
    /// Bytes it handed out, alignment padding included.
    pub(crate) used: usize,
}

/// How many free bytes a pool keeps mapped for the next arenas.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reserve {
    /// Enough for the arenas that were live together recently, so that threads each building
    /// an arena at once do not map and unmap in turn.
    ///
    /// It is the larger of:
    /// - the largest of the last 16 arenas that gave their chunks back (on drop or reset): one
    ///   more arena of that size;
    /// - how far the bytes in use are below their peak over the time those 16 arenas gave
    ///   their chunks back, capped at that largest arena times the CPUs available when the
    ///   pool was built. With two threads each building a 5 MB arena, this keeps 10 MB; after
    ///   a burst of many arenas, it keeps one per CPU until 16 more arenas come back.
    #[default]
    Auto,
    /// A fixed number of bytes (0: give every free chunk back as soon as the free bytes exceed
    /// nothing, that is immediately).
    Bytes(usize),
}

/// Free bytes above which the pool trims, for a reserve of `reserve` bytes: half again the
/// reserve, so refilling and emptying around the reserve does not map and unmap in turn.
#[must_use]
pub(super) fn trim_threshold(reserve: usize) -> usize {
    reserve.saturating_add(reserve / 2)
}

impl ChunkPool {
    /// Trims the free chunks, coldest first, once the free bytes and `coming` (a chunk about to
    /// be mapped, which its arena will give back) pass [`trim_threshold`]: down to the reserve
    /// less `coming`.
    pub(super) fn trim_beyond_reserve(&self, state: &mut State, coming: usize) {
        let reserve = self.reserve_bytes(state);
        if state.bytes_free.saturating_add(coming) > trim_threshold(reserve) {
            state.release_down_to(self.classes, reserve.saturating_sub(coming));
        }
    }

    /// Free bytes kept mapped right now.
    pub(super) fn reserve_bytes(&self, state: &State) -> usize {
        match self.reserve {
            Reserve::Bytes(bytes) => bytes,
            Reserve::Auto => state.auto_reserve,
        }
    }

    /// How many bytes the next arena will probably use: the least of what the last two arenas
    /// that gave their chunks back used (what the last one used when only one has), or `None`
    /// before any has. A fresh arena sizes its first chunk by it, so documents of a steady size
    /// each take one chunk.
    pub(crate) fn first_chunk_hint(&self) -> Option<usize> {
        let state = self.lock();
        state
            .recent_used
            .iter()
            .flatten()
            .copied()
            .min()
            .filter(|&used| used > 0)
    }
}

impl State {
    /// Remembers `arena`, which just gave its chunks back: its reserved bytes and the peak in
    /// use up to now for [`Reserve::Auto`], its used bytes for
    /// [`first_chunk_hint`](ChunkPool::first_chunk_hint).
    pub(super) fn remember(&mut self, arena: ArenaUse, parallelism: usize) {
        let slot = self.recent_next;
        self.recent_arenas[slot] = arena.reserved;
        self.recent_peaks[slot] = self.epoch_peak;
        self.epoch_peak = self.bytes_in_use;
        self.auto_reserve = self.auto_reserve(parallelism);
        self.recent_next = (slot + 1) % RECENT_ARENAS;
        self.recent_used.copy_within(..HINT_ARENAS - 1, 1);
        self.recent_used[0] = Some(arena.used);
    }

    /// [`Reserve::Auto`] as of now (see there): set when an arena gives its chunks back, so
    /// chunks taken in between do not move it.
    fn auto_reserve(&self, parallelism: usize) -> usize {
        let largest = self.recent_arenas.iter().copied().max().unwrap_or(0);
        let peak = self
            .recent_peaks
            .iter()
            .copied()
            .fold(self.epoch_peak, usize::max);
        let concurrent = (peak - self.bytes_in_use).min(largest.saturating_mul(parallelism));
        largest.max(concurrent)
    }
}
