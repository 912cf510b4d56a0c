//! The thread's buffer arena: where a buffered representation keeps the input it reads twice
//! (an internally tagged map whose tag is not first), for as long as it replays it, and no
//! longer.
//!
//! A buffer in the arena being filled would stay there, below the value read from it, until
//! the arena is dropped: an event buffered whole costs its size again in every document. Here
//! the buffer is a [`Value`](crate::Value) in a [`SlabArena`] of the thread's, rewound to where
//! it was as soon as the replay returns, so its chunks serve the next buffer. Buffers nest
//! (a buffered map inside the replay of another) in stack order, which the rewinds follow.

use crate::{BumpAllocator, SlabArena};

std::thread_local! {
    /// The thread's buffer arena, its chunks from the process's shared pool.
    static BUFFER: SlabArena = SlabArena::new();
}

/// Runs `read` with the thread's buffer arena, and gives back what it allocated there once it
/// returns. The value `read` returns cannot borrow the buffer (`R` is chosen before the
/// buffer's lifetime), so nothing of it is used after the rewind.
pub(crate) fn with_buffer<R>(read: impl for<'b> FnOnce(&'b SlabArena) -> R) -> R {
    BUFFER.with(|arena| {
        let checkpoint = BumpAllocator::checkpoint(arena);
        let value = read(arena);
        if let Some(checkpoint) = checkpoint {
            // SAFETY: `checkpoint` was taken from this arena just above, and the buffer arena
            // is rewound only here, in stack order (a nested `with_buffer` rewinds to its own
            // later checkpoint before this one returns), so it was not rewound past it since;
            // everything allocated after it was borrowed for `'b` only, which ended when `read`
            // returned, and `value` does not borrow it.
            unsafe { BumpAllocator::rewind(arena, checkpoint) };
        }
        value
    })
}
