// Two threads cannot allocate from one arena: `&SlabArena` is not `Send`, because `SlabArena`
// is not `Sync`.
use arena_core::{BumpAllocatorExt, SlabArena};

fn main() {
    let arena = SlabArena::new();
    std::thread::scope(|s| {
        s.spawn(|| arena.alloc_str("from another thread").len());
        arena.alloc_str("from this thread");
    });
}
