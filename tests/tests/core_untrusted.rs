//! Untrusted-input cases that concern the arenas themselves: over-aligned values, absurd
//! allocation sizes, a base allocator that fails, and a panic in user code.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::NonNull;
use std::rc::Rc;
use std::sync::Arc;

use arena_core::{
    ArenaDeserialize, ArenaSeed, ArenaStats, BumpAllocator, BumpAllocatorExt, ChunkPool,
    LengthTrust, SlabArena,
};
use arena_tests::recursive::Tree;
use arena_tests::{Format, with_each_arena};

/// A value that must sit on a 4096-byte boundary.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(align(4096))]
struct Page(u32);

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for Page {
    fn deserialize_in<'de, D: serde::Deserializer<'de>>(
        arena: &'bump A,
        d: D,
    ) -> Result<Self, D::Error> {
        u32::deserialize_in(arena, d).map(Page)
    }
}

#[test]
fn over_aligned_values_after_odd_sized_allocations() {
    let bytes = Format::Postcard.to_bytes(&vec![1u32, 2, 3]);
    let one = Format::Postcard.to_bytes(&7u32);
    with_each_arena!(|arena| {
        for odd in [1usize, 3, 7, 4095, 4097] {
            BumpAllocator::try_alloc_bytes(arena, &vec![0xAB; odd]).unwrap();
            let pages: &[Page] = Format::Postcard.decode_in(arena, &bytes).unwrap();
            assert_eq!(pages, [Page(1), Page(2), Page(3)]);
            assert_eq!(pages.as_ptr() as usize % 4096, 0, "slice after {odd} bytes");
            let page: &Page = Format::Postcard.decode_in(arena, &one).unwrap();
            assert_eq!(
                std::ptr::from_ref(page) as usize % 4096,
                0,
                "&T after {odd} bytes"
            );
        }
    });
}

#[test]
fn chunk_sized_and_absurd_allocations() {
    with_each_arena!(|arena| {
        // Around common chunk sizes: every byte writable, nothing overlapping.
        let mut blocks: Vec<&mut [u8]> = Vec::new();
        for (i, size) in [64 << 10, (64 << 10) + 1, 1 << 20, (1 << 20) + 1, 4 << 20]
            .into_iter()
            .enumerate()
        {
            let block = BumpAllocatorExt::try_alloc_uninit_slice::<u8>(arena, size).unwrap();
            let block: &mut [u8] = unsafe_init(block, i as u8);
            blocks.push(block);
        }
        for (i, block) in blocks.iter().enumerate() {
            assert!(
                block.iter().all(|&b| b == i as u8),
                "block {i} was overwritten"
            );
        }
        // Near isize::MAX: an error, never a wrapped pointer or an abort. With 32-bit pointers
        // these are 1 and 2 GiB, which a process may well have: there a block is allowed, and
        // lies wholly inside the address space.
        for size in [
            isize::MAX as usize - 4096,
            isize::MAX as usize / 2,
            usize::MAX / 4,
        ] {
            let layout = Layout::from_size_align(size, 8).unwrap();
            match arena.try_alloc_layout(layout) {
                Err(_) => {}
                Ok(block) if cfg!(target_pointer_width = "32") => {
                    let at = block.as_ptr() as usize;
                    assert!(
                        at.is_multiple_of(8) && at.checked_add(size).is_some(),
                        "{size} bytes at {at:#x}"
                    );
                }
                Ok(_) => panic!("{size} bytes allocated"),
            }
        }
        // `len * size_of::<T>()` overflowing is an error before the arena is asked.
        assert!(BumpAllocatorExt::try_alloc_uninit_slice::<u64>(arena, usize::MAX / 4).is_err());
        let e = BumpAllocatorExt::try_alloc_uninit_slice::<u64>(arena, usize::MAX).unwrap_err();
        assert!(e.to_string().contains("overflows"), "{e}");
    });
}

/// Fills an uninitialised block with `byte` and returns it initialised.
fn unsafe_init(block: &mut [std::mem::MaybeUninit<u8>], byte: u8) -> &mut [u8] {
    for b in block.iter_mut() {
        b.write(byte);
    }
    // SAFETY: every element was just written.
    unsafe { &mut *(std::ptr::from_mut(block) as *mut [u8]) }
}

/// A base allocator for bump-scope that fails on its `fail_at`-th call (1-based), and counts
/// what is live.
#[derive(Clone, Default)]
struct FailOnce {
    calls: Rc<Cell<usize>>,
    live: Rc<Cell<isize>>,
    fail_at: usize,
}

// SAFETY: forwards to `System`, which upholds the contract, except that one call reports failure
// without allocating.
unsafe impl bump_scope::alloc::Allocator for FailOnce {
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, bump_scope::alloc::AllocError> {
        self.calls.set(self.calls.get() + 1);
        if self.calls.get() == self.fail_at || layout.size() == 0 {
            return Err(bump_scope::alloc::AllocError);
        }
        // SAFETY: `layout` has a non-zero size (checked above).
        let ptr =
            NonNull::new(unsafe { System.alloc(layout) }).ok_or(bump_scope::alloc::AllocError)?;
        self.live.set(self.live.get() + 1);
        Ok(NonNull::slice_from_raw_parts(ptr, layout.size()))
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        self.live.set(self.live.get() - 1);
        // SAFETY: `ptr` was allocated by `System` with `layout` in `allocate`.
        unsafe { System.dealloc(ptr.as_ptr(), layout) };
    }
}

/// A document that takes many chunks (20,000 strings in 200 groups) and one that takes a few bytes, in
/// bincode: postcard's `Error::custom` drops the out-of-memory message the tests check.
struct ChunkyDocs {
    owned: Vec<Vec<String>>,
    big: Vec<u8>,
    small: Vec<u8>,
}

impl ChunkyDocs {
    const FORMAT: Format = Format::Bincode;

    fn new() -> Self {
        // 200 groups of 100: sequences small enough to go straight into the arena whatever
        // the trust earned by earlier calls, so the arena grows chunk by chunk with the strings.
        let owned: Vec<Vec<String>> = (0..200)
            .map(|g| {
                (0..100)
                    .map(|i| format!("a string long enough to need chunks {g}.{i}"))
                    .collect()
            })
            .collect();
        ChunkyDocs {
            big: Self::FORMAT.to_bytes(&owned),
            small: Self::FORMAT.to_bytes(&vec!["small".to_owned()]),
            owned,
        }
    }

    /// Reads the big document into `arena`; when it fails, the error is out of memory.
    fn read_big<A: BumpAllocator + ?Sized>(&self, arena: &A) -> Result<(), String> {
        match Self::FORMAT.decode_in::<&[&[&str]], _>(arena, &self.big) {
            Ok(v) => {
                assert_eq!(v, self.owned);
                Ok(())
            }
            Err(e) => {
                assert!(e.contains("the arena ran out of memory"), "{e}");
                Err(e)
            }
        }
    }

    /// Reads the small document into `arena`, which must work.
    fn read_small<A: BumpAllocator + ?Sized>(&self, arena: &A) {
        let v: &[&str] = Self::FORMAT.decode_in(arena, &self.small).unwrap();
        assert_eq!(v, ["small"]);
    }
}

#[test]
fn a_base_allocator_failing_on_the_nth_call() {
    let docs = ChunkyDocs::new();
    let mut failures = 0;
    for fail_at in 1..=30 {
        let base = FailOnce {
            fail_at,
            ..FailOnce::default()
        };
        let live = base.live.clone();
        {
            let Ok(bump) = bump_scope::Bump::<FailOnce>::try_new_in(base) else {
                continue;
            };
            if docs.read_big(&bump).is_err() {
                failures += 1;
                // Rewound, consistent and reusable.
                assert_eq!(BumpAllocator::stats(&bump).used_bytes, 0, "call {fail_at}");
                docs.read_small(&bump);
                docs.read_big(&bump).unwrap();
            }
        }
        assert_eq!(live.get(), 0, "call {fail_at}: chunks leaked");
    }
    assert!(
        failures > 3,
        "the failing calls were never reached ({failures})"
    );
}

/// A pool whose byte limit refuses the arena's N-th chunk request of a document, for every N
/// the document makes: an error, the arena rewound to what it held, consistent and reusable,
/// and every chunk back in the pool once it drops.
#[test]
fn a_pool_limit_refusing_the_nth_chunk() {
    const STEP: usize = 64 * 1024;
    let docs = ChunkyDocs::new();
    // On a fresh pool every chunk request maps one chunk: count the big document's (chunks, not
    // OS calls: on wasm32 one `memory.grow` serves many chunks).
    let probe = Arc::new(ChunkPool::builder().build().unwrap());
    let requests = {
        let arena = SlabArena::with_pool(probe.clone());
        docs.read_small(&arena);
        let before = probe.stats().chunks_mapped();
        docs.read_big(&arena).unwrap();
        probe.stats().chunks_mapped() - before
    };
    let peak = probe.stats().peak_bytes_mapped;
    assert!(requests > 10, "{requests} chunk requests");
    // Every chunk is at least 64 KiB (the smallest class), and the small document's first chunk
    // is mapped before: limits 64 KiB apart fall between every two consecutive requests, so
    // each request is the first one refused under some limit.
    let limits = (1..).map(|k| k * STEP).take_while(|&l| l < peak);
    let mut refused = BTreeSet::new();
    for limit in limits.chain([peak]) {
        let pool = Arc::new(ChunkPool::builder().limit(limit).build().unwrap());
        let arena = SlabArena::with_pool(pool.clone());
        docs.read_small(&arena);
        let used = arena.stats().used_bytes;
        let maps = pool.stats().chunks_mapped();
        if docs.read_big(&arena).is_err() {
            refused.insert(pool.stats().chunks_mapped() - maps + 1);
            arena.check_invariants();
            pool.check_invariants();
            assert_eq!(arena.stats().used_bytes, used, "limit {limit}: not rewound");
            docs.read_small(&arena);
        } else {
            assert_eq!(limit, peak, "what needs {peak} bytes fit in {limit}");
        }
        drop(arena);
        let stats = pool.stats();
        assert!(stats.peak_bytes_mapped <= limit, "limit {limit}: {stats}");
        assert_eq!(stats.bytes_in_use, 0, "limit {limit}: {stats}");
        assert!(stats.classes.iter().all(|c| c.in_use == 0) && stats.dedicated.in_use == 0);
        pool.check_invariants();
    }
    assert_eq!(refused, (1..=requests).collect(), "requests refused first");
}

/// What bumpalo offers: no base allocator to fail (its chunks always come from the global
/// allocator), only `set_allocation_limit`. Under it a chunk that would pass the limit is
/// retried at half the size, down to what the allocation needs, and only then refused: an
/// error, never an abort. What it cannot do: fail a chosen call, rewind the failed call (its
/// partial data stays until `reset`), or keep a limit set below the bytes it already holds
/// (the limit then silently stops applying, so it is set here on an empty arena).
#[test]
fn a_bumpalo_allocation_limit_hit_at_each_chunk_count() {
    let docs = ChunkyDocs::new();
    let mut chunks_when_refused = BTreeSet::new();
    // Limits 1/8 apart, from 1 KiB until the document fits.
    let mut limit = 1024;
    loop {
        let mut bump = bumpalo::Bump::new();
        bump.set_allocation_limit(Some(limit));
        let result = docs.read_big(&bump);
        assert!(bump.allocated_bytes() <= limit, "{limit}");
        if result.is_ok() {
            break;
        }
        chunks_when_refused.insert(BumpAllocator::stats(&bump).chunks);
        bump.reset();
        docs.read_small(&bump);
        limit += limit / 8;
    }
    assert!(
        chunks_when_refused.len() > 8,
        "refused at chunk counts {chunks_when_refused:?}"
    );
}

/// Panics on the element equal to 13.
struct Fragile(#[allow(dead_code, reason = "only the panic matters")] u8);

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for Fragile {
    fn deserialize_in<'de, D: serde::Deserializer<'de>>(
        arena: &'bump A,
        d: D,
    ) -> Result<Self, D::Error> {
        let v = u8::deserialize_in(arena, d)?;
        assert!(v != 13, "user code panicked");
        Ok(Fragile(v))
    }
}

/// Runs `f`, which must panic (its result, if it had one, is never reached), and returns the
/// panic's message.
fn panic_message(f: impl FnOnce()) -> String {
    let panic = catch_unwind(AssertUnwindSafe(f)).expect_err("a panic");
    match panic.downcast::<&str>() {
        Ok(message) => (*message).to_owned(),
        Err(panic) => *panic.downcast::<String>().expect("a string message"),
    }
}

#[test]
#[cfg_attr(
    not(panic = "unwind"),
    ignore = "a panic aborts the process on this target (wasm32): nothing to catch"
)]
fn a_panic_in_user_code_leaves_the_arena_usable() {
    let poison = Format::Json.to_bytes(&vec![vec![vec![1u8, 2], vec![3, 13]]]);
    with_each_arena!(|arena| {
        let message = panic_message(|| {
            let _: Result<&[&[&[Fragile]]], _> = Format::Json.decode_in(arena, &poison);
        });
        assert_eq!(message, "user code panicked");
        // The scratch stack was popped on the way out: sequences still come out right.
        let v: Result<&[&[&[u8]]], _> = Format::Json.decode_in(arena, &poison);
        assert_eq!(v.unwrap(), [&[&[1u8, 2][..], &[3, 13]][..]]);
        // The depth count was restored: `[[1]]` needs exactly depth 3 (the call, two sequences).
        let seed = arena_core::ArenaSeed::<&[&[u8]], _>::new(arena)
            .with_limits(arena_core::Limits::default().max_depth(3));
        let nested = Format::Json.decode_seed(seed, b"[[1]]").unwrap();
        assert_eq!(nested, [&[1u8][..]]);
    });
}

/// A record read through the derive, with a user `deserialize_with` function that panics.
#[derive(ArenaDeserialize, Debug)]
struct Reading<'bump> {
    name: &'bump str,
    #[arena(deserialize_with = "values_without_13")]
    values: &'bump [u8],
    tags: &'bump [&'bump str],
}

/// The owned twin of [`Reading`], to write the documents.
#[derive(serde::Serialize)]
struct OwnedReading {
    name: String,
    values: Vec<u8>,
    tags: Vec<String>,
}

/// Reads the values into the arena, then panics if one of them is 13.
fn values_without_13<'de, 'bump, D, A>(d: D, arena: &'bump A) -> Result<&'bump [u8], D::Error>
where
    D: serde::Deserializer<'de>,
    A: BumpAllocator + ?Sized,
{
    let values: &[u8] = serde::de::DeserializeSeed::deserialize(ArenaSeed::new(arena), d)?;
    assert!(!values.contains(&13), "deserialize_with panicked");
    Ok(values)
}

/// Five readings; the fourth holds a 13 when `poisoned`.
fn readings(poisoned: bool) -> Vec<OwnedReading> {
    (0..5u8)
        .map(|i| OwnedReading {
            name: format!("sensor {i}"),
            values: vec![i, 2 * i, if poisoned && i == 3 { 13 } else { 7 }],
            tags: (0..i).map(|t| format!("tag {t}")).collect(),
        })
        .collect()
}

/// A `deserialize_with` function panics halfway through a sequence of derived records (scratch
/// frames open, strings already in the arena); after `catch_unwind` the same arena reads a good
/// document, and a failing call after the panic still rewinds where the arena can.
fn derived_panic_then_reuse<A: BumpAllocator>(arena: &A) {
    let good = readings(false);
    for fmt in [Format::Json, Format::Postcard] {
        let poison = fmt.to_bytes(&readings(true));
        let good_bytes = fmt.to_bytes(&good);
        let message = panic_message(|| {
            let _ = fmt.decode_in::<&[Reading], _>(arena, &poison);
        });
        assert_eq!(message, "deserialize_with panicked", "{fmt}");
        let read: &[Reading] = fmt.decode_in(arena, &good_bytes).unwrap();
        assert_eq!(read.len(), good.len(), "{fmt}");
        for (r, o) in read.iter().zip(&good) {
            assert_eq!((r.name, r.values), (&*o.name, &*o.values), "{fmt}");
            assert_eq!(r.tags, o.tags, "{fmt}");
        }
        // The panic left no call open: this one is the outermost again, so it rewinds.
        let before = BumpAllocator::stats(arena).used_bytes;
        let truncated = &good_bytes[..good_bytes.len() - 1];
        assert!(fmt.decode_in::<&[Reading], _>(arena, truncated).is_err());
        if BumpAllocator::checkpoint(arena).is_some() {
            assert_eq!(BumpAllocator::stats(arena).used_bytes, before, "{fmt}");
        }
    }
}

#[test]
#[cfg_attr(
    not(panic = "unwind"),
    ignore = "a panic aborts the process on this target (wasm32): nothing to catch"
)]
fn a_panic_in_a_derived_deserialize_with_leaves_the_arena_usable() {
    derived_panic_then_reuse(&bumpalo::Bump::new());
    derived_panic_then_reuse(&bump_scope::Bump::<bump_scope::alloc::Global>::new());
    let pool = Arc::new(ChunkPool::builder().build().unwrap());
    let arena = SlabArena::with_pool(pool.clone());
    derived_panic_then_reuse(&arena);
    arena.check_invariants();
    pool.check_invariants();
    let stats = arena.stats();
    assert!(
        stats.used_bytes + stats.wasted_tail_bytes <= stats.reserved_bytes,
        "{stats}"
    );
    assert_eq!(pool.stats().bytes_in_use, stats.chunk_bytes);
    drop(arena);
    assert_eq!(pool.stats().bytes_in_use, 0, "chunks kept after the drop");
    pool.check_invariants();
}

#[test]
fn nested_headers_each_claiming_65535_elements_reserve_once() {
    // MessagePack array16 of 65,535 elements, nested 100 deep, then the input ends: 300 bytes
    // claiming 65,535^100 elements. Nested sequences start on the scratch stack where the
    // enclosing one's elements end, so their reservations overlap instead of adding up.
    let input: Vec<u8> = [0xdc, 0xff, 0xff].repeat(100);
    with_each_arena!(|arena| {
        arena_core::release_thread_scratch();
        assert!(Format::MsgPack.decode_in::<Tree, _>(arena, &input).is_err());
        let reserved = arena_core::__private::thread_scratch_capacity();
        assert!(
            reserved <= (1 << 20) + 4096,
            "scratch grew to {reserved} bytes"
        );
        assert!(
            BumpAllocator::stats(arena).used_bytes < 4096,
            "the arena holds nothing"
        );
        // A byte budget caps the reservation further.
        arena_core::release_thread_scratch();
        let seed = arena_core::ArenaSeed::<Tree, _>::new(arena)
            .with_limits(arena_core::Limits::default().max_bytes(4096));
        assert!(Format::MsgPack.decode_seed(seed, &input).is_err());
        let reserved = arena_core::__private::thread_scratch_capacity();
        assert!(
            reserved <= 8192,
            "scratch grew to {reserved} bytes under a 4 KiB budget"
        );
    });
}

/// Reads `input` (MessagePack) as `&[&[u64]]` into `arena`, given `trust` if any, which must
/// fail; the arena bytes the failed call left behind.
fn held_after_a_failed_decode<A: BumpAllocator>(
    arena: &A,
    input: &[u8],
    trust: Option<&LengthTrust>,
) -> usize {
    let before = BumpAllocator::stats(arena).used_bytes;
    let mut seed = ArenaSeed::<&[&[u64]], A>::new(arena);
    if let Some(trust) = trust {
        seed = seed.with_trust(trust);
    }
    assert!(Format::MsgPack.decode_seed(seed, input).is_err());
    BumpAllocator::stats(arena).used_bytes - before
}

/// The true elements of [`honest_document`] and [`claim_past_the_floor`].
const TRUE: usize = 4096;

/// MessagePack: a one-element array holding an array of `TRUE` u64s (32 KiB read, past the
/// 16 KiB a call trusts at first: it collects on the scratch stack and, true, earns trust for
/// 64 KiB).
fn honest_document() -> Vec<u8> {
    let mut input = vec![0xdc, 0x00, 0x01, 0xdc];
    input.extend_from_slice(&(TRUE as u16).to_be_bytes());
    input.extend(std::iter::repeat_n(0x07, TRUE));
    input
}

/// MessagePack: a one-element array holding an array that claims 8,000 u64s (62.5 KiB, within
/// the trust the honest document earns), then the input ends.
fn claim_past_the_floor() -> Vec<u8> {
    vec![0xdc, 0x00, 0x01, 0xdc, 0x1f, 0x40, 0x07]
}

#[test]
fn a_claim_past_the_earned_trust_wastes_at_most_twice_the_true_bytes_before_it() {
    // An array of two arrays of u64: the honest one, then the claim, in one call. What the
    // failed call leaves in a non-rewinding arena is the true 32 KiB and the trusted block: at
    // most three times the true bytes, however large the claim.
    let mut input = vec![0xdc, 0x00, 0x02];
    input.extend_from_slice(&honest_document()[3..]);
    input.extend_from_slice(&claim_past_the_floor()[3..]);
    let true_bytes = TRUE * size_of::<u64>();
    with_each_arena!(|arena| {
        let held = held_after_a_failed_decode(arena, &input, None);
        assert!(
            held <= 3 * true_bytes + 4096,
            "{held} bytes left in the arena"
        );
        if BumpAllocator::checkpoint(arena).is_some() {
            assert_eq!(held, 0, "a rewinding arena is back where it was");
        } else {
            assert!(held > 2 * true_bytes, "the claim was trusted: {held} bytes");
        }
    });
    // The same claim as a call of its own, with nothing true before it, is not trusted.
    with_each_arena!(|arena| {
        let held = held_after_a_failed_decode(arena, &claim_past_the_floor(), None);
        assert!(held < 4096, "{held} bytes left in the arena");
    });
}

#[test]
fn a_length_trust_carries_a_successful_call_on_and_a_failed_one_not() {
    // After the honest document read with a `LengthTrust`, the lone claim read with the same
    // one gets a direct block; the failed call hands the floor on, so the same claim right
    // after is not trusted.
    let true_bytes = TRUE * size_of::<u64>();
    with_each_arena!(|arena| {
        let trust = LengthTrust::new();
        let seed = ArenaSeed::<&[&[u64]], _>::new(arena).with_trust(&trust);
        let read = Format::MsgPack
            .decode_seed(seed, &honest_document())
            .unwrap();
        assert_eq!(read[0].len(), TRUE);
        assert_eq!(trust.bytes(), 2 * true_bytes);
        let held = held_after_a_failed_decode(arena, &claim_past_the_floor(), Some(&trust));
        assert!(
            held <= 2 * true_bytes + 4096,
            "{held} bytes left in the arena"
        );
        if BumpAllocator::checkpoint(arena).is_none() {
            assert!(held > true_bytes, "the claim was trusted: {held} bytes");
        }
        assert_eq!(trust.bytes(), LengthTrust::new().bytes(), "the floor");
        let held = held_after_a_failed_decode(arena, &claim_past_the_floor(), Some(&trust));
        assert!(held < 4096, "{held} bytes left in the arena");
        arena_core::__private::check_call_invariants();
    });
}

/// What reading the lying claim leaves in fresh arenas (a `bumpalo::Bump`, which keeps what a
/// failed call allocated, and a `SlabArena` on a pool of its own): their stats afterwards.
fn what_a_lie_costs(trust: Option<&LengthTrust>) -> [ArenaStats; 2] {
    let bump = bumpalo::Bump::new();
    held_after_a_failed_decode(&bump, &claim_past_the_floor(), trust);
    let slab = SlabArena::with_pool(Arc::new(ChunkPool::new()));
    held_after_a_failed_decode(&slab, &claim_past_the_floor(), trust);
    [BumpAllocator::stats(&bump), BumpAllocator::stats(&slab)]
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "wasm32-wasip1 has no threads: no fresh thread to compare with"
)]
fn a_lie_costs_the_same_whatever_ran_before_on_the_thread() {
    let on_a_fresh_thread = std::thread::spawn(|| what_a_lie_costs(None))
        .join()
        .unwrap();
    // Honest documents on this thread, with and without a trust of their own, then the lie
    // into fresh arenas: it reserves what it reserves on a fresh thread.
    let earned = LengthTrust::new();
    for trust in [None, Some(&earned)] {
        let bump = bumpalo::Bump::new();
        let mut seed = ArenaSeed::<&[&[u64]], _>::new(&bump);
        if let Some(trust) = trust {
            seed = seed.with_trust(trust);
        }
        let read = Format::MsgPack
            .decode_seed(seed, &honest_document())
            .unwrap();
        assert_eq!(read[0].len(), TRUE);
        assert_eq!(what_a_lie_costs(None), on_a_fresh_thread);
        // A trust the lie's reader did not share is no different.
        assert_eq!(
            what_a_lie_costs(Some(&LengthTrust::new())),
            on_a_fresh_thread
        );
    }
    assert!(
        earned.bytes() > LengthTrust::new().bytes(),
        "the honest document earned trust"
    );
    arena_core::__private::check_call_invariants();
}

#[test]
fn nested_short_headers_share_one_direct_reservation() {
    // Headers short enough to be filled in place in the arena (1,024 elements of 16 bytes with
    // 64-bit pointers, 8 with 32-bit ones: 16 or 8 KiB each), nested 100 deep, then the input
    // ends. The blocks of open sequences are bounded together (64 KiB), not per level: 100
    // levels would be 1.6 (or 0.8) MiB.
    let input: Vec<u8> = [0xdc, 0x04, 0x00].repeat(100);
    #[cfg(target_pointer_width = "64")]
    assert_eq!(size_of::<Tree>(), 16);
    #[cfg(target_pointer_width = "32")]
    assert_eq!(size_of::<Tree>(), 8);
    with_each_arena!(|arena| {
        let before = BumpAllocator::stats(arena).used_bytes;
        assert!(Format::MsgPack.decode_in::<Tree, _>(arena, &input).is_err());
        let held = BumpAllocator::stats(arena).used_bytes - before;
        assert!(held <= 64 * 1024, "{held} bytes left in the arena");
        if BumpAllocator::checkpoint(arena).is_some() {
            assert_eq!(held, 0, "a rewinding arena is back where it was");
        }
    });
}

#[test]
fn lone_surrogates_and_invalid_utf8() {
    with_each_arena!(|arena| {
        let e = Format::Json
            .decode_in::<&str, _>(arena, br#""\ud800""#)
            .unwrap_err();
        assert!(e.contains("surrogate") || e.contains("hex escape"), "{e}");
        // `BStr` asks for raw bytes: serde_json hands over the escape as WTF-8, kept as is.
        let raw: arena_core::BStr = Format::Json.decode_in(arena, br#""a\ud800b""#).unwrap();
        assert_eq!(raw.as_bytes(), b"a\xed\xa0\x80b");
        assert!(raw.to_str().is_err());
        // Invalid UTF-8 in MessagePack and CBOR text strings.
        assert!(
            Format::MsgPack
                .decode_in::<&str, _>(arena, &[0xa2, 0xff, 0xfe])
                .is_err()
        );
        assert!(
            Format::Cbor
                .decode_in::<&str, _>(arena, &[0x62, 0xff, 0xfe])
                .is_err()
        );
    });
}

#[derive(Debug, PartialEq, serde::Deserialize, arena_core::ArenaDeserialize)]
enum Choice {
    First,
    Second(u8),
}

#[derive(Debug, PartialEq, serde::Deserialize, arena_core::ArenaDeserialize)]
struct Record {
    id: i32,
    small: u8,
}

#[test]
fn variant_indices_out_of_range_numbers_and_nan() {
    let cases: [(&str, Format, Vec<u8>); 2] = [
        (
            "postcard varint 0xFFFFFFFF",
            Format::Postcard,
            vec![0xff, 0xff, 0xff, 0xff, 0x0f],
        ),
        (
            "bincode u32 0xFFFFFFFF",
            Format::Bincode,
            vec![0xfc, 0xff, 0xff, 0xff, 0xff],
        ),
    ];
    for (name, fmt, input) in cases {
        assert!(fmt.decode_owned::<Choice>(&input).is_err(), "{name}: serde");
        with_each_arena!(|arena| {
            assert!(fmt.decode_in::<Choice, _>(arena, &input).is_err(), "{name}");
        });
    }
    // MessagePack: [NaN, 1] and [1, 300] for { id: i32, small: u8 }.
    let mut nan = vec![0x92, 0xcb];
    nan.extend_from_slice(&f64::NAN.to_be_bytes());
    nan.push(0x01);
    let too_big = vec![0x92, 0x01, 0xcd, 0x01, 0x2c];
    for input in [nan, too_big] {
        let serde_err = Format::MsgPack.decode_owned::<Record>(&input).unwrap_err();
        with_each_arena!(|arena| {
            let e = Format::MsgPack
                .decode_in::<Record, _>(arena, &input)
                .unwrap_err();
            assert_eq!(e, serde_err);
        });
    }
}

#[test]
fn duplicate_keys_and_trailing_bytes() {
    with_each_arena!(|arena| {
        let input = br#"{"id": 1, "small": 2, "id": 3}"#;
        let serde_err = Format::Json.decode_owned::<Record>(input).unwrap_err();
        let e = Format::Json
            .decode_in::<Record, _>(arena, input)
            .unwrap_err();
        assert_eq!(e, serde_err);
        assert!(e.contains("duplicate field `id`"), "{e}");
        // Trailing bytes: an error where the format's own helper says so (serde_json's
        // `from_slice`), accepted where it does not (postcard's `from_bytes`).
        let e = Format::Json.decode_in::<u8, _>(arena, b"1 2").unwrap_err();
        assert!(e.contains("trailing characters"), "{e}");
        assert_eq!(Format::Postcard.decode_in::<u8, _>(arena, &[1, 2]), Ok(1));
        assert!(postcard::from_bytes::<u8>(&[1, 2]).is_ok());
        // The other binary formats' own helpers accept trailing bytes too, and so does the
        // arena: it reads the value and leaves the rest, as they do.
        let standard = bincode::config::standard();
        assert_eq!(
            bincode::serde::decode_from_slice::<u8, _>(&[1, 2], standard).ok(),
            Some((1, 1))
        );
        assert_eq!(Format::Bincode.decode_in::<u8, _>(arena, &[1, 2]), Ok(1));
        assert_eq!(rmp_serde::from_slice::<u8>(&[1, 2]).ok(), Some(1));
        assert_eq!(Format::MsgPack.decode_in::<u8, _>(arena, &[1, 2]), Ok(1));
        let cbor_helper = cbor4ii::serde::from_slice::<u8>(&[1, 2]);
        assert_eq!(
            Format::Cbor.decode_in::<u8, _>(arena, &[1, 2]).is_ok(),
            cbor_helper.is_ok(),
            "{cbor_helper:?}"
        );
        // Duplicate keys in the other map formats: MessagePack and CBOR maps of three entries,
        // `id` twice.
        let msgpack = [
            0x83, 0xa2, b'i', b'd', 0x01, 0xa5, b's', b'm', b'a', b'l', b'l', 0x02, 0xa2, b'i',
            b'd', 0x03,
        ];
        let cbor = [
            0xa3, 0x62, b'i', b'd', 0x01, 0x65, b's', b'm', b'a', b'l', b'l', 0x02, 0x62, b'i',
            b'd', 0x03,
        ];
        for (format, input) in [
            (Format::MsgPackNamed, &msgpack[..]),
            (Format::Cbor, &cbor[..]),
        ] {
            let serde_err = format.decode_owned::<Record>(input).unwrap_err();
            let e = format.decode_in::<Record, _>(arena, input).unwrap_err();
            assert_eq!(e, serde_err, "{format}");
            assert!(e.contains("duplicate field `id`"), "{format}: {e}");
        }
    });
}

#[test]
fn a_pool_limit_of_used_plus_one_is_never_exceeded() {
    let owned: Vec<String> = (0..5_000).map(|i| format!("{i:>40}")).collect();
    let bytes = Format::Bincode.to_bytes(&owned);
    // Measure what one document maps, then allow exactly one byte more.
    let probe = Arc::new(ChunkPool::builder().build().unwrap());
    {
        let arena = SlabArena::with_pool(probe.clone());
        let _: &[&str] = Format::Bincode.decode_in(&arena, &bytes).unwrap();
    }
    let used = probe.stats().peak_bytes_mapped;
    let pool = Arc::new(ChunkPool::builder().limit(used + 1).build().unwrap());
    let first = SlabArena::with_pool(pool.clone());
    let v: &[&str] = Format::Bincode.decode_in(&first, &bytes).unwrap();
    assert_eq!(v.len(), owned.len());
    // A second live arena on the same pool cannot get its chunks: an error, never more memory.
    let second = SlabArena::with_pool(pool.clone());
    let e = Format::Bincode
        .decode_in::<&[&str], _>(&second, &bytes)
        .unwrap_err();
    assert!(e.contains("ran out of memory"), "{e}");
    let stats = pool.stats();
    assert!(
        stats.peak_bytes_mapped <= used + 1,
        "{} > {}",
        stats.peak_bytes_mapped,
        used + 1
    );
    pool.check_invariants();
}
