//! arena-bench on Wasm: arena-bench's models, datasets and formats compiled for
//! `wasm32-unknown-unknown`, each strategy measured inside the module with the clock the
//! engine gives.
//!
//! The module is plain Wasm: the exports in [`abi`] and one import, `env.now` (the engine's
//! `performance.now()`, or Node's process CPU time with `--clock=cpu`, in milliseconds, for
//! `arena_bench::clock`: `std::time::Instant` panics on this target), driven by
//! `harness.mjs`, the same JS in Node and in browsers. The harness generates each dataset's
//! documents in one instance ([`documents`]), then runs every cell (format × dataset ×
//! strategy) in a fresh instance of its own, so that the instance's linear memory is the
//! strategy's alone: its input, what the strategy grew, and nothing of another cell
//! ([`cell`]). The global allocator is wrapped to count the `memory.grow` calls it makes
//! ([`counting`]). The strategies are the native bench's own (`arena_bench::strategy`, timed
//! by `arena_bench::clock`, which is `env.now` on this target).
//!
//! Built once per global allocator (the target's default, dlmalloc, or talc with the `talc`
//! feature) and once with `-C target-feature=+simd128`; see `arena-bench/wasm/run.mjs`.

#![cfg(target_family = "wasm")]

mod abi;
mod cell;
mod counting;
mod documents;

/// The global allocator's name, as the strategy names carry it (`owned-system`,
/// `owned-talc`).
pub(crate) const ALLOCATOR: &str = if cfg!(feature = "talc") {
    "talc"
} else {
    // `std::alloc::System`, which on wasm32-unknown-unknown is dlmalloc over `memory.grow`.
    "system"
};
