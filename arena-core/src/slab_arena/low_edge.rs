//! The low edge: one block at a time growing up from the current chunk's bottom, while every
//! other allocation bumps down from its top.
//!
//! A sequence whose length the format does not give (JSON) collects its elements on the
//! scratch stack and is copied into the arena when it ends. For the large sequence of a large
//! document (its top-level array) that copy is the elements written twice, and the stack holds
//! them resident between documents on top of the arena. A [`SliceBuilder`] that grows past a
//! threshold therefore moves its elements here once, into a block at the current chunk's
//! bottom, and grows that block in place by raising the bottom: what it holds at the end is
//! the slice, not a copy of it. A fresh arena whose first chunk the pool sized by the documents
//! before it (see [`SlabArena`]) then reads a document of the same size into that one chunk,
//! the sequence rising from the bottom while the strings and nested values it holds come down
//! from the top.
//!
//! - **One block at a time.** A block grows only while it ends at the bottom; a second block
//!   taken above it would pin it. [`take_low`](SlabArena::take_low) refuses while one is open.
//! - **When the two ends meet** the block cannot grow. If it still ends at the bottom, its
//!   builder gives it back ([`close_low`](SlabArena::close_low) keeping none of it) and stages its
//!   elements on the scratch stack; nothing is lost. If a refill retired its chunk first (an
//!   allocation from the top did not fit), the block cannot grow any more: its builder stages
//!   the elements on the scratch stack too, and the block's bytes stay behind in the retired
//!   chunk, counted as its unused tail is (not as used). That is the cost of a document that
//!   outgrew its chunk: at most one block per sequence (a sequence takes the low edge once),
//!   at most the room its chunk had.
//! - **Rewinding** restores the bottom with the cursor, and whether a block is open
//!   ([`SlabCheckpoint`] holds all three): a block opened after the checkpoint is freed and
//!   closed with everything else (so a sequence abandoned by an error needs nothing of its
//!   own: its call rewinds), and one opened before it stays open. Such an older block must not
//!   grow or close between the checkpoint and the rewind, and does not: the checkpoints taken
//!   while a sequence is open are those of attempts inside one of its elements, and the
//!   sequence grows or closes only between its elements. A sequence abandoned without a
//!   rewind (an error a hand-written impl swallows) leaves its block open: its bytes stay
//!   allocated, and the arena takes no other low block until a rewind or a reset.
//!
//! The four methods are the slice builder's; they are public, hidden, for the model tests
//! (`tests/slab_model.rs`), which interleave them with allocations, checkpoints and rewinds.
//!
//! [`SliceBuilder`]: crate::slice_builder
//! [`SlabCheckpoint`]: super::SlabCheckpoint

use core::alloc::Layout;
use core::ptr::NonNull;

use super::{HEADER, SlabArena};
use crate::chunk_pool::poison;

impl SlabArena {
    /// A block for `layout` at the current chunk's bottom, which rises past it, if no low block
    /// is open and the chunk has the room. The block is open until
    /// [`close_low`](Self::close_low).
    #[doc(hidden)]
    pub fn take_low(&self, layout: Layout) -> Option<NonNull<u8>> {
        if self.low_open.get() || self.current.get().is_none() {
            return None;
        }
        let bottom = self.bottom.get();
        let start = bottom.checked_next_multiple_of(layout.align())?;
        let end = start.checked_add(layout.size())?;
        if end > self.cursor.get().addr() {
            return None;
        }
        self.bottom.set(end);
        self.low_open.set(true);
        // The block lies in the current chunk, below the cursor: take the cursor's provenance.
        let ptr = self.cursor.get().with_addr(start);
        poison::unpoison(ptr, layout.size());
        NonNull::new(ptr)
    }

    /// Bytes the open low block ending at `end` can grow by (the room between the bottom and
    /// the cursor), or `None` when it no longer ends at the bottom (a refill retired its
    /// chunk) or no block is open: such a block cannot grow, not even by nothing.
    #[doc(hidden)]
    #[must_use]
    pub fn low_room(&self, end: NonNull<u8>) -> Option<usize> {
        let bottom = self.bottom.get();
        (self.low_open.get() && end.addr().get() == bottom)
            .then(|| self.cursor.get().addr() - bottom)
    }

    /// Grows the open low block ending at `end` by `extra` bytes, if it still ends at the
    /// bottom and the chunk has the room.
    #[doc(hidden)]
    pub fn extend_low(&self, end: NonNull<u8>, extra: usize) -> bool {
        if self.low_room(end).is_none_or(|room| room < extra) {
            return false;
        }
        poison::unpoison(end.as_ptr(), extra);
        self.bottom.set(end.addr().get() + extra);
        true
    }

    /// Closes the open low block ending at `end`, giving back its bytes from `keep_to` (its
    /// unused tail, or all of it) if it still ends at the bottom. What it keeps then stays as
    /// allocated as any other allocation.
    ///
    /// # Safety
    ///
    /// `keep_to..end` lies in the block, and none of those bytes is used again.
    #[doc(hidden)]
    pub unsafe fn close_low(&self, keep_to: NonNull<u8>, end: NonNull<u8>) {
        if !self.low_open.replace(false) {
            // No block open: nothing of it to give back.
            return;
        }
        let (keep_to, end) = (keep_to.addr().get(), end.addr().get());
        let given_back = end - keep_to;
        if let Some(retired) = self.low_retired.take() {
            // SAFETY: `retired` is a chunk of the list (a refill retired it, and only a rewind
            // past the block, which closes it first, or a reset could free it); its header
            // is read and written only here while the arena is borrowed (`!Sync`).
            unsafe {
                let header = retired.as_ptr();
                let base = retired.addr().get();
                // Its `used` counts everything up to where its bottom was, the block's end.
                if (base + HEADER..=base + (*header).chunk.size()).contains(&keep_to)
                    && (*header).used >= given_back
                {
                    (*header).used -= given_back;
                    poison::poison(retired.cast::<u8>().as_ptr().with_addr(keep_to), given_back);
                }
            }
        } else if end == self.bottom.get() {
            // A block ending at the bottom lies in the current chunk: the bottom is above its
            // header, and every block taken since ends at most at a cursor of that chunk.
            poison::poison(self.cursor.get().with_addr(keep_to), given_back);
            self.bottom.set(keep_to);
        }
    }
}
