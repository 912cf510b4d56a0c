//! AddressSanitizer poisoning of memory nobody may touch, under `--cfg arena_asan`.
//!
//! The pool poisons a chunk while it is free; an arena poisons the unused part of its chunks
//! and unpoisons exactly what it hands out. An overread past an allocation into the unused
//! tail, or a use of arena memory after `reset`, then stops the program with an ASan report.
//! Without the cfg both functions are empty and inline away.

/// Marks `len` bytes from `ptr` as not addressable.
#[inline(always)]
pub(crate) fn poison(ptr: *const u8, len: usize) {
    #[cfg(arena_asan)]
    // SAFETY: the ASan runtime only updates its shadow memory for the range; the callers pass
    // ranges inside a chunk they own, so no other code's memory is affected.
    unsafe {
        __asan_poison_memory_region(ptr.cast(), len);
    }
    #[cfg(not(arena_asan))]
    let _ = (ptr, len);
}

/// Marks `len` bytes from `ptr` as addressable again.
#[inline(always)]
pub(crate) fn unpoison(ptr: *const u8, len: usize) {
    #[cfg(arena_asan)]
    // SAFETY: as in `poison`: a shadow-memory update for a range of a chunk the caller owns.
    unsafe {
        __asan_unpoison_memory_region(ptr.cast(), len);
    }
    #[cfg(not(arena_asan))]
    let _ = (ptr, len);
}

#[cfg(arena_asan)]
unsafe extern "C" {
    fn __asan_poison_memory_region(addr: *const core::ffi::c_void, size: usize);
    fn __asan_unpoison_memory_region(addr: *const core::ffi::c_void, size: usize);
}
