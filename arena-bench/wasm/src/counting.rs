//! The global allocator, wrapped to count the `memory.grow` calls it makes and the calls it
//! serves.
//!
//! Linear memory only grows, one `memory.grow` at a time, and the global allocator (dlmalloc or
//! talc) is what grows it for everything but `SlabArena`'s pool (whose grows its own stats
//! count, `ChunkPool::stats().os_map_calls`). Each call compares the memory's size before and
//! after: a size that changed is one grow, as both allocators grow at most once per call.

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32::memory_size;
use core::sync::atomic::{AtomicU64, Ordering};

/// Grows seen inside the global allocator so far.
static GROWS: AtomicU64 = AtomicU64::new(0);
/// Calls to `alloc`, `alloc_zeroed` and `realloc` so far.
static CALLS: AtomicU64 = AtomicU64::new(0);

/// What the global allocator did so far.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AllocCounts {
    /// `memory.grow` calls made inside it.
    pub grows: u64,
    /// Allocations and reallocations served.
    pub calls: u64,
}

impl AllocCounts {
    /// The counts so far.
    pub(crate) fn now() -> Self {
        Self {
            grows: GROWS.load(Ordering::Relaxed),
            calls: CALLS.load(Ordering::Relaxed),
        }
    }

    /// What was done between `before` and `self`.
    pub(crate) fn since(self, before: Self) -> Self {
        Self {
            grows: self.grows - before.grows,
            calls: self.calls - before.calls,
        }
    }
}

/// `A`, counting.
#[derive(Debug)]
pub(crate) struct Counting<A>(pub A);

impl<A> Counting<A> {
    /// Counts one call that found the memory `pages_before` pages large.
    #[inline]
    fn count(pages_before: usize) {
        CALLS.fetch_add(1, Ordering::Relaxed);
        if memory_size::<0>() != pages_before {
            GROWS.fetch_add(1, Ordering::Relaxed);
        }
    }
}

// SAFETY: every call is forwarded to `A` unchanged, with its arguments and result; the
// wrapper only reads the memory's size around it.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Counting<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pages = memory_size::<0>();
        // SAFETY: the caller's guarantees for `alloc` are passed on as they are.
        let p = unsafe { self.0.alloc(layout) };
        Self::count(pages);
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let pages = memory_size::<0>();
        // SAFETY: the caller's guarantees for `alloc_zeroed` are passed on as they are.
        let p = unsafe { self.0.alloc_zeroed(layout) };
        Self::count(pages);
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's guarantees for `dealloc` are passed on as they are.
        unsafe { self.0.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let pages = memory_size::<0>();
        // SAFETY: the caller's guarantees for `realloc` are passed on as they are.
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        Self::count(pages);
        p
    }
}

#[cfg(not(feature = "talc"))]
#[global_allocator]
static GLOBAL: Counting<std::alloc::System> = Counting(std::alloc::System);

#[cfg(feature = "talc")]
#[global_allocator]
static GLOBAL: Counting<talc::wasm::WasmDynamicTalc> =
    Counting(talc::wasm::new_wasm_dynamic_allocator());
