use super::*;
use crate::{BumpAllocatorExt, Reserve};

fn small_pool() -> Arc<ChunkPool> {
    Arc::new(
        ChunkPool::builder()
            .chunk_sizes(4096, 64 * 1024)
            .build()
            .unwrap(),
    )
}

#[test]
fn auto_traits() {
    fn send<T: Send>() {}
    fn send_sync<T: Send + Sync>() {}
    send::<SlabArena>();
    send_sync::<ChunkPool>();
    send_sync::<Arc<ChunkPool>>();
}

// The header costs every chunk; keep it to a few words.
const _: () = assert!(HEADER <= 48);

#[test]
fn allocates_grows_and_resets() {
    let pool = small_pool();
    let mut arena = SlabArena::with_pool(pool.clone());
    assert_eq!(arena.stats(), SlabStats::default());
    let a = arena.alloc(7u64);
    assert_eq!(*a, 7);
    for i in 0..10_000u32 {
        let s = arena.alloc_str(&i.to_string());
        assert_eq!(s, i.to_string());
    }
    arena.check_invariants();
    let s = arena.stats();
    assert!(s.chunks > 1, "{s:?}");
    assert!(s.used_bytes >= 8 + 38_890, "{s:?}");
    arena.reset();
    arena.check_invariants();
    assert_eq!(arena.stats().chunks, 1);
    assert_eq!(arena.stats().used_bytes, 0);
    drop(arena);
    pool.check_invariants();
    assert_eq!(pool.stats().bytes_in_use, 0);
}

/// One document: 2,000 strings of 1 to 64 bytes, about 65 KB.
fn document(arena: &SlabArena) {
    for i in 0..2_000 {
        assert_eq!(arena.alloc_str(&"x".repeat(1 + i % 64)).len(), 1 + i % 64);
    }
}

#[test]
fn a_fresh_arena_takes_one_chunk_for_a_document_the_last_arenas_held() {
    let pool = small_pool();
    let mut maps = Vec::new();
    let mut chunks = Vec::new();
    let mut first_bytes = 0;
    for round in 0..5 {
        let arena = SlabArena::with_pool(pool.clone());
        // From the second arena on, the chunk is taken when the arena is built.
        assert_eq!(arena.stats().chunks, usize::from(round > 0));
        document(&arena);
        arena.check_invariants();
        chunks.push(arena.stats().chunks);
        if round == 0 {
            first_bytes = arena.stats().chunk_bytes;
        }
        drop(arena);
        maps.push(pool.stats().chunks_mapped());
    }
    // The first arena's chunks, which the learnt chunk does not fit, are released before it
    // is mapped: the pool never holds two documents.
    assert!(
        pool.stats().peak_bytes_mapped <= first_bytes,
        "{} > {first_bytes}",
        pool.stats().peak_bytes_mapped
    );
    // The first arena grows from 4 KiB chunks; from then on one chunk, the same one each
    // time.
    assert!(chunks[0] > 5, "{chunks:?}");
    assert_eq!(chunks[1..], [1, 1, 1, 1], "{chunks:?}");
    assert_eq!(maps[1], maps[4], "a steady document maps nothing: {maps:?}");
    pool.check_invariants();

    // The builder's initial size wins over what the pool learnt.
    let fixed = SlabArena::builder()
        .pool(pool.clone())
        .initial_chunk_size(4096)
        .build();
    document(&fixed);
    assert!(fixed.stats().chunks > 5, "{:?}", fixed.stats());
    // So does the arena limit: a learnt chunk larger than it is not taken.
    let limited = SlabArena::builder()
        .pool(pool.clone())
        .limit(16 * 1024)
        .build();
    assert!(limited.try_alloc_str("small").is_ok());
    assert_eq!(limited.stats().chunk_bytes, 4096);
}

#[test]
fn reset_gives_the_chunks_back_before_it_takes_their_replacement() {
    // The pool's mapped bytes show whether the arena's chunks and the one that replaces them
    // were held at once: with no reserve, what goes back is released at once; with the
    // default one, the request for the replacement releases what the reserve does not keep.
    for reserve in [Reserve::Bytes(0), Reserve::Auto] {
        let pool = Arc::new(
            ChunkPool::builder()
                .chunk_sizes(4096, 64 * 1024)
                .reserve(reserve)
                .build()
                .unwrap(),
        );
        let mut arena = SlabArena::with_pool(pool.clone());
        document(&arena);
        assert!(arena.stats().chunks > 5, "{:?}", arena.stats());
        let held = pool.stats().bytes_mapped;
        assert_eq!(pool.stats().peak_bytes_mapped, held);
        #[cfg(target_arch = "wasm32")]
        let pages = core::arch::wasm32::memory_size(0);
        arena.reset();
        arena.check_invariants();
        assert_eq!(arena.stats().chunks, 1);
        // On linear memory the released chunks' spans serve the replacement: no `memory.grow`.
        #[cfg(target_arch = "wasm32")]
        assert_eq!(
            core::arch::wasm32::memory_size(0),
            pages,
            "{reserve:?}: reset grew memory"
        );
        let after = pool.stats();
        assert!(
            after.peak_bytes_mapped <= held,
            "{reserve:?}: {} mapped at once for {held} held: {after:?}",
            after.peak_bytes_mapped
        );
        drop(arena);
        pool.check_invariants();
    }
}

#[test]
fn an_arena_whose_chunks_all_went_back_is_empty_and_works_on() {
    // What `reset` leaves when the pool refuses every replacement chunk (the OS out of memory).
    let pool = small_pool();
    let arena = SlabArena::with_pool(pool.clone());
    document(&arena);
    let all = ChunkDrain {
        next: arena.head.get(),
        skip: None,
    };
    pool.give_back(all, None);
    arena.clear_chunks();
    arena.check_invariants();
    assert_eq!(arena.stats().chunks, 0);
    assert_eq!(arena.stats().chunk_bytes, 0);
    assert_eq!(pool.stats().bytes_in_use, 0);
    document(&arena);
    arena.check_invariants();
    drop(arena);
    pool.check_invariants();
    assert_eq!(pool.stats().bytes_in_use, 0);
}

#[test]
fn reset_keeps_one_chunk_for_all_the_arena_used() {
    let pool = small_pool();
    let mut arena = SlabArena::with_pool(pool.clone());
    document(&arena);
    let used = arena.stats().used_bytes;
    assert!(arena.stats().chunks > 5, "{:?}", arena.stats());
    arena.reset();
    arena.check_invariants();
    let kept = arena.stats();
    assert_eq!(kept.chunks, 1);
    assert!(kept.reserved_bytes >= used, "{kept:?} for {used} used");
    assert!(
        kept.reserved_bytes < used + used / 16,
        "{kept:?} for {used} used"
    );
    let maps = pool.stats().chunks_mapped();
    for _ in 0..3 {
        document(&arena);
        assert_eq!(arena.stats().chunks, 1, "the document fits the kept chunk");
        arena.reset();
    }
    assert_eq!(pool.stats().chunks_mapped(), maps);
    // The one chunk stays within the arena limit.
    let mut limited = SlabArena::builder()
        .pool(pool.clone())
        .limit(40 * 1024)
        .build();
    for _ in 0..400 {
        limited.alloc_slice_copy(&[7u8; 64]);
    }
    limited.reset();
    limited.check_invariants();
    assert_eq!(limited.stats().chunks, 1);
    assert!(limited.stats().chunk_bytes <= 40 * 1024);
    assert!(limited.stats().reserved_bytes >= 400 * 64);
    // A pool whose limit leaves no room for that chunk beside the arena's: they go back first,
    // so it is taken all the same.
    let tight = Arc::new(
        ChunkPool::builder()
            .chunk_sizes(4096, 64 * 1024)
            .limit(64 * 1024)
            .build()
            .unwrap(),
    );
    let mut full = SlabArena::with_pool(tight.clone());
    for _ in 0..800 {
        full.alloc_slice_copy(&[7u8; 64]);
    }
    let mut largest = 0;
    full.for_each_chunk(|_, size, _| largest = largest.max(size));
    assert!(largest < 800 * 64, "the test needs several chunks");
    full.reset();
    full.check_invariants();
    assert_eq!(full.stats().chunks, 1);
    assert!(full.stats().chunk_bytes > largest, "{:?}", full.stats());
    assert!(
        full.stats().reserved_bytes >= 800 * 64,
        "{:?}",
        full.stats()
    );
    drop(full);
    tight.check_invariants();
    drop((arena, limited));
    pool.check_invariants();
    assert_eq!(pool.stats().bytes_in_use, 0);
}

#[test]
fn big_allocation_keeps_the_roomier_chunk_current() {
    let arena = SlabArena::with_pool(small_pool());
    arena.alloc(1u8);
    let before = arena.current.get();
    // Fills most of a 64 KiB chunk: less room left there than in the first 4 KiB one.
    let big = arena.alloc_slice_copy(&[1u8; 65_000]);
    assert_eq!(big.len(), 65_000);
    assert_eq!(
        arena.current.get(),
        before,
        "the 4 KiB chunk has more room left"
    );
    arena.check_invariants();
    assert_eq!(arena.stats().chunks, 2);
}

#[test]
fn wasted_tail_bytes_are_what_retired_chunks_left() {
    const CHUNK: usize = 4096;
    const ROOM: usize = CHUNK - HEADER;
    let mut arena = SlabArena::builder()
        .pool(small_pool())
        .initial_chunk_size(CHUNK)
        .max_chunk_size(CHUNK)
        .build();
    let bytes = |n| Layout::from_size_align(n, 1).unwrap();
    // All but 100 bytes of the first chunk: it is current, nothing is wasted yet.
    arena.alloc_layout(bytes(ROOM - 100));
    assert_eq!(arena.stats().wasted_tail_bytes, 0);
    // 200 bytes do not fit: a second chunk becomes current, the first one's 100 are lost.
    arena.alloc_layout(bytes(200));
    let s = arena.stats();
    assert_eq!((s.chunks, s.used_bytes), (2, ROOM - 100 + 200));
    assert_eq!(s.wasted_tail_bytes, 100);
    // 5,000 bytes are more than a chunk: a chunk of their own, 8 KiB (page rounded). It has
    // less room left than the current chunk, so it is retired at once, its tail wasted.
    arena.alloc_layout(bytes(5000));
    let s = arena.stats();
    assert_eq!(s.chunk_bytes, 2 * CHUNK + 8192);
    assert_eq!(s.used_bytes, ROOM - 100 + 200 + 5000);
    assert_eq!(s.wasted_tail_bytes, 100 + (8192 - HEADER - 5000));
    // The current chunk's free room is not waste: it is what the next allocation uses.
    assert_eq!(
        s.reserved_bytes - s.used_bytes - s.wasted_tail_bytes,
        ROOM - 200
    );
    arena.check_invariants();
    arena.reset();
    assert_eq!(arena.stats().wasted_tail_bytes, 0);
}

#[test]
fn zero_sized_and_overaligned() {
    let arena = SlabArena::with_pool(small_pool());
    let z = arena
        .try_alloc_layout(Layout::from_size_align(0, 64).unwrap())
        .unwrap();
    assert_eq!(z.as_ptr() as usize % 64, 0);
    let p = arena
        .try_alloc_layout(Layout::from_size_align(10, 8192).unwrap())
        .unwrap();
    assert_eq!(p.as_ptr() as usize % 8192, 0);
    arena.check_invariants();
    let err = arena
        .try_alloc_layout(Layout::from_size_align(isize::MAX as usize - 100, 1).unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("out of memory"));
}

#[test]
fn rewind_restores_the_state() {
    let pool = small_pool();
    let mut arena = SlabArena::with_pool(pool.clone());
    arena.alloc_str("keep");
    let cp = arena.checkpoint();
    let used = arena.stats().used_bytes;
    for _ in 0..100 {
        arena.alloc_slice_copy(&[0u8; 1000]);
    }
    assert!(arena.stats().chunks > 1);
    arena.reset_to(cp);
    arena.check_invariants();
    assert_eq!(arena.stats().used_bytes, used);
    assert_eq!(arena.stats().chunks, 1);
    // Rewinding twice to the same checkpoint works.
    arena.alloc_str("more");
    arena.reset_to(cp);
    assert_eq!(arena.stats().used_bytes, used);
    arena.check_invariants();
    drop(arena);
    pool.check_invariants();
    assert_eq!(pool.stats().bytes_in_use, 0);
}

#[test]
#[should_panic(expected = "no longer in this arena")]
fn rewind_after_reset_panics() {
    let mut arena = SlabArena::with_pool(small_pool());
    arena.alloc_str("in the first, 4 KiB chunk");
    let cp = arena.checkpoint();
    arena.alloc_slice_copy(&[0u8; 20_000]);
    // Keeps the larger, second chunk: the checkpoint's newest chunk is gone.
    arena.reset();
    arena.reset_to(cp);
}

#[test]
fn a_pool_whose_free_memory_is_one_dedicated_chunk_is_not_fragmented() {
    let pool = std::sync::Arc::new(crate::ChunkPool::builder().build().unwrap());
    let arena = crate::SlabArena::with_pool(pool.clone());
    // Larger than the arena's chunks (1 MiB) and no class size: a dedicated chunk.
    let big = core::alloc::Layout::from_size_align((3 << 20) + 1, 1).unwrap();
    arena.try_alloc_layout(big).unwrap();
    drop(arena);
    let s = pool.stats();
    assert_eq!(
        (s.dedicated.free, s.bytes_free),
        (1, s.dedicated.bytes_mapped),
        "{s}"
    );
    assert!(s.classes.iter().all(|c| c.mapped == 0), "{s}");
    assert!(s.fragmentation_percent().abs() < 1e-9, "{s}");
    assert!(s.to_string().contains("fragmentation 0.0%"), "{s}");
}
