//! [`ChunkPool`]: a thread-safe, slab-organised source of arena chunks.
//!
//! Chunks come in size classes, powers of two from 64 KiB (configurable); a request larger
//! than the largest class gets a dedicated chunk of exactly its page-rounded size. Every chunk
//! is its own anonymous mapping (one region per chunk: see [`_slab_arena`](crate::_slab_arena) for the
//! measurement behind that choice), so no region is ever moved or copied when the pool grows,
//! and a chunk goes back to the OS with one `munmap`. On wasm32 chunks are carved from linear
//! memory that the pools grow in large steps, and a released chunk waits there for the next
//! one: Wasm memory never shrinks (see [`os`] and [`_wasm`](crate::_wasm)).
//!
//! Free chunks wait in per-class LIFO lists, so the next arena gets the memory most recently
//! touched, preferably by its own thread (see [`thread_token`]). Free memory beyond a reserve
//! is given back to the OS, coldest chunk first, with hysteresis: the pool only trims once the
//! free bytes exceed the reserve by half, and then trims down to the reserve, so an arena that
//! resets and refills never makes the pool map and unmap in turn. A new mapping counts as free
//! bytes to come (its arena gives it back): when no free chunk can serve a request, the free
//! chunks beyond the reserve, the new chunk counted, go before it is mapped, so the pool does
//! not hold an old document's chunks and a new one's at once.
//!
//! Its parts, one submodule each:
//! - [`builder`]: [`ChunkPoolBuilder`], the configuration, and [`PoolConfigError`].
//! - [`reserve`]: the [`Reserve`] policy, the recent-arena history it and the first chunk hint
//!   are computed from, and the trim threshold.
//! - [`free_list`]: the free lists with their thread affinity, and releasing to the OS.
//! - [`size_class`]: size classes and page rounding, the checked arithmetic.
//! - [`os`]: mapping and unmapping memory (`mmap`, `memory.grow` on wasm32), and [`HugePages`].
//! - [`poison`]: AddressSanitizer poisoning under `arena_asan`.
//! - [`stats`]: the [`PoolStats`] snapshot and its table.
//! - [`invariants`]: `check_invariants`, for tests.
//! - `tests`: the unit tests.

mod builder;
mod free_list;
mod invariants;
mod os;
pub(crate) mod poison;
mod reserve;
mod size_class;
mod stats;
#[cfg(test)]
mod tests;

use core::fmt;
use core::ptr::NonNull;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

pub use builder::{ChunkPoolBuilder, PoolConfigError};
use free_list::{ClassState, Counts, FreeDedicated, thread_token};
pub(crate) use invariants::assert_disjoint;
pub use os::HugePages;
pub(crate) use reserve::ArenaUse;
pub use reserve::Reserve;
use reserve::{HINT_ARENAS, RECENT_ARENAS, trim_threshold};
pub(crate) use size_class::{Classes, PAGE, round_up};
pub use stats::{ClassStats, PoolStats};

const KIB: usize = 1024;
const MIB: usize = 1024 * KIB;

/// A thread-safe pool of arena chunks in power-of-two size classes, shared by
/// [`SlabArena`](crate::SlabArena)s.
///
/// Use the process-wide [`ChunkPool::global`], or build your own and share it in an `Arc`.
/// Every chunk is its own mapping, never moved; free chunks wait in per-class LIFO lists, so
/// the next arena gets the most recently touched memory, preferably memory its own thread gave
/// back. Free bytes beyond the [`Reserve`] go back to the OS, coldest chunk first, once they
/// pass 1.5 times the reserve (hysteresis: an arena that resets and refills never makes the
/// pool map and unmap in turn); a chunk that has to be mapped counts as free bytes to come, so
/// the free chunks that could not serve it go first.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use arena_core::{BumpAllocatorExt, ChunkPool, SlabArena};
///
/// let pool = Arc::new(ChunkPool::new());
/// for _ in 0..4 {
///     let arena = SlabArena::with_pool(pool.clone());
///     arena.alloc_slice_copy(&[0u8; 100_000]);
/// } // each arena gives its chunks back; the next one reuses them
/// let stats = pool.stats();
/// assert_eq!(stats.bytes_in_use, 0);
/// // The first arena takes a 128 KiB class chunk. The pool learns that arenas use 100 KB, so
/// // the next ones start with a 100 KiB chunk: mapped once, used three times.
/// assert_eq!(stats.os_map_calls, 2);
/// println!("{stats}");
/// ```
pub struct ChunkPool {
    classes: Classes,
    reserve: Reserve,
    /// CPUs available when the pool was built: the most arenas that can be built at once,
    /// which caps the concurrency share of [`Reserve::Auto`].
    parallelism: usize,
    huge_pages: HugePages,
    limit: Option<usize>,
    state: Mutex<State>,
}

impl fmt::Debug for ChunkPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChunkPool")
            .field("min_chunk", &self.classes.min())
            .field("max_chunk", &self.classes.max())
            .field("reserve", &self.reserve)
            .field("huge_pages", &self.huge_pages)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

/// A chunk handed out by a [`ChunkPool`]: `size` bytes at `ptr`, owned by whoever holds the
/// token until it goes back with [`ChunkPool::give_back`]. Dropping it leaks the chunk.
#[derive(Debug)]
#[must_use = "a chunk must go back to its pool"]
pub(crate) struct Chunk {
    /// Start of the chunk: aligned to at least `PAGE`, valid for reads and writes of `size`
    /// bytes, and no other `Chunk` or free-list entry covers any of them.
    ptr: NonNull<u8>,
    /// A class size of the pool, or a dedicated size (a multiple of `PAGE` above the largest
    /// class).
    size: usize,
}

// SAFETY: a `Chunk` is the unique owner of its memory (field invariant): moving it to another
// thread moves that ownership, and the memory itself is plain bytes.
unsafe impl Send for Chunk {}

impl Chunk {
    /// Start of the chunk.
    pub(crate) fn ptr(&self) -> NonNull<u8> {
        self.ptr
    }

    /// Size of the chunk in bytes.
    pub(crate) fn size(&self) -> usize {
        self.size
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct OsCalls {
    maps: u64,
    unmaps: u64,
    advises: u64,
}

/// The mutable part of a pool, behind its mutex.
#[derive(Debug)]
struct State {
    /// One entry per size class.
    classes: Vec<ClassState>,
    /// Counts of the dedicated chunks (exact sizes that are no class size).
    dedicated: Counts,
    /// Free dedicated chunks, coldest at the front.
    dedicated_free: Vec<FreeDedicated>,
    /// Bytes of the dedicated chunks in use.
    dedicated_bytes: usize,
    /// Sum of the sizes of every mapped chunk; `== bytes_in_use + bytes_free`, `<= limit`.
    bytes_mapped: usize,
    /// Sum of the sizes of the chunks held by arenas.
    bytes_in_use: usize,
    /// Sum of the sizes of the chunks in the free lists.
    bytes_free: usize,
    peak_bytes_mapped: usize,
    bytes_released: u64,
    os: OsCalls,
    /// Reserved bytes of the latest arenas that gave their chunks back (ring buffer).
    recent_arenas: [usize; RECENT_ARENAS],
    /// Peak `bytes_in_use` between consecutive arenas giving their chunks back, for the same
    /// arenas as `recent_arenas` (the peak up to each one's give-back).
    recent_peaks: [usize; RECENT_ARENAS],
    /// Peak `bytes_in_use` since the latest arena gave its chunks back; `>= bytes_in_use`.
    epoch_peak: usize,
    /// [`Reserve::Auto`]'s bytes, from the latest arena that gave its chunks back.
    auto_reserve: usize,
    /// Next slot of `recent_arenas` and `recent_peaks` to overwrite.
    recent_next: usize,
    /// Used bytes of the latest arenas that gave their chunks back, newest first; `None`
    /// until that many have.
    recent_used: [Option<usize>; HINT_ARENAS],
    /// Incremented on every chunk put back; orders the free chunks by age.
    tick: u64,
    /// A `MAP_HUGETLB` mapping failed once: the pool maps normal pages from then on instead of
    /// paying a failing `mmap` per chunk.
    hugetlb_unavailable: bool,
}

// SAFETY: the free lists own their chunks (like `Chunk`, which is `Send`); the pointers are
// only used by the thread holding the mutex.
unsafe impl Send for State {}

impl Default for ChunkPool {
    fn default() -> Self {
        Self::new()
    }
}

impl ChunkPool {
    /// A pool with the default configuration (see [`ChunkPoolBuilder`]).
    #[must_use]
    pub fn new() -> Self {
        // The defaults are valid: 64 KiB and 64 MiB are powers of two in range.
        ChunkPoolBuilder::default()
            .build()
            .unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// A builder for a configured pool.
    #[must_use]
    pub fn builder() -> ChunkPoolBuilder {
        ChunkPoolBuilder::default()
    }

    /// The process-wide pool, with the default configuration, created on first use.
    ///
    /// [`SlabArena::new`](crate::SlabArena::new) draws from it.
    #[must_use]
    pub fn global() -> &'static Arc<ChunkPool> {
        static GLOBAL: OnceLock<Arc<ChunkPool>> = OnceLock::new();
        GLOBAL.get_or_init(|| Arc::new(ChunkPool::new()))
    }

    /// The size classes.
    pub(crate) fn classes(&self) -> Classes {
        self.classes
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held (an assertion in `check_invariants`) leaves the
        // counts as they were before the failed step; the chunks themselves are still owned.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A chunk of at least `size` bytes: the hottest free chunk of its class, or a new mapping.
    ///
    /// `None` when no chunk of that size can exist, the pool limit does not allow it even
    /// after releasing free chunks, or the OS refuses. A fresh chunk is poisoned under
    /// `arena_asan`, as is a reused one.
    pub(crate) fn take(&self, size: usize) -> Option<Chunk> {
        self.take_fit(self.classes.fit(size)?)
    }

    /// A chunk of `size` bytes rounded up to a page and little more: the class of that size if
    /// it is one, else a free dedicated chunk at most 1/8 larger, else a new dedicated mapping
    /// of exactly the rounded size; never a chunk larger than `max`. For large allocations
    /// that would waste much of a power-of-two class. `None` as for [`take`](Self::take).
    pub(crate) fn take_exact(&self, size: usize, max: usize) -> Option<Chunk> {
        let fit = self.classes.fit_exact(size)?;
        (fit.chunk_size(self.classes) <= max).then_some(())?;
        self.take_fit_within(fit, max)
    }

    fn take_fit(&self, fit: size_class::Fit) -> Option<Chunk> {
        self.take_fit_within(fit, usize::MAX)
    }

    fn take_fit_within(&self, fit: size_class::Fit, max: usize) -> Option<Chunk> {
        let chunk_size = fit.chunk_size(self.classes);
        let me = thread_token();
        let mut state = self.lock();
        let reused = state.take_free(fit, chunk_size, max, me);
        if let Some((ptr, size)) = reused {
            state.bytes_free -= size;
            state.bytes_in_use += size;
            state.epoch_peak = state.epoch_peak.max(state.bytes_in_use);
            return Some(Chunk { ptr, size });
        }
        // A new chunk comes back to the free lists with its arena: counted against the reserve
        // now, as `give_back` will count it, the free chunks that could not serve this request
        // go before it is mapped, not after. Kept, they would stay resident beside it for a
        // whole arena's life (a stream's first document leaves chunks that the next one, sized
        // by the first-chunk hint, cannot use), and `give_back` would then trim them unless
        // another arena took them meanwhile: past the threshold, they are more than the
        // reserve keeps for the next arenas.
        self.trim_beyond_reserve(&mut state, chunk_size);
        if let Some(limit) = self.limit {
            let room = limit.checked_sub(chunk_size)?;
            if state.bytes_in_use > room {
                // Even with every free chunk released it would not fit: keep them.
                return None;
            }
            while state.bytes_mapped > room {
                if !state.release_coldest(self.classes) {
                    return None;
                }
            }
        }
        let mut calls = os::MapCalls::default();
        let huge_pages = match self.huge_pages {
            HugePages::HugeTlb if state.hugetlb_unavailable => HugePages::Off,
            huge_pages => huge_pages,
        };
        let mapped = os::map(chunk_size, huge_pages, &mut calls);
        state.os.maps += calls.maps;
        state.os.advises += calls.advises;
        state.hugetlb_unavailable |= calls.hugetlb_failed;
        let ptr = mapped?;
        poison::poison(ptr.as_ptr(), chunk_size);
        let counts = match fit {
            size_class::Fit::Class(index) => &mut state.classes[index].counts,
            size_class::Fit::Dedicated(_) => {
                state.dedicated_bytes += chunk_size;
                &mut state.dedicated
            }
        };
        counts.ever_mapped += 1;
        counts.in_use += 1;
        state.bytes_mapped += chunk_size;
        state.bytes_in_use += chunk_size;
        state.epoch_peak = state.epoch_peak.max(state.bytes_in_use);
        state.peak_bytes_mapped = state.peak_bytes_mapped.max(state.bytes_mapped);
        Some(Chunk {
            ptr,
            size: chunk_size,
        })
    }

    /// Takes back `chunks` (all from this pool), then trims the free memory down to the
    /// reserve if it exceeds [`trim_threshold`]. `arena`: what the arena giving them back held
    /// and used, if it is done with them (drop or reset), remembered for [`Reserve::Auto`] and
    /// [`first_chunk_hint`](Self::first_chunk_hint).
    ///
    /// The iterator is consumed with the pool locked: it must yield each chunk only after it
    /// is done reading it (the pool poisons or unmaps it at once).
    pub(crate) fn give_back(&self, chunks: impl Iterator<Item = Chunk>, arena: Option<ArenaUse>) {
        let me = thread_token();
        let mut state = self.lock();
        for chunk in chunks {
            state.put_back(self.classes, chunk, me);
        }
        if let Some(arena) = arena {
            state.remember(arena, self.parallelism);
        }
        self.trim_beyond_reserve(&mut state, 0);
    }

    /// Gives free chunks back to the OS, coldest first, until at most `keep_bytes` free bytes
    /// stay mapped. Returns the number of bytes released.
    ///
    /// The pool does this by itself beyond its reserve; call it to release more, for example
    /// after a spike you know will not come back.
    pub fn trim(&self, keep_bytes: usize) -> usize {
        let mut state = self.lock();
        let before = state.bytes_mapped;
        state.release_down_to(self.classes, keep_bytes);
        before - state.bytes_mapped
    }

    /// The chunk size a request for `size` bytes gets: the smallest class that holds it, or a
    /// dedicated chunk of the page-rounded size; `None` when no such chunk can exist.
    #[must_use]
    pub fn chunk_size_for(&self, size: usize) -> Option<usize> {
        self.classes.chunk_size_for(size)
    }
}

impl Drop for ChunkPool {
    fn drop(&mut self) {
        // Arenas hold an `Arc` of their pool, so no chunk is in use here; give the free ones
        // back.
        let classes = self.classes;
        self.lock().release_down_to(classes, 0);
    }
}
