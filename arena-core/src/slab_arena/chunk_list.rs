//! The arena's chunk list: every chunk starts with a [`ChunkHeader`] linking it to the chunk
//! taken before it, so the list lives in the chunks and the arena never allocates for it.
//! Here: writing a header, recording what the current chunk handed out, walking the list, and
//! draining its chunks back to the pool.

use core::ptr::NonNull;

use super::{ChunkHeader, HEADER, SlabArena};
use crate::chunk_pool::{Chunk, poison};

impl SlabArena {
    /// Records in the current chunk's header how much of it was handed out, and remembers it
    /// if the open low block lies in it.
    pub(super) fn retire_current(&self) {
        if let Some(current) = self.current.get() {
            if self.low_open.get() && self.low_retired.get().is_none() {
                self.low_retired.set(Some(current));
            }
            // SAFETY: `current` is a chunk of the list (field invariant), its header written
            // when it was taken; the arena is `!Sync` and no reference to a header escapes, so
            // this is the only access.
            unsafe {
                let header = current.as_ptr();
                (*header).used = self.current_used(current, (*header).chunk.size());
            }
        }
    }

    /// Bytes the current chunk, `header` of `size` bytes, has handed out: from the cursor up,
    /// and from its header up to the bottom (the low edge's blocks).
    fn current_used(&self, header: NonNull<ChunkHeader>, size: usize) -> usize {
        let base = header.addr().get();
        (base + size - self.cursor.get().addr()) + (self.bottom.get() - base - HEADER)
    }

    /// Walks the chunk list, newest first: `(header, chunk size, used)`, where `used` is
    /// computed from the cursor and the bottom for the current chunk.
    pub(super) fn for_each_chunk(&self, mut f: impl FnMut(NonNull<ChunkHeader>, usize, usize)) {
        let mut next = self.head.get();
        while let Some(header) = next {
            // SAFETY: every chunk in the list has a written header (field invariant of
            // `head`); reading it while the arena is borrowed cannot race (`!Sync`).
            let (prev, size, used) = unsafe {
                let h = header.as_ptr();
                ((*h).prev, (*h).chunk.size(), (*h).used)
            };
            let used = if Some(header) == self.current.get() {
                self.current_used(header, size)
            } else {
                used
            };
            f(header, size, used);
            next = prev;
        }
    }
}

/// Writes the header of `chunk`, just taken from the pool, at its start, linking it to `prev`
/// (the arena's newest chunk, or `None`), and returns it.
pub(super) fn write_header(
    chunk: Chunk,
    prev: Option<NonNull<ChunkHeader>>,
) -> NonNull<ChunkHeader> {
    let header = chunk.ptr().cast::<ChunkHeader>();
    poison::unpoison(chunk.ptr().as_ptr(), HEADER);
    // SAFETY: the chunk is ours alone (the pool handed out the token), page aligned and at
    // least a page, so more than `HEADER` bytes: the header fits at its start, and it is
    // written before any read.
    unsafe {
        header.write(ChunkHeader {
            prev,
            chunk,
            used: 0,
        });
    }
    header
}

/// Takes the chunks of a list out of their headers, newest first, skipping `skip`.
pub(super) struct ChunkDrain {
    /// Next header to read: a chunk of an arena's list, its header written.
    pub(super) next: Option<NonNull<ChunkHeader>>,
    pub(super) skip: Option<NonNull<ChunkHeader>>,
}

impl Iterator for ChunkDrain {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        loop {
            let header = self.next?;
            // SAFETY: `header` is a written header of a chunk the arena owns (field
            // invariant). Reading it by value moves the token out; the arena stops using the
            // chunk (its caller detaches the drained chunks from the list), and we read `prev`
            // before handing the token on, after which the pool may reuse or unmap the chunk.
            let ChunkHeader { prev, chunk, .. } = unsafe { header.as_ptr().read() };
            self.next = prev;
            if Some(header) == self.skip {
                // The kept chunk: its token stays in its header (`read` copied it; this copy
                // is dropped without giving it back, which `Chunk` allows).
                let _kept = chunk;
                continue;
            }
            return Some(chunk);
        }
    }
}
