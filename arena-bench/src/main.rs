//! `arena-bench` with the system allocator; see the library documentation.

use arena_bench::counting::Counting;
use arena_bench::strategy_id::GlobalAllocator;

#[global_allocator]
static GLOBAL: Counting<std::alloc::System> = Counting(std::alloc::System);

fn main() {
    arena_bench::run::main(GlobalAllocator::System);
}
