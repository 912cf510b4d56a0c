//! The thread's buffer: where a buffered representation keeps the input it must read twice (an
//! internally tagged map whose tag is not its first key, an adjacently tagged enum's content
//! before its tag, the input of an untagged enum), for as long as it replays it, and no longer.
//!
//! A buffer in the arena being filled would stay there, below the value read from it, until
//! the arena goes: a map buffered whole costs its size again in every document. Here the
//! buffer is a [`Value`](crate::Value) in a bump arena of the thread's (a `bump_scope::Bump`),
//! which [`with_buffer`] rewinds to where it was as soon as the replay returns. Buffers nest (a
//! buffered map inside the replay of another) in stack order, and so do the rewinds.
//!
//! A rewind keeps the chunks, so the next buffer writes to memory that is already resident: a
//! rewind only moves the bump pointer back, and a document of many buffered maps takes chunks
//! only for its largest. A read that buffers nothing (a map whose tag comes first) does not
//! rewind at all. When the outermost buffer returns and the buffer holds more than
//! [`KEEP_BYTES`], its chunks go back to the system allocator: a one-off huge map does not stay
//! resident for the thread's life. [`release`] (through
//! [`release_thread_scratch`](crate::release_thread_scratch)) frees them on request.
//!
//! Strings and byte strings in a buffered map are copied into the buffer, and a field that
//! keeps one copies it into the arena when the map is replayed: the arena holds the live data
//! only.

use core::alloc::Layout;
use core::cell::{Cell, UnsafeCell};
use core::ptr::{self, NonNull};

use bump_scope::Bump;
use bump_scope::alloc::Global;
use bump_scope::settings::{BumpAllocatorSettings, BumpSettings};

use crate::allocator::{AllocError, ArenaStats, BumpAllocator};

/// Bytes of chunks the buffer keeps from one outermost buffer to the next: the maps of
/// ordinary documents fit, so buffering one after another reuses warm memory.
const KEEP_BYTES: usize = 1024 * 1024;

/// bump-scope's settings with no chunk allocated up front, so that the thread-local starts
/// empty (and in a `const`).
type Settings = <BumpSettings as BumpAllocatorSettings>::WithGuaranteedAllocated<false>;

/// The thread's buffer arena, handed to the closure of [`with_buffer`]. Not public API.
pub struct Buffer {
    /// The chunks. Shared borrows of it are handed out only inside [`with_buffer`]; it is
    /// borrowed mutably only when no `with_buffer` is running (`depth == 0`).
    bump: UnsafeCell<Bump<Global, Settings>>,
    /// `with_buffer` calls running on the thread.
    depth: Cell<usize>,
}

std::thread_local! {
    static BUFFER: Buffer = const {
        Buffer {
            bump: UnsafeCell::new(Bump::unallocated()),
            depth: Cell::new(0),
        }
    };
}

impl Buffer {
    /// The chunks, shared.
    #[inline(always)]
    fn bump(&self) -> &Bump<Global, Settings> {
        // SAFETY: the bump is borrowed mutably only in `free_above`, when no `with_buffer` is
        // running, so while a shared borrow exists no mutable one does (the thread-local is
        // not shared with other threads).
        unsafe { &*self.bump.get() }
    }

    /// Frees the chunks if no buffer is in use and they are more than `keep` bytes.
    fn free_above(&self, keep: usize) {
        if self.depth.get() != 0 || self.bump().stats().capacity() <= keep {
            return;
        }
        // SAFETY: no `with_buffer` is running on this thread (`depth == 0`), so no shared
        // borrow of the bump, nor of anything allocated in it, exists: every one was borrowed
        // for the `'b` of a `with_buffer` call, which has returned.
        unsafe { *self.bump.get() = Bump::unallocated() };
    }
}

impl core::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Buffer")
            .field("stats", &BumpAllocator::stats(self))
            .field("depth", &self.depth.get())
            .finish()
    }
}

// SAFETY: every allocation is the bump's own, through its `BumpAllocator` impl (`allocator/
// bump_scope.rs`): aligned, disjoint from every other live block, and valid until the bump is
// rewound past it or replaced, which `with_buffer` does only after the borrow it was handed out
// under has ended. The buffer has no checkpoint of its own (`with_buffer` rewinds it).
unsafe impl BumpAllocator for Buffer {
    #[inline]
    fn try_alloc_layout(&self, layout: Layout) -> Result<NonNull<u8>, AllocError> {
        BumpAllocator::try_alloc_layout(self.bump(), layout)
    }

    fn stats(&self) -> ArenaStats {
        BumpAllocator::stats(self.bump())
    }
}

/// Restores the buffer when a [`with_buffer`] call ends, returned or unwound.
struct Rewind<'a> {
    buffer: &'a Buffer,
    checkpoint: bump_scope::Checkpoint,
}

impl Drop for Rewind<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        let buffer = self.buffer;
        buffer.depth.set(buffer.depth.get() - 1);
        // A map whose tag came first allocated nothing here: nothing to give back.
        if buffer.bump().checkpoint() != self.checkpoint {
            buffer.rewind(self.checkpoint);
        }
    }
}

impl Buffer {
    /// Gives back what was allocated since `checkpoint`, and frees the chunks if the buffer
    /// is no longer in use and holds more than [`KEEP_BYTES`].
    #[cold]
    fn rewind(&self, checkpoint: bump_scope::Checkpoint) {
        // SAFETY: the checkpoint was taken from this bump when its `with_buffer` call began.
        // The calls nested in it ended before it (their `Rewind`s dropped first, each to a
        // later checkpoint), and the bump is replaced only when none runs, so the checkpoint
        // is still valid. Everything allocated since was borrowed for the call's `'b`, which
        // has ended: the call's result cannot borrow it (`R` is chosen outside `'b`).
        unsafe { self.bump().reset_to(checkpoint) };
        self.free_above(KEEP_BYTES);
    }
}

/// Runs `read` with the thread's buffer, and gives back what it allocated there once it
/// returns (or unwinds). The value `read` returns cannot borrow the buffer: `R` is chosen
/// outside the buffer's lifetime `'b`. Not public API.
#[inline(always)]
pub fn with_buffer<R>(read: impl for<'b> FnOnce(&'b Buffer) -> R) -> R {
    // `read` runs outside `LocalKey::with`: a closure holding it (and the visitor and map
    // access it owns) is too large for `with` to be inlined, and the call that takes it copies
    // them through the stack, a stall on every map.
    let buffer = BUFFER.with(ptr::from_ref);
    // SAFETY: a thread-local lives until the thread's thread-locals are destroyed, on this
    // thread, which cannot happen while this call runs on it (and `with` above panicked if
    // it had begun); `Buffer` is not `Sync`, and nothing here sends the borrow elsewhere.
    let buffer = unsafe { &*buffer };
    buffer.depth.set(buffer.depth.get() + 1);
    let _rewind = Rewind {
        buffer,
        checkpoint: buffer.bump().checkpoint(),
    };
    read(buffer)
}

/// Frees the thread's buffer, if no buffered representation is being read on it.
pub(crate) fn release() {
    let _ = BUFFER.try_with(|buffer| buffer.free_above(0));
}

/// Bytes of chunks the thread's buffer holds.
pub(crate) fn thread_buffer_capacity() -> usize {
    BUFFER
        .try_with(|buffer| {
            if buffer.depth.get() == 0 {
                buffer.bump().stats().capacity()
            } else {
                0
            }
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_is_given_back_and_its_chunk_kept() {
        release();
        let used = with_buffer(|buffer| {
            let copy = buffer.try_alloc_str("buffered").unwrap();
            assert_eq!(copy, "buffered");
            // A nested buffer starts where the outer one is, and gives back only its own.
            let inner = with_buffer(|inner| {
                inner.try_alloc_bytes(&[1; 100]).unwrap();
                BumpAllocator::stats(inner).used_bytes
            });
            assert!(inner >= 108);
            assert_eq!(copy, "buffered");
            BumpAllocator::stats(buffer).used_bytes
        });
        assert!((8..108).contains(&used), "{used}");
        let kept = thread_buffer_capacity();
        assert!(kept > 0, "the chunk stays for the next buffer");
        with_buffer(|buffer| {
            assert_eq!(BumpAllocator::stats(buffer).used_bytes, 0);
        });
        assert_eq!(thread_buffer_capacity(), kept);
        release();
        assert_eq!(thread_buffer_capacity(), 0);
    }

    #[test]
    fn a_large_buffer_is_freed_when_the_outermost_one_ends() {
        release();
        with_buffer(|buffer| {
            buffer.try_alloc_bytes(&vec![7; 2 * KEEP_BYTES]).unwrap();
            assert!(BumpAllocator::stats(buffer).reserved_bytes > KEEP_BYTES);
            with_buffer(|_| ());
            // Still in use by the outer buffer: the nested end frees nothing.
            assert!(BumpAllocator::stats(buffer).used_bytes >= 2 * KEEP_BYTES);
        });
        assert_eq!(thread_buffer_capacity(), 0);
    }

    #[test]
    #[cfg_attr(
        not(panic = "unwind"),
        ignore = "a panic aborts the process on this target: nothing unwinds"
    )]
    fn a_read_that_unwinds_gives_its_buffer_back() {
        release();
        let caught = std::panic::catch_unwind(|| {
            with_buffer(|buffer| {
                buffer.try_alloc_bytes(&[1; 64]).unwrap();
                panic!("read failed");
            })
        });
        assert!(caught.is_err());
        with_buffer(|buffer| {
            assert_eq!(BumpAllocator::stats(buffer).used_bytes, 0);
        });
    }
}
