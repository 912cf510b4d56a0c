//! Model-based property tests of `SlabArena` and `ChunkPool`: random programs of allocations
//! (sizes up to 1 MiB, alignments up to 4096), resets, checkpoints and rewinds, frees of the
//! latest allocation (allocator-api2's `deallocate`), arena drops and new arenas, all on one
//! pool, replayed against a model of what must be live (`slab_support/model.rs`, the
//! interpreter the `slab_ops` fuzz target runs too). After every step: every allocation is
//! aligned and overlaps no other live one, arena and pool invariants hold, and the pool's bytes
//! in use are exactly the arenas' chunks; contents written stay intact until their arena is
//! reset, rewound past them or dropped.

mod slab_support;

use std::alloc::Layout;
use std::sync::Arc;

use arena_core::{ChunkPool, Reserve, SlabArena};
use proptest::prelude::*;
use proptest::sample::select;
use slab_support::cases;
use slab_support::model::{
    ARENA_LIMITS, ARENA_MAX_CHUNKS, Config, INITIAL_CHUNKS, KIB, MAX_ALIGN_SHIFT, MAX_CHUNKS,
    MIN_CHUNKS, Op, POOL_LIMITS, RESERVES, Run, SIZE_BOUNDS,
};

fn size() -> impl Strategy<Value = usize> {
    let [small, medium, large, huge] = SIZE_BOUNDS;
    prop_oneof![
        8 => 0..small,
        4 => 0..medium,
        2 => 0..large,
        1 => 0..huge,
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        40 => (any::<usize>(), size(), 0..=MAX_ALIGN_SHIFT)
            .prop_map(|(arena, size, align_shift)| Op::Alloc { arena, size, align_shift }),
        2 => any::<usize>().prop_map(Op::Reset),
        2 => any::<usize>().prop_map(Op::Checkpoint),
        2 => any::<usize>().prop_map(Op::Rewind),
        3 => any::<usize>().prop_map(Op::FreeLatest),
        1 => any::<usize>().prop_map(Op::Drop),
        1 => Just(Op::New),
        3 => (any::<usize>(), size(), 0..=MAX_ALIGN_SHIFT)
            .prop_map(|(arena, size, align_shift)| Op::LowTake { arena, size, align_shift }),
        6 => (any::<usize>(), size()).prop_map(|(arena, size)| Op::LowGrow { arena, size }),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(arena, keep)| Op::LowClose { arena, keep }),
    ]
}

prop_compose! {
    fn config()(
        min_chunk in select(MIN_CHUNKS),
        max_chunk in select(MAX_CHUNKS),
        reserve in select(RESERVES),
        pool_limit in select(POOL_LIMITS),
        initial_chunk in select(INITIAL_CHUNKS),
        arena_max_chunk in select(ARENA_MAX_CHUNKS),
        arena_limit in select(ARENA_LIMITS),
    ) -> Config {
        Config { min_chunk, max_chunk, reserve, pool_limit, initial_chunk, arena_max_chunk, arena_limit }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    #[test]
    fn slab_arenas_match_the_model(config in config(), ops in prop::collection::vec(op(), 1..80)) {
        Run::replay(config, &ops);
    }
}

/// Edge cases of checkpoints, resets and the low edge replayed on every run, whatever proptest
/// generates: a checkpoint of an arena with no chunk rewound to (then the arena dropped, or
/// not), a rewind over a free of an allocation older than the checkpoint, a reset of an arena
/// of several chunks followed by a drop, and (with a configuration of its own) a low block
/// grown by nothing after a refill retired its chunk, which once moved the bottom into the
/// retired chunk.
#[test]
fn recorded_programs_match_the_model() {
    let config = Config {
        min_chunk: 4 * KIB,
        max_chunk: 256 * KIB,
        reserve: Reserve::Auto,
        pool_limit: None,
        initial_chunk: 4 * KIB,
        arena_max_chunk: 64 * KIB,
        arena_limit: None,
    };
    let alloc = |size, align_shift| Op::Alloc {
        arena: 0,
        size,
        align_shift,
    };
    let programs = [
        vec![
            Op::Checkpoint(0),
            alloc(14337, 11),
            Op::Rewind(0),
            alloc(1, 0),
            Op::Drop(0),
            alloc(30721, 11),
        ],
        vec![Op::Checkpoint(0), alloc(1, 0), Op::Rewind(0)],
        vec![
            alloc(1, 0),
            Op::Checkpoint(0),
            Op::FreeLatest(0),
            Op::Rewind(0),
        ],
        vec![
            alloc(0, 0),
            alloc(23297, 6),
            alloc(9377, 0),
            Op::Reset(0),
            Op::Drop(0),
            alloc(32705, 6),
        ],
    ];
    for ops in &programs {
        Run::replay(config.clone(), ops);
    }
    let one_chunk_size = Config {
        initial_chunk: 64 * KIB,
        ..config
    };
    let retired_low_block = [
        alloc(1, 0),
        Op::LowTake {
            arena: 0,
            size: 0,
            align_shift: 0,
        },
        alloc(36000, 5),
        alloc(29473, 0),
        Op::LowGrow { arena: 0, size: 0 },
        Op::LowGrow {
            arena: 0,
            size: 100,
        },
        Op::LowClose { arena: 0, keep: 0 },
    ];
    Run::replay(one_chunk_size, &retired_low_block);
}

#[test]
fn rewind_to_a_checkpoint_after_another_rewind_panics_or_is_safe() {
    // A checkpoint taken after the state it is rewound over: refused before anything changes,
    // or (where the pool handed the arena the same chunk again, so the checkpoint describes
    // chunks it holds) exactly the state of the checkpoint. Either way memory stays owned by
    // the arena (the invariants hold) and all of it goes back to the pool.
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
    let at_late = arena.stats();
    arena.reset_to(early);
    arena.alloc_layout(Layout::from_size_align(50 * KIB, 8).unwrap());
    let before = arena.stats();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| arena.reset_to(late)));
    arena.check_invariants();
    match result {
        Ok(()) => assert_eq!(arena.stats(), at_late),
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                .unwrap_or_default();
            assert!(
                message.contains("no longer in this arena")
                    || message.contains("outside the arena's chunks"),
                "{message}"
            );
            assert_eq!(arena.stats(), before, "a refused rewind changed the arena");
        }
    }
    drop(arena);
    pool.check_invariants();
    assert_eq!(pool.stats().bytes_in_use, 0);
}
