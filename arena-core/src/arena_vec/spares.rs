//! The spare staging buffers of [`ArenaVec`](super::ArenaVec): one small per-thread list of
//! the buffers that frozen and dropped vectors gave back, reused by the next vectors.
//!
//! A fresh `Vec` per vector costs a `malloc`, a few `realloc`s as it grows and a `free`: about
//! as much as the rest of building a short vector (see `arena_vec.rs` for the measurements).
//! Reusing the buffers of vectors already frozen removes that cost for the short vectors where
//! it matters. A buffer can stage any element type of its alignment whose size divides its
//! length, so `ArenaVec<u32>` and `ArenaVec<char>` share buffers, as do `ArenaString` and
//! `ArenaVec<u8>`.

use core::alloc::Layout;
use core::cell::RefCell;
use core::mem::{self, ManuallyDrop, align_of, size_of};
use core::ptr::NonNull;

/// Largest buffer kept, in bytes: a vector larger than that spends little per element on its
/// `malloc`, and the list stays small.
const MAX_SPARE_BYTES: usize = 16 * 1024;

/// Most buffers kept per thread: as many vectors built at once reuse buffers; with
/// [`MAX_SPARE_BYTES`] it bounds the list to 256 KiB per thread.
const MAX_SPARES: usize = 16;

/// A buffer of the global allocator holding no values.
struct Spare {
    /// Allocated by the global allocator with `layout`, owned by the list.
    ptr: NonNull<u8>,
    /// The layout it was allocated with: a size in `1..=MAX_SPARE_BYTES`.
    layout: Layout,
}

/// This thread's spare buffers.
struct Spares {
    /// At most [`MAX_SPARES`] buffers, most recently given back last.
    list: Vec<Spare>,
}

impl Drop for Spares {
    fn drop(&mut self) {
        for spare in self.list.drain(..) {
            // SAFETY: the list owns `spare.ptr`, allocated by the global allocator with
            // `spare.layout` (a non-zero size), and drops it exactly once, here.
            unsafe { std::alloc::dealloc(spare.ptr.as_ptr(), spare.layout) };
        }
    }
}

std::thread_local! {
    static SPARES: RefCell<Spares> = const { RefCell::new(Spares { list: Vec::new() }) };
}

/// An empty `Vec<T>` on a spare buffer of this thread, or a new empty `Vec` if none fits.
pub(super) fn take<T>() -> Vec<T> {
    if size_of::<T>() == 0 {
        return Vec::new();
    }
    let found = SPARES.try_with(|spares| {
        let mut spares = spares.try_borrow_mut().ok()?;
        let i = spares.list.iter().rposition(|spare| {
            spare.layout.align() == align_of::<T>() && spare.layout.size() % size_of::<T>() == 0
        })?;
        Some(spares.list.swap_remove(i))
    });
    match found {
        Ok(Some(spare)) => {
            // SAFETY: `spare` was a `Vec` buffer of the global allocator whose layout is
            // `spare.layout`; its alignment is `T`'s and `T`'s size times the capacity given is
            // exactly its size, which is what `Vec::from_raw_parts` requires of a buffer
            // allocated for another type. Length 0: no value is assumed initialised. Removed
            // from the list, the buffer is owned by the new `Vec` alone.
            unsafe {
                Vec::from_raw_parts(
                    spare.ptr.as_ptr().cast::<T>(),
                    0,
                    spare.layout.size() / size_of::<T>(),
                )
            }
        }
        _ => Vec::new(),
    }
}

/// Drops the values of `vec` and keeps its buffer for [`take`], if it is small enough and the
/// list has room; frees it otherwise.
pub(crate) fn give_back<T>(mut vec: Vec<T>) {
    vec.clear();
    // The buffer exists, so its size in bytes does not overflow.
    let bytes = vec.capacity() * size_of::<T>();
    if bytes == 0 || bytes > MAX_SPARE_BYTES {
        return;
    }
    let _ = SPARES.try_with(|spares| {
        let Ok(mut spares) = spares.try_borrow_mut() else {
            return;
        };
        if spares.list.len() >= MAX_SPARES || spares.list.try_reserve(1).is_err() {
            return;
        }
        let mut vec = ManuallyDrop::new(mem::take(&mut vec));
        let spare = Spare {
            // An empty slice of the `Vec` starts at its buffer.
            ptr: NonNull::from(vec.as_mut_slice()).cast::<u8>(),
            // `vec` allocated exactly `capacity * size_of::<T>()` bytes aligned to `T`.
            layout: Layout::from_size_align(bytes, align_of::<T>())
                .unwrap_or_else(|_| unreachable!("the layout of an existing buffer")),
        };
        spares.list.push(spare);
    });
}

/// Number of spare buffers this thread holds.
#[cfg(test)]
pub(crate) fn count() -> usize {
    SPARES.with(|spares| spares.borrow().list.len())
}

/// Frees this thread's spare buffers (for `release_thread_scratch`, and tests that share a
/// thread). Does nothing while the list is borrowed or after the thread-local is gone.
pub(crate) fn free_all() {
    let _ = SPARES.try_with(|spares| {
        if let Ok(mut spares) = spares.try_borrow_mut() {
            drop(mem::replace(&mut *spares, Spares { list: Vec::new() }));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_reused_across_types_of_one_alignment() {
        free_all();
        let mut v: Vec<u32> = take();
        v.extend([1, 2, 3]);
        let cap_bytes = v.capacity() * 4;
        let ptr = v.as_ptr().cast::<u8>();
        give_back(v);
        assert_eq!(count(), 1);
        // `u16` has another alignment: a new buffer. (Not `u64`: 4-byte aligned on 32-bit x86.)
        let w: Vec<u16> = take();
        assert_eq!(w.capacity(), 0);
        // `char` has `u32`'s alignment and size: the same buffer, empty.
        let c: Vec<char> = take();
        assert_eq!(
            (c.as_ptr().cast::<u8>(), c.capacity() * 4, c.len()),
            (ptr, cap_bytes, 0)
        );
        assert_eq!(count(), 0);
        drop(c); // a `Vec` that owns its buffer frees it as usual
    }

    #[test]
    fn large_buffers_and_a_full_list_are_freed() {
        free_all();
        give_back(Vec::<u8>::with_capacity(MAX_SPARE_BYTES + 1));
        assert_eq!(count(), 0);
        for _ in 0..2 * MAX_SPARES {
            give_back(Vec::<u16>::with_capacity(8));
        }
        assert_eq!(count(), MAX_SPARES);
        free_all();
    }
}
