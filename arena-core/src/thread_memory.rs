//! [`release_thread_scratch`] and [`thread_memory_stats`]: the memory a thread keeps from one
//! call to the next, how to give it back, and the OS calls it made.
//!
//! Three caches outlive a call, each reused by the next one on the thread: the
//! [scratch stack](crate::scratch) where sequences collect before they are copied into the
//! arena, the [buffer](crate::derive_runtime::buffer) of the buffered representations (an
//! internally tagged map whose tag comes late), and the spare staging buffers of
//! [`ArenaVec`](crate::ArenaVec) and [`ArenaString`](crate::ArenaString). None is part of a
//! call's state: they hold memory, not decisions.

use crate::arena_vec::spares;
use crate::derive_runtime::buffer;
use crate::scratch;

/// Frees this thread's scratch memory, if no sequence is being deserialized on it.
///
/// The scratch stack keeps the largest capacity it needed (the biggest sequence's elements, plus
/// those of the sequences enclosing it), so that the next document reuses warm memory. Call this
/// after a one-off large document to give that memory back. It also frees the spare staging
/// buffers [`ArenaVec`](crate::ArenaVec) and [`ArenaString`](crate::ArenaString) keep for reuse
/// (at most 256 KiB per thread), and the buffer that internally tagged maps with a late tag
/// are read into before their variant (at most 1 MiB is kept from one such map to the next).
pub fn release_thread_scratch() {
    scratch::release();
    buffer::release();
    spares::free_all();
}

/// What this thread's scratch memory holds, and the OS calls it made: see
/// [`thread_memory_stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ThreadMemoryStats {
    /// Bytes the scratch stack holds (mapped, not necessarily resident).
    pub scratch_capacity: usize,
    /// Calls that gave scratch pages back to the OS (`madvise(MADV_DONTNEED)` on unix) since
    /// the thread started: a sequence larger than 2 MiB reaching past the stack's first 8 MiB
    /// gives its pages back as it moves into the arena, about one call per 2 MiB moved.
    pub scratch_page_releases: u64,
    /// Bytes of chunks the buffer of internally tagged maps with a late tag holds (0 while one
    /// is being read).
    pub buffer_capacity: usize,
}

impl ThreadMemoryStats {
    /// All OS calls counted so far. Compare two snapshots to count the calls of a piece of
    /// work; add [`PoolStats::os_calls`](crate::PoolStats::os_calls) for a [`SlabArena`]'s
    /// maps and unmaps.
    ///
    /// [`SlabArena`]: crate::SlabArena
    #[must_use]
    pub fn os_calls(&self) -> u64 {
        self.scratch_page_releases
    }
}

/// A snapshot of this thread's scratch memory: what it holds and the OS calls it made.
///
/// The scratch stack is where sequences collect when their length is not known (JSON) or not
/// trusted, before they are copied into the arena at their exact size. Its OS calls are part
/// of what a deserialization costs, so a benchmark or a test can count them per document.
///
/// # Examples
///
/// ```
/// let before = arena_core::thread_memory_stats();
/// let bump = bumpalo::Bump::new();
/// let rows: &[&[u32]] = arena_core::json::from_str(&bump, "[[1, 2], [3]]")?;
/// assert_eq!(rows, [&[1, 2][..], &[3]]);
/// let after = arena_core::thread_memory_stats();
/// assert_eq!(after.os_calls() - before.os_calls(), 0, "small sequences make no OS call");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[must_use]
pub fn thread_memory_stats() -> ThreadMemoryStats {
    ThreadMemoryStats {
        scratch_capacity: scratch::thread_scratch_capacity(),
        scratch_page_releases: scratch::thread_page_releases(),
        buffer_capacity: buffer::thread_buffer_capacity(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frees_the_scratch_stack_and_the_spares() {
        spares::free_all();
        spares::give_back(Vec::<u64>::with_capacity(8));
        assert_eq!(spares::count(), 1);
        let bump = bumpalo::Bump::new();
        let mut v = scratch::ScratchVec::<u64>::new(Some(1000)).unwrap();
        v.push(1).unwrap();
        assert_eq!(v.finish_in(&bump).unwrap(), [1]);
        assert!(scratch::thread_scratch_capacity() >= 8000);
        release_thread_scratch();
        assert_eq!(spares::count(), 0);
        assert_eq!(scratch::thread_scratch_capacity(), 0);
    }
}
