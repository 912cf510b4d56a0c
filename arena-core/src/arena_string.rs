//! [`ArenaString`]: a growable string that freezes into a `&'bump mut str` in the arena.
//!
//! It is an [`ArenaVec<u8>`](crate::ArenaVec) that only ever holds UTF-8: the text is staged
//! outside the arena and copied in once, at its exact length, when frozen (`arena_vec.rs`
//! gives the measurements behind that choice).

use core::fmt;
use core::ops::Deref;

use crate::allocator::{AllocError, BumpAllocator};
use crate::arena_vec::{ArenaVec, out_of_memory};

/// A growable string that freezes into a `&'bump mut str` in the arena at its exact length.
///
/// The text is staged outside the arena and copied into it once by
/// [`into_str`](Self::into_str), so the arena holds exactly `len` bytes for it. The API is the
/// same whatever the arena. It implements [`fmt::Write`], so `write!` builds one too.
///
/// Each fallible method `try_x` has a panicking twin `x`, as in bumpalo and bump-scope.
///
/// # Examples
///
/// ```
/// use std::fmt::Write as _;
///
/// use arena_core::{ArenaString, SlabArena};
///
/// let arena = SlabArena::new();
/// let mut greeting = ArenaString::new_in(&arena);
/// greeting.push_str("Hello");
/// greeting.push(',');
/// write!(greeting, " {}!", "arena")?;
/// let greeting: &str = greeting.into_str();
/// assert_eq!(greeting, "Hello, arena!");
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub struct ArenaString<'bump, A: BumpAllocator + ?Sized> {
    /// The text: always valid UTF-8.
    bytes: ArenaVec<'bump, u8, A>,
}

impl<'bump, A: BumpAllocator + ?Sized> ArenaString<'bump, A> {
    /// An empty string for `arena`; allocates nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let s = arena_core::ArenaString::new_in(&bump);
    /// assert_eq!(s.into_str(), "");
    /// ```
    #[must_use]
    pub const fn new_in(arena: &'bump A) -> Self {
        Self {
            bytes: ArenaVec::new_in(arena),
        }
    }

    /// An empty string for `arena` with room for `capacity` bytes before it grows.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the memory is not available.
    ///
    /// # Examples
    ///
    /// ```
    /// let scope: bump_scope::Bump = bump_scope::Bump::new();
    /// let s = arena_core::ArenaString::try_with_capacity_in(64, &scope)?;
    /// assert!(s.capacity() >= 64);
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_with_capacity_in(capacity: usize, arena: &'bump A) -> Result<Self, AllocError> {
        Ok(Self {
            bytes: ArenaVec::try_with_capacity_in(capacity, arena)?,
        })
    }

    /// An empty string for `arena` with room for `capacity` bytes before it grows.
    ///
    /// # Panics
    ///
    /// When the memory is not available.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let s = arena_core::ArenaString::with_capacity_in(64, &bump);
    /// assert!(s.capacity() >= 64);
    /// ```
    #[must_use]
    pub fn with_capacity_in(capacity: usize, arena: &'bump A) -> Self {
        Self {
            bytes: ArenaVec::with_capacity_in(capacity, arena),
        }
    }

    /// The arena the string freezes into.
    #[must_use]
    pub fn arena(&self) -> &'bump A {
        self.bytes.arena()
    }

    /// Length in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the string is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Number of bytes the string holds before its staging memory grows.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.bytes.capacity()
    }

    /// Appends `s`.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the staging memory cannot grow; the string is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut s = arena_core::ArenaString::new_in(&bump);
    /// s.try_push_str("arena")?;
    /// s.try_push_str("-de")?;
    /// assert_eq!(s.as_str(), "arena-de");
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_push_str(&mut self, s: &str) -> Result<(), AllocError> {
        // Whole `str`s keep the bytes valid UTF-8.
        self.bytes.try_extend_from_slice(s.as_bytes())
    }

    /// Appends `s`.
    ///
    /// # Panics
    ///
    /// When the staging memory cannot grow, with the [`AllocError`]'s message.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut s = arena_core::ArenaString::new_in(&bump);
    /// s.push_str("naïve");
    /// assert_eq!((s.as_str(), s.len()), ("naïve", 6));
    /// ```
    pub fn push_str(&mut self, s: &str) {
        self.try_push_str(s).unwrap_or_else(out_of_memory);
    }

    /// Appends `c`.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the staging memory cannot grow; the string is unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut s = arena_core::ArenaString::new_in(&bump);
    /// s.try_push('é')?;
    /// assert_eq!(s.len(), 2);
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_push(&mut self, c: char) -> Result<(), AllocError> {
        self.try_push_str(c.encode_utf8(&mut [0; 4]))
    }

    /// Appends `c`.
    ///
    /// # Panics
    ///
    /// When the staging memory cannot grow, with the [`AllocError`]'s message.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let mut s = arena_core::ArenaString::new_in(&bump);
    /// s.push('∑');
    /// assert_eq!(s.as_str(), "∑");
    /// ```
    pub fn push(&mut self, c: char) {
        self.try_push(c).unwrap_or_else(out_of_memory);
    }

    /// The text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // SAFETY: `bytes` only ever receives whole `str`s (the field's invariant), and `clear`
        // empties it, so it is valid UTF-8.
        unsafe { core::str::from_utf8_unchecked(self.bytes.as_slice()) }
    }

    /// Removes the text, keeping the capacity.
    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    /// Copies the text into the arena, in one allocation of exactly its length, and returns it
    /// as a `str` that lives as long as the arena borrow.
    ///
    /// An empty string takes nothing from the arena.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::{ArenaString, BumpAllocator, SlabArena};
    ///
    /// let arena = SlabArena::builder().limit(64 * 1024).build();
    /// let mut s = ArenaString::new_in(&arena);
    /// s.push_str("exact");
    /// assert_eq!(s.try_into_str()?, "exact");
    /// assert_eq!(BumpAllocator::stats(&arena).used_bytes, 5);
    ///
    /// let mut big = ArenaString::new_in(&arena);
    /// big.push_str(&"x".repeat(100_000));
    /// assert!(big.try_into_str().is_err()); // over the limit
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_into_str(self) -> Result<&'bump mut str, AllocError> {
        let bytes = self.bytes.try_into_slice()?;
        // SAFETY: a byte-for-byte copy of the string's bytes, valid UTF-8 by the field's
        // invariant.
        Ok(unsafe { core::str::from_utf8_unchecked_mut(bytes) })
    }

    /// Copies the text into the arena, in one allocation of exactly its length, and returns it
    /// as a `str` that lives as long as the arena borrow.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit, with the [`AllocError`]'s message.
    ///
    /// # Examples
    ///
    /// ```
    /// let scope: bump_scope::Bump = bump_scope::Bump::new();
    /// let mut s = arena_core::ArenaString::new_in(&scope);
    /// s.push_str("shout");
    /// let frozen = s.into_str();
    /// frozen.make_ascii_uppercase();
    /// assert_eq!(frozen, "SHOUT");
    /// ```
    pub fn into_str(self) -> &'bump mut str {
        self.try_into_str().unwrap_or_else(out_of_memory)
    }
}

impl<A: BumpAllocator + ?Sized> Deref for ArenaString<'_, A> {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<A: BumpAllocator + ?Sized> fmt::Debug for ArenaString<'_, A> {
    /// The text, quoted and escaped as a `str` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<A: BumpAllocator + ?Sized> fmt::Display for ArenaString<'_, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl<A: BumpAllocator + ?Sized> fmt::Write for ArenaString<'_, A> {
    /// Appends `s`; [`fmt::Error`] when the staging memory cannot grow.
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.try_push_str(s).map_err(|_| fmt::Error)
    }
}
