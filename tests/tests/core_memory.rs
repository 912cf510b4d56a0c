//! The arena holds the live data and little else: every sequence and string is allocated once,
//! at its exact size, whatever the format's size hints; and the statistics say so honestly.

use arena_core::BumpAllocator;
use arena_tests::{Format, with_each_arena};
use proptest::prelude::*;

/// Exact bytes of `&[&[&str]]` built from `owned`, and the number of allocations that may need
/// alignment padding (the slices; strings are byte-aligned).
fn live_bytes(owned: &[Vec<String>]) -> (usize, usize) {
    let fat = size_of::<&str>();
    let mut bytes = owned.len() * fat;
    let mut slices = usize::from(!owned.is_empty());
    for inner in owned {
        bytes += inner.len() * fat + inner.iter().map(String::len).sum::<usize>();
        slices += usize::from(!inner.is_empty());
    }
    (bytes, slices)
}

fn document(rows: usize) -> Vec<Vec<String>> {
    (0..rows)
        .map(|i| (0..(i % 13)).map(|j| format!("cell {i}:{j}")).collect())
        .collect()
}

#[test]
fn used_bytes_are_the_live_bytes_in_every_format() {
    let owned = document(20_000);
    let (live, slices) = live_bytes(&owned);
    for fmt in Format::ALL {
        let bytes = fmt.to_bytes(&owned);
        with_each_arena!(|arena| {
            let v: &[&[&str]] = fmt.decode_in(arena, &bytes).unwrap();
            assert_eq!(v.len(), owned.len());
            let stats = BumpAllocator::stats(arena);
            assert!(stats.used_bytes >= live, "{fmt}: {stats} < live {live}");
            // At most 7 bytes of alignment padding per slice; nothing left behind by growth.
            assert!(
                stats.used_bytes <= live + 7 * slices,
                "{fmt}: {stats}, live {live}, {slices} slices"
            );
            assert!(stats.reserved_bytes >= stats.used_bytes, "{fmt}: {stats}");
            assert!(stats.chunks >= 1);
        });
    }
}

/// A large document's OS calls: its top-level sequence outgrows the scratch stack's resident
/// part (8 MiB) while every row stages a short sequence above it. Each format, a fresh
/// `SlabArena` per document on a pool of its own (so no other test's chunks are counted),
/// counted on the second document (the first one maps the pool's chunks, in the ~6% growth
/// steps a cold arena takes): the pool's maps and unmaps plus the scratch stack's page
/// releases stay at one per MiB of arena at most.
#[test]
fn a_large_document_makes_at_most_one_os_call_per_mib() {
    // 40-byte rows: 250,000 of them stage 10 MB, past the scratch stack's resident 8 MiB.
    type Row<'a> = (u64, u64, u64, &'a [&'a str]);
    let owned: Vec<(u64, u64, u64, Vec<String>)> = (0..250_000u64)
        .map(|i| (i, i * 3, !i, vec!["a".into(), format!("t{}", i % 97)]))
        .collect();
    let pool = std::sync::Arc::new(arena_core::ChunkPool::new());
    for fmt in Format::ALL {
        let bytes = fmt.to_bytes(&owned);
        for document in 0..2 {
            let arena = arena_core::SlabArena::with_pool(pool.clone());
            let before = pool.stats().os_calls() + arena_core::thread_memory_stats().os_calls();
            let rows: &[Row] = fmt.decode_in(&arena, &bytes).unwrap();
            assert_eq!(rows.len(), owned.len(), "{fmt}");
            assert_eq!(rows[12_345].3, ["a", "t26"], "{fmt}");
            let calls =
                pool.stats().os_calls() + arena_core::thread_memory_stats().os_calls() - before;
            let mib = BumpAllocator::stats(&arena)
                .reserved_bytes
                .div_ceil(1 << 20);
            assert!(
                document == 0 || calls <= mib as u64,
                "{fmt}: {calls} OS calls for an arena of {mib} MiB"
            );
        }
    }
}

#[test]
fn stats_start_empty_and_count_allocations() {
    with_each_arena!(|arena| {
        let before = BumpAllocator::stats(arena);
        assert_eq!(before.used_bytes, 0, "{before}");
        let s = arena.try_alloc_str("0123456789").unwrap();
        assert_eq!(s, "0123456789");
        let after = BumpAllocator::stats(arena);
        assert_eq!(after.used_bytes, 10, "{after}");
        let big = vec![7u8; 3 << 20];
        arena.try_alloc_bytes(&big).unwrap();
        let after = BumpAllocator::stats(arena);
        assert!(after.used_bytes >= 10 + (3 << 20), "{after}");
        assert!(after.chunks >= 2, "{after}");
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(arena_tests::cases(64)))]

    /// Whatever the shape, the arena value equals serde's, and the arena holds only live bytes.
    #[test]
    fn nested_strings_roundtrip_exactly(owned in prop::collection::vec(prop::collection::vec(".{0,12}", 0..8), 0..40)) {
        let (live, slices) = live_bytes(&owned);
        for fmt in Format::ALL {
            let bytes = fmt.to_bytes(&owned);
            with_each_arena!(|arena| {
                let v: &[&[&str]] = fmt.decode_in(arena, &bytes).unwrap();
                prop_assert!(v.iter().zip(&owned).all(|(a, b)| *a == b.as_slice()) && v.len() == owned.len());
                let used = BumpAllocator::stats(arena).used_bytes;
                prop_assert!(used >= live && used <= live + 7 * slices, "{fmt}: used {used}, live {live}");
            });
        }
    }
}
