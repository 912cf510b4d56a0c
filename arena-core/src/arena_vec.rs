//! [`ArenaVec`]: a growable vector that freezes into a `&'bump mut [T]` in the arena.
//!
//! A vector that grows by doubling inside a bump arena leaves each outgrown buffer behind, and
//! the arena cannot reuse them. So an `ArenaVec` stages its elements outside the arena, in a
//! plain `Vec` grown with `try_reserve`, and moves them into the arena once, in one allocation
//! of exactly `len * size_of::<T>()` bytes, when it is frozen. Until then the arena is not
//! touched: any number of vectors and strings can be built at once, interleaved freely, with
//! other allocations in between. The same code runs on every [`BumpAllocator`].
//!
//! The staging `Vec`s themselves would cost a `malloc`, a few `realloc`s and a `free` per
//! vector, as much as the rest of building a short one; so a frozen or dropped vector gives its
//! buffer back to a small per-thread list ([`spares`]: at most 16 buffers of at most 16 KiB)
//! and the next vector of the same alignment starts from it.
//!
//! # Why staging, measured
//!
//! `cargo run --release -p arena-core --example arena_vec_growth` measures it on this machine.
//! It builds 10,000 vectors of `u64`, lengths 1 to 100, one after another ("seq") or 16 at a
//! time pushing round-robin ("mix"), with (a) staging, in a fresh `Vec` per vector or in
//! reused buffers as `ArenaVec` does, and (b) growing inside the arena (a new block of twice
//! the capacity at each overflow, the old one left behind, the frozen slice a prefix of the
//! last block), and prints the arena's used bytes over the live bytes and the time per vector
//! for each backend.
//!
//! Growing in the arena holds 2.8 times the live data on every backend (the blocks a doubling
//! vector leaves behind); staging holds exactly the live data. With reused buffers staging is
//! also about as fast as growing in the arena when vectors are built one at a time, and faster
//! when they are interleaved; a fresh `Vec` per vector is about twice as slow. (The backends' own
//! vectors grow in place while they are the arena's last allocation, which helps only when
//! vectors are built one at a time, and a builder generic over [`BumpAllocator`] cannot reach
//! them.) What staging gives up: an arena byte limit is met when a vector is frozen, not at the
//! push that crosses it, so a vector can stage more than the arena will take.
//!
//! Drop: staged elements are dropped with the vector, frozen ones never (see [`ArenaVec`]).

use core::fmt;
use core::mem;
use core::mem::align_of;
use core::ops::{Deref, DerefMut};

use crate::allocator::{AllocError, BumpAllocator, move_into};

pub(crate) mod spares;

/// A growable vector that freezes into a `&'bump mut [T]` in the arena at its exact size.
///
/// The API is the same whatever the arena: bumpalo, bump-scope, [`SlabArena`](crate::SlabArena)
/// or a `&dyn BumpAllocator`. Each fallible method `try_x` has a panicking twin `x`, as in
/// bumpalo and bump-scope.
///
/// **Memory.** Elements are staged outside the arena, in a buffer of their own (reused from
/// vectors frozen or dropped before on the same thread), and moved into the arena once by
/// [`into_slice`](Self::into_slice): the arena ends up holding exactly `len * size_of::<T>()`
/// bytes for them, however the vector grew and whatever was allocated in between. Growing
/// inside the arena instead was measured to leave 2.8 times the live data in the arena, and
/// to be no faster. An arena byte limit is therefore met when the vector is frozen, not at the
/// push that crosses it.
///
/// **Drop.** Elements still staged are dropped with the `ArenaVec`, as a `Vec` drops them.
/// Elements frozen into the arena are never dropped, as with every value in a bump arena
/// (bumpalo's `into_bump_slice` is the same): a `T` whose `Drop` frees memory or closes a
/// resource leaks it once frozen.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaVec, SlabArena};
///
/// let arena = SlabArena::new();
/// let mut squares = ArenaVec::new_in(&arena);
/// let mut cubes = ArenaVec::with_capacity_in(4, &arena); // built side by side
/// for i in 1..=4u64 {
///     squares.push(i * i);
///     cubes.push(i * i * i);
/// }
/// squares.extend_from_slice(&[25, 36]);
/// let squares: &[u64] = squares.into_slice();
/// let cubes: &[u64] = cubes.into_slice();
/// assert_eq!((squares, cubes), (&[1, 4, 9, 16, 25, 36][..], &[1, 8, 27, 64][..]));
/// ```
pub struct ArenaVec<'bump, T, A: BumpAllocator + ?Sized> {
    /// Where the elements go when frozen.
    arena: &'bump A,
    /// The elements so far, outside the arena; moved out (length set to 0) when frozen.
    staged: Vec<T>,
}

impl<'bump, T, A: BumpAllocator + ?Sized> ArenaVec<'bump, T, A> {
    /// An empty vector for `arena`; allocates nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let v = arena_core::ArenaVec::<u8, _>::new_in(&bump);
    /// assert!(v.is_empty() && v.into_slice().is_empty());
    /// ```
    #[must_use]
    pub const fn new_in(arena: &'bump A) -> Self {
        Self {
            arena,
            staged: Vec::new(),
        }
    }

    /// An empty vector for `arena` with room for `capacity` elements before it grows.
    ///
    /// The room is staging memory outside the arena; the arena itself is only used on freeze.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when `capacity * size_of::<T>()` overflows or the memory is not available.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::ArenaVec;
    ///
    /// let scope: bump_scope::Bump = bump_scope::Bump::new();
    /// let v = ArenaVec::<u32, _>::try_with_capacity_in(100, &scope)?;
    /// assert!(v.capacity() >= 100);
    /// assert!(ArenaVec::<u64, _>::try_with_capacity_in(usize::MAX, &scope).is_err());
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_with_capacity_in(capacity: usize, arena: &'bump A) -> Result<Self, AllocError> {
        let mut v = Self::new_in(arena);
        v.try_reserve(capacity)?;
        Ok(v)
    }

    /// An empty vector for `arena` with room for `capacity` elements before it grows.
    ///
    /// # Panics
    ///
    /// When `capacity * size_of::<T>()` overflows or the memory is not available.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let v = arena_core::ArenaVec::<u32, _>::with_capacity_in(100, &bump);
    /// assert!(v.capacity() >= 100);
    /// ```
    #[must_use]
    pub fn with_capacity_in(capacity: usize, arena: &'bump A) -> Self {
        Self::try_with_capacity_in(capacity, arena).unwrap_or_else(out_of_memory)
    }

    /// The arena the vector freezes into.
    #[must_use]
    pub fn arena(&self) -> &'bump A {
        self.arena
    }

    /// Number of elements.
    #[must_use]
    pub fn len(&self) -> usize {
        self.staged.len()
    }

    /// Whether the vector has no elements.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.staged.is_empty()
    }

    /// Number of elements the vector holds before its staging memory grows.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.staged.capacity()
    }

    /// Makes room for at least `additional` more elements.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the new capacity overflows or the memory is not available; the
    /// vector is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut v = arena_core::ArenaVec::<u8, _>::new_in(&bump);
    /// v.try_reserve(10)?;
    /// assert!(v.capacity() >= 10);
    /// assert!(v.try_reserve(usize::MAX).is_err());
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), AllocError> {
        if self.staged.capacity() == 0 && additional > 0 {
            self.staged = spares::take();
        }
        self.staged
            .try_reserve(additional)
            .map_err(|_| staging_error::<T>(self.staged.len(), additional))
    }

    /// Makes room for at least `additional` more elements.
    ///
    /// # Panics
    ///
    /// When the new capacity overflows or the memory is not available.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut v = arena_core::ArenaVec::<u8, _>::new_in(&bump);
    /// v.reserve(10);
    /// assert!(v.capacity() >= 10);
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        self.try_reserve(additional).unwrap_or_else(out_of_memory);
    }

    /// Appends `value`.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the staging memory cannot grow; `value` is dropped and the vector is
    /// unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut v = arena_core::ArenaVec::new_in(&bump);
    /// v.try_push("one")?;
    /// assert_eq!(v.as_slice(), ["one"]);
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), AllocError> {
        if self.staged.len() == self.staged.capacity() {
            self.grow_one()?;
        }
        self.staged.push(value);
        Ok(())
    }

    /// Makes room for one more element: the out-of-line path of [`try_push`](Self::try_push).
    #[cold]
    #[inline(never)]
    fn grow_one(&mut self) -> Result<(), AllocError> {
        self.try_reserve(1)
    }

    /// Appends `value`.
    ///
    /// # Panics
    ///
    /// When the staging memory cannot grow, with the [`AllocError`]'s message.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut v = arena_core::ArenaVec::new_in(&bump);
    /// v.push('a');
    /// assert_eq!(v.len(), 1);
    /// ```
    #[inline]
    pub fn push(&mut self, value: T) {
        if let Err(e) = self.try_push(value) {
            out_of_memory::<()>(e);
        }
    }

    /// Appends a clone of every element of `values`, in order.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the staging memory cannot grow; the vector is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut v = arena_core::ArenaVec::new_in(&bump);
    /// v.try_extend_from_slice(&[1, 2])?;
    /// v.try_extend_from_slice(&[3])?;
    /// assert_eq!(v.as_slice(), [1, 2, 3]);
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_extend_from_slice(&mut self, values: &[T]) -> Result<(), AllocError>
    where
        T: Clone,
    {
        self.try_reserve(values.len())?;
        self.staged.extend_from_slice(values);
        Ok(())
    }

    /// Appends a clone of every element of `values`, in order.
    ///
    /// # Panics
    ///
    /// When the staging memory cannot grow, with the [`AllocError`]'s message.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut v = arena_core::ArenaVec::new_in(&bump);
    /// v.extend_from_slice(&["a", "b"]);
    /// assert_eq!(v.as_slice(), ["a", "b"]);
    /// ```
    pub fn extend_from_slice(&mut self, values: &[T])
    where
        T: Clone,
    {
        self.try_extend_from_slice(values)
            .unwrap_or_else(out_of_memory);
    }

    /// The elements.
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        &self.staged
    }

    /// The elements, mutably.
    #[must_use]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.staged
    }

    /// Removes (and drops) every element, keeping the capacity.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut v = arena_core::ArenaVec::new_in(&bump);
    /// v.push(1);
    /// v.clear();
    /// assert!(v.is_empty() && v.capacity() > 0);
    /// ```
    pub fn clear(&mut self) {
        self.staged.clear();
    }

    /// Moves the elements into the arena, in one allocation of exactly their size, and returns
    /// them as a slice that lives as long as the arena borrow.
    ///
    /// The elements are never dropped from then on. An empty vector, or one of zero-sized
    /// elements, takes nothing from the arena.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit; the elements are then
    /// dropped with the vector.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::{ArenaVec, BumpAllocator, SlabArena};
    ///
    /// let arena = SlabArena::builder().limit(64 * 1024).build();
    /// let mut small = ArenaVec::new_in(&arena);
    /// small.extend_from_slice(&[1u64, 2, 3]);
    /// assert_eq!(small.try_into_slice()?, [1, 2, 3]);
    /// assert_eq!(BumpAllocator::stats(&arena).used_bytes, 24); // exactly 3 * 8 bytes
    ///
    /// let mut big = ArenaVec::new_in(&arena);
    /// big.extend_from_slice(&[0u64; 10_000]); // staged: the limit is not reached yet
    /// assert!(big.try_into_slice().is_err()); // 80 KB do not fit in 64 KiB
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_into_slice(mut self) -> Result<&'bump mut [T], AllocError>
    where
        T: 'bump,
    {
        move_into(self.arena, &mut self.staged)
    }

    /// Moves the elements into the arena, in one allocation of exactly their size, and returns
    /// them as a slice that lives as long as the arena borrow.
    ///
    /// The elements are never dropped from then on.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit, with the [`AllocError`]'s message.
    ///
    /// # Examples
    ///
    /// ```
    /// let scope: bump_scope::Bump = bump_scope::Bump::new();
    /// let mut v = arena_core::ArenaVec::new_in(&scope);
    /// v.extend_from_slice(&[3, 1, 2]);
    /// let frozen = v.into_slice();
    /// frozen.sort_unstable();
    /// assert_eq!(frozen, [1, 2, 3]);
    /// ```
    pub fn into_slice(self) -> &'bump mut [T]
    where
        T: 'bump,
    {
        self.try_into_slice().unwrap_or_else(out_of_memory)
    }
}

/// Panics with the message of `e`: the panicking twins' failure path.
#[cold]
#[inline(never)]
pub(crate) fn out_of_memory<R>(e: AllocError) -> R {
    panic!("{e}")
}

/// The error for a staging buffer of `len` elements that could not grow by `additional`.
#[cold]
fn staging_error<T>(len: usize, additional: usize) -> AllocError {
    len.checked_add(additional)
        .and_then(|n| core::alloc::Layout::array::<T>(n).ok())
        .map_or(AllocError::size_overflow(align_of::<T>()), AllocError::new)
}

impl<T, A: BumpAllocator + ?Sized> Drop for ArenaVec<'_, T, A> {
    /// Drops the staged elements, and keeps the staging buffer for the next vector.
    fn drop(&mut self) {
        spares::give_back(mem::take(&mut self.staged));
    }
}

impl<T, A: BumpAllocator + ?Sized> Deref for ArenaVec<'_, T, A> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.staged
    }
}

impl<T, A: BumpAllocator + ?Sized> DerefMut for ArenaVec<'_, T, A> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.staged
    }
}

impl<T: fmt::Debug, A: BumpAllocator + ?Sized> fmt::Debug for ArenaVec<'_, T, A> {
    /// The elements, as a slice prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

impl<T, A: BumpAllocator + ?Sized> Extend<T> for ArenaVec<'_, T, A> {
    /// Appends every item, in order.
    ///
    /// # Panics
    ///
    /// When the staging memory cannot grow, as [`push`](ArenaVec::push).
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0);
        for value in iter {
            self.push(value);
        }
    }
}
