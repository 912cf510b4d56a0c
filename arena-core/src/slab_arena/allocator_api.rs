//! allocator-api2's `Allocator` for `&SlabArena`: `hashbrown` maps (and arena-core's map impl)
//! in a slab arena.

use core::alloc::Layout;
use core::ptr::NonNull;

use allocator_api2::alloc::{AllocError, Allocator};

use super::SlabArena;
use crate::chunk_pool::poison;

// SAFETY: `allocate` returns `try_alloc_layout` blocks: aligned, `layout.size()` bytes, disjoint
// from every live block, and valid until the arena is reset, rewound or dropped, none of which
// can happen while a `&SlabArena` (this allocator, and every copy of it) is alive. `deallocate`
// only ever moves the cursor back over the block being freed when it is the latest one, so no
// live block is affected. `shrink` keeps a block in place.
unsafe impl Allocator for &SlabArena {
    #[inline]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        match SlabArena::try_alloc_layout(self, layout) {
            Ok(ptr) => Ok(NonNull::slice_from_raw_parts(ptr, layout.size())),
            Err(_) => Err(AllocError),
        }
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // The latest allocation (hashbrown's old table after a rehash, a vector's old buffer)
        // can be taken back; anything else stays until reset.
        let cursor = self.cursor.get();
        if ptr.as_ptr().addr() == cursor.addr() && layout.size() > 0 {
            // The block is `cursor..cursor + size` in the current chunk (the caller
            // guarantees it is a live block of this size, and it starts at the cursor), so the
            // new cursor stays within the chunk.
            poison::poison(cursor, layout.size());
            self.cursor.set(cursor.wrapping_add(layout.size()));
        }
    }

    #[inline]
    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        debug_assert!(new_layout.size() <= old_layout.size());
        if ptr.as_ptr().addr().is_multiple_of(new_layout.align()) {
            // The block stays where it is, with a shorter length; its tail is simply not
            // handed out again before reset.
            return Ok(NonNull::slice_from_raw_parts(ptr, new_layout.size()));
        }
        let new = self.allocate(new_layout)?;
        // SAFETY: the caller guarantees `ptr` is valid for `old_layout.size() >= new size`
        // bytes; `new` is a fresh block of `new_layout.size()` bytes, disjoint from `ptr`.
        unsafe {
            core::ptr::copy_nonoverlapping(
                ptr.as_ptr(),
                new.as_ptr().cast::<u8>(),
                new_layout.size(),
            );
        }
        Ok(new)
    }
}

#[cfg(test)]
mod tests {
    use crate::SlabArena;

    #[test]
    fn hashbrown_map_in_a_slab_arena() {
        let arena = SlabArena::new();
        let mut map = hashbrown::HashMap::new_in(&arena);
        for i in 0..10_000u32 {
            map.insert(i, i * 2);
        }
        assert_eq!(map.len(), 10_000);
        assert_eq!(map[&1234], 2468);
        assert!(arena.stats().used_bytes > 10_000 * 8);
        arena.check_invariants();
    }

    #[test]
    fn latest_block_is_taken_back() {
        use allocator_api2::alloc::Allocator;
        use core::alloc::Layout;

        let arena = SlabArena::new();
        let layout = Layout::from_size_align(100, 8).unwrap();
        let a = (&arena).allocate(layout).unwrap();
        let used = arena.stats().used_bytes;
        let b = (&arena).allocate(layout).unwrap();
        // SAFETY: `b` was allocated with `layout` and is not used again.
        unsafe { (&arena).deallocate(b.cast(), layout) };
        // Back to where `b` started: only its alignment padding stays used.
        let after = arena.stats().used_bytes;
        assert!(after >= used && after < used + 8, "{used} -> {after}");
        // `a` is not the latest any more: it stays.
        // SAFETY: as above, for `a`.
        unsafe { (&arena).deallocate(a.cast(), layout) };
        assert_eq!(arena.stats().used_bytes, after);
        arena.check_invariants();
    }
}
