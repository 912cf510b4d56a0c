//! Why `ArenaVec` stages its elements outside the arena: the measurement behind the choice.
//!
//! Builds 10,000 vectors of `u64` (lengths 1 to 100) on each backend with (a) staging in a
//! `Vec` and copying into the arena once at the exact size, in a fresh `Vec` per vector or as
//! `ArenaVec` does it (buffers reused from one vector to the next), and (b) a vector that grows
//! inside the arena by doubling, leaving each outgrown block behind. Vectors are
//! built one after another ("seq") or 16 at a time, pushing round-robin ("mix"). Prints, per
//! row, the arena's used bytes over the live bytes and the median time per vector.
//!
//! ```sh
//! cargo run --release -p arena-core --example arena_vec_growth
//! ```

use std::hint::black_box;
use std::mem::MaybeUninit;
use std::time::{Duration, Instant};

use arena_core::{AllocError, ArenaVec, BumpAllocator, BumpAllocatorExt, SlabArena};

/// Number of vectors per run: enough that per-vector costs dominate the arena's chunk refills.
const VECTORS: usize = 10_000;
/// Longest vector: the short sequences of a typical document, where growth costs the most.
const MAX_LEN: usize = 100;
/// Vectors open at once in the "mix" pattern: enough that none is the arena's last allocation
/// when it grows.
const OPEN: usize = 16;
/// Timed runs per row: the fastest is reported, since the machines this runs on are often
/// shared and other processes only ever add time.
const RUNS: usize = 101;

/// The lengths of one run: a fixed pseudo-random sequence in `1..=MAX_LEN`.
fn lengths() -> Vec<usize> {
    let mut x = 0x2545_F491_4F6C_DD1D_u64;
    (0..VECTORS)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % MAX_LEN as u64) as usize + 1
        })
        .collect()
}

/// (b): a vector growing inside the arena; its frozen slice is a prefix of its last block.
struct GrowInArena<'bump, T, A: BumpAllocator + ?Sized> {
    arena: &'bump A,
    /// The current block: `cap` slots, the first `len` initialised.
    block: &'bump mut [MaybeUninit<T>],
    len: usize,
}

impl<'bump, T: Copy + 'bump, A: BumpAllocator + ?Sized> GrowInArena<'bump, T, A> {
    fn new_in(arena: &'bump A) -> Self {
        Self {
            arena,
            block: &mut [],
            len: 0,
        }
    }

    fn try_push(&mut self, value: T) -> Result<(), AllocError> {
        if self.len == self.block.len() {
            // `Vec`'s first capacity for small elements, then doubling.
            let cap = (self.block.len() * 2).max(4);
            let new = self.arena.try_alloc_uninit_slice::<T>(cap)?;
            new[..self.len].copy_from_slice(&self.block[..self.len]);
            self.block = new;
        }
        self.block[self.len].write(value);
        self.len += 1;
        Ok(())
    }

    fn into_slice(self) -> &'bump [T] {
        let init = &self.block[..self.len];
        // SAFETY: the first `len` slots of the block were written by `try_push`.
        unsafe { &*(std::ptr::from_ref(init) as *const [T]) }
    }
}

/// (a) without reuse: staging in a fresh `Vec` per vector.
struct FreshVec<'bump, A: BumpAllocator + ?Sized> {
    arena: &'bump A,
    staged: Vec<u64>,
}

impl<'bump, A: BumpAllocator + ?Sized + 'bump> Builder<'bump, A> for FreshVec<'bump, A> {
    fn new_in(arena: &'bump A) -> Self {
        Self {
            arena,
            staged: Vec::new(),
        }
    }
    fn push(&mut self, value: u64) {
        self.staged.push(value);
    }
    fn freeze(self) -> &'bump [u64] {
        self.arena.alloc_slice_copy(&self.staged)
    }
}

/// One vector of a design, behind one interface for the run loops.
trait Builder<'bump, A: BumpAllocator + ?Sized + 'bump> {
    fn new_in(arena: &'bump A) -> Self;
    fn push(&mut self, value: u64);
    fn freeze(self) -> &'bump [u64];
}

/// A design: its name and its vector type for each arena.
trait Design {
    const NAME: &'static str;
    type Vec<'bump, A: BumpAllocator + ?Sized + 'bump>: Builder<'bump, A>;
}

/// (a) as `ArenaVec` does it: staging buffers reused from one vector to the next.
struct Staging;

impl Design for Staging {
    const NAME: &'static str = "(a) staging, `ArenaVec`";
    type Vec<'bump, A: BumpAllocator + ?Sized + 'bump> = ArenaVec<'bump, u64, A>;
}

/// (b).
struct InArena;

impl Design for InArena {
    const NAME: &'static str = "(b) in arena";
    type Vec<'bump, A: BumpAllocator + ?Sized + 'bump> = GrowInArena<'bump, u64, A>;
}

/// (a) without reuse.
struct Fresh;

impl Design for Fresh {
    const NAME: &'static str = "(a) staging, fresh `Vec`";
    type Vec<'bump, A: BumpAllocator + ?Sized + 'bump> = FreshVec<'bump, A>;
}

impl<'bump, A: BumpAllocator + ?Sized + 'bump> Builder<'bump, A> for ArenaVec<'bump, u64, A> {
    fn new_in(arena: &'bump A) -> Self {
        ArenaVec::new_in(arena)
    }
    fn push(&mut self, value: u64) {
        ArenaVec::push(self, value);
    }
    fn freeze(self) -> &'bump [u64] {
        self.into_slice()
    }
}

impl<'bump, A: BumpAllocator + ?Sized + 'bump> Builder<'bump, A> for GrowInArena<'bump, u64, A> {
    fn new_in(arena: &'bump A) -> Self {
        GrowInArena::new_in(arena)
    }
    fn push(&mut self, value: u64) {
        self.try_push(value).expect("the arena has no limit");
    }
    fn freeze(self) -> &'bump [u64] {
        self.into_slice()
    }
}

/// Builds every vector of `lens` in `arena`, `open` at a time; returns the sum of their
/// elements (checked, and kept from the optimiser).
fn build<'bump, A, D>(arena: &'bump A, lens: &[usize], open: usize) -> u64
where
    A: BumpAllocator + ?Sized + 'bump,
    D: Design,
{
    let mut sum = 0;
    let mut vecs: Vec<D::Vec<'bump, A>> = Vec::with_capacity(open);
    for group in lens.chunks(open) {
        vecs.extend(group.iter().map(|_| Builder::new_in(arena)));
        let longest = group.iter().copied().max().unwrap_or(0);
        for i in 0..longest {
            for (v, &len) in vecs.iter_mut().zip(group) {
                if i < len {
                    v.push(black_box(i as u64));
                }
            }
        }
        for v in vecs.drain(..) {
            sum += v.freeze().iter().sum::<u64>();
        }
    }
    sum
}

/// Runs one row: checks the result, then reports used/live bytes and the median time per
/// vector.
fn row<A: BumpAllocator, D: Design>(
    backend: &str,
    arena: &mut Arena<A>,
    lens: &[usize],
    expected: u64,
) {
    let live: usize = lens.iter().sum::<usize>() * size_of::<u64>();
    let mut cells = Vec::new();
    let mut times = Vec::new();
    for (pattern, open) in [("seq", 1), ("mix", OPEN)] {
        (arena.reset)(&mut arena.arena);
        assert_eq!(
            build::<A, D>(&arena.arena, lens, open),
            expected,
            "{backend} {pattern}"
        );
        let used = BumpAllocator::stats(&arena.arena).used_bytes;
        cells.push(format!("{:.2}", used as f64 / live as f64));
        let runs: Vec<Duration> = (0..RUNS)
            .map(|_| {
                (arena.reset)(&mut arena.arena);
                let start = Instant::now();
                black_box(build::<A, D>(&arena.arena, lens, open));
                start.elapsed()
            })
            .collect();
        let fastest = runs.iter().min().expect("RUNS > 0");
        times.push(format!(
            "{:.0} ns",
            fastest.as_nanos() as f64 / lens.len() as f64
        ));
    }
    println!(
        "| {backend} | {} | {} | {} |",
        D::NAME,
        cells.join(" / "),
        times.join(" / ")
    );
}

/// An arena and how to reset it: the timed runs reuse its chunks, as a long-running reader
/// does, so that the times measure the builders rather than fresh memory.
struct Arena<A> {
    arena: A,
    reset: fn(&mut A),
}

fn rows<A: BumpAllocator>(backend: &str, arena: A, reset: fn(&mut A), lens: &[usize], sum: u64) {
    let mut arena = Arena { arena, reset };
    row::<A, Fresh>(backend, &mut arena, lens, sum);
    row::<A, Staging>(backend, &mut arena, lens, sum);
    row::<A, InArena>(backend, &mut arena, lens, sum);
}

fn main() {
    let lens = lengths();
    let live: usize = lens.iter().sum::<usize>() * size_of::<u64>();
    let sum: u64 = lens.iter().map(|&n| (n as u64) * (n as u64 - 1) / 2).sum();
    println!("{VECTORS} vectors of u64, lengths 1..={MAX_LEN}: {live} live bytes");
    println!("| backend | design | arena used, seq / mix | time, seq / mix |");
    println!("|---|---|---|---|");
    rows(
        "bumpalo",
        bumpalo::Bump::new(),
        bumpalo::Bump::reset,
        &lens,
        sum,
    );
    rows(
        "bump-scope",
        bump_scope::Bump::<bump_scope::alloc::Global>::new(),
        bump_scope::Bump::reset,
        &lens,
        sum,
    );
    rows(
        "`SlabArena`",
        SlabArena::new(),
        SlabArena::reset,
        &lens,
        sum,
    );
}
