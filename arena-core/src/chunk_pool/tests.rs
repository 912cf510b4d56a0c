use super::*;

#[test]
fn trim_threshold_has_hysteresis_and_saturates() {
    assert_eq!(trim_threshold(0), 0);
    assert_eq!(trim_threshold(64 << 20), 96 << 20);
    assert_eq!(trim_threshold(usize::MAX), usize::MAX);
}

#[test]
fn chunks_are_reused_lifo_and_counted() {
    let pool = small_classes()
        .reserve(Reserve::Bytes(usize::MAX))
        .build()
        .unwrap();
    let a = pool.take(1).unwrap();
    let b = pool.take(PAGE).unwrap();
    assert_eq!((a.size(), b.size()), (PAGE, PAGE));
    let b_ptr = b.ptr();
    pool.give_back([a].into_iter(), Some(arena(PAGE)));
    pool.give_back([b].into_iter(), Some(arena(PAGE)));
    pool.check_invariants();
    // The hottest (last given back) comes out first.
    let c = pool.take(10).unwrap();
    assert_eq!(c.ptr(), b_ptr);
    let big = pool.take(5 * PAGE + 1).unwrap();
    assert_eq!(big.size(), 6 * PAGE);
    let s = pool.stats();
    assert_eq!(s.chunks_mapped(), 3);
    assert_eq!((s.classes[0].in_use, s.classes[0].free), (1, 1));
    assert_eq!(s.dedicated.in_use, 1);
    let big_ptr = big.ptr();
    pool.give_back([c, big].into_iter(), Some(arena(7 * PAGE)));
    pool.check_invariants();
    let s = pool.stats();
    assert_eq!((s.dedicated.free, s.dedicated.released), (1, 0));
    assert_eq!(s.chunks_released(), 0);
    assert_eq!(s.bytes_free, 8 * PAGE);
    // A free dedicated chunk serves an exact request up to 1/8 smaller, within `max`.
    assert!(pool.take_exact(6 * PAGE, 5 * PAGE).is_none(), "over max");
    let again = pool.take_exact(5 * PAGE + 1, usize::MAX).unwrap();
    assert_eq!((again.ptr(), again.size()), (big_ptr, 6 * PAGE));
    pool.give_back([again].into_iter(), None);
    let other = pool.take_exact(9 * PAGE, usize::MAX).unwrap();
    assert_eq!(other.size(), 9 * PAGE);
    assert_eq!(
        pool.stats().chunks_mapped(),
        4,
        "6 pages is too small for 9"
    );
    // A class size asked exactly is a class chunk.
    let class = pool.take_exact(2 * PAGE, usize::MAX).unwrap();
    assert_eq!(pool.stats().classes[1].in_use, 1);
    pool.give_back([other, class].into_iter(), None);
    pool.check_invariants();
    assert_eq!(pool.trim(0), 19 * PAGE);
    let s = pool.stats();
    assert_eq!((s.bytes_mapped, s.dedicated.released), (0, 2));
    pool.check_invariants();
}

#[test]
fn limit_releases_free_chunks_then_refuses() {
    let pool = small_classes()
        .reserve(Reserve::Bytes(usize::MAX))
        .limit(4 * PAGE)
        .build()
        .unwrap();
    let a = pool.take(2 * PAGE).unwrap();
    let b = pool.take(2 * PAGE).unwrap();
    assert!(pool.take(1).is_none(), "over the limit");
    pool.give_back([a].into_iter(), Some(arena(0)));
    // A 4-page chunk needs the free 2-page one released first.
    assert!(pool.take(4 * PAGE).is_none(), "b still holds 2 pages");
    let c = pool.take(PAGE).unwrap();
    pool.check_invariants();
    let s = pool.stats();
    assert_eq!(s.classes[1].released, 1);
    assert!(s.bytes_mapped <= 4 * PAGE);
    pool.give_back([b, c].into_iter(), Some(arena(0)));
    pool.check_invariants();
}

#[test]
fn trims_coldest_first_beyond_the_reserve() {
    let pool = small_classes()
        .reserve(Reserve::Bytes(2 * PAGE))
        .build()
        .unwrap();
    let chunks: Vec<_> = (0..4).map(|_| pool.take(PAGE).unwrap()).collect();
    let hottest = chunks[3].ptr();
    // 3 pages free is at the threshold (2 + 1): no trim yet.
    let mut chunks = chunks.into_iter();
    pool.give_back(chunks.by_ref().take(3), Some(arena(0)));
    assert_eq!(pool.stats().chunks_released(), 0);
    pool.give_back(chunks, Some(arena(0)));
    let s = pool.stats();
    assert_eq!(s.chunks_released(), 2);
    assert_eq!(s.bytes_free, 2 * PAGE);
    let again = pool.take(PAGE).unwrap();
    assert_eq!(again.ptr(), hottest, "the hottest chunk stays");
    pool.give_back([again].into_iter(), Some(arena(0)));
    pool.check_invariants();
}

/// A stream's first document grows its arena chunk by chunk; the next, sized by the
/// first-chunk hint, asks for one chunk none of them can serve. The chunks it cannot use are
/// released before the new one is mapped, not kept beside it until its arena gives it back:
/// the pool never holds both documents' memory.
#[test]
fn a_new_chunk_no_free_chunk_serves_releases_them_first() {
    let pool = small_classes().build().unwrap();
    let first: Vec<_> = [PAGE, PAGE, 2 * PAGE, 4 * PAGE]
        .into_iter()
        .map(|size| pool.take(size).unwrap())
        .collect();
    pool.give_back(first.into_iter(), Some(arena(8 * PAGE)));
    let s = pool.stats();
    assert_eq!((s.reserve_bytes, s.bytes_free), (8 * PAGE, 8 * PAGE));
    // Eight pages in one dedicated chunk: no free chunk serves it.
    let next = pool.take_exact(7 * PAGE, usize::MAX).unwrap();
    let s = pool.stats();
    assert_eq!(next.size(), 7 * PAGE);
    assert_eq!(s.bytes_in_use, 7 * PAGE);
    assert!(s.bytes_free <= PAGE, "{s:?}");
    assert!(s.peak_bytes_mapped <= 8 * PAGE, "{s:?}");
    pool.give_back([next].into_iter(), Some(arena(7 * PAGE)));
    // The next document takes that chunk again: nothing is mapped or released.
    let again = pool.take_exact(7 * PAGE, usize::MAX).unwrap();
    let before = pool.stats();
    pool.give_back([again].into_iter(), Some(arena(7 * PAGE)));
    let after = pool.stats();
    assert_eq!(
        (before.chunks_mapped(), before.chunks_released()),
        (after.chunks_mapped(), after.chunks_released())
    );
    pool.check_invariants();
}

/// Below the reserve's threshold a new chunk leaves the free chunks where they are: a pool
/// whose arenas take turns with chunks of different sizes does not map and unmap in turn.
#[test]
fn a_new_chunk_within_the_threshold_keeps_the_free_ones() {
    let pool = small_classes()
        .reserve(Reserve::Bytes(4 * PAGE))
        .build()
        .unwrap();
    let a = pool.take(PAGE).unwrap();
    pool.give_back([a].into_iter(), Some(arena(PAGE)));
    // One free page and four new ones: five, within 4 × 1.5.
    let b = pool.take(4 * PAGE).unwrap();
    let s = pool.stats();
    assert_eq!((s.bytes_free, s.chunks_released()), (PAGE, 0));
    pool.give_back([b].into_iter(), Some(arena(4 * PAGE)));
    pool.check_invariants();
}

#[cfg(target_os = "linux")]
#[test]
fn huge_pages_map_usable_chunks_and_fall_back_quietly() {
    const HUGE: usize = 2 * MIB;
    for mode in [HugePages::Transparent, HugePages::HugeTlb] {
        let pool = ChunkPool::builder()
            .chunk_sizes(64 * KIB, 4 * MIB)
            .huge_pages(mode)
            .build()
            .unwrap();
        let a = pool.take(HUGE).unwrap();
        let b = pool.take(HUGE).unwrap();
        for chunk in [&a, &b] {
            // Chunks come poisoned under `arena_asan`; the arena unpoisons what it hands
            // out, the test does it by hand.
            poison::unpoison(chunk.ptr().as_ptr(), HUGE);
            // SAFETY: a fresh chunk of `HUGE` bytes that this test owns.
            unsafe { chunk.ptr().as_ptr().write_bytes(0xA5, HUGE) };
        }
        let s = pool.stats();
        match mode {
            HugePages::Transparent => {
                assert_eq!((s.os_map_calls, s.os_advise_calls), (2, 2), "{s}");
            }
            _ => {
                // With huge pages reserved: 2 maps. Without: one failed `MAP_HUGETLB`
                // attempt, remembered, then normal pages: 3, never 4.
                assert!((2..=3).contains(&s.os_map_calls), "{s}");
            }
        }
        pool.give_back([a, b].into_iter(), Some(arena(0)));
        pool.check_invariants();
    }
}

#[test]
fn stats_print_as_a_table() {
    let pool = ChunkPool::builder()
        .chunk_sizes(64 * KIB, 256 * KIB)
        .reserve(Reserve::Bytes(usize::MAX))
        .build()
        .unwrap();
    let a = pool.take(1).unwrap();
    let b = pool.take(100 * KIB).unwrap();
    let big = pool.take(300 * KIB).unwrap();
    pool.give_back([b].into_iter(), None);
    let stats = pool.stats();
    let table = stats.to_string();
    let row = |class: &str| {
        table
            .lines()
            .find(|l| l.trim_start().starts_with(class))
            .unwrap_or_else(|| panic!("no {class} row in\n{table}"))
            .split_whitespace()
            .skip(class.split_whitespace().count())
            .take(5)
            .collect::<Vec<_>>()
            .join(" ")
    };
    // mapped, in use, free, released, ever
    assert_eq!(row("64 KiB"), "1 1 0 0 1", "{table}");
    assert_eq!(row("128 KiB"), "1 0 1 0 1", "{table}");
    assert_eq!(row("dedicated"), "1 1 0 0 1", "{table}");
    // One `mmap` a chunk. On wasm32 one `memory.grow` serves all three, or none when memory an
    // earlier test's pool gave back is free (the spans are the process's).
    #[cfg(not(target_arch = "wasm32"))]
    assert_eq!(stats.os_map_calls, 3, "{table}");
    #[cfg(target_arch = "wasm32")]
    assert!(stats.os_map_calls <= 1, "{table}");
    let calls = format!("OS calls: {} map, 0 unmap, 0 advise", stats.os_map_calls);
    assert!(table.contains(&calls), "{table}");
    // 64 + 300 of 492 KiB in use; the only free chunk is the largest: no fragmentation.
    assert!(
        table.contains("utilization 74.0%, fragmentation 0.0%"),
        "{table}"
    );
    pool.give_back([a, big].into_iter(), None);
}

/// A builder of a pool with classes of 1, 2 and 4 pages.
fn small_classes() -> ChunkPoolBuilder {
    ChunkPool::builder().chunk_sizes(PAGE, 4 * PAGE)
}

/// A pool of [`small_classes`] that counts two CPUs, whatever the machine has.
fn two_cpu_pool() -> ChunkPool {
    let mut pool = small_classes().build().unwrap();
    pool.parallelism = 2;
    pool
}

/// An arena that used all it held.
fn arena(bytes: usize) -> ArenaUse {
    ArenaUse {
        reserved: bytes,
        used: bytes,
    }
}

#[test]
fn first_chunk_hint_is_the_least_of_the_last_two_arenas_once_one_reported() {
    let pool = small_classes().build().unwrap();
    let used = |used| ArenaUse {
        reserved: 4 * PAGE,
        used,
    };
    assert_eq!(pool.first_chunk_hint(), None);
    pool.give_back(core::iter::empty(), Some(used(3000)));
    assert_eq!(pool.first_chunk_hint(), Some(3000), "the only arena");
    pool.give_back(core::iter::empty(), None);
    assert_eq!(pool.first_chunk_hint(), Some(3000), "a rewind is no arena");
    pool.give_back(core::iter::empty(), Some(used(5000)));
    assert_eq!(pool.first_chunk_hint(), Some(3000));
    pool.give_back(core::iter::empty(), Some(used(90_000)));
    assert_eq!(pool.first_chunk_hint(), Some(5000), "one spike is ignored");
    pool.give_back(core::iter::empty(), Some(used(80_000)));
    assert_eq!(pool.first_chunk_hint(), Some(80_000));
    pool.give_back(core::iter::empty(), Some(used(0)));
    assert_eq!(pool.first_chunk_hint(), None, "an empty arena: no hint");
}

#[test]
fn auto_reserve_follows_recent_arenas() {
    let pool = small_classes().build().unwrap();
    let chunks: Vec<_> = (0..2).map(|_| pool.take(PAGE).unwrap()).collect();
    pool.give_back(chunks.into_iter(), Some(arena(2 * PAGE)));
    let s = pool.stats();
    assert_eq!(s.reserve_bytes, 2 * PAGE);
    assert_eq!(s.bytes_free, 2 * PAGE);
    pool.check_invariants();
}

/// A thread takes back the chunk it gave back itself, even when another thread gave one
/// back since (class chunks and dedicated ones alike); a thread that gave none back gets
/// the hottest.
#[test]
#[cfg_attr(target_family = "wasm", ignore = "wasm32-wasip1 has no threads")]
fn a_thread_takes_back_its_own_chunk_first() {
    let pool = small_classes()
        .reserve(Reserve::Bytes(16 * PAGE))
        .build()
        .unwrap();
    // Addresses cross threads as numbers.
    let on_a_new_thread =
        |f: &(dyn Fn() -> usize + Sync)| std::thread::scope(|scope| scope.spawn(f).join().unwrap());
    for size in [2 * PAGE, 6 * PAGE] {
        let mine = pool.take_exact(size, usize::MAX).unwrap();
        let mine_at = mine.ptr().as_ptr() as usize;
        let theirs = pool.take_exact(size, usize::MAX).unwrap();
        let theirs_at = theirs.ptr().as_ptr() as usize;
        pool.give_back([mine].into_iter(), None);
        let theirs = std::sync::Mutex::new(Some(theirs));
        // Another thread gives its chunk back last: the hottest.
        on_a_new_thread(&|| {
            let chunk = theirs.lock().unwrap().take().unwrap();
            let at = chunk.ptr().as_ptr() as usize;
            pool.give_back([chunk].into_iter(), None);
            at
        });
        // A thread that gave nothing back gets the hottest, and gives it back.
        let got = on_a_new_thread(&|| {
            let chunk = pool.take_exact(size, usize::MAX).unwrap();
            let at = chunk.ptr().as_ptr() as usize;
            pool.give_back([chunk].into_iter(), None);
            at
        });
        assert_eq!(got, theirs_at, "size {size}");
        // This thread gets its own chunk back, though it is the colder one.
        let again = pool.take_exact(size, usize::MAX).unwrap();
        assert_eq!(again.ptr().as_ptr() as usize, mine_at, "size {size}");
        pool.give_back([again].into_iter(), None);
        pool.check_invariants();
    }
}

/// Two threads each building an arena at once: both arenas' chunks stay free between
/// documents, so neither maps nor unmaps in turn.
#[test]
fn auto_reserve_keeps_arenas_built_at_once() {
    let pool = two_cpu_pool();
    for round in 0..10 {
        let a = pool.take(4 * PAGE).unwrap();
        let b = pool.take(4 * PAGE).unwrap();
        pool.give_back([a].into_iter(), Some(arena(4 * PAGE)));
        pool.give_back([b].into_iter(), Some(arena(4 * PAGE)));
        let s = pool.stats();
        assert_eq!(s.reserve_bytes, 8 * PAGE, "round {round}");
        assert_eq!(s.chunks_mapped(), 2, "round {round}");
        assert_eq!(s.chunks_released(), 0, "round {round}");
        pool.check_invariants();
    }
    // One arena at a time again: after 16 arenas the pool keeps room for one.
    for _ in 0..RECENT_ARENAS {
        let a = pool.take(4 * PAGE).unwrap();
        pool.give_back([a].into_iter(), Some(arena(4 * PAGE)));
    }
    let s = pool.stats();
    assert_eq!(s.reserve_bytes, 4 * PAGE);
    assert_eq!(s.bytes_mapped, 4 * PAGE);
    pool.check_invariants();
}

/// After a burst of arenas, the pool keeps one arena per CPU, not the whole burst; an
/// arena that stays in use is not counted as free room to keep.
#[test]
fn auto_reserve_caps_a_burst_at_one_arena_per_cpu() {
    let pool = two_cpu_pool();
    let long_lived = pool.take(4 * PAGE).unwrap();
    let burst: Vec<_> = (0..8).map(|_| pool.take(4 * PAGE).unwrap()).collect();
    for chunk in burst {
        pool.give_back([chunk].into_iter(), Some(arena(4 * PAGE)));
        pool.check_invariants();
    }
    let s = pool.stats();
    assert_eq!(s.reserve_bytes, 8 * PAGE);
    assert_eq!(s.bytes_free, 8 * PAGE);
    assert_eq!(s.bytes_in_use, 4 * PAGE);
    pool.give_back([long_lived].into_iter(), None);
}
