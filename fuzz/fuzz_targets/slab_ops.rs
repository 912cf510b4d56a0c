#![no_main]
//! Random programs of allocator operations on `SlabArena`s sharing one `ChunkPool`, replayed
//! against the model of the slab property tests: the same interpreter
//! (`arena-core/tests/slab_support/model.rs`, included here by path), with its configurations
//! and operations driven by libFuzzer instead of proptest.

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;

#[path = "../../arena-core/tests/slab_support/mod.rs"]
mod support;

use support::model::{
    ARENA_LIMITS, ARENA_MAX_CHUNKS, Config, INITIAL_CHUNKS, MAX_ALIGN_SHIFT, MAX_CHUNKS,
    MIN_CHUNKS, Op, POOL_LIMITS, RESERVES, Run, SIZE_BOUNDS,
};

/// Operations per input, at most: keeps one iteration in milliseconds.
const MAX_OPS: usize = 200;

/// A program: a configuration, then its operations.
#[derive(Debug)]
struct Program {
    config: Config,
    ops: Vec<Op>,
}

impl<'a> Arbitrary<'a> for Program {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let config = Config {
            min_chunk: *u.choose(MIN_CHUNKS)?,
            max_chunk: *u.choose(MAX_CHUNKS)?,
            reserve: *u.choose(RESERVES)?,
            pool_limit: *u.choose(POOL_LIMITS)?,
            initial_chunk: *u.choose(INITIAL_CHUNKS)?,
            arena_max_chunk: *u.choose(ARENA_MAX_CHUNKS)?,
            arena_limit: *u.choose(ARENA_LIMITS)?,
        };
        let mut ops = Vec::new();
        while ops.len() < MAX_OPS && !u.is_empty() {
            ops.push(op(u)?);
        }
        Ok(Program { config, ops })
    }
}

/// One operation, every kind of [`Op`] alike likely.
fn op(u: &mut Unstructured<'_>) -> arbitrary::Result<Op> {
    let arena = usize::from(u.arbitrary::<u8>()?);
    let size = |u: &mut Unstructured<'_>| {
        let bound = *u.choose(&SIZE_BOUNDS)?;
        u.int_in_range(0..=bound - 1)
    };
    Ok(match u.int_in_range(0..=9u8)? {
        0 => Op::Alloc {
            arena,
            size: size(u)?,
            align_shift: u.int_in_range(0..=MAX_ALIGN_SHIFT)?,
        },
        1 => Op::Reset(arena),
        2 => Op::Checkpoint(arena),
        3 => Op::Rewind(arena),
        4 => Op::FreeLatest(arena),
        5 => Op::Drop(arena),
        6 => Op::New,
        7 => Op::LowTake {
            arena,
            size: size(u)?,
            align_shift: u.int_in_range(0..=MAX_ALIGN_SHIFT)?,
        },
        8 => Op::LowGrow {
            arena,
            size: size(u)?,
        },
        _ => Op::LowClose {
            arena,
            keep: u.arbitrary()?,
        },
    })
}

fuzz_target!(|program: Program| Run::replay(program.config, &program.ops));
