// A reference into the arena cannot be used after `reset`: the reset needs `&mut`, the
// reference keeps the arena borrowed.
use arena_core::{BumpAllocatorExt, SlabArena};

fn main() {
    let mut arena = SlabArena::new();
    let name = arena.alloc_str("borrowed");
    arena.reset();
    println!("{name}");
}
