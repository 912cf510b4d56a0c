// `SlabArena` is `Send`: an arena moves to another thread, and `assert_send` compiles. It is not
// `Sync`: two threads must not bump one cursor, so `assert_sync` is the one error.
use arena_core::{BumpAllocatorExt, SlabArena};

fn assert_send<T: Send>() {}
fn assert_sync<T: Sync>() {}

fn main() {
    assert_send::<SlabArena>();
    let arena = SlabArena::new();
    let len = std::thread::spawn(move || arena.alloc_str("moved").len());
    assert_eq!(len.join().unwrap(), 5);
    assert_sync::<SlabArena>();
}
