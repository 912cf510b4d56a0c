//! [`SlabStats`]: what a [`SlabArena`] holds and uses, counted by walking its chunk list.

use core::fmt;

use super::{HEADER, SlabArena};
use crate::ArenaStats;

/// Statistics of a [`SlabArena`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlabStats {
    /// Chunks the arena holds.
    pub chunks: usize,
    /// Bytes of those chunks usable for allocations (headers excluded).
    pub reserved_bytes: usize,
    /// Bytes handed out, alignment padding included.
    pub used_bytes: usize,
    /// Bytes left unused at the end of chunks the arena has moved on from: lost until reset.
    pub wasted_tail_bytes: usize,
    /// Bytes taken from the pool, headers included (what the arena limit counts).
    pub chunk_bytes: usize,
}

impl From<SlabStats> for ArenaStats {
    fn from(s: SlabStats) -> Self {
        ArenaStats {
            reserved_bytes: s.reserved_bytes,
            used_bytes: s.used_bytes,
            chunks: s.chunks,
        }
    }
}

impl fmt::Display for SlabStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} bytes used of {} reserved in {} chunk(s), {} wasted in chunk tails",
            self.used_bytes, self.reserved_bytes, self.chunks, self.wasted_tail_bytes
        )
    }
}

impl SlabArena {
    /// Chunks, reserved and used bytes, and the bytes wasted at the end of full chunks.
    #[must_use]
    pub fn stats(&self) -> SlabStats {
        let mut stats = SlabStats::default();
        self.for_each_chunk(|header, size, used| {
            stats.chunks += 1;
            stats.chunk_bytes += size;
            stats.reserved_bytes += size - HEADER;
            stats.used_bytes += used;
            if Some(header) != self.current.get() {
                stats.wasted_tail_bytes += size - HEADER - used;
            }
        });
        stats
    }
}
