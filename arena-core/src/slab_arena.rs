//! [`SlabArena`]: a bump arena whose chunks come from a shared [`ChunkPool`].
//!
//! Allocation bumps a pointer down through the current chunk: the inlined fast path is one
//! subtraction, one mask and one comparison. When the chunk is full the out-of-line refill
//! takes a new chunk from the pool of about 1/16 of what the arena already holds, up to a cap
//! (1 MiB by default): a hot arena grows to large chunks, a cold one stays small, and the
//! partly used last chunk is never a large part of the whole (a doubling arena can hold twice
//! its data). An allocation larger than the cap gets a chunk of its own size.
//!
//! A fresh arena's first chunk is sized by what the pool's last two arenas used, and a reset
//! keeps one chunk the size of everything the arena used: documents of a steady size take one
//! chunk each (fresh arenas) or none (a reused one). Because the pool keeps the chunks arenas
//! gave back, a fresh arena per document costs what a reused one does.
//!
//! Each chunk starts with a small header linking it to the arena's previous chunk, so the
//! arena itself never allocates: its chunk list lives in its chunks.
//!
//! Its parts, one submodule each:
//! - [`builder`]: [`SlabArenaBuilder`], the arena's configuration.
//! - [`chunk_list`]: the chunk list through the chunks' headers: writing a header, walking the
//!   list, draining its chunks back to the pool.
//! - [`checkpoint`]: [`SlabCheckpoint`] and rewinding to one.
//! - [`stats`]: [`SlabStats`], what the arena holds and uses.
//! - [`chunk_math`]: the size arithmetic (chunk requests, growth, the bump step).
//! - [`low_edge`]: the one block that grows up from the current chunk's bottom (a large
//!   sequence being read, filled where it ends up).
//! - `prefetch`: asking the cache for the lines below the cursor before a burst of writes
//!   (the JSON reader's `Value` arrays and objects; feature `json`).
//! - `window_copy`: a short copy that writes a whole window of input below the cursor, with
//!   no branch on its length (the JSON reader's strings; feature `json`).
//! - `allocator_api`: allocator-api2's `Allocator` for `&SlabArena` (feature `allocator-api2`).
//! - `tests`: the unit tests.

#[cfg(feature = "allocator-api2")]
mod allocator_api;
mod builder;
mod checkpoint;
mod chunk_list;
mod chunk_math;
mod low_edge;
#[cfg(feature = "json")]
mod prefetch;
mod stats;
#[cfg(test)]
mod tests;
#[cfg(feature = "json")]
mod window_copy;

use core::alloc::Layout;
use core::cell::Cell;
use core::fmt;
use core::mem::size_of;
use core::ptr::{self, NonNull};
use std::sync::Arc;

use crate::chunk_pool::{ArenaUse, Chunk, ChunkPool, poison};
use crate::{AllocError, ArenaStats, BumpAllocator, Checkpoint};
use chunk_math::{bump_down, chunk_bytes_needed, chunk_request, exact_request, grow, sized_chunk};

pub use builder::SlabArenaBuilder;
pub use checkpoint::SlabCheckpoint;
use chunk_list::{ChunkDrain, write_header};
pub use stats::SlabStats;

/// The start of every chunk an arena holds.
#[repr(C)]
struct ChunkHeader {
    /// The chunk the arena took before this one, or `None` for its oldest chunk.
    prev: Option<NonNull<ChunkHeader>>,
    /// The pool's token for this chunk; its `ptr` is the address of this header.
    chunk: Chunk,
    /// Bytes handed out from this chunk (alignment padding included), valid once it is no
    /// longer the current chunk; `HEADER + used <= chunk.size()`.
    used: usize,
}

/// Bytes at the start of a chunk taken by its header.
const HEADER: usize = size_of::<ChunkHeader>();

/// The cursor and bottom of an arena without a chunk: every non-empty request, and every
/// request aligned to more than 1, goes to the refill.
const EMPTY: usize = 1;

/// A bump arena whose chunks come from a shared [`ChunkPool`].
///
/// - [`SlabArena::new`] draws from [`ChunkPool::global`], [`SlabArena::with_pool`] from a
///   pool you share, [`SlabArena::builder`] sets the first chunk size, the growth cap and a
///   byte limit.
/// - Its first chunk is as large as the pool's last two arenas used (the lesser), taken when
///   the arena is built, unless the builder sets the first chunk size.
/// - [`reset`](Self::reset) keeps one chunk, large enough for everything the arena used, and
///   gives the others back to the pool; dropping the arena gives them all back.
/// - It implements [`BumpAllocator`], so every `ArenaDeserialize` type deserializes into it,
///   and `&SlabArena` implements allocator-api2's `Allocator` (feature `allocator-api2`, on by
///   default), so `hashbrown` maps live in it too.
///
/// `SlabArena` is `Send` but not `Sync`: threads each own arenas, drawing from one pool.
///
/// ```compile_fail
/// fn share<T: Sync>(_: &T) {}
/// share(&arena_core::SlabArena::new()); // not `Sync`
/// ```
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, BumpAllocatorExt, SlabArena};
/// use serde::de::DeserializeSeed;
///
/// let mut arena = SlabArena::new();
/// for doc in [r#"["a", "b"]"#, r#"["c"]"#] {
///     let mut de = serde_json::Deserializer::from_str(doc);
///     let words: &[&str] = ArenaSeed::new(&arena).deserialize(&mut de)?;
///     assert!(!words.is_empty());
///     arena.reset(); // `words` can't be used past this line
/// }
/// # Ok::<(), serde_json::Error>(())
/// ```
pub struct SlabArena {
    /// Bump pointer: the next allocation ends at or below it. Within `bottom..=end` of the
    /// current chunk, with that chunk's provenance; address `EMPTY` without a chunk.
    cursor: Cell<*mut u8>,
    /// Lowest address the current chunk hands out, `<= cursor`: just past its header, or past
    /// the blocks taken from its [`low_edge`]; `EMPTY` without a chunk. Never 0, so every
    /// pointer handed out is non-null.
    bottom: Cell<usize>,
    /// A block taken from the low edge is open: it ends at `bottom` unless a refill retired its
    /// chunk, and no other is taken until it closes.
    low_open: Cell<bool>,
    /// The chunk a refill retired while a low block was open in it, until that block closes:
    /// its header's `used` counts the block, which ends where that chunk's bottom was.
    low_retired: Cell<Option<NonNull<ChunkHeader>>>,
    /// The chunk allocations come from: one of the chunks in the list from `head`, or `None`
    /// when the arena holds no chunk.
    current: Cell<Option<NonNull<ChunkHeader>>>,
    /// The newest chunk, or `None`; the list through `prev` holds every chunk of the arena
    /// exactly once, each taken from `pool` and not given back.
    head: Cell<Option<NonNull<ChunkHeader>>>,
    /// Number of chunks in the list.
    chunks: Cell<usize>,
    /// Sum of the sizes of the chunks in the list; `<= limit`.
    reserved: Cell<usize>,
    /// Size of the next chunk to take (before rounding to the pool's classes).
    next_size: Cell<usize>,
    /// Floor of `next_size`: the first chunk's size.
    initial_chunk: usize,
    /// The first chunk is sized by what the pool's latest arenas used
    /// ([`ChunkPool::first_chunk_hint`]) when that is more than `initial_chunk`: true unless
    /// the builder set the initial size.
    learn_first_chunk: bool,
    /// Cap of `next_size`.
    max_chunk: usize,
    /// Most bytes of chunks the arena may hold.
    limit: Option<usize>,
    pool: Arc<ChunkPool>,
}

// SAFETY: an arena is the only owner of its chunks (the `head` list invariant) and of the
// pointers into them; moving it to another thread moves that ownership. The pool it gives
// chunks back to is `Sync`. It stays `!Sync` (the `Cell`s): two threads must not bump one
// cursor.
unsafe impl Send for SlabArena {}

impl Default for SlabArena {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for SlabArena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SlabArena")
            .field("stats", &self.stats())
            .field("next_chunk", &self.next_size.get())
            .field("max_chunk", &self.max_chunk)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl SlabArena {
    /// An arena drawing from [`ChunkPool::global`], with the default growth and no limit.
    #[must_use]
    pub fn new() -> Self {
        SlabArenaBuilder::default().build()
    }

    /// An arena drawing from `pool`, with the default growth and no limit.
    #[must_use]
    pub fn with_pool(pool: Arc<ChunkPool>) -> Self {
        SlabArenaBuilder::default().pool(pool).build()
    }

    /// A builder: pool, first chunk size, growth cap and byte limit.
    #[must_use]
    pub fn builder() -> SlabArenaBuilder {
        SlabArenaBuilder::default()
    }

    /// The pool the arena draws from.
    #[must_use]
    pub fn pool(&self) -> &Arc<ChunkPool> {
        &self.pool
    }

    /// Allocates memory for `layout`: uninitialised, aligned, valid until the arena is reset
    /// or dropped.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena limit or the pool limit does not allow another chunk, the
    /// size cannot be a chunk, or the OS refuses memory.
    #[inline(always)]
    pub fn try_alloc_layout(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        let cursor = self.cursor.get();
        if let Some(addr) = bump_down(cursor.addr(), self.bottom.get(), layout) {
            let ptr = cursor.with_addr(addr);
            self.cursor.set(ptr);
            poison::unpoison(ptr, layout.size());
            // SAFETY: `addr >= bottom >= EMPTY > 0` (field invariant of `bottom`).
            return Ok(unsafe { NonNull::new_unchecked(ptr) });
        }
        self.alloc_slow(layout)
    }

    /// Allocates memory for `layout`, as [`try_alloc_layout`](Self::try_alloc_layout).
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    #[inline]
    pub fn alloc_layout(&self, layout: Layout) -> NonNull<u8> {
        self.try_alloc_layout(layout)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The refill: a new chunk from the pool, then the allocation from it.
    #[cold]
    #[inline(never)]
    fn alloc_slow(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        if layout.size() == 0 {
            // Any aligned non-null pointer will do; no chunk needed.
            // SAFETY: an alignment is never 0.
            return Ok(unsafe {
                NonNull::new_unchecked(ptr::without_provenance_mut(layout.align()))
            });
        }
        let needed =
            chunk_bytes_needed(layout, HEADER).ok_or(AllocError::size_overflow(layout.align()))?;
        let chunk = if needed > self.max_chunk {
            // Larger than the arena's chunks: a chunk of its own, of about its size, rather
            // than a power-of-two class that could leave most of it unused.
            self.learned_first_chunk(needed)
                .or_else(|| self.take_exact(needed, self.reserved.get()))
        } else {
            let request = chunk_request(
                self.pool.classes(),
                needed,
                self.next_size.get(),
                self.reserved.get(),
                self.limit,
            )
            .ok_or(AllocError::new(layout))?;
            self.learned_first_chunk(request)
                .or_else(|| self.pool.take(request))
        }
        .ok_or(AllocError::new(layout))?;
        let size = chunk.size();
        let base = chunk.ptr().as_ptr();
        // SAFETY: the chunk is `size >= needed > HEADER` bytes, so `base + size` is its end.
        let end = unsafe { base.add(size) };
        let bottom = base.addr() + HEADER;
        let Some(addr) = bump_down(end.addr(), bottom, layout) else {
            // `chunk_bytes_needed` makes this impossible; never hand out memory past `bottom`.
            debug_assert!(false, "{layout:?} does not fit a {size}-byte chunk");
            self.pool.give_back(core::iter::once(chunk), None);
            return Err(AllocError::new(layout));
        };
        let header = write_header(chunk, self.head.get());
        self.head.set(Some(header));
        self.chunks.set(self.chunks.get() + 1);
        self.reserved.set(self.reserved.get() + size);
        self.next_size.set(grow(
            self.reserved.get(),
            self.initial_chunk,
            self.max_chunk,
        ));

        // The chunk with more room left after this allocation stays current; the other one
        // keeps what it has handed out and is done.
        let new_room = addr - bottom;
        let old_room = self.cursor.get().addr() - self.bottom.get();
        if new_room >= old_room {
            self.retire_current();
            self.current.set(Some(header));
            self.bottom.set(bottom);
            self.cursor.set(end.with_addr(addr));
        } else {
            // SAFETY: `header` was just written and is not the current chunk, so nothing else
            // accesses it.
            unsafe { (*header.as_ptr()).used = size - (addr - base.addr()) };
        }
        poison::unpoison(end.with_addr(addr), layout.size());
        // SAFETY: `addr >= bottom > base`, and `base` is non-null.
        Ok(unsafe { NonNull::new_unchecked(end.with_addr(addr)) })
    }

    /// A fresh arena's first chunk, sized by what the pool's latest arenas used, if that is
    /// larger than the chunk of `size` bytes it would take anyway and the limits and the pool
    /// allow it.
    fn learned_first_chunk(&self, size: usize) -> Option<Chunk> {
        if !self.learn_first_chunk || self.head.get().is_some() {
            return None;
        }
        let learned = sized_chunk(self.pool.first_chunk_hint()?, HEADER)?;
        (learned > size).then(|| self.take_exact(learned, self.reserved.get()))?
    }

    /// A chunk of `needed` bytes rounded up to a page, not a class, if the arena limit (with
    /// `reserved` bytes held besides it) and the pool allow it.
    fn take_exact(&self, needed: usize, reserved: usize) -> Option<Chunk> {
        let (size, max) = exact_request(self.pool.classes(), needed, reserved, self.limit)?;
        self.pool.take_exact(size, max)
    }

    /// Forgets every allocation and keeps one chunk (poisoned under `arena_asan`), giving the
    /// others back to the pool: a chunk the size of everything the arena used if it held
    /// several and the pool has one (so the next document of that size takes no chunk), else
    /// its largest, or one of its largest's size. That chunk is taken after the others went
    /// back, so the pool can release their memory for it first: the arena's chunks and their
    /// replacement are not held at once (which on wasm32, where memory never shrinks, would
    /// grow it by a second arena). When the pool or the limits refuse both, the arena keeps no
    /// chunk and takes one at its next allocation. Taking `&mut self`, it cannot run while
    /// anything allocated from the arena is still borrowed.
    pub fn reset(&mut self) {
        let mut keep: Option<(NonNull<ChunkHeader>, usize)> = None;
        let mut used = 0;
        self.for_each_chunk(|header, size, bytes| {
            used += bytes;
            if keep.is_none_or(|(_, kept)| size > kept) {
                keep = Some((header, size));
            }
        });
        let Some((largest, largest_size)) = keep else {
            return;
        };
        let arena = ArenaUse {
            reserved: self.reserved.get(),
            used,
        };
        let single = if self.chunks.get() > 1 {
            sized_chunk(used, HEADER).filter(|&single| single > largest_size)
        } else {
            None
        };
        let Some(single) = single else {
            // The largest chunk is as large as one of the size used would be (or the only
            // one): it stays, and the others go back.
            let others = ChunkDrain {
                next: self.head.get(),
                skip: Some(largest),
            };
            self.pool.give_back(others, Some(arena));
            self.keep_sole_chunk(largest, largest_size);
            return;
        };
        // Every chunk goes back before the one of the size used is taken, so the pool can
        // release them to make room for it (on wasm32 their memory then serves it, where memory
        // never shrinks) rather than hold both at once. If the limits or the pool refuse that
        // chunk, one of the largest's size is taken instead (the pool still has the largest
        // unless it released it for the request), and if that is refused too, the arena is
        // left with no chunk, as a new one is.
        let all = ChunkDrain {
            next: self.head.get(),
            skip: None,
        };
        self.pool.give_back(all, Some(arena));
        match self
            .take_exact(single, 0)
            .or_else(|| self.take_exact(largest_size, 0))
        {
            Some(chunk) => {
                let size = chunk.size();
                self.keep_sole_chunk(write_header(chunk, None), size);
            }
            None => self.clear_chunks(),
        }
    }

    /// Makes `keep`, a chunk with its header written, the arena's only chunk, empty, current
    /// and poisoned (under `arena_asan`).
    fn keep_sole_chunk(&self, keep: NonNull<ChunkHeader>, size: usize) {
        // SAFETY: `keep` is a chunk with a written header that the arena owns (its list's, or
        // just taken), and the only one it keeps.
        unsafe { (*keep.as_ptr()).prev = None };
        let base = keep.cast::<u8>().as_ptr();
        poison::poison(base.wrapping_add(HEADER), size - HEADER);
        self.install_sole_chunk(keep, size);
    }

    /// Leaves the arena with no chunk, as [`SlabArenaBuilder::build`] makes one that takes
    /// its first chunk at its first allocation. Its chunks must already be back in the pool.
    fn clear_chunks(&self) {
        self.cursor.set(ptr::without_provenance_mut(EMPTY));
        self.bottom.set(EMPTY);
        self.low_open.set(false);
        self.low_retired.set(None);
        self.current.set(None);
        self.head.set(None);
        self.chunks.set(0);
        self.reserved.set(0);
        self.next_size.set(self.initial_chunk);
    }

    /// Makes `header`'s chunk, `size` bytes with its header written and linked to nothing, the
    /// arena's only chunk, empty and current.
    fn install_sole_chunk(&self, header: NonNull<ChunkHeader>, size: usize) {
        let base = header.cast::<u8>().as_ptr();
        self.head.set(Some(header));
        self.current.set(Some(header));
        self.chunks.set(1);
        self.reserved.set(size);
        self.next_size
            .set(grow(size, self.initial_chunk, self.max_chunk));
        self.bottom.set(base.addr() + HEADER);
        self.low_open.set(false);
        self.low_retired.set(None);
        // `base + size` is the end of the chunk, which is `size` bytes long.
        self.cursor.set(base.wrapping_add(size));
    }

    /// Asserts the arena's invariants: the chunk list matches the counts, chunks are
    /// disjoint, the cursor lies in the current chunk, used bytes fit their chunks. For tests.
    ///
    /// # Panics
    ///
    /// When an invariant does not hold.
    #[doc(hidden)]
    pub fn check_invariants(&self) {
        let mut ranges = Vec::new();
        let mut reserved = 0;
        let mut found_current = false;
        self.for_each_chunk(|header, size, used| {
            let base = header.addr().get();
            assert_eq!(base % crate::chunk_pool::PAGE, 0, "chunk not page aligned");
            assert!(
                HEADER + used <= size,
                "chunk at {base:#x} over-used: {used} of {size}"
            );
            ranges.push((base, size));
            reserved += size;
            if Some(header) == self.current.get() {
                found_current = true;
                let cursor = self.cursor.get().addr();
                assert!(
                    (base + HEADER..=base + size).contains(&cursor),
                    "cursor {cursor:#x} outside the current chunk {base:#x}+{size}"
                );
                assert!(
                    (base + HEADER..=cursor).contains(&self.bottom.get()),
                    "bottom of the current chunk outside its header..cursor"
                );
            }
        });
        assert_eq!(ranges.len(), self.chunks.get(), "chunk count");
        assert_eq!(reserved, self.reserved.get(), "reserved bytes");
        if let Some(limit) = self.limit {
            assert!(reserved <= limit, "over the arena limit");
        }
        match self.current.get() {
            Some(_) => assert!(found_current, "current chunk not in the list"),
            None => {
                assert!(ranges.is_empty(), "chunks but no current chunk");
                assert_eq!(self.bottom.get(), EMPTY);
                assert_eq!(self.cursor.get().addr(), EMPTY);
            }
        }
        crate::chunk_pool::assert_disjoint(&mut ranges, "arena chunks");
    }
}

impl Drop for SlabArena {
    fn drop(&mut self) {
        if self.head.get().is_some() {
            let arena = ArenaUse {
                reserved: self.reserved.get(),
                used: self.stats().used_bytes,
            };
            let all = ChunkDrain {
                next: self.head.get(),
                skip: None,
            };
            self.pool.give_back(all, Some(arena));
        }
    }
}

// SAFETY: `try_alloc_layout` hands out `bump_down` results of the current chunk: aligned to
// `layout.align()`, `layout.size()` bytes at or above `bottom` and below the cursor, which
// then moves below them, so no two live allocations overlap (the low edge's blocks lie below
// `bottom`, which only rises over bytes below the cursor); or from a fresh chunk the same
// way. Chunks stay in the arena (unmoved: the pool never moves a mapping) until `reset`,
// `reset_to` (both `&mut self`) or drop. Zero-sized requests get an aligned non-null pointer.
// `checkpoint`/`rewind` through the trait: `SlabArena` is not `Sync`, and `rewind_shared`
// gives back exactly the chunks taken and the bytes bumped since the checkpoint, which the
// caller vouches are unused.
unsafe impl BumpAllocator for SlabArena {
    #[inline(always)]
    fn try_alloc_layout(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        SlabArena::try_alloc_layout(self, layout)
    }

    fn stats(&self) -> ArenaStats {
        SlabArena::stats(self).into()
    }

    #[inline]
    fn checkpoint(&self) -> Option<Checkpoint> {
        Some(Checkpoint::new(SlabArena::checkpoint(self)))
    }

    #[inline]
    unsafe fn rewind(&self, checkpoint: Checkpoint) {
        // SAFETY: the trait's caller guarantees the checkpoint came from `checkpoint` above, so
        // it holds a `SlabCheckpoint`, and that nothing allocated after it is used again.
        unsafe { self.rewind_shared(checkpoint.get::<SlabCheckpoint>()) }
    }

    #[inline(always)]
    fn as_slab_arena(&self) -> Option<&SlabArena> {
        Some(self)
    }
}
