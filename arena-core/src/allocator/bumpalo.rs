//! [`BumpAllocator`] for [`bumpalo::Bump`].

use core::alloc::Layout;
use core::ptr::NonNull;

use super::{AllocError, ArenaStats, BumpAllocator};

// SAFETY: `bumpalo::Bump::try_alloc_layout` returns memory aligned and sized for `layout`,
// disjoint from every other live allocation and kept until `reset` (which takes `&mut self`)
// or drop; that is exactly the trait's contract. bumpalo has no way to move its bump pointer back,
// so it keeps the default `checkpoint` (`None`): a failed deserialization leaves what it
// allocated in the arena until `reset`.
unsafe impl<const MIN_ALIGN: usize> BumpAllocator for bumpalo::Bump<MIN_ALIGN> {
    #[inline]
    fn try_alloc_layout(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        bumpalo::Bump::try_alloc_layout(self, layout).map_err(|_| AllocError::new(layout))
    }

    fn stats(&self) -> ArenaStats {
        // `allocated_bytes` is the capacity of the chunks only; what was handed out is the
        // allocated part of each chunk, which the raw chunk iterator reports.
        let mut used_bytes = 0usize;
        let mut chunks = 0usize;
        // SAFETY: no allocation happens while the iterator is alive (it is consumed here, under
        // a shared borrow of `self`, and nothing else runs), and the chunk data is never read:
        // only the lengths are summed.
        for (_, len) in unsafe { self.iter_allocated_chunks_raw() } {
            used_bytes = used_bytes.saturating_add(len);
            chunks += 1;
        }
        ArenaStats {
            reserved_bytes: self.allocated_bytes(),
            used_bytes,
            chunks,
        }
    }
}
