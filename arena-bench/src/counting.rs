//! A global allocator that counts calls and bytes, only while asked to.
//!
//! Both binaries install [`Counting`] around their allocator (`System` or `MiMalloc`). Counting
//! is off while strategies are timed: then each call costs one relaxed load and a
//! well-predicted branch on top of the real allocator. The separate, untimed counting passes
//! turn it on for one document.

use core::alloc::{GlobalAlloc, Layout};
use core::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};

static ENABLED: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicU64 = AtomicU64::new(0);
static REALLOCS: AtomicU64 = AtomicU64::new(0);
static DEALLOCS: AtomicU64 = AtomicU64::new(0);
static NET_BYTES: AtomicI64 = AtomicI64::new(0);

/// Wraps a global allocator and counts its calls and bytes while [`count`] runs.
#[derive(Debug)]
pub struct Counting<A>(pub A);

/// Calls made to the global allocator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Calls {
    /// `alloc` and `alloc_zeroed`.
    pub allocs: u64,
    /// `realloc`.
    pub reallocs: u64,
    /// `dealloc`.
    pub deallocs: u64,
    /// Bytes allocated minus bytes freed (as requested, without the allocator's own overhead):
    /// what the heap still holds of what the counted code allocated.
    pub net_bytes: i64,
}

/// Runs `f` with counting on, and returns its result and the calls it made (from every
/// thread: run it while no other thread allocates).
pub fn count<R>(f: impl FnOnce() -> R) -> (R, Calls) {
    ALLOCS.store(0, Ordering::Relaxed);
    REALLOCS.store(0, Ordering::Relaxed);
    DEALLOCS.store(0, Ordering::Relaxed);
    NET_BYTES.store(0, Ordering::Relaxed);
    ENABLED.store(true, Ordering::SeqCst);
    let r = f();
    ENABLED.store(false, Ordering::SeqCst);
    let calls = Calls {
        allocs: ALLOCS.load(Ordering::Relaxed),
        reallocs: REALLOCS.load(Ordering::Relaxed),
        deallocs: DEALLOCS.load(Ordering::Relaxed),
        net_bytes: NET_BYTES.load(Ordering::Relaxed),
    };
    (r, calls)
}

/// Counts one call to `counter` that changes the heap by `bytes`.
#[inline]
fn bump(counter: &AtomicU64, bytes: i64) {
    if ENABLED.load(Ordering::Relaxed) {
        counter.fetch_add(1, Ordering::Relaxed);
        NET_BYTES.fetch_add(bytes, Ordering::Relaxed);
    }
}

/// `size` as a signed byte count (a layout's size is at most `isize::MAX`).
#[inline]
fn signed(size: usize) -> i64 {
    i64::try_from(size).unwrap_or(i64::MAX)
}

// SAFETY: every method forwards to `A` with the caller's arguments unchanged, so `A`'s
// guarantees are ours; counting touches only atomics and never allocates.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Counting<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump(&ALLOCS, signed(layout.size()));
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which we pass on.
        unsafe { self.0.alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump(&ALLOCS, signed(layout.size()));
        // SAFETY: as for `alloc`.
        unsafe { self.0.alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        bump(&DEALLOCS, -signed(layout.size()));
        // SAFETY: `ptr` came from this allocator, which is `A`, with `layout` (the caller's
        // contract).
        unsafe { self.0.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump(&REALLOCS, signed(new_size) - signed(layout.size()));
        // SAFETY: as for `dealloc`, and the caller guarantees `new_size` is valid.
        unsafe { self.0.realloc(ptr, layout, new_size) }
    }
}
