//! The pool's source of memory: anonymous `mmap` on unix, linear memory grown with
//! `memory.grow` on wasm32 ([`linear_memory`]), `std::alloc` elsewhere.
//!
//! Every function here maps or unmaps one region of a size computed by `size_class` (a non-zero
//! multiple of [`PAGE`]), and reports the OS calls it made, which the caller counts. On wasm32
//! a map makes a call only when it grows the memory, and an unmap makes none: Wasm memory
//! never shrinks, so the region waits in `linear_memory` for the next chunk.

use core::ptr::NonNull;

use super::size_class::PAGE;

#[cfg(any(test, target_arch = "wasm32"))]
mod linear_memory;

/// How to ask for huge pages.
///
/// The default is [`Transparent`](Self::Transparent). A reader that fills a large arena
/// writes megabytes of fresh lines spread over thousands of 4 KiB pages, and with normal
/// pages part of its time goes to page walks (the TLB holds a few thousand entries; one 16 MiB
/// chunk alone takes 4,096). With 2 MiB pages one chunk takes a few entries, and reading a
/// large document is measurably faster (arena-bench's JSON and postcard cities). Chunks under
/// 2 MiB are never advised, so small arenas are as with `Off`. The cost is the kernel's: a
/// huge page is zeroed whole at its first touch (the pool keeps its chunks, so once per
/// mapping), and with the system's THP `defrag` setting at `madvise` that first touch may
/// compact memory. [`Off`](Self::Off) opts out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HugePages {
    /// Normal pages only.
    Off,
    /// Transparent huge pages: `madvise(MADV_HUGEPAGE)` on every chunk of at least 2 MiB
    /// (Linux; ignored elsewhere). The default.
    #[default]
    Transparent,
    /// `MAP_HUGETLB` for chunks that are a multiple of 2 MiB, falling back silently to normal
    /// pages when the system has no huge pages reserved (Linux; ignored elsewhere).
    HugeTlb,
}

/// OS calls made by one [`map`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MapCalls {
    /// `mmap` calls (a failed `MAP_HUGETLB` attempt counts), `memory.grow` calls on wasm32,
    /// allocator calls elsewhere.
    pub(crate) maps: u64,
    /// `madvise` calls.
    pub(crate) advises: u64,
    /// A `MAP_HUGETLB` attempt failed: the system has no huge pages (left) to give.
    pub(crate) hugetlb_failed: bool,
}

/// Maps `size` bytes of fresh, readable and writable memory aligned to at least `PAGE`.
///
/// `size` must be a non-zero multiple of `PAGE` (the pool only passes sizes from
/// `size_class`). Returns `None` when the OS refuses.
pub(crate) fn map(size: usize, huge: HugePages, calls: &mut MapCalls) -> Option<NonNull<u8>> {
    debug_assert!(size > 0, "mapping an empty region");
    imp::map(size, huge, calls)
}

/// Gives a region back to the OS (on wasm32, to the spans the next map carves from); returns
/// the OS calls made.
///
/// # Safety
///
/// `ptr` and `size` must be exactly a region returned by [`map`] with that `size`, not unmapped
/// yet, and nothing may access it afterwards.
pub(crate) unsafe fn unmap(ptr: NonNull<u8>, size: usize) -> u64 {
    debug_assert!(ptr.addr().get().is_multiple_of(PAGE) && size.is_multiple_of(PAGE));
    // SAFETY: forwarded from the caller.
    unsafe { imp::unmap(ptr, size) }
}

#[cfg(unix)]
mod imp {
    use super::{HugePages, MapCalls};
    use core::ptr::{self, NonNull};

    /// Size of a huge page on the platforms where [`HugePages`] does something.
    const HUGE_PAGE: usize = 2 * 1024 * 1024;

    fn mmap_anonymous(size: usize, extra_flags: libc::c_int) -> Option<NonNull<u8>> {
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches
        // no existing memory; the result is checked against MAP_FAILED below.
        let ptr = unsafe {
            libc::mmap(
                ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | extra_flags,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            None
        } else {
            NonNull::new(ptr.cast::<u8>())
        }
    }

    pub(super) fn map(size: usize, huge: HugePages, calls: &mut MapCalls) -> Option<NonNull<u8>> {
        #[cfg(target_os = "linux")]
        if huge == HugePages::HugeTlb && size.is_multiple_of(HUGE_PAGE) {
            calls.maps += 1;
            if let Some(ptr) = mmap_anonymous(size, libc::MAP_HUGETLB) {
                return Some(ptr);
            }
            // No huge pages reserved (or none left): fall back to normal pages, silently.
            calls.hugetlb_failed = true;
        }
        calls.maps += 1;
        let ptr = mmap_anonymous(size, 0)?;
        #[cfg(target_os = "linux")]
        if huge == HugePages::Transparent && size >= HUGE_PAGE {
            calls.advises += 1;
            // SAFETY: `ptr..ptr + size` is the mapping just created; MADV_HUGEPAGE only changes
            // how the kernel backs it, never its contents. A failure (no THP support) is
            // harmless and ignored.
            unsafe {
                libc::madvise(ptr.as_ptr().cast(), size, libc::MADV_HUGEPAGE);
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = (huge, HUGE_PAGE);
        Some(ptr)
    }

    pub(super) unsafe fn unmap(ptr: NonNull<u8>, size: usize) -> u64 {
        // SAFETY: the caller guarantees `ptr..ptr + size` is one whole mapping from `map` that
        // nothing uses any more.
        let result = unsafe { libc::munmap(ptr.as_ptr().cast(), size) };
        debug_assert_eq!(result, 0, "munmap({ptr:p}, {size}) failed");
        1
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::linear_memory::{Memory, Spans};
    use super::{HugePages, MapCalls};
    use core::arch::wasm32;
    use core::ptr::{self, NonNull};
    use std::sync::{Mutex, PoisonError};

    /// The spans of linear memory the pools of this instance grew, shared by every pool (a
    /// pool's released chunk serves the next pool's request).
    static SPANS: Mutex<Spans> = Mutex::new(Spans::new());

    /// The instance's memory 0, the one Rust allocates in.
    struct Linear;

    impl Memory for Linear {
        fn size_pages(&self) -> usize {
            wasm32::memory_size::<0>()
        }

        fn grow(&mut self, pages: usize) -> Option<usize> {
            let previous = wasm32::memory_grow::<0>(pages);
            (previous != usize::MAX).then_some(previous)
        }
    }

    pub(super) fn map(size: usize, _huge: HugePages, calls: &mut MapCalls) -> Option<NonNull<u8>> {
        let mut spans = SPANS.lock().unwrap_or_else(PoisonError::into_inner);
        let start = spans.take(size, &mut Linear, &mut calls.maps)?;
        // Linear memory has no allocation to derive a provenance from: the address is the
        // memory's own, as every Wasm allocator takes it.
        NonNull::new(ptr::with_exposed_provenance_mut(start))
    }

    pub(super) unsafe fn unmap(ptr: NonNull<u8>, size: usize) -> u64 {
        // The caller's promise (a whole region from `map`, unused from now on) is what lets the
        // span be handed out again.
        let mut spans = SPANS.lock().unwrap_or_else(PoisonError::into_inner);
        spans.give(ptr.addr().get(), size);
        0
    }
}

#[cfg(not(any(unix, target_arch = "wasm32")))]
mod imp {
    use super::{HugePages, MapCalls, PAGE};
    use core::alloc::Layout;
    use core::ptr::NonNull;

    pub(super) fn map(size: usize, _huge: HugePages, calls: &mut MapCalls) -> Option<NonNull<u8>> {
        let layout = Layout::from_size_align(size, PAGE).ok()?;
        calls.maps += 1;
        // SAFETY: `layout` has a non-zero size (the pool never maps an empty region).
        NonNull::new(unsafe { std::alloc::alloc(layout) })
    }

    pub(super) unsafe fn unmap(ptr: NonNull<u8>, size: usize) -> u64 {
        // SAFETY: `map` allocated `ptr` with exactly this layout (the caller passes the same
        // size, which was valid then).
        unsafe {
            std::alloc::dealloc(ptr.as_ptr(), Layout::from_size_align_unchecked(size, PAGE));
        }
        1
    }
}
