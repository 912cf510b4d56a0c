//! [`BumpAllocator`] for [`bump_scope::Bump`].

use core::alloc::Layout;
use core::ptr::NonNull;

use bump_scope::alloc::Allocator as _;
use bump_scope::settings::BumpAllocatorSettings;
use bump_scope::{BaseAllocator, Bump};

use super::{AllocError, ArenaStats, BumpAllocator, Checkpoint};

// SAFETY: `bump_scope::Bump`'s `Allocator::allocate` returns a block aligned and at least
// `layout.size()` long, disjoint from every other live block. We never call `deallocate`,
// `grow` or `shrink` on the blocks, so they stay where they are until `reset` (which takes
// `&mut self`) or drop. `bump_scope::Bump` is not `Sync`, and its `reset_to` gives back exactly
// what was allocated since the checkpoint, as `rewind` requires.
unsafe impl<A, S> BumpAllocator for Bump<A, S>
where
    A: BaseAllocator<S::GuaranteedAllocated>,
    S: BumpAllocatorSettings,
{
    #[inline]
    fn try_alloc_layout(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        self.allocate(layout)
            .map(NonNull::cast)
            .map_err(|_| AllocError::new(layout))
    }

    fn stats(&self) -> ArenaStats {
        let stats = Bump::stats(self);
        // bump-scope's own `allocated()` counts every chunk before the current one as full;
        // sum what each of them really handed out instead. Chunks after the current one are
        // spare chunks kept from before a reset: reserved, but not in use.
        let used_bytes = stats.current_chunk().map_or(0, |current| {
            current.iter_prev().fold(current.allocated(), |sum, chunk| {
                sum.saturating_add(chunk.allocated())
            })
        });
        ArenaStats {
            reserved_bytes: stats.capacity(),
            used_bytes,
            chunks: stats.count(),
        }
    }

    #[inline]
    fn checkpoint(&self) -> Option<Checkpoint> {
        Some(Checkpoint::new(
            bump_scope::traits::BumpAllocatorCore::checkpoint(self),
        ))
    }

    #[inline]
    unsafe fn rewind(&self, checkpoint: Checkpoint) {
        // SAFETY: `rewind`'s caller guarantees the checkpoint came from `checkpoint` above, so
        // it holds a `bump_scope::Checkpoint` of this arena, still valid (no reset or earlier
        // rewind since) with nothing allocated after it used again: `reset_to`'s contract.
        unsafe { self.reset_to(checkpoint.get::<bump_scope::Checkpoint>()) }
    }
}
