//! Model-based property tests of `SlabArena` and `ChunkPool`: random programs of allocations
//! (sizes up to 1 MiB, alignments up to 4096), resets, checkpoints and rewinds, frees of the
//! latest allocation (allocator-api2's `deallocate`), arena drops and
//! new arenas, all on one pool, replayed against a model of what must be live. After every
//! step: every allocation is aligned and overlaps no other live one, arena and pool invariants
//! hold, and the pool's bytes in use are exactly the arenas' chunks; contents written stay
//! intact until their arena is reset, rewound past them or dropped.

mod slab_support;

use std::alloc::Layout;
use std::sync::Arc;

use allocator_api2::alloc::Allocator;
use arena_core::{BumpAllocator, ChunkPool, Reserve, SlabArena, SlabCheckpoint};
use proptest::prelude::*;
use slab_support::{LiveSet, cases, fill, holds};

const KIB: usize = 1024;
const MIB: usize = 1024 * KIB;

#[derive(Clone, Debug)]
enum Op {
    /// Allocate in arena `arena % arenas`.
    Alloc {
        arena: usize,
        size: usize,
        align_shift: u32,
    },
    Reset(usize),
    Checkpoint(usize),
    Rewind(usize),
    /// Give the arena's latest live allocation back through allocator-api2's `deallocate`.
    FreeLatest(usize),
    Drop(usize),
    New,
}

#[derive(Clone, Debug)]
struct Config {
    min_chunk: usize,
    max_chunk: usize,
    reserve: Reserve,
    pool_limit: Option<usize>,
    initial_chunk: usize,
    arena_max_chunk: usize,
    arena_limit: Option<usize>,
}

fn size() -> impl Strategy<Value = usize> {
    // Mostly small, as in deserialized documents, with the occasional large block that
    // needs a chunk of its own.
    prop_oneof![
        8 => 0..64usize,
        4 => 0..4 * KIB,
        2 => 0..64 * KIB,
        1 => 0..=MIB,
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        40 => (any::<usize>(), size(), 0..=12u32)
            .prop_map(|(arena, size, align_shift)| Op::Alloc { arena, size, align_shift }),
        2 => any::<usize>().prop_map(Op::Reset),
        2 => any::<usize>().prop_map(Op::Checkpoint),
        2 => any::<usize>().prop_map(Op::Rewind),
        3 => any::<usize>().prop_map(Op::FreeLatest),
        1 => any::<usize>().prop_map(Op::Drop),
        1 => Just(Op::New),
    ]
}

prop_compose! {
    fn config()(
        min_chunk in prop_oneof![Just(4 * KIB), Just(64 * KIB)],
        max_chunk in prop_oneof![Just(256 * KIB), Just(4 * MIB)],
        reserve in prop_oneof![
            Just(Reserve::Auto),
            Just(Reserve::Bytes(0)),
            Just(Reserve::Bytes(MIB))
        ],
        pool_limit in prop_oneof![3 => Just(None), 1 => Just(Some(16 * MIB))],
        initial_chunk in prop_oneof![Just(4 * KIB), Just(64 * KIB), Just(MIB)],
        arena_max_chunk in prop_oneof![Just(64 * KIB), Just(16 * MIB)],
        arena_limit in prop_oneof![3 => Just(None), 1 => Just(Some(6 * MIB))],
    ) -> Config {
        Config { min_chunk, max_chunk, reserve, pool_limit, initial_chunk, arena_max_chunk, arena_limit }
    }
}

/// One arena of the program and what the model says it holds.
struct ModelArena {
    arena: SlabArena,
    /// Live allocations `(addr, layout, tag)`, oldest (lowest tag) first.
    live: Vec<(usize, Layout, u64)>,
    /// The latest checkpoint, the first tag allocated after it, and the used bytes then.
    checkpoint: Option<(SlabCheckpoint, u64, usize)>,
}

struct Run {
    config: Config,
    pool: Arc<ChunkPool>,
    arenas: Vec<ModelArena>,
    all_live: LiveSet,
    next_tag: u64,
}

impl Run {
    fn new(config: Config) -> Self {
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
        });
    }

    /// Checks the contents of the allocations of `arena` from index `from` on, then forgets
    /// them.
    fn forget(&mut self, arena: usize, from: usize) {
        let model = &mut self.arenas[arena];
        for &(addr, layout, tag) in &model.live[from..] {
            let len = layout.size();
            // SAFETY: the model holds only allocations whose arena has not been reset,
            // rewound past them or dropped: they are live until the call that follows.
            let bytes = unsafe { std::slice::from_raw_parts(addr as *const u8, len) };
            assert!(holds(bytes, tag), "contents of {addr:#x}+{len} changed");
            self.all_live.remove(addr, len);
        }
        model.live.truncate(from);
    }

    fn step(&mut self, op: &Op) {
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
                self.forget(arena, 0);
                let model = &mut self.arenas[arena];
                model.arena.reset();
                model.checkpoint = None;
                let stats = model.arena.stats();
                assert!(stats.chunks <= 1 && stats.used_bytes == 0, "{stats:?}");
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
                    let from = self.arenas[arena]
                        .live
                        .partition_point(|l| l.2 < first_after);
                    self.forget(arena, from);
                    let model = &mut self.arenas[arena];
                    model.arena.reset_to(checkpoint);
                    // Exactly the state of the checkpoint again (even when an allocation from
                    // before it was freed since, and the cursor went above it).
                    assert_eq!(model.arena.stats().used_bytes, used);
                }
            }
            Op::FreeLatest(arena) => {
                let arena = arena % n;
                if let Some(&(addr, layout, _)) = self.arenas[arena].live.last() {
                    self.forget(arena, self.arenas[arena].live.len() - 1);
                    let ptr = std::ptr::NonNull::new(addr as *mut u8).unwrap();
                    // SAFETY: the arena's latest live allocation, made with `layout`; the
                    // model just forgot it and never touches it again.
                    unsafe { Allocator::deallocate(&&self.arenas[arena].arena, ptr, layout) };
                }
            }
            Op::Drop(arena) => {
                let arena = arena % n;
                self.forget(arena, 0);
                self.arenas.swap_remove(arena);
            }
            Op::New => {
                if n < 4 {
                    self.new_arena();
                }
            }
        }
        self.check();
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
                self.arenas[arena].live.push((addr, layout, tag));
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
            let live: usize = model.live.iter().map(|l| l.1.size()).sum();
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

    fn finish(mut self) {
        while !self.arenas.is_empty() {
            self.forget(0, 0);
            self.arenas.swap_remove(0);
        }
        self.check();
        let pool = self.pool.stats();
        assert_eq!(pool.bytes_in_use, 0);
        assert_eq!(pool.bytes_mapped, pool.bytes_free);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    #[test]
    fn slab_arenas_match_the_model(config in config(), ops in prop::collection::vec(op(), 1..80)) {
        let mut run = Run::new(config);
        for op in &ops {
            run.step(op);
        }
        run.finish();
    }
}

#[test]
fn rewind_to_a_checkpoint_after_another_rewind_panics_or_is_safe() {
    // A checkpoint taken after the state it is rewound over: either refused, or memory stays
    // owned by the arena (the invariants hold).
    let pool = Arc::new(
        ChunkPool::builder()
            .chunk_sizes(4 * KIB, 64 * KIB)
            .build()
            .unwrap(),
    );
    let mut arena = SlabArena::with_pool(pool.clone());
    arena.alloc_layout(Layout::new::<u64>());
    let early = arena.checkpoint();
    arena.alloc_layout(Layout::from_size_align(50 * KIB, 8).unwrap());
    let late = arena.checkpoint();
    arena.reset_to(early);
    arena.alloc_layout(Layout::from_size_align(50 * KIB, 8).unwrap());
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| arena.reset_to(late)));
    arena.check_invariants();
    drop(arena);
    pool.check_invariants();
    assert_eq!(pool.stats().bytes_in_use, 0);
    let _ = result;
}
