//! Several threads creating, filling and dropping `SlabArena`s on one shared `ChunkPool`, with
//! checksummed contents: no chunk is handed to two arenas at once, and the pool's counts add
//! up when all is done.

mod slab_support;

use std::sync::Arc;

use arena_core::{BumpAllocatorExt, ChunkPool, Reserve, SlabArena};
use slab_support::{fill, holds};

/// Enough threads to contend on the pool's lock from both cores.
const THREADS: u64 = 4;
/// Arenas per thread: each goes through several chunk refills.
const ROUNDS: u64 = if cfg!(arena_asan) { 8 } else { 30 };

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "wasm32-wasip1 has no threads")]
fn threads_share_one_pool() {
    let pool = Arc::new(
        ChunkPool::builder()
            .chunk_sizes(4096, 1 << 20)
            // A small reserve, so chunks are also unmapped and mapped again under contention.
            .reserve(Reserve::Bytes(256 * 1024))
            .build()
            .unwrap(),
    );
    let handles: Vec<_> = (0..THREADS)
        .map(|thread| {
            let pool = pool.clone();
            std::thread::spawn(move || {
                let mut rng = thread.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
                let mut next = move || {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    rng
                };
                let zeros = vec![0u8; 8192 + 100_000];
                for round in 0..ROUNDS {
                    let mut arena = SlabArena::with_pool(pool.clone());
                    for pass in 0..2 {
                        let mut blocks = Vec::new();
                        for i in 0..100 {
                            let len =
                                (next() % 8192) as usize + if i % 50 == 0 { 100_000 } else { 0 };
                            let tag = (thread << 48) | (round << 24) | (pass << 16) | i;
                            let block = arena.alloc_slice_copy(&zeros[..len]);
                            fill(block, tag);
                            blocks.push((fnv1a(block), &*block, tag));
                        }
                        for (sum, block, tag) in &blocks {
                            assert!(holds(block, *tag), "thread {thread}: block overwritten");
                            assert_eq!(fnv1a(block), *sum);
                        }
                        arena.check_invariants();
                        drop(blocks);
                        arena.reset();
                    }
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    pool.check_invariants();
    let stats = pool.stats();
    assert_eq!(stats.bytes_in_use, 0, "{stats}");
    assert!(
        stats.os_unmap_calls > 0,
        "the small reserve should have trimmed: {stats}"
    );
    for class in &stats.classes {
        assert_eq!(
            class.in_use as u64 + class.free as u64 + class.released,
            class.ever_mapped
        );
    }
}
