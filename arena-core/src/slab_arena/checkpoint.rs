//! [`SlabCheckpoint`]: a saved allocation state of a [`SlabArena`], and rewinding to it, which
//! gives back the chunks taken since and moves the cursor back.

use core::ptr::{self, NonNull};

use super::chunk_list::ChunkDrain;
use super::{ChunkHeader, EMPTY, HEADER, SlabArena};
use crate::chunk_pool::poison;

/// A saved allocation state of a [`SlabArena`], to [`reset_to`](SlabArena::reset_to).
///
/// Four words: the arena's newest chunk, its bump cursor, the bottom of its current chunk
/// (where its low edge, the blocks taken from the bottom up, had risen to) and whether a low
/// block was open, at the time. It is meant for the arena that made it, before its next reset;
/// anything else is refused (a panic) as soon as it does not describe chunks the arena still
/// holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlabCheckpoint {
    /// The newest chunk then, or `None` for an arena without chunks.
    head: Option<NonNull<ChunkHeader>>,
    /// The cursor then (address `EMPTY` without chunks).
    cursor: *mut u8,
    /// The bottom then: the current chunk's low edge (`EMPTY` without chunks).
    bottom: usize,
    /// Whether a low block was open then: one opened since is closed by the rewind.
    low_open: bool,
}

impl SlabArena {
    /// A checkpoint of the allocation state, to [`reset_to`](Self::reset_to): four words,
    /// no allocation, no lock.
    #[must_use]
    pub fn checkpoint(&self) -> SlabCheckpoint {
        SlabCheckpoint {
            head: self.head.get(),
            cursor: self.cursor.get(),
            bottom: self.bottom.get(),
            low_open: self.low_open.get(),
        }
    }

    /// Frees everything allocated since `checkpoint`: chunks taken since go back to the pool,
    /// and the cursor returns to where it was. Taking `&mut self`, it cannot run while anything
    /// allocated from the arena is still borrowed. (The name follows bump-scope's `reset_to`;
    /// [`BumpAllocator::rewind`](crate::BumpAllocator::rewind) is the unsafe, shared-borrow
    /// form `ArenaSeed` uses to undo a failed deserialization.)
    ///
    /// # Panics
    ///
    /// When `checkpoint` does not describe chunks the arena still holds: made by another
    /// arena, before a reset, or after a state it was rewound past. (Such a rewind is refused
    /// before anything changes.)
    pub fn reset_to(&mut self, checkpoint: SlabCheckpoint) {
        // SAFETY: `&mut self`: nothing allocated from the arena is borrowed any more.
        unsafe { self.rewind_shared(checkpoint) }
    }

    /// [`reset_to`](Self::reset_to) through a shared borrow.
    ///
    /// # Safety
    ///
    /// Nothing allocated after `checkpoint` is used again.
    pub(super) unsafe fn rewind_shared(&self, checkpoint: SlabCheckpoint) {
        // Validate first: the checkpoint's newest chunk must be in the list, and its cursor in
        // that chunk or an older one.
        let mut newer = 0;
        let mut found_head = false;
        let mut current = None;
        let cursor = checkpoint.cursor.addr();
        self.for_each_chunk(|header, size, _| {
            if Some(header) == checkpoint.head {
                found_head = true;
            }
            if !found_head {
                newer += 1;
            } else if current.is_none() {
                let base = header.addr().get();
                if (base + HEADER..=base + size).contains(&cursor) {
                    current = Some(header);
                }
            }
        });
        // A checkpoint of an arena without chunks: every chunk is newer.
        assert!(
            found_head || checkpoint.head.is_none(),
            "checkpoint's chunks are no longer in this arena"
        );
        match current {
            Some(header) => assert!(
                (header.addr().get() + HEADER..=cursor).contains(&checkpoint.bottom),
                "checkpoint bottom outside its chunk's header..cursor"
            ),
            None => assert!(
                checkpoint.head.is_none() && cursor == EMPTY,
                "checkpoint cursor outside the arena's chunks"
            ),
        }
        self.retire_current();
        if newer > 0 {
            let mut freed = 0;
            let mut next = self.head.get();
            for _ in 0..newer {
                let header = next.unwrap_or_else(|| unreachable!("counted in the list above"));
                // SAFETY: a chunk of the list, header written (field invariant of `head`).
                unsafe {
                    freed += (*header.as_ptr()).chunk.size();
                    next = (*header.as_ptr()).prev;
                }
            }
            let drain = ChunkDrain {
                next: self.head.get(),
                skip: None,
            }
            .take(newer);
            self.pool.give_back(drain, None);
            self.head.set(next);
            self.chunks.set(self.chunks.get() - newer);
            self.reserved.set(self.reserved.get() - freed);
        }
        self.current.set(current);
        // A low block opened since the checkpoint is freed with the rest; one open then is
        // still open (it cannot have grown or closed since: see `low_edge`).
        self.low_open.set(checkpoint.low_open);
        if !checkpoint.low_open || (current.is_some() && self.low_retired.get() == current) {
            // No block open, or the chunk of the open one is current again, its bottom where
            // the block ends.
            self.low_retired.set(None);
        }
        match current {
            Some(header) => {
                let base = header.cast::<u8>().as_ptr();
                // The chunk's bottom then (checked above): the low edge's blocks below it are
                // older than the checkpoint.
                self.bottom.set(checkpoint.bottom);
                // Everything between the restored bottom and cursor is free again.
                poison::poison(
                    base.with_addr(checkpoint.bottom),
                    cursor - checkpoint.bottom,
                );
                // The cursor lies in this chunk (checked above); take the chunk's provenance.
                self.cursor.set(base.with_addr(cursor));
            }
            None => {
                self.bottom.set(EMPTY);
                self.cursor.set(ptr::without_provenance_mut(EMPTY));
            }
        }
    }
}
