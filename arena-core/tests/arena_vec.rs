//! `ArenaVec` and `ArenaString` on every backend: random programs of pushes, extends, clears,
//! freezes and unrelated allocations, several vectors and strings open at once, replayed
//! against `Vec` and `String`; frozen data is checked again at the end and the arena holds it
//! at its exact size. Also: allocation failure is an error, over-aligned and zero-sized
//! elements, and what is dropped.

mod slab_support;

use std::cell::Cell;
use std::fmt::Write as _;

use arena_core::{ArenaString, ArenaVec, BumpAllocator, BumpAllocatorExt, SlabArena};
use proptest::prelude::*;
use slab_support::cases;

/// Runs `$body` with `$arena` bound to a fresh arena of each backend in turn.
macro_rules! on_every_backend {
    (|$arena:ident| $body:expr) => {{
        {
            let $arena = &bumpalo::Bump::new();
            $body;
        }
        {
            let $arena = &bump_scope::Bump::<bump_scope::alloc::Global>::new();
            $body;
        }
        {
            let $arena = &SlabArena::new();
            $body;
        }
    }};
}

/// Vectors open at once in a program.
const VECS: usize = 3;
/// Strings open at once in a program.
const STRS: usize = 2;

#[derive(Clone, Debug)]
enum Op {
    Push {
        vec: usize,
        value: u32,
    },
    Extend {
        vec: usize,
        values: Vec<u32>,
    },
    PushStr {
        s: usize,
        text: String,
    },
    PushChar {
        s: usize,
        c: char,
    },
    /// Clear vector or string `n % (VECS + STRS)`.
    Clear(usize),
    /// Freeze vector or string `n % (VECS + STRS)` and open a new one in its place.
    Freeze(usize),
    /// An unrelated allocation of this many bytes, between the pushes.
    Other(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        20 => (0..VECS, any::<u32>()).prop_map(|(vec, value)| Op::Push { vec, value }),
        4 => (0..VECS, prop::collection::vec(any::<u32>(), 0..40))
            .prop_map(|(vec, values)| Op::Extend { vec, values }),
        6 => (0..STRS, ".{0,12}").prop_map(|(s, text)| Op::PushStr { s, text }),
        6 => (0..STRS, any::<char>()).prop_map(|(s, c)| Op::PushChar { s, c }),
        1 => any::<usize>().prop_map(Op::Clear),
        3 => any::<usize>().prop_map(Op::Freeze),
        2 => any::<u8>().prop_map(Op::Other),
    ]
}

/// Runs `ops` in `arena` against the `Vec`/`String` model; checks every step, then every frozen
/// slice and string again, and the arena's used bytes.
fn run<A: BumpAllocator + ?Sized>(arena: &A, ops: &[Op]) {
    let used_before = arena.stats().used_bytes;
    let mut vecs: Vec<(ArenaVec<u32, A>, Vec<u32>)> = (0..VECS)
        .map(|_| (ArenaVec::new_in(arena), Vec::new()))
        .collect();
    let mut strs: Vec<(ArenaString<A>, String)> = (0..STRS)
        .map(|_| (ArenaString::new_in(arena), String::new()))
        .collect();
    let mut frozen_vecs: Vec<(&[u32], Vec<u32>)> = Vec::new();
    let mut frozen_strs: Vec<(&str, String)> = Vec::new();
    // Bytes the arena must hold, and the allocations that may be preceded by alignment padding.
    let mut live = 0;
    let mut padded = 0;
    for op in ops {
        match op {
            Op::Push { vec, value } => {
                let (v, model) = &mut vecs[*vec];
                v.push(*value);
                model.push(*value);
            }
            Op::Extend { vec, values } => {
                let (v, model) = &mut vecs[*vec];
                v.extend_from_slice(values);
                model.extend_from_slice(values);
            }
            Op::PushStr { s, text } => {
                let (st, model) = &mut strs[*s];
                st.push_str(text);
                model.push_str(text);
            }
            Op::PushChar { s, c } => {
                let (st, model) = &mut strs[*s];
                st.push(*c);
                model.push(*c);
            }
            Op::Clear(n) => match n % (VECS + STRS) {
                i if i < VECS => {
                    vecs[i].0.clear();
                    vecs[i].1.clear();
                }
                i => {
                    strs[i - VECS].0.clear();
                    strs[i - VECS].1.clear();
                }
            },
            Op::Freeze(n) => match n % (VECS + STRS) {
                i if i < VECS => {
                    let (v, model) =
                        std::mem::replace(&mut vecs[i], (ArenaVec::new_in(arena), Vec::new()));
                    assert_eq!(format!("{v:?}"), format!("{model:?}"));
                    let frozen = v.into_slice();
                    assert_eq!(frozen, model.as_slice());
                    live += size_of_val(frozen);
                    padded += 1;
                    frozen_vecs.push((frozen, model));
                }
                i => {
                    let (s, model) = std::mem::replace(
                        &mut strs[i - VECS],
                        (ArenaString::new_in(arena), String::new()),
                    );
                    assert_eq!(format!("{s:?}"), format!("{model:?}"));
                    assert_eq!(s.to_string(), model);
                    let frozen: &str = s.into_str();
                    assert_eq!(frozen, model);
                    live += frozen.len();
                    frozen_strs.push((frozen, model));
                }
            },
            Op::Other(len) => {
                arena.alloc_bytes(&vec![0xA5; usize::from(*len)]);
                live += usize::from(*len);
            }
        }
        for (v, model) in &vecs {
            assert_eq!(
                (v.as_slice(), v.len(), v.is_empty()),
                (&model[..], model.len(), model.is_empty())
            );
            assert_eq!(&**v, &model[..]);
        }
        for (s, model) in &strs {
            assert_eq!(
                (s.as_str(), s.len(), s.is_empty()),
                (&model[..], model.len(), model.is_empty())
            );
        }
    }
    for (frozen, model) in &frozen_vecs {
        assert_eq!(frozen, model, "a frozen slice changed");
    }
    for (frozen, model) in &frozen_strs {
        assert_eq!(frozen, model, "a frozen string changed");
    }
    // Nothing but the frozen data and the other allocations, plus the padding before each
    // `u32` slice that follows a byte allocation: no outgrown buffer stays in the arena.
    let used = arena.stats().used_bytes - used_before;
    assert!(
        live <= used && used <= live + padded * (align_of::<u32>() - 1),
        "{used} bytes used for {live} live bytes in {padded} slices"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    #[test]
    fn programs_match_vec_and_string(ops in prop::collection::vec(op(), 0..200)) {
        on_every_backend!(|arena| run(arena, &ops));
        let slab = SlabArena::new();
        run::<dyn BumpAllocator>(&slab, &ops);
    }
}

/// 10,000 vectors of 1 to 100 `u64`s and 10,000 strings, 16 of each open at once: the arena
/// holds their bytes and nothing else. (The strings grow 8 bytes at a time, so that no
/// alignment padding precedes the vectors frozen after them.)
fn build_many<A: BumpAllocator>(arena: &A) {
    let lens: Vec<usize> = (0..10_000).map(|i| (i * 37) % 100 + 1).collect();
    let live: usize = lens.iter().sum::<usize>() * (size_of::<u64>() + 8);
    let before = arena.stats().used_bytes;
    for group in lens.chunks(16) {
        let mut vecs: Vec<_> = group.iter().map(|_| ArenaVec::new_in(arena)).collect();
        let mut strs: Vec<_> = group.iter().map(|_| ArenaString::new_in(arena)).collect();
        for i in 0..100 {
            for ((v, s), &len) in vecs.iter_mut().zip(&mut strs).zip(group) {
                if i < len {
                    v.push(i as u64);
                    s.push_str("arena-d");
                    s.push('e');
                }
            }
        }
        for ((v, s), &len) in vecs.into_iter().zip(strs).zip(group) {
            assert_eq!(v.into_slice().len(), len);
            assert_eq!(s.into_str().len(), 8 * len);
        }
    }
    assert_eq!(arena.stats().used_bytes - before, live);
}

#[test]
fn the_arena_holds_frozen_data_at_its_exact_size() {
    on_every_backend!(|arena| build_many(arena));
}

#[test]
fn freezing_into_an_arena_over_its_limit_is_an_error() {
    let slab = SlabArena::builder().limit(64 * 1024).build();
    let bumpalo = bumpalo::Bump::new();
    bumpalo.set_allocation_limit(Some(64 * 1024));
    let scope = NoMemoryBump::unallocated();
    fn check<A: BumpAllocator + ?Sized>(arena: &A, has_memory: bool) {
        let mut v = ArenaVec::new_in(arena);
        v.extend_from_slice(&[7u64; 10_000]);
        let e = v.try_into_slice().unwrap_err();
        assert_eq!(e.size(), Some(80_000));
        assert!(e.to_string().contains("ran out of memory"), "{e}");
        let mut s = ArenaString::new_in(arena);
        s.push_str(&"x".repeat(100_000));
        assert!(s.try_into_str().is_err());
        // Small ones still fit (except where there is no memory at all).
        let mut v = ArenaVec::new_in(arena);
        v.push(1u8);
        let small = v.try_into_slice();
        if has_memory {
            assert_eq!(small.unwrap(), [1]);
        } else {
            assert_eq!(small.unwrap_err().size(), Some(1));
        }
    }
    check(&slab, true);
    check(&bumpalo, true);
    check(&scope, false);
    assert_eq!(BumpAllocator::stats(&scope).used_bytes, 0);
}

#[test]
// A `u64` is 4-byte aligned on 32-bit x86, 8-byte aligned elsewhere.
#[cfg_attr(
    not(target_arch = "x86"),
    should_panic = "the arena ran out of memory: allocating 80000 bytes (align 8) failed"
)]
#[cfg_attr(
    target_arch = "x86",
    should_panic = "the arena ran out of memory: allocating 80000 bytes (align 4) failed"
)]
fn into_slice_panics_with_the_message() {
    let arena = SlabArena::builder().limit(64 * 1024).build();
    let mut v = ArenaVec::new_in(&arena);
    v.extend_from_slice(&[7u64; 10_000]);
    v.into_slice();
}

#[test]
#[should_panic = "the arena ran out of memory"]
fn into_str_panics_with_the_message() {
    let arena = NoMemoryBump::unallocated();
    let mut s = ArenaString::new_in(&arena);
    s.push('x');
    s.into_str();
}

#[test]
fn staging_that_cannot_grow_is_an_error() {
    let arena = SlabArena::new();
    let mut v = ArenaVec::<u64, _>::new_in(&arena);
    v.push(1);
    let e = v.try_reserve(usize::MAX).unwrap_err();
    assert!(e.to_string().contains("overflows"), "{e}");
    assert_eq!(v.as_slice(), [1], "unchanged");
    assert!(ArenaVec::<u64, _>::try_with_capacity_in(usize::MAX / 4, &arena).is_err());
    assert!(ArenaString::try_with_capacity_in(usize::MAX, &arena).is_err());
    let mut s = ArenaString::new_in(&arena);
    s.push_str("kept");
    assert!(write!(s, "{}", 1).is_ok());
    assert_eq!(s.as_str(), "kept1");
}

#[test]
#[should_panic = "overflows"]
fn reserve_panics_with_the_message() {
    let arena = SlabArena::new();
    ArenaVec::<u64, _>::new_in(&arena).reserve(usize::MAX);
}

/// A value aligned beyond every backend's default.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(align(64))]
struct Aligned(u8);

fn over_aligned<A: BumpAllocator>(arena: &A) {
    // A byte first, so the arena's position is not already aligned.
    arena.alloc_bytes(&[1]);
    let mut v = ArenaVec::new_in(arena);
    for i in 0..20 {
        v.push(Aligned(i));
    }
    v.extend_from_slice(&[Aligned(99); 3]);
    let frozen = v.into_slice();
    assert_eq!(frozen.as_ptr().addr() % 64, 0);
    assert_eq!(frozen.len(), 23);
    assert!(
        frozen[..20]
            .iter()
            .enumerate()
            .all(|(i, a)| usize::from(a.0) == i)
    );
    assert_eq!(frozen[22], Aligned(99));
}

#[test]
fn over_aligned_elements_are_aligned() {
    on_every_backend!(|arena| over_aligned(arena));
}

#[test]
fn zero_sized_and_empty_take_nothing_from_the_arena() {
    let arena = SlabArena::new();
    let mut units = ArenaVec::new_in(&arena);
    for _ in 0..1000 {
        units.push(());
    }
    assert_eq!(units.into_slice().len(), 1000);
    assert!(ArenaVec::<u64, _>::new_in(&arena).into_slice().is_empty());
    assert_eq!(ArenaString::new_in(&arena).into_str(), "");
    assert_eq!(BumpAllocator::stats(&arena).used_bytes, 0);
}

/// Counts its drops (in a borrowed counter: a frozen one leaks nothing but itself).
#[derive(Clone, Debug)]
struct Counted<'a>(&'a Cell<usize>);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

#[test]
fn staged_values_drop_frozen_values_do_not() {
    let drops = Cell::new(0);
    let arena = bumpalo::Bump::new();
    let mut v = ArenaVec::new_in(&arena);
    v.push(Counted(&drops));
    v.push(Counted(&drops));
    v.clear();
    assert_eq!(drops.get(), 2, "clear drops");
    v.push(Counted(&drops));
    drop(v);
    assert_eq!(drops.get(), 3, "an unfrozen vector drops its elements");
    let mut v = ArenaVec::new_in(&arena);
    v.extend_from_slice(&[Counted(&drops)]); // the original drops here
    assert_eq!(drops.get(), 4);
    let frozen = v.into_slice();
    assert_eq!(frozen.len(), 1);
    drop(arena);
    assert_eq!(drops.get(), 4, "frozen values are never dropped");
}

/// A bump-scope arena that has no memory at all.
type NoMemoryBump = bump_scope::Bump<
    NoMemory,
    <bump_scope::settings::BumpSettings as bump_scope::settings::BumpAllocatorSettings>::WithGuaranteedAllocated<false>,
>;

/// A base allocator for bump-scope that never has memory.
#[derive(Clone, Copy, Default)]
struct NoMemory;

// SAFETY: it never hands out memory, so there is nothing to uphold.
unsafe impl bump_scope::alloc::Allocator for NoMemory {
    fn allocate(
        &self,
        _: std::alloc::Layout,
    ) -> Result<std::ptr::NonNull<[u8]>, bump_scope::alloc::AllocError> {
        Err(bump_scope::alloc::AllocError)
    }

    unsafe fn deallocate(&self, _: std::ptr::NonNull<u8>, _: std::alloc::Layout) {
        unreachable!("nothing was allocated");
    }
}
