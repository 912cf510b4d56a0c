//! The slab model: programs of allocator operations on `SlabArena`s sharing one `ChunkPool`,
//! replayed against a model of what must be live. The one interpreter of both the property
//! test (`slab_model.rs`, programs from proptest) and the fuzz target (`fuzz/fuzz_targets/
//! slab_ops.rs`, programs from libFuzzer), which each only generate [`Config`]s and [`Op`]s.
//!
//! After every step: every allocation is aligned and overlaps no other live one, arena and pool
//! invariants hold, and the pool's bytes in use are exactly the arenas' chunks; contents written
//! stay intact until their arena is reset, rewound past them or dropped.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::Arc;

use allocator_api2::alloc::Allocator;
use arena_core::{BumpAllocator, ChunkPool, Reserve, SlabArena, SlabCheckpoint};

use super::{LiveSet, fill, holds};

pub const KIB: usize = 1024;
pub const MIB: usize = 1024 * KIB;

/// Allocation sizes are drawn below one of these bounds: mostly small, as in deserialized
/// documents, with the occasional large block that needs a chunk of its own (up to 1 MiB).
pub const SIZE_BOUNDS: [usize; 4] = [64, 4 * KIB, 64 * KIB, MIB + 1];
/// Alignments are `1 << align_shift` for `align_shift` up to this: 1 to 4096 bytes.
pub const MAX_ALIGN_SHIFT: u32 = 12;
/// Arenas alive at once, at most: enough to interleave, few enough to stay fast.
pub const MAX_ARENAS: usize = 4;

/// The choices for each field of a [`Config`].
pub const MIN_CHUNKS: &[usize] = &[4 * KIB, 64 * KIB];
pub const MAX_CHUNKS: &[usize] = &[256 * KIB, 4 * MIB];
pub const RESERVES: &[Reserve] = &[Reserve::Auto, Reserve::Bytes(0), Reserve::Bytes(MIB)];
pub const POOL_LIMITS: &[Option<usize>] = &[None, Some(16 * MIB)];
pub const INITIAL_CHUNKS: &[usize] = &[4 * KIB, 64 * KIB, MIB];
pub const ARENA_MAX_CHUNKS: &[usize] = &[64 * KIB, 16 * MIB];
pub const ARENA_LIMITS: &[Option<usize>] = &[None, Some(6 * MIB)];

/// One step of a program. An `arena` is taken modulo the arenas alive (a program starts with
/// one, and gets one again whenever it has none).
#[derive(Clone, Debug)]
pub enum Op {
    /// Allocate `size` bytes (below the largest of [`SIZE_BOUNDS`]) aligned to
    /// `1 << align_shift` (at most [`MAX_ALIGN_SHIFT`]).
    Alloc {
        arena: usize,
        size: usize,
        align_shift: u32,
    },
    Reset(usize),
    /// Take a checkpoint, replacing the arena's previous one.
    Checkpoint(usize),
    /// Rewind to the arena's checkpoint, if it has one (which it keeps).
    Rewind(usize),
    /// Give the arena's latest live allocation back through allocator-api2's `deallocate`.
    FreeLatest(usize),
    Drop(usize),
    /// A new arena, unless [`MAX_ARENAS`] are alive.
    New,
    /// Open a block of `size` bytes aligned to `1 << align_shift` at the arena's low edge
    /// (refused while one is open, as the slice builder never asks then).
    LowTake {
        arena: usize,
        size: usize,
        align_shift: u32,
    },
    /// Grow the open low block by `size` bytes, if the arena has the room.
    LowGrow {
        arena: usize,
        size: usize,
    },
    /// Close the open low block keeping `keep` bytes of it (modulo its length plus one).
    LowClose {
        arena: usize,
        keep: usize,
    },
}

/// The pool and arena configuration of a program, each field one of its choices above
/// (`min_chunk` one of [`MIN_CHUNKS`], and so on).
#[derive(Clone, Debug)]
pub struct Config {
    pub min_chunk: usize,
    pub max_chunk: usize,
    pub reserve: Reserve,
    pub pool_limit: Option<usize>,
    pub initial_chunk: usize,
    pub arena_max_chunk: usize,
    pub arena_limit: Option<usize>,
}

/// A live allocation: where, its layout, and the tag of the pattern written into it.
#[derive(Clone, Copy, Debug)]
struct Live {
    addr: usize,
    layout: Layout,
    tag: u64,
}

impl Live {
    /// The allocation's bytes.
    ///
    /// # Safety
    ///
    /// The allocation must still be live (its arena not reset, rewound past it or dropped).
    unsafe fn bytes(&self) -> &[u8] {
        // SAFETY: the caller guarantees the allocation is live; it is `layout.size()` bytes.
        unsafe { std::slice::from_raw_parts(self.addr as *const u8, self.layout.size()) }
    }
}

/// The open block at an arena's low edge: `len` bytes from `addr`, patterned with `tag`.
#[derive(Clone, Copy, Debug)]
struct LowBlock {
    addr: usize,
    len: usize,
    tag: u64,
}

/// One arena of the program and what the model says it holds.
struct ModelArena {
    arena: SlabArena,
    /// Live allocations, oldest (lowest tag) first.
    live: Vec<Live>,
    /// The latest checkpoint, the first tag allocated after it, and the used bytes then.
    checkpoint: Option<(SlabCheckpoint, u64, usize)>,
    /// The open low block, if any.
    low: Option<LowBlock>,
}

/// A program being replayed: the pool, its arenas and the model of each.
pub struct Run {
    config: Config,
    pool: Arc<ChunkPool>,
    arenas: Vec<ModelArena>,
    all_live: LiveSet,
    next_tag: u64,
}

impl Run {
    /// A run on a fresh pool configured by `config`, with no arena yet.
    pub fn new(config: Config) -> Self {
        let mut builder = ChunkPool::builder()
            .chunk_sizes(config.min_chunk, config.max_chunk)
            .reserve(config.reserve);
        if let Some(limit) = config.pool_limit {
            builder = builder.limit(limit);
        }
        let pool = Arc::new(builder.build().unwrap());
        Run {
            config,
            pool,
            arenas: Vec::new(),
            all_live: LiveSet::default(),
            next_tag: 0,
        }
    }

    /// Replays `ops` on a fresh run, then drops every arena and checks the pool is empty.
    pub fn replay(config: Config, ops: &[Op]) {
        let mut run = Run::new(config);
        for op in ops {
            run.step(op);
        }
        run.finish();
    }

    fn new_arena(&mut self) {
        let mut builder = SlabArena::builder()
            .pool(self.pool.clone())
            .initial_chunk_size(self.config.initial_chunk)
            .max_chunk_size(self.config.arena_max_chunk);
        if let Some(limit) = self.config.arena_limit {
            builder = builder.limit(limit);
        }
        self.arenas.push(ModelArena {
            arena: builder.build(),
            live: Vec::new(),
            checkpoint: None,
            low: None,
        });
    }

    /// Checks the contents of the allocations of `arena` from index `from` on, then forgets
    /// them.
    fn forget(&mut self, arena: usize, from: usize) {
        let model = &mut self.arenas[arena];
        for live in &model.live[from..] {
            // SAFETY: the model holds only allocations whose arena has not been reset,
            // rewound past them or dropped: they are live until the call that follows.
            let bytes = unsafe { live.bytes() };
            assert!(holds(bytes, live.tag), "contents of {live:?} changed");
            self.all_live.remove(live.addr, live.layout.size());
        }
        model.live.truncate(from);
    }

    /// Applies `op` to the arenas and the model, then checks them.
    pub fn step(&mut self, op: &Op) {
        if self.arenas.is_empty() {
            self.new_arena();
        }
        let n = self.arenas.len();
        match *op {
            Op::Alloc {
                arena,
                size,
                align_shift,
            } => self.alloc(arena % n, size, 1 << align_shift),
            Op::Reset(arena) => {
                let arena = arena % n;
                self.abandon_low(arena);
                self.forget(arena, 0);
                let model = &mut self.arenas[arena];
                model.arena.reset();
                model.checkpoint = None;
                let stats = model.arena.stats();
                assert!(stats.chunks <= 1 && stats.used_bytes == 0, "{stats:?}");
                self.assert_low_edge_free(arena);
            }
            Op::Checkpoint(arena) => {
                let model = &mut self.arenas[arena % n];
                model.checkpoint = Some((
                    model.arena.checkpoint(),
                    self.next_tag,
                    model.arena.stats().used_bytes,
                ));
            }
            Op::Rewind(arena) => {
                let arena = arena % n;
                if let Some((checkpoint, first_after, used)) = self.arenas[arena].checkpoint {
                    // A block opened since is abandoned (a sequence that failed), and the rewind
                    // frees and closes it; an older one stays open.
                    if self.arenas[arena]
                        .low
                        .is_some_and(|low| low.tag >= first_after)
                    {
                        self.abandon_low(arena);
                    }
                    let from = self.arenas[arena]
                        .live
                        .partition_point(|l| l.tag < first_after);
                    self.forget(arena, from);
                    let model = &mut self.arenas[arena];
                    model.arena.reset_to(checkpoint);
                    // Exactly the state of the checkpoint again (even when an allocation from
                    // before it was freed since, and the cursor went above it).
                    assert_eq!(model.arena.stats().used_bytes, used);
                    self.assert_low_edge_free(arena);
                }
            }
            Op::FreeLatest(arena) => {
                let arena = arena % n;
                if let Some(&latest) = self.arenas[arena].live.last() {
                    self.forget(arena, self.arenas[arena].live.len() - 1);
                    let ptr = NonNull::new(latest.addr as *mut u8).unwrap();
                    // SAFETY: the arena's latest live allocation, made with `latest.layout`;
                    // the model just forgot it and never touches it again.
                    unsafe {
                        Allocator::deallocate(&&self.arenas[arena].arena, ptr, latest.layout);
                    }
                }
            }
            Op::Drop(arena) => {
                let arena = arena % n;
                self.abandon_low(arena);
                self.forget(arena, 0);
                self.arenas.swap_remove(arena);
            }
            Op::New => {
                if n < MAX_ARENAS {
                    self.new_arena();
                }
            }
            Op::LowTake {
                arena,
                size,
                align_shift,
            } => self.take_low(arena % n, size, 1 << align_shift),
            Op::LowGrow { arena, size } => self.grow_low(arena % n, size),
            Op::LowClose { arena, keep } => {
                let arena = arena % n;
                if let Some(low) = self.arenas[arena].low {
                    self.close_low(arena, keep % (low.len + 1));
                }
            }
        }
        self.check();
    }

    fn take_low(&mut self, arena: usize, size: usize, align: usize) {
        let layout = Layout::from_size_align(size, align).unwrap();
        let model = &mut self.arenas[arena];
        let Some(ptr) = model.arena.take_low(layout) else {
            return;
        };
        assert!(model.low.is_none(), "a second low block while one is open");
        let addr = ptr.as_ptr() as usize;
        assert_eq!(addr % align, 0, "low {layout:?} misaligned at {addr:#x}");
        let tag = self.next_tag;
        self.next_tag += 1;
        self.all_live.insert(addr, size);
        // SAFETY: the block is `size` bytes of the arena, ours until it closes.
        fill(
            unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr(), size) },
            tag,
        );
        model.low = Some(LowBlock {
            addr,
            len: size,
            tag,
        });
    }

    fn grow_low(&mut self, arena: usize, size: usize) {
        let model = &mut self.arenas[arena];
        let Some(low) = model.low else {
            return;
        };
        let end = NonNull::new((low.addr + low.len) as *mut u8).unwrap();
        if !model.arena.extend_low(end, size) {
            return;
        }
        // A checkpoint taken while the block was open does not cover its growth: a rewind to
        // it would free what the block just took (the slice builder never grows a block
        // between a checkpoint and its rewind).
        if model
            .checkpoint
            .is_some_and(|(_, first_after, _)| low.tag < first_after)
        {
            model.checkpoint = None;
        }
        // SAFETY: the block is live until it closes, and grew by `size` bytes.
        let bytes = unsafe { std::slice::from_raw_parts_mut(low.addr as *mut u8, low.len + size) };
        assert!(
            holds(&bytes[..low.len], low.tag),
            "low block {low:?} changed"
        );
        fill(bytes, low.tag);
        self.all_live.remove(low.addr, low.len);
        self.all_live.insert(low.addr, low.len + size);
        model.low = Some(LowBlock {
            len: low.len + size,
            ..low
        });
    }

    /// Unless the model has a low block open, the arena takes one (an empty one, closed again
    /// at once) whenever it has a chunk: nothing abandoned still holds its low edge.
    fn assert_low_edge_free(&self, arena: usize) {
        let model = &self.arenas[arena];
        if model.low.is_some() || model.arena.stats().chunks == 0 {
            return;
        }
        let empty = Layout::new::<()>();
        let ptr = model.arena.take_low(empty);
        assert!(ptr.is_some(), "the low edge is still taken");
        if let Some(ptr) = ptr {
            // SAFETY: an empty block, closed whole.
            unsafe { model.arena.close_low(ptr, ptr) };
        }
    }

    /// Forgets the arena's open low block, if any, without closing it (its sequence failed):
    /// the reset, rewind or drop that follows must free it.
    fn abandon_low(&mut self, arena: usize) {
        if let Some(low) = self.arenas[arena].low.take() {
            // SAFETY: the block is live until the step that follows.
            let bytes = unsafe { std::slice::from_raw_parts(low.addr as *const u8, low.len) };
            assert!(holds(bytes, low.tag), "low block {low:?} changed");
            self.all_live.remove(low.addr, low.len);
        }
    }

    /// Closes the arena's open low block, if any, keeping its first `keep` bytes as an
    /// allocation.
    fn close_low(&mut self, arena: usize, keep: usize) {
        let model = &mut self.arenas[arena];
        let Some(low) = model.low.take() else {
            return;
        };
        // SAFETY: the block is live until it closes.
        let bytes = unsafe { std::slice::from_raw_parts(low.addr as *const u8, low.len) };
        assert!(holds(bytes, low.tag), "low block {low:?} changed");
        let start = NonNull::new(low.addr as *mut u8).unwrap();
        // SAFETY: `keep <= len`: both ends lie in the open block, whose bytes past `keep` the
        // model never touches again.
        unsafe {
            model.arena.close_low(start.add(keep), start.add(low.len));
        }
        if model
            .checkpoint
            .is_some_and(|(_, first_after, _)| low.tag < first_after)
        {
            // As for growing: what the block kept was not allocated at the checkpoint.
            model.checkpoint = None;
        }
        self.all_live.remove(low.addr, low.len);
        if keep > 0 {
            self.all_live.insert(low.addr, keep);
            let kept = Live {
                addr: low.addr,
                layout: Layout::from_size_align(keep, 1).unwrap(),
                tag: low.tag,
            };
            let at = model.live.partition_point(|l| l.tag < low.tag);
            model.live.insert(at, kept);
        }
    }

    fn alloc(&mut self, arena: usize, size: usize, align: usize) {
        let layout = Layout::from_size_align(size, align).unwrap();
        let before = self.arenas[arena].arena.stats();
        let pool_before = self.pool.stats();
        match self.arenas[arena].arena.try_alloc_layout(layout) {
            Ok(ptr) => {
                let addr = ptr.as_ptr() as usize;
                assert_eq!(addr % align, 0, "{layout:?} misaligned at {addr:#x}");
                self.all_live.insert(addr, size);
                let tag = self.next_tag;
                self.next_tag += 1;
                // SAFETY: a successful allocation is valid for `size` bytes and unaliased.
                let bytes = unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr(), size) };
                fill(bytes, tag);
                self.arenas[arena].live.push(Live { addr, layout, tag });
            }
            Err(e) => {
                // Only a limit may refuse, and only near it: a chunk for this request is at
                // most twice its size plus alignment, header and a page.
                let chunk_bound = 2 * (size + align + 64) + 4 * KIB;
                let arena_refuses = self
                    .config
                    .arena_limit
                    .is_some_and(|limit| before.chunk_bytes + chunk_bound > limit);
                let pool_refuses = self
                    .config
                    .pool_limit
                    .is_some_and(|limit| pool_before.bytes_in_use + chunk_bound > limit);
                assert!(
                    arena_refuses || pool_refuses,
                    "{layout:?} refused without a limit near: {e}, {before:?}"
                );
            }
        }
    }

    fn check(&self) {
        let mut chunk_bytes = 0;
        for model in &self.arenas {
            model.arena.check_invariants();
            let stats = model.arena.stats();
            let live: usize = model.live.iter().map(|l| l.layout.size()).sum::<usize>()
                + model.low.map_or(0, |low| low.len);
            assert!(stats.used_bytes >= live, "{stats:?} < {live} live bytes");
            assert!(stats.used_bytes <= stats.reserved_bytes);
            assert_eq!(BumpAllocator::stats(&model.arena).chunks, stats.chunks);
            chunk_bytes += stats.chunk_bytes;
        }
        self.pool.check_invariants();
        let pool = self.pool.stats();
        assert_eq!(
            pool.bytes_in_use, chunk_bytes,
            "pool in use != arena chunks"
        );
        for class in pool.classes.iter().chain([&pool.dedicated]) {
            assert_eq!(
                class.in_use as u64 + class.free as u64 + class.released,
                class.ever_mapped
            );
        }
    }

    /// Drops every arena (checking their contents first), then checks the pool holds no
    /// chunk in use and maps only free ones.
    pub fn finish(mut self) {
        while !self.arenas.is_empty() {
            self.abandon_low(0);
            self.forget(0, 0);
            self.arenas.swap_remove(0);
        }
        self.check();
        let pool = self.pool.stats();
        assert_eq!(pool.bytes_in_use, 0);
        assert_eq!(pool.bytes_mapped, pool.bytes_free);
    }
}
