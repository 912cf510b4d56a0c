//! `arena-bench` with mimalloc as the global allocator: runs the `*-mimalloc` strategies for
//! the main binary.

use arena_bench::counting::Counting;
use arena_bench::strategy_id::GlobalAllocator;

#[global_allocator]
static GLOBAL: Counting<mimalloc::MiMalloc> = Counting(mimalloc::MiMalloc);

fn main() {
    arena_bench::run::main(GlobalAllocator::Mimalloc);
}
