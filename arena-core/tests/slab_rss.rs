//! Memory goes back to the OS: 1 GiB allocated through arenas, then dropped, leaves the
//! process's resident memory within the pool's reserve plus a few MiB of where it started.
//!
//! Alone in its own test binary, so no other test's memory moves the numbers.
//!
//! Not under AddressSanitizer (`arena_asan`): the shadow memory of the 1 GiB (128 MiB) stays
//! resident after the unmap, so resident memory would not show what the pool did; the other
//! slab tests run there.

#![cfg(not(arena_asan))]

mod slab_support;

use std::sync::Arc;

use arena_core::{BumpAllocatorExt, ChunkPool, SlabArena};
use slab_support::resident_bytes;

const MIB: usize = 1024 * 1024;
/// Arenas alive at the peak, and what each allocates: 16 x 64 MiB = 1 GiB.
const ARENAS: usize = 16;
const PER_ARENA: usize = 64 * MIB;
/// Slack for the test harness, the allocator's own caches and page-table noise.
const SLACK: usize = 8 * MIB;

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "resident memory is read from Linux's /proc/self/statm (and wasm32's linear memory is never given back)"
)]
fn memory_goes_back_to_the_os() {
    let Some(start) = resident_bytes() else {
        eprintln!("no /proc/self/statm: nothing to measure on this platform");
        return;
    };
    let pool = Arc::new(ChunkPool::new());
    let arenas: Vec<SlabArena> = (0..ARENAS)
        .map(|i| {
            let arena = SlabArena::with_pool(pool.clone());
            let mut filled = 0;
            while filled < PER_ARENA {
                // Touch every page: resident memory only counts what was written.
                arena.alloc_slice_copy(&[i as u8; 64 * 1024]);
                filled += 64 * 1024;
            }
            arena
        })
        .collect();
    let peak = resident_bytes().unwrap();
    assert!(
        peak >= start + ARENAS * PER_ARENA,
        "the arenas should be resident: {} MiB -> {} MiB",
        start / MIB,
        peak / MIB
    );
    drop(arenas);
    let after = resident_bytes().unwrap();
    let stats = pool.stats();
    assert!(stats.os_unmap_calls > 0, "{stats}");
    assert!(
        after <= start + stats.reserve_bytes + SLACK,
        "resident {} MiB after the drop, started at {} MiB, reserve {} MiB\n{stats}",
        after / MIB,
        start / MIB,
        stats.reserve_bytes / MIB
    );
    assert!(stats.bytes_mapped <= stats.reserve_bytes, "{stats}");
}
