//! [`SlabArenaBuilder`]: an arena's pool, first chunk size, growth cap and byte limit.

use core::cell::Cell;
use core::ptr;
use std::sync::Arc;

use super::chunk_list::write_header;
use super::{EMPTY, SlabArena};
use crate::chunk_pool::ChunkPool;

/// Default cap of the chunk growth: large enough that a hot arena takes a new chunk rarely
/// (once per MiB, a free-list pop from a warm pool), small enough that the last, partly used
/// chunk wastes little. Allocations larger than the cap get chunks of their own size.
const DEFAULT_MAX_CHUNK: usize = 1024 * 1024;

/// Builder of a [`SlabArena`]: pool, first chunk size, growth cap and byte limit.
///
/// # Examples
///
/// ```
/// use arena_core::{BumpAllocatorExt, SlabArena};
///
/// let arena = SlabArena::builder()
///     .initial_chunk_size(64 * 1024)
///     .max_chunk_size(1 << 20)
///     .limit(4 << 20)
///     .build();
/// assert!(arena.try_alloc_slice_copy(&[0u8; 100]).is_ok());
/// assert!(arena.try_alloc_slice_copy(&vec![0u8; 5 << 20]).is_err()); // past the limit
/// ```
#[derive(Clone, Debug, Default)]
pub struct SlabArenaBuilder {
    pool: Option<Arc<ChunkPool>>,
    initial_chunk: Option<usize>,
    max_chunk: Option<usize>,
    limit: Option<usize>,
}

impl SlabArenaBuilder {
    /// Draw chunks from `pool` (default: [`ChunkPool::global`]).
    #[must_use]
    pub fn pool(mut self, pool: Arc<ChunkPool>) -> Self {
        self.pool = Some(pool);
        self
    }

    /// Size of the first chunk, rounded up to the pool's classes. Default: what the last two
    /// arenas that gave chunks back to the pool used (the lesser), so a fresh arena per
    /// document of a steady size takes one chunk; the pool's smallest class (64 KiB) before
    /// any has, or when they used less. Setting it turns that off.
    #[must_use]
    pub fn initial_chunk_size(mut self, bytes: usize) -> Self {
        self.initial_chunk = Some(bytes);
        self
    }

    /// Cap of the growth: each new chunk is about 1/16 of what the arena holds (at least the
    /// initial size), up to this (default: 1 MiB, or the pool's largest class if smaller). Set it to the initial size for
    /// chunks that never grow. A single larger allocation gets a chunk of its own size
    /// (rounded up to a page), which the pool keeps for the next allocation of about that size.
    #[must_use]
    pub fn max_chunk_size(mut self, bytes: usize) -> Self {
        self.max_chunk = Some(bytes);
        self
    }

    /// The arena holds at most `bytes` of chunks (headers included): an allocation that would
    /// need more fails with [`AllocError`](crate::AllocError). Default: no limit but the pool's.
    #[must_use]
    pub fn limit(mut self, bytes: usize) -> Self {
        self.limit = Some(bytes);
        self
    }

    /// The arena. When the pool has seen arenas before and the first chunk size is not set,
    /// it takes its first chunk now, as large as they used (see
    /// [`initial_chunk_size`](Self::initial_chunk_size)), so its first allocation is no refill;
    /// otherwise it takes no chunk until the first allocation.
    #[must_use]
    pub fn build(self) -> SlabArena {
        let pool = self.pool.unwrap_or_else(|| ChunkPool::global().clone());
        let classes = pool.classes();
        let max_chunk = self
            .max_chunk
            .unwrap_or_else(|| DEFAULT_MAX_CHUNK.min(classes.max()));
        let initial = self.initial_chunk.unwrap_or(classes.min()).min(max_chunk);
        let arena = SlabArena {
            cursor: Cell::new(ptr::without_provenance_mut(EMPTY)),
            bottom: Cell::new(EMPTY),
            low_open: Cell::new(false),
            low_retired: Cell::new(None),
            current: Cell::new(None),
            head: Cell::new(None),
            chunks: Cell::new(0),
            reserved: Cell::new(0),
            next_size: Cell::new(initial),
            initial_chunk: initial,
            learn_first_chunk: self.initial_chunk.is_none(),
            max_chunk,
            limit: self.limit,
            pool,
        };
        // The first chunk now, out of the first allocation's way, when the pool knows how
        // large the arenas it serves become.
        if let Some(chunk) = arena.learned_first_chunk(initial) {
            let size = chunk.size();
            arena.install_sole_chunk(write_header(chunk, None), size);
        }
        arena
    }
}
