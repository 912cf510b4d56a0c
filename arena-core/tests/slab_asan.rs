//! Under `--cfg arena_asan` (with `-Zsanitizer=address`): AddressSanitizer catches a read
//! past an allocation into the chunk's unused tail, a use of arena memory after `reset`, and a
//! read of a chunk that went back to the pool.
//!
//! ASan aborts the process on a bad access, so each case runs in a child process (this test
//! binary again, running just that test with `SLAB_ASAN_CHILD` set); the parent asserts the
//! child died with ASan's `use-after-poison` report. Without the cfg there is nothing to test.

#![cfg(arena_asan)]

use std::process::Command;
use std::sync::Arc;

use arena_core::{BumpAllocatorExt, ChunkPool, Reserve, SlabArena};

const CHILD: &str = "SLAB_ASAN_CHILD";

/// In the child: runs `bad`, which must be stopped by ASan. In the parent: runs the child and
/// checks it was.
fn expect_asan_report(test_name: &str, bad: impl FnOnce()) {
    if std::env::var_os(CHILD).is_some() {
        bad();
        // Still alive: ASan did not see it. Exit with a distinct message.
        eprintln!("NOT CAUGHT");
        std::process::exit(0);
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args([test_name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success(),
        "the bad access was not caught:\n{stderr}"
    );
    assert!(
        stderr.contains("use-after-poison"),
        "expected an ASan use-after-poison report:\n{stderr}"
    );
}

fn pool() -> Arc<ChunkPool> {
    Arc::new(
        ChunkPool::builder()
            .reserve(Reserve::Bytes(usize::MAX))
            .build()
            .unwrap(),
    )
}

#[test]
fn overread_into_the_tail_is_caught() {
    expect_asan_report("overread_into_the_tail_is_caught", || {
        let arena = SlabArena::with_pool(pool());
        arena.alloc_str("x"); // something below the block: the tail is below everything
        let block = arena.alloc_slice_copy(&[1u8; 16]);
        // The arena bumps down: the byte below the latest-but-one block is the unused tail.
        let latest = arena.alloc_slice_copy(&[2u8; 8]);
        // SAFETY: deliberately out of bounds, for ASan to catch.
        let below = unsafe { latest.as_ptr().sub(64).read_volatile() };
        std::hint::black_box((below, block));
    });
}

#[test]
fn use_after_reset_is_caught() {
    expect_asan_report("use_after_reset_is_caught", || {
        let mut arena = SlabArena::with_pool(pool());
        let ptr = arena.alloc_slice_copy(&[7u8; 32]).as_ptr();
        arena.reset();
        // SAFETY: deliberately a use after reset, for ASan to catch.
        let byte = unsafe { ptr.read_volatile() };
        std::hint::black_box(byte);
    });
}

#[test]
fn read_of_a_free_chunk_is_caught() {
    expect_asan_report("read_of_a_free_chunk_is_caught", || {
        let pool = pool();
        let arena = SlabArena::with_pool(pool.clone());
        let ptr = arena.alloc_slice_copy(&[7u8; 32]).as_ptr();
        drop(arena);
        assert_eq!(pool.stats().bytes_free, 64 * 1024, "kept in the free list");
        // SAFETY: deliberately a read of a free chunk, for ASan to catch.
        let byte = unsafe { ptr.read_volatile() };
        std::hint::black_box(byte);
    });
}

#[test]
fn good_accesses_are_not_reported() {
    // The control: reading and writing what was handed out is fine, across chunk refills.
    let arena = SlabArena::with_pool(pool());
    let blocks: Vec<&[u8]> = (0..1000u32)
        .map(|i| &*arena.alloc_slice_copy(&vec![i as u8; (i as usize * 37) % 3000]))
        .collect();
    for (i, block) in blocks.iter().enumerate() {
        assert!(block.iter().all(|&b| b == i as u8));
    }
}
