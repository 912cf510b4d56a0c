//! The pool's free lists, one per size class and one of dedicated chunks, with their thread
//! affinity: a chunk goes back tagged with the [`thread_token`] of the thread that gave it
//! back, and a take prefers the hottest chunk its own thread gave back. The coldest free chunks
//! go back to the OS first.

use core::cell::Cell;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicU64, Ordering};
use std::collections::VecDeque;

use super::{Chunk, Classes, State, os, poison, size_class};

/// A free chunk in a class's free list.
#[derive(Debug)]
pub(super) struct FreeChunk {
    /// Start of a mapped chunk of the class's size that no arena holds; poisoned under
    /// `arena_asan`.
    pub(super) ptr: NonNull<u8>,
    /// `State::tick` when it was put back: lower is colder.
    pub(super) freed_at: u64,
    /// [`thread_token`] of the thread that put it back, whose cache may still hold it.
    freed_by: u64,
}

/// A free dedicated chunk: one whole mapping of `size` bytes, not a class size.
#[derive(Debug)]
pub(super) struct FreeDedicated {
    pub(super) ptr: NonNull<u8>,
    pub(super) size: usize,
    /// As [`FreeChunk::freed_at`].
    pub(super) freed_at: u64,
    /// As [`FreeChunk::freed_by`].
    freed_by: u64,
}

/// How many of the hottest free chunks of a class `take` looks through for one that the
/// taking thread put back itself.
const AFFINITY_SCAN: usize = 4;

/// A number for the calling thread, unique while the process runs (`0` once its thread-locals
/// are gone). Free chunks remember who put them back: a thread that takes back a chunk it
/// wrote itself finds much of it still in its own core's cache, where a chunk another core
/// wrote must first be fetched from there (two threads each building an arena per document
/// swapped chunks every document, which cost them a third of their speed).
pub(super) fn thread_token() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    std::thread_local! {
        static TOKEN: Cell<u64> = const { Cell::new(0) };
    }
    TOKEN
        .try_with(|token| {
            if token.get() == 0 {
                token.set(NEXT.fetch_add(1, Ordering::Relaxed));
            }
            token.get()
        })
        .unwrap_or(0)
}

/// A dedicated chunk kept free is reused for a request up to this fraction smaller than it
/// (1/8: at most 12.5% of it unused), so documents of about the same size reuse it.
const DEDICATED_REUSE_SLACK: usize = 8;

/// Counts of one class; `in_use + free + released == ever_mapped` always.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Counts {
    pub(super) ever_mapped: u64,
    pub(super) in_use: usize,
    pub(super) released: u64,
}

#[derive(Debug, Default)]
pub(super) struct ClassState {
    /// Free chunks, coldest at the front, hottest at the back (LIFO: pop from the back).
    pub(super) free: VecDeque<FreeChunk>,
    pub(super) counts: Counts,
}

impl State {
    /// Takes a free chunk for `fit` (`chunk_size` bytes) out of the free lists and counts it in
    /// use: its start and size, or `None` when none fits. The hottest chunk thread `me` gave
    /// back comes first (among the [`AFFINITY_SCAN`] hottest of a class), then the hottest; a
    /// dedicated chunk is at most `max` bytes and at most 1/[`DEDICATED_REUSE_SLACK`] larger
    /// than `chunk_size`. The caller moves its bytes from free to in use.
    pub(super) fn take_free(
        &mut self,
        fit: size_class::Fit,
        chunk_size: usize,
        max: usize,
        me: u64,
    ) -> Option<(NonNull<u8>, usize)> {
        match fit {
            size_class::Fit::Class(index) => {
                let class = &mut self.classes[index];
                // The hottest this thread put back among the hottest few, else the hottest.
                let hot = class.free.len().saturating_sub(AFFINITY_SCAN);
                let found = (hot..class.free.len())
                    .rev()
                    .find(|&i| class.free[i].freed_by == me)
                    .or(class.free.len().checked_sub(1));
                found.and_then(|i| class.free.remove(i)).map(|free| {
                    class.counts.in_use += 1;
                    (free.ptr, chunk_size)
                })
            }
            size_class::Fit::Dedicated(_) => {
                // The hottest free one that is large enough and not too large, preferably one
                // this thread put back.
                let fits = |f: &FreeDedicated| {
                    f.size >= chunk_size
                        && f.size <= max
                        && f.size - chunk_size <= chunk_size / DEDICATED_REUSE_SLACK
                };
                let free = &self.dedicated_free;
                let found = free
                    .iter()
                    .rposition(|f| f.freed_by == me && fits(f))
                    .or_else(|| free.iter().rposition(fits));
                found.map(|i| {
                    let free = self.dedicated_free.remove(i);
                    self.dedicated.in_use += 1;
                    self.dedicated_bytes += free.size;
                    (free.ptr, free.size)
                })
            }
        }
    }

    /// Puts `chunk` back into its class's free list, or the dedicated one (poisoned).
    pub(super) fn put_back(&mut self, classes: Classes, chunk: Chunk, freed_by: u64) {
        let Chunk { ptr, size } = chunk;
        self.bytes_in_use -= size;
        match classes.fit_exact(size) {
            Some(size_class::Fit::Class(index)) => {
                assert_eq!(
                    classes.size(index),
                    size,
                    "chunk given back to the wrong pool"
                );
                poison::poison(ptr.as_ptr(), size);
                self.tick += 1;
                let class = &mut self.classes[index];
                class.counts.in_use -= 1;
                class.free.push_back(FreeChunk {
                    ptr,
                    freed_at: self.tick,
                    freed_by,
                });
                self.bytes_free += size;
            }
            _ => {
                poison::poison(ptr.as_ptr(), size);
                self.tick += 1;
                self.dedicated.in_use -= 1;
                self.dedicated_bytes -= size;
                self.dedicated_free.push(FreeDedicated {
                    ptr,
                    size,
                    freed_at: self.tick,
                    freed_by,
                });
                self.bytes_free += size;
            }
        }
    }

    /// Gives the coldest free chunk of any class back to the OS; `false` if none is free.
    pub(super) fn release_coldest(&mut self, classes: Classes) -> bool {
        let coldest = self
            .classes
            .iter()
            .enumerate()
            .filter_map(|(index, class)| class.free.front().map(|f| (f.freed_at, index)))
            .min();
        let dedicated = self.dedicated_free.first().map(|f| f.freed_at);
        if let Some(freed_at) = dedicated
            && coldest.is_none_or(|(tick, _)| freed_at < tick)
        {
            let free = self.dedicated_free.remove(0);
            self.dedicated.released += 1;
            self.bytes_free -= free.size;
            // SAFETY: a free dedicated chunk is one whole mapping of `size` bytes that no arena
            // holds, and it just left the free list.
            unsafe { self.unmap(free.ptr, free.size) };
            return true;
        }
        let Some((_, index)) = coldest else {
            return false;
        };
        let size = classes.size(index);
        let class = &mut self.classes[index];
        let Some(free) = class.free.pop_front() else {
            return false;
        };
        class.counts.released += 1;
        self.bytes_free -= size;
        // SAFETY: a free chunk of class `index` is one whole mapping of `size` bytes that no
        // arena holds (`FreeChunk` invariant), and it just left the free list.
        unsafe { self.unmap(free.ptr, size) };
        true
    }

    /// Releases coldest free chunks until at most `keep` free bytes remain.
    pub(super) fn release_down_to(&mut self, classes: Classes, keep: usize) {
        while self.bytes_free > keep && self.release_coldest(classes) {}
    }

    /// Unmaps a chunk and counts it.
    ///
    /// # Safety
    ///
    /// `ptr..ptr + size` must be one whole mapping made by `take` that nothing uses any more.
    unsafe fn unmap(&mut self, ptr: NonNull<u8>, size: usize) {
        // The range may be mapped again for someone else: clear our poison first.
        poison::unpoison(ptr.as_ptr(), size);
        // SAFETY: forwarded from the caller.
        self.os.unmaps += unsafe { os::unmap(ptr, size) };
        self.bytes_mapped -= size;
        self.bytes_released += size as u64;
    }
}
