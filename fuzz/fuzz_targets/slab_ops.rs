#![no_main]
//! Random programs of allocator operations on `SlabArena`s sharing one `ChunkPool`, replayed
//! against a model: every allocation aligned, no two live allocations overlapping, contents
//! intact until their arena is reset, rewound past or dropped, and the arenas' and the pool's
//! invariants holding after every step. The same model as the slab property tests
//! (`arena-core/tests/slab_support`), driven by libFuzzer instead of proptest.

use std::alloc::Layout;
use std::sync::Arc;

use arbitrary::Arbitrary;
use arena_core::{ChunkPool, SlabArena, SlabCheckpoint};
use libfuzzer_sys::fuzz_target;

#[path = "../../arena-core/tests/slab_support/mod.rs"]
mod support;

use support::{Live, LiveSet, fill, holds};

/// Arenas alive at once, at most: enough to interleave, few enough to stay fast.
const MAX_ARENAS: usize = 4;
/// Operations per input, at most: keeps one iteration in milliseconds.
const MAX_OPS: usize = 200;
/// The pool's byte limit: allocations past it must be errors, never more memory.
const POOL_LIMIT: usize = 64 << 20;

#[derive(Arbitrary, Debug)]
enum Op {
    /// Allocate `size % 1 MiB` bytes aligned to `2^(align_log2 % 13)` (1 to 4096).
    Alloc {
        arena: u8,
        size: u32,
        align_log2: u8,
    },
    Reset {
        arena: u8,
    },
    Checkpoint {
        arena: u8,
    },
    Rewind {
        arena: u8,
    },
    New,
    Drop {
        arena: u8,
    },
}

struct Slot {
    arena: SlabArena,
    lives: Vec<Live>,
    /// A checkpoint and how many of `lives` existed when it was taken.
    checkpoint: Option<(SlabCheckpoint, usize)>,
}

fn forget(set: &mut LiveSet, lives: &[Live]) {
    for live in lives {
        set.remove(live.addr, live.len);
    }
}

fuzz_target!(|ops: Vec<Op>| {
    let pool = Arc::new(ChunkPool::builder().limit(POOL_LIMIT).build().unwrap());
    let mut slots: Vec<Slot> = Vec::new();
    let mut set = LiveSet::default();
    let mut tag = 0u64;
    for op in ops.iter().take(MAX_OPS) {
        let pick = |i: &u8, n: usize| (n > 0).then(|| usize::from(*i) % n);
        match op {
            Op::New if slots.len() < MAX_ARENAS => slots.push(Slot {
                arena: SlabArena::with_pool(pool.clone()),
                lives: Vec::new(),
                checkpoint: None,
            }),
            Op::New => {}
            Op::Alloc {
                arena,
                size,
                align_log2,
            } => {
                let Some(i) = pick(arena, slots.len()) else {
                    continue;
                };
                let layout =
                    Layout::from_size_align(*size as usize % (1 << 20), 1 << (align_log2 % 13))
                        .unwrap();
                let slot = &mut slots[i];
                match slot.arena.try_alloc_layout(layout) {
                    Ok(ptr) => {
                        assert_eq!(ptr.as_ptr() as usize % layout.align(), 0, "misaligned");
                        tag += 1;
                        // SAFETY: a fresh allocation of `layout.size()` bytes, owned by the model
                        // until its arena is reset, rewound past or dropped.
                        let bytes =
                            unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr(), layout.size()) };
                        fill(bytes, tag);
                        set.insert(ptr.as_ptr() as usize, layout.size());
                        slot.lives.push(Live {
                            addr: ptr.as_ptr() as usize,
                            len: layout.size(),
                            tag,
                        });
                    }
                    // Only the pool's limit may refuse a request of at most 1 MiB.
                    Err(_) => assert!(
                        pool.stats().bytes_mapped + (2 << 20) > POOL_LIMIT,
                        "refused far from the limit: {}",
                        pool.stats()
                    ),
                }
            }
            Op::Reset { arena } => {
                let Some(i) = pick(arena, slots.len()) else {
                    continue;
                };
                let slot = &mut slots[i];
                forget(&mut set, &slot.lives);
                slot.lives.clear();
                slot.checkpoint = None;
                slot.arena.reset();
            }
            Op::Checkpoint { arena } => {
                let Some(i) = pick(arena, slots.len()) else {
                    continue;
                };
                let slot = &mut slots[i];
                slot.checkpoint = Some((slot.arena.checkpoint(), slot.lives.len()));
            }
            Op::Rewind { arena } => {
                let Some(i) = pick(arena, slots.len()) else {
                    continue;
                };
                let slot = &mut slots[i];
                if let Some((checkpoint, kept)) = slot.checkpoint.take() {
                    forget(&mut set, &slot.lives[kept..]);
                    slot.lives.truncate(kept);
                    slot.arena.reset_to(checkpoint);
                }
            }
            Op::Drop { arena } => {
                let Some(i) = pick(arena, slots.len()) else {
                    continue;
                };
                let slot = slots.swap_remove(i);
                forget(&mut set, &slot.lives);
            }
        }
        for slot in &slots {
            for live in &slot.lives {
                // SAFETY: the model only keeps allocations of arenas still holding them.
                assert!(
                    holds(unsafe { live.bytes() }, live.tag),
                    "contents changed: {live:?}"
                );
            }
            slot.arena.check_invariants();
        }
        pool.check_invariants();
    }
});
