// A reference into the arena cannot outlive the arena.
use arena_core::{BumpAllocatorExt, SlabArena};

fn main() {
    let name;
    {
        let arena = SlabArena::new();
        name = arena.alloc_str("borrowed");
    }
    println!("{name}");
}
