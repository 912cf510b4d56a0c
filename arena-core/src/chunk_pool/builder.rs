//! [`ChunkPoolBuilder`]: a pool's configuration (chunk sizes, reserve, huge pages, limit),
//! and [`PoolConfigError`] for one that cannot work.

use core::fmt;
use std::sync::Mutex;

use super::free_list::{ClassState, Counts};
use super::reserve::{HINT_ARENAS, RECENT_ARENAS};
use super::{ChunkPool, Classes, HugePages, KIB, MIB, OsCalls, Reserve, State};

/// Default smallest chunk: small enough that a cold arena costs little, large enough that the
/// pool lock is taken rarely.
const DEFAULT_MIN_CHUNK: usize = 64 * KIB;
/// Default largest class: arenas grow to 16 MiB chunks by default, a single allocation up to
/// 64 MiB still comes from (reusable) class chunks.
const DEFAULT_MAX_CHUNK: usize = 64 * MIB;

/// A pool configuration that cannot work, with a message saying why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolConfigError(&'static str);

impl fmt::Display for PoolConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid chunk pool configuration: {}", self.0)
    }
}

impl std::error::Error for PoolConfigError {}

/// Builder of a [`ChunkPool`]: chunk size range, reserve, huge pages and a byte limit.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use arena_core::{ChunkPool, HugePages, Reserve, SlabArena, BumpAllocatorExt};
///
/// let pool = Arc::new(
///     ChunkPool::builder()
///         .chunk_sizes(64 * 1024, 16 << 20)
///         .reserve(Reserve::Bytes(32 << 20))
///         .huge_pages(HugePages::Transparent)
///         .limit(1 << 30)
///         .build()?,
/// );
/// let arena = SlabArena::with_pool(pool.clone());
/// assert_eq!(arena.alloc_str("hello"), "hello");
/// assert_eq!(pool.stats().classes[0].in_use, 1);
/// # Ok::<(), arena_core::PoolConfigError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ChunkPoolBuilder {
    min_chunk: usize,
    max_chunk: usize,
    reserve: Reserve,
    huge_pages: HugePages,
    limit: Option<usize>,
}

impl Default for ChunkPoolBuilder {
    fn default() -> Self {
        Self {
            min_chunk: DEFAULT_MIN_CHUNK,
            max_chunk: DEFAULT_MAX_CHUNK,
            reserve: Reserve::Auto,
            huge_pages: HugePages::Transparent,
            limit: None,
        }
    }
}

impl ChunkPoolBuilder {
    /// Size classes from `min` to `max` bytes (powers of two, `4 KiB <= min <= max`; default
    /// 64 KiB to 64 MiB).
    #[must_use]
    pub fn chunk_sizes(mut self, min: usize, max: usize) -> Self {
        self.min_chunk = min;
        self.max_chunk = max;
        self
    }

    /// Free bytes kept mapped for the next arenas (default [`Reserve::Auto`]).
    #[must_use]
    pub fn reserve(mut self, reserve: Reserve) -> Self {
        self.reserve = reserve;
        self
    }

    /// Huge pages for large chunks (default [`HugePages::Transparent`]: why, and what it
    /// costs, is on [`HugePages`]).
    #[must_use]
    pub fn huge_pages(mut self, huge_pages: HugePages) -> Self {
        self.huge_pages = huge_pages;
        self
    }

    /// At most `bytes` mapped at once; a chunk request past it first releases free chunks,
    /// then fails (the arena reports an [`AllocError`](crate::AllocError)). Default: no limit.
    #[must_use]
    pub fn limit(mut self, bytes: usize) -> Self {
        self.limit = Some(bytes);
        self
    }

    /// Builds the pool. Nothing is mapped until an arena asks for a chunk.
    ///
    /// # Errors
    ///
    /// [`PoolConfigError`] when the chunk sizes are not powers of two with
    /// `4 KiB <= min <= max < isize::MAX`.
    pub fn build(self) -> Result<ChunkPool, PoolConfigError> {
        let classes = Classes::new(self.min_chunk, self.max_chunk).map_err(PoolConfigError)?;
        let state = State {
            classes: (0..classes.count())
                .map(|_| ClassState::default())
                .collect(),
            dedicated: Counts::default(),
            dedicated_free: Vec::new(),
            dedicated_bytes: 0,
            bytes_mapped: 0,
            bytes_in_use: 0,
            bytes_free: 0,
            peak_bytes_mapped: 0,
            bytes_released: 0,
            os: OsCalls::default(),
            recent_arenas: [0; RECENT_ARENAS],
            recent_peaks: [0; RECENT_ARENAS],
            epoch_peak: 0,
            auto_reserve: 0,
            recent_next: 0,
            recent_used: [None; HINT_ARENAS],
            tick: 0,
            hugetlb_unavailable: false,
        };
        Ok(ChunkPool {
            classes,
            reserve: self.reserve,
            parallelism: std::thread::available_parallelism().map_or(1, usize::from),
            huge_pages: self.huge_pages,
            limit: self.limit,
            state: Mutex::new(state),
        })
    }
}
