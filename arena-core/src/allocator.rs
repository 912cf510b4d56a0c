//! [`BumpAllocator`]: one trait over the bump arenas that deserialization can fill.
//!
//! Deserialization needs very little from an arena: raw memory for a [`Layout`], with failure
//! reported as a value, and honest statistics. Everything else (strings, slices, single values)
//! is built on top in [`BumpAllocatorExt`], the same for every backend.

use core::alloc::Layout;
use core::fmt;
use core::ptr::NonNull;

// Always compiled: the buffer of the derive's buffered representations is a bump-scope arena
// (the `bump-scope` feature gates the collections' impls).
mod bump_scope;
#[cfg(feature = "bumpalo")]
mod bumpalo;

/// An allocation the arena could not satisfy: the arena is out of memory, over its limit, or the
/// requested size does not fit in a [`Layout`].
///
/// Deserialization turns it into the format's error with [`serde::de::Error::custom`], so a
/// caller sees a message naming the arena, never an abort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The size that was requested, or `None` when computing it overflowed.
    size: Option<usize>,
    align: usize,
}

impl AllocError {
    /// An error for a failed request of `layout`.
    #[must_use]
    pub const fn new(layout: Layout) -> Self {
        Self {
            size: Some(layout.size()),
            align: layout.align(),
        }
    }

    /// An error for a request whose size overflowed before it reached the arena
    /// (for example `len * size_of::<T>()` larger than `isize::MAX`).
    #[must_use]
    pub const fn size_overflow(align: usize) -> Self {
        Self { size: None, align }
    }

    /// The requested size in bytes, or `None` when it overflowed.
    #[must_use]
    pub const fn size(&self) -> Option<usize> {
        self.size
    }
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.size {
            Some(size) => write!(
                f,
                "the arena ran out of memory: allocating {size} bytes (align {}) failed",
                self.align
            ),
            None => write!(
                f,
                "the arena ran out of memory: the requested size overflows (align {})",
                self.align
            ),
        }
    }
}

impl std::error::Error for AllocError {}

/// How much memory an arena holds and how much of it is handed out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArenaStats {
    /// Bytes reserved in chunks (what the arena took from its source of memory), excluding the
    /// backend's own chunk headers or footers.
    pub reserved_bytes: usize,
    /// Bytes handed out to allocations, alignment padding included: what the arena would have to
    /// keep if it could not reuse anything.
    pub used_bytes: usize,
    /// Number of chunks the arena holds.
    pub chunks: usize,
}

impl fmt::Display for ArenaStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} bytes used of {} reserved in {} chunk(s)",
            self.used_bytes, self.reserved_bytes, self.chunks
        )
    }
}

/// A bump arena that deserialization can allocate from.
///
/// Implemented for [`bumpalo::Bump`](::bumpalo::Bump) (feature `bumpalo`),
/// [`bump_scope::Bump`](::bump_scope::Bump) and this crate's
/// [`SlabArena`](crate::SlabArena). Memory handed out lives as
/// long as the shared borrow of the arena; values placed in it are never dropped, as in every
/// bump arena.
///
/// The trait is dyn-compatible: `&dyn BumpAllocator` is an arena too. The typed helpers live in
/// [`BumpAllocatorExt`], implemented for every `BumpAllocator`.
///
/// # Safety
///
/// Callers (this crate's impls among them) write through the returned pointers and hand out
/// `&'a` references into them for as long as the arena is borrowed for `'a`. An implementor
/// must guarantee that a successful [`try_alloc_layout`](Self::try_alloc_layout):
/// - returns a pointer aligned to `layout.align()`, valid for reads and writes of
///   `layout.size()` bytes;
/// - never overlaps any other allocation still live, and stays valid, unmoved and unchanged by
///   the arena until the arena is mutably borrowed (reset) or dropped;
/// - for `layout.size() == 0` may return any non-null pointer aligned to `layout.align()`.
///
/// An implementor that returns `Some` from [`checkpoint`](Self::checkpoint) must make
/// [`rewind`](Self::rewind) give back exactly the allocations made since that checkpoint, and
/// only do so for an arena that no other thread can allocate from meanwhile (an arena that is
/// not `Sync`, or that returns `None`): the caller vouches for its own allocations only.
pub unsafe trait BumpAllocator {
    /// Allocates memory for `layout`, or reports that the arena could not.
    ///
    /// The memory is uninitialised.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    fn try_alloc_layout(&self, layout: Layout) -> Result<NonNull<u8>, AllocError>;

    /// Current memory statistics of the arena.
    ///
    /// Where the arena type has an inherent `stats` method of its own (`bump_scope::Bump` does),
    /// call this one as `BumpAllocator::stats(&arena)`.
    fn stats(&self) -> ArenaStats;

    /// The current position, to [`rewind`](Self::rewind) to after a failed deserialization;
    /// `None` when the arena cannot rewind (bumpalo cannot).
    #[inline]
    fn checkpoint(&self) -> Option<Checkpoint> {
        None
    }

    /// Gives back everything allocated since `checkpoint` was taken.
    ///
    /// [`ArenaSeed`](crate::ArenaSeed) calls it when a deserialization fails, so a failed call
    /// leaves the arena's used bytes as they were.
    ///
    /// # Safety
    ///
    /// `checkpoint` came from this arena's [`checkpoint`](Self::checkpoint); the arena was not
    /// reset or rewound to an earlier checkpoint since; and nothing allocated after the
    /// checkpoint is used again.
    #[inline]
    unsafe fn rewind(&self, checkpoint: Checkpoint) {
        let _ = checkpoint;
    }

    /// The arena's identity: the same for every way of reaching one arena, different for two
    /// arenas. A seed nested in a call compares it with the call's to know whether it fills
    /// the same arena (see [`ArenaSeed`](crate::ArenaSeed)).
    ///
    /// The address of `self`; an arena that forwards to another (as `&A` does) returns that
    /// one's.
    #[inline(always)]
    fn identity(&self) -> *const () {
        core::ptr::from_ref(self).cast()
    }

    /// The [`SlabArena`](crate::SlabArena) this arena is, if it is one: a large sequence read
    /// into it grows in place at the low edge of its current chunk rather than on the scratch
    /// stack (see `SlabArena`'s docs). Only the crate's own arena answers, and only through
    /// this default's overrides (`SlabArena` and the forwarding impls); any other arena stages
    /// its sequences on the scratch stack.
    #[doc(hidden)]
    #[inline(always)]
    fn as_slab_arena(&self) -> Option<&crate::SlabArena> {
        None
    }

    /// Copies `bytes` into the arena.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    #[inline(always)]
    fn try_alloc_bytes(&self, bytes: &[u8]) -> Result<&[u8], AllocError> {
        self.try_alloc_slice_copy(bytes).map(|copy| &*copy)
    }

    /// Copies `s` into the arena.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    ///
    /// Always inlined, as [`try_alloc_bytes`](Self::try_alloc_bytes): a few instructions
    /// around the copy, called for every string a reader keeps, where a call costs as much.
    #[inline(always)]
    fn try_alloc_str(&self, s: &str) -> Result<&str, AllocError> {
        let bytes = self.try_alloc_bytes(s.as_bytes())?;
        // SAFETY: `bytes` is a byte-for-byte copy of a `str`, so it is valid UTF-8.
        Ok(unsafe { core::str::from_utf8_unchecked(bytes) })
    }
}

// SAFETY: forwards every call to `A`, which upholds the contract.
unsafe impl<A: BumpAllocator + ?Sized> BumpAllocator for &A {
    #[inline]
    fn try_alloc_layout(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        (**self).try_alloc_layout(layout)
    }

    fn stats(&self) -> ArenaStats {
        (**self).stats()
    }

    #[inline]
    fn checkpoint(&self) -> Option<Checkpoint> {
        (**self).checkpoint()
    }

    #[inline]
    unsafe fn rewind(&self, checkpoint: Checkpoint) {
        // SAFETY: the caller upholds `rewind`'s contract for `**self`, the same arena.
        unsafe { (**self).rewind(checkpoint) }
    }

    #[inline(always)]
    fn identity(&self) -> *const () {
        (**self).identity()
    }

    #[inline(always)]
    fn as_slab_arena(&self) -> Option<&crate::SlabArena> {
        (**self).as_slab_arena()
    }
}

/// Moves the elements of `vec` into one arena block of exactly their size, leaving `vec` empty
/// (its buffer kept): how [`ArenaVec`](crate::ArenaVec) and the scratch stack's heap frames freeze.
///
/// # Errors
///
/// [`AllocError`] when the arena cannot hold the elements; `vec` keeps them then.
#[expect(
    clippy::mut_from_ref,
    reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
)]
pub(crate) fn move_into<'bump, T: 'bump, A: BumpAllocator + ?Sized>(
    arena: &'bump A,
    vec: &mut Vec<T>,
) -> Result<&'bump mut [T], AllocError> {
    let len = vec.len();
    let dst = arena.try_alloc_uninit_slice::<T>(len)?;
    debug_assert_eq!(
        dst.len(),
        len,
        "a fresh allocation has the requested length"
    );
    // SAFETY: `vec` holds `len` initialised elements and `dst` is a fresh arena block of
    // exactly `len` elements (dangling for zero-sized `T` or `len == 0`, where nothing is
    // copied), so the copy stays in bounds and cannot overlap. `set_len(0)` right after makes
    // the copy a move: `vec` forgets the values without dropping them, and no panic can happen
    // in between. The block now holds `len` initialised `T`s, unaliased for `'bump` by the
    // `BumpAllocator` contract, so viewing it as `&'bump mut [T]` is sound.
    unsafe {
        core::ptr::copy_nonoverlapping(vec.as_ptr(), dst.as_mut_ptr().cast::<T>(), len);
        vec.set_len(0);
        Ok(&mut *(core::ptr::from_mut(dst) as *mut [T]))
    }
}

/// A position in an arena, taken by [`BumpAllocator::checkpoint`]: an opaque copy of the
/// backend's own checkpoint value.
#[derive(Clone, Copy)]
pub struct Checkpoint {
    /// The bytes of a `Copy` value of at most four words, aligned at most to `usize`; stored
    /// as `MaybeUninit` so that pointers inside keep their provenance.
    raw: core::mem::MaybeUninit<[usize; 4]>,
}

impl Checkpoint {
    /// Wraps a backend's checkpoint value (at most four words, aligned at most to `usize`).
    #[must_use]
    pub fn new<C: Copy + 'static>(value: C) -> Self {
        const {
            assert!(core::mem::size_of::<C>() <= core::mem::size_of::<[usize; 4]>());
            assert!(core::mem::align_of::<C>() <= core::mem::align_of::<usize>());
        };
        let mut raw = core::mem::MaybeUninit::<[usize; 4]>::uninit();
        // SAFETY: the const assertions make `C` fit in `raw`'s size and alignment.
        unsafe { raw.as_mut_ptr().cast::<C>().write(value) };
        Self { raw }
    }

    /// The backend's checkpoint value.
    ///
    /// # Safety
    ///
    /// `C` is the type this checkpoint was created with by [`Checkpoint::new`].
    #[must_use]
    pub unsafe fn get<C: Copy + 'static>(self) -> C {
        // SAFETY: the caller guarantees `new::<C>` wrote a `C` here, properly aligned.
        unsafe { self.raw.as_ptr().cast::<C>().read() }
    }
}

impl fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Checkpoint")
    }
}

/// Typed allocation helpers, implemented for every [`BumpAllocator`] (trait objects included).
///
/// Each `try_` method has a panicking twin without the prefix, as in bumpalo.
pub trait BumpAllocatorExt: BumpAllocator {
    /// Moves `value` into the arena.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    #[expect(
        clippy::mut_from_ref,
        reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
    )]
    #[inline]
    fn try_alloc<T>(&self, value: T) -> Result<&mut T, AllocError> {
        let ptr = self.try_alloc_layout(Layout::new::<T>())?.cast::<T>();
        // SAFETY: the trait contract makes `ptr` aligned and valid for a `T`, unaliased for the
        // borrow of `self`.
        unsafe {
            ptr.as_ptr().write(value);
            Ok(&mut *ptr.as_ptr())
        }
    }

    /// Moves `value` into the arena.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    #[inline]
    fn alloc<T>(&self, value: T) -> &mut T {
        self.try_alloc(value).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Copies `slice` into the arena.
    ///
    /// Most slices read from a document are short strings: up to 16 bytes they are copied
    /// inline, with no call to `memcpy` (whose dispatch costs more than such a copy).
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    #[expect(
        clippy::mut_from_ref,
        reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
    )]
    #[inline(always)]
    fn try_alloc_slice_copy<T: Copy>(&self, slice: &[T]) -> Result<&mut [T], AllocError> {
        let dst = self.try_alloc_uninit_slice::<T>(slice.len())?;
        // SAFETY: `dst` is a fresh allocation of exactly `slice.len()` elements (dangling when
        // it has no bytes, where nothing is copied), so it is valid for writes of the slice's
        // bytes and cannot overlap `slice`; `T: Copy` makes the bitwise copy a value copy, after
        // which every element is initialised.
        unsafe {
            copy_bytes(
                slice.as_ptr().cast::<u8>(),
                dst.as_mut_ptr().cast::<u8>(),
                size_of_val(slice),
            );
            Ok(&mut *(core::ptr::from_mut(dst) as *mut [T]))
        }
    }

    /// Copies `slice` into the arena.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    #[inline]
    fn alloc_slice_copy<T: Copy>(&self, slice: &[T]) -> &mut [T] {
        self.try_alloc_slice_copy(slice)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Copies `s` into the arena.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    #[inline]
    fn alloc_str(&self, s: &str) -> &str {
        self.try_alloc_str(s).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Copies `bytes` into the arena.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    #[inline]
    fn alloc_bytes(&self, bytes: &[u8]) -> &[u8] {
        self.try_alloc_bytes(bytes)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Allocates room for `len` values of `T`, uninitialised.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when `len * size_of::<T>()` overflows or the arena is out of memory.
    #[expect(
        clippy::mut_from_ref,
        reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
    )]
    #[inline(always)]
    fn try_alloc_uninit_slice<T>(
        &self,
        len: usize,
    ) -> Result<&mut [core::mem::MaybeUninit<T>], AllocError> {
        let layout = Layout::array::<T>(len)
            .map_err(|_| AllocError::size_overflow(core::mem::align_of::<T>()))?;
        let ptr = if layout.size() == 0 {
            NonNull::<T>::dangling()
        } else {
            self.try_alloc_layout(layout)?.cast::<T>()
        };
        // SAFETY: `ptr` is aligned and valid for `len` elements (the trait contract, or a
        // dangling pointer for a zero-sized layout), unaliased for the borrow of `self`;
        // `MaybeUninit` needs no initialisation.
        Ok(unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr().cast(), len) })
    }
}

impl<A: BumpAllocator + ?Sized> BumpAllocatorExt for A {}

/// Copies `n` bytes from `src` to `dst`: up to 16 with two loads and two stores of 1, 4 or 8
/// bytes each (overlapping when `n` is not twice that), longer with `memcpy`.
///
/// # Safety
///
/// `src` must be valid for `n` reads and `dst` for `n` writes, and the two must not overlap.
#[inline(always)]
unsafe fn copy_bytes(src: *const u8, dst: *mut u8, n: usize) {
    // SAFETY: each access is at an offset below `n` (`n - 8 + 8 <= n` and so on, with `n` at
    // least the access size in its branch), inside what the caller made valid; the words are
    // read and written unaligned; the ranges do not overlap (caller).
    unsafe {
        if n > 16 {
            core::ptr::copy_nonoverlapping(src, dst, n);
        } else if n >= 8 {
            let head = src.cast::<u64>().read_unaligned();
            let tail = src.add(n - 8).cast::<u64>().read_unaligned();
            dst.cast::<u64>().write_unaligned(head);
            dst.add(n - 8).cast::<u64>().write_unaligned(tail);
        } else if n >= 4 {
            let head = src.cast::<u32>().read_unaligned();
            let tail = src.add(n - 4).cast::<u32>().read_unaligned();
            dst.cast::<u32>().write_unaligned(head);
            dst.add(n - 4).cast::<u32>().write_unaligned(tail);
        } else if n > 0 {
            // 1 to 3 bytes: the first, the middle and the last (some the same byte).
            *dst = *src;
            *dst.add(n / 2) = *src.add(n / 2);
            *dst.add(n - 1) = *src.add(n - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_short_length_is_copied_exactly() {
        let arena = crate::SlabArena::new();
        let bytes: Vec<u8> = (1..=40).collect();
        let words: Vec<u32> = (1..=40).map(|i| i * 0x0101_0101).collect();
        for n in 0..=40 {
            assert_eq!(
                arena.alloc_slice_copy(&bytes[..n]),
                &bytes[..n],
                "{n} bytes"
            );
            assert_eq!(arena.alloc_bytes(&bytes[..n]), &bytes[..n], "{n} bytes");
            assert_eq!(
                arena.alloc_slice_copy(&words[..n]),
                &words[..n],
                "{n} words"
            );
        }
        let text = "héllo, wörld: a string of more than sixteen bytes";
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            assert_eq!(arena.alloc_str(&text[..end]), &text[..end]);
        }
    }

    #[test]
    fn alloc_error_messages_name_the_arena() {
        let e = AllocError::new(Layout::from_size_align(64, 8).unwrap());
        assert_eq!(
            e.to_string(),
            "the arena ran out of memory: allocating 64 bytes (align 8) failed"
        );
        assert!(
            AllocError::size_overflow(4)
                .to_string()
                .contains("overflows")
        );
    }
}
