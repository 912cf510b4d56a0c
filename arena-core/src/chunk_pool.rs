//! [`ChunkPool`]: a thread-safe, slab-organised source of arena chunks.
//!
//! Chunks come in size classes, powers of two from 64 KiB (configurable); a request larger
//! than the largest class gets a dedicated chunk of exactly its page-rounded size. Every chunk
//! is its own anonymous mapping (one region per chunk: see the README's slab section for the
//! measurement behind that choice), so no region is ever moved or copied when the pool grows,
//! and a chunk goes back to the OS with one `munmap`.
//!
//! Free chunks wait in per-class LIFO lists, so the next arena gets the memory most recently
//! touched, preferably by its own thread (see [`thread_token`]). Free memory beyond a reserve is given back to the OS, coldest chunk first, with
//! hysteresis: the pool only trims once the free bytes exceed the reserve by half, and then
//! trims down to the reserve, so an arena that resets and refills never makes the pool map
//! and unmap in turn.
//!
//! Its parts, one submodule each:
//! - [`builder`]: [`ChunkPoolBuilder`], the configuration, and [`PoolConfigError`].
//! - [`size_class`]: size classes and page rounding, the checked arithmetic.
//! - [`os`]: mapping and unmapping memory, and [`HugePages`].
//! - [`poison`]: AddressSanitizer poisoning under `arena_asan`.
//! - [`stats`]: the [`PoolStats`] snapshot and its table.
//! - [`invariants`]: `check_invariants`, for tests.
//! - `tests`: the unit tests.

mod builder;
mod invariants;
mod os;
pub(crate) mod poison;
mod size_class;
mod stats;
#[cfg(test)]
mod tests;

use core::cell::Cell;
use core::fmt;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicU64, Ordering};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

pub use builder::{ChunkPoolBuilder, PoolConfigError};
pub(crate) use invariants::assert_disjoint;
pub use os::HugePages;
pub(crate) use size_class::{Classes, PAGE, round_up};
pub use stats::{ClassStats, PoolStats};

const KIB: usize = 1024;
const MIB: usize = 1024 * KIB;

/// How many of the latest arena sizes the automatic reserve remembers.
const RECENT_ARENAS: usize = 16;
/// How many of the latest arenas' used bytes the first-chunk hint is the minimum of: two, so
/// one spike does not make the next arena take a spike-sized chunk.
const HINT_ARENAS: usize = 2;

/// What an arena giving its chunks back (on drop or reset) held and used, which the pool
/// remembers: the reserved bytes for [`Reserve::Auto`], the used bytes for
/// [`first_chunk_hint`](ChunkPool::first_chunk_hint).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ArenaUse {
    /// Bytes of the chunks the arena held.
    pub(crate) reserved: usize,
    /// Bytes it handed out, alignment padding included.
    pub(crate) used: usize,
}

/// How many free bytes a pool keeps mapped for the next arenas.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reserve {
    /// Enough for the arenas that were live together recently, so that threads each building
    /// an arena at once do not map and unmap in turn.
    ///
    /// It is the larger of:
    /// - the largest of the last 16 arenas that gave their chunks back (on drop or reset): one
    ///   more arena of that size;
    /// - how far the bytes in use are below their peak over the time those 16 arenas gave
    ///   their chunks back, capped at that largest arena times the CPUs available when the
    ///   pool was built. With two threads each building a 5 MB arena, this keeps 10 MB; after
    ///   a burst of many arenas, it keeps one per CPU until 16 more arenas come back.
    #[default]
    Auto,
    /// A fixed number of bytes (0: give every free chunk back as soon as the free bytes exceed
    /// nothing, that is immediately).
    Bytes(usize),
}

/// A thread-safe pool of arena chunks in power-of-two size classes, shared by
/// [`SlabArena`](crate::SlabArena)s.
///
/// Use the process-wide [`ChunkPool::global`], or build your own and share it in an `Arc`.
/// Every chunk is its own mapping, never moved; free chunks wait in per-class LIFO lists, so
/// the next arena gets the most recently touched memory, preferably memory its own thread gave
/// back. Free bytes beyond the [`Reserve`]
/// go back to the OS, coldest chunk first, once they pass 1.5 times the reserve (hysteresis:
/// an arena that resets and refills never makes the pool map and unmap in turn).
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

/// A free chunk in a class's free list.
#[derive(Debug)]
struct FreeChunk {
    /// Start of a mapped chunk of the class's size that no arena holds; poisoned under
    /// `arena_asan`.
    ptr: NonNull<u8>,
    /// `State::tick` when it was put back: lower is colder.
    freed_at: u64,
    /// [`thread_token`] of the thread that put it back, whose cache may still hold it.
    freed_by: u64,
}

/// A free dedicated chunk: one whole mapping of `size` bytes, not a class size.
#[derive(Debug)]
struct FreeDedicated {
    ptr: NonNull<u8>,
    size: usize,
    /// As [`FreeChunk::freed_at`].
    freed_at: u64,
    /// As [`FreeChunk::freed_by`].
    freed_by: u64,
}

/// How many of the hottest free chunks of a class `take` looks through for one that the
/// taking thread put back itself.
const AFFINITY_SCAN: usize = 4;

/// A number for the calling thread, unique while the process runs (`0` once its thread-locals
/// are gone). Free chunks remember who put them back: a thread that takes back a chunk it
/// wrote itself finds much of it still in its own core's cache, where a chunk another core
/// wrote must first be fetched from there (two threads each building an arena per document
/// swapped chunks every document, which cost them a third of their speed).
fn thread_token() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    std::thread_local! {
        static TOKEN: Cell<u64> = const { Cell::new(0) };
    }
    TOKEN
        .try_with(|token| {
            if token.get() == 0 {
                token.set(NEXT.fetch_add(1, Ordering::Relaxed));
            }
            token.get()
        })
        .unwrap_or(0)
}

/// A dedicated chunk kept free is reused for a request up to this fraction smaller than it
/// (1/8: at most 12.5% of it unused), so documents of about the same size reuse it.
const DEDICATED_REUSE_SLACK: usize = 8;

/// Counts of one class; `in_use + free + released == ever_mapped` always.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    ever_mapped: u64,
    in_use: usize,
    released: u64,
}

#[derive(Debug, Default)]
struct ClassState {
    /// Free chunks, coldest at the front, hottest at the back (LIFO: pop from the back).
    free: VecDeque<FreeChunk>,
    counts: Counts,
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

/// Free bytes above which the pool trims, for a reserve of `reserve` bytes: half again the
/// reserve, so refilling and emptying around the reserve does not map and unmap in turn.
#[must_use]
pub(crate) fn trim_threshold(reserve: usize) -> usize {
    reserve.saturating_add(reserve / 2)
}

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

    /// Free bytes kept mapped right now.
    fn reserve_bytes(&self, state: &State) -> usize {
        match self.reserve {
            Reserve::Bytes(bytes) => bytes,
            Reserve::Auto => state.auto_reserve,
        }
    }

    /// How many bytes the next arena will probably use: the least of what the last two arenas
    /// that gave their chunks back used (what the last one used when only one has), or `None`
    /// before any has. A fresh arena sizes its first chunk by it, so documents of a steady size
    /// each take one chunk.
    pub(crate) fn first_chunk_hint(&self) -> Option<usize> {
        let state = self.lock();
        state
            .recent_used
            .iter()
            .flatten()
            .copied()
            .min()
            .filter(|&used| used > 0)
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
        let reused = match fit {
            size_class::Fit::Class(index) => {
                let class = &mut state.classes[index];
                // The hottest this thread put back among the hottest few, else the hottest.
                let hot = class.free.len().saturating_sub(AFFINITY_SCAN);
                let found = (hot..class.free.len())
                    .rev()
                    .find(|&i| class.free[i].freed_by == me)
                    .or(class.free.len().checked_sub(1));
                found.and_then(|i| class.free.remove(i)).map(|free| {
                    class.counts.in_use += 1;
                    (free.ptr, chunk_size)
                })
            }
            size_class::Fit::Dedicated(_) => {
                // The hottest free one that is large enough and not too large, preferably one
                // this thread put back.
                let fits = |f: &FreeDedicated| {
                    f.size >= chunk_size
                        && f.size <= max
                        && f.size - chunk_size <= chunk_size / DEDICATED_REUSE_SLACK
                };
                let free = &state.dedicated_free;
                let found = free
                    .iter()
                    .rposition(|f| f.freed_by == me && fits(f))
                    .or_else(|| free.iter().rposition(fits));
                found.map(|i| {
                    let free = state.dedicated_free.remove(i);
                    state.dedicated.in_use += 1;
                    state.dedicated_bytes += free.size;
                    (free.ptr, free.size)
                })
            }
        };
        if let Some((ptr, size)) = reused {
            state.bytes_free -= size;
            state.bytes_in_use += size;
            state.epoch_peak = state.epoch_peak.max(state.bytes_in_use);
            return Some(Chunk { ptr, size });
        }
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
            let slot = state.recent_next;
            state.recent_arenas[slot] = arena.reserved;
            state.recent_peaks[slot] = state.epoch_peak;
            state.epoch_peak = state.bytes_in_use;
            state.auto_reserve = state.auto_reserve(self.parallelism);
            state.recent_next = (slot + 1) % RECENT_ARENAS;
            state.recent_used.copy_within(..HINT_ARENAS - 1, 1);
            state.recent_used[0] = Some(arena.used);
        }
        let reserve = self.reserve_bytes(&state);
        if state.bytes_free > trim_threshold(reserve) {
            state.release_down_to(self.classes, reserve);
        }
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

impl State {
    /// [`Reserve::Auto`] as of now (see there): set when an arena gives its chunks back, so
    /// chunks taken in between do not move it.
    fn auto_reserve(&self, parallelism: usize) -> usize {
        let largest = self.recent_arenas.iter().copied().max().unwrap_or(0);
        let peak = self
            .recent_peaks
            .iter()
            .copied()
            .fold(self.epoch_peak, usize::max);
        let concurrent = (peak - self.bytes_in_use).min(largest.saturating_mul(parallelism));
        largest.max(concurrent)
    }

    /// Puts `chunk` back into its class's free list, or the dedicated one (poisoned).
    fn put_back(&mut self, classes: Classes, chunk: Chunk, freed_by: u64) {
        let Chunk { ptr, size } = chunk;
        self.bytes_in_use -= size;
        match classes.fit_exact(size) {
            Some(size_class::Fit::Class(index)) => {
                assert_eq!(
                    classes.size(index),
                    size,
                    "chunk given back to the wrong pool"
                );
                poison::poison(ptr.as_ptr(), size);
                self.tick += 1;
                let class = &mut self.classes[index];
                class.counts.in_use -= 1;
                class.free.push_back(FreeChunk {
                    ptr,
                    freed_at: self.tick,
                    freed_by,
                });
                self.bytes_free += size;
            }
            _ => {
                poison::poison(ptr.as_ptr(), size);
                self.tick += 1;
                self.dedicated.in_use -= 1;
                self.dedicated_bytes -= size;
                self.dedicated_free.push(FreeDedicated {
                    ptr,
                    size,
                    freed_at: self.tick,
                    freed_by,
                });
                self.bytes_free += size;
            }
        }
    }

    /// Gives the coldest free chunk of any class back to the OS; `false` if none is free.
    fn release_coldest(&mut self, classes: Classes) -> bool {
        let coldest = self
            .classes
            .iter()
            .enumerate()
            .filter_map(|(index, class)| class.free.front().map(|f| (f.freed_at, index)))
            .min();
        let dedicated = self.dedicated_free.first().map(|f| f.freed_at);
        if let Some(freed_at) = dedicated
            && coldest.is_none_or(|(tick, _)| freed_at < tick)
        {
            let free = self.dedicated_free.remove(0);
            self.dedicated.released += 1;
            self.bytes_free -= free.size;
            // SAFETY: a free dedicated chunk is one whole mapping of `size` bytes that no arena
            // holds, and it just left the free list.
            unsafe { self.unmap(free.ptr, free.size) };
            return true;
        }
        let Some((_, index)) = coldest else {
            return false;
        };
        let size = classes.size(index);
        let class = &mut self.classes[index];
        let Some(free) = class.free.pop_front() else {
            return false;
        };
        class.counts.released += 1;
        self.bytes_free -= size;
        // SAFETY: a free chunk of class `index` is one whole mapping of `size` bytes that no
        // arena holds (`FreeChunk` invariant), and it just left the free list.
        unsafe { self.unmap(free.ptr, size) };
        true
    }

    /// Releases coldest free chunks until at most `keep` free bytes remain.
    fn release_down_to(&mut self, classes: Classes, keep: usize) {
        while self.bytes_free > keep && self.release_coldest(classes) {}
    }

    /// Unmaps a chunk and counts it.
    ///
    /// # Safety
    ///
    /// `ptr..ptr + size` must be one whole mapping made by `take` that nothing uses any more.
    unsafe fn unmap(&mut self, ptr: NonNull<u8>, size: usize) {
        // The range may be mapped again for someone else: clear our poison first.
        poison::unpoison(ptr.as_ptr(), size);
        // SAFETY: forwarded from the caller.
        unsafe { os::unmap(ptr, size) };
        self.os.unmaps += 1;
        self.bytes_mapped -= size;
        self.bytes_released += size as u64;
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
