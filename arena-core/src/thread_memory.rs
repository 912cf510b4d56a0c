//! [`release_thread_scratch`]: the memory a thread keeps from one call to the next, and how to
//! give it back.
//!
//! Two caches outlive a call, each reused by the next one on the thread: the
//! [scratch stack](crate::scratch) where sequences collect before they are copied into the
//! arena, and the spare staging buffers of [`ArenaVec`](crate::ArenaVec) and
//! [`ArenaString`](crate::ArenaString). Neither is part of a call's state: they hold memory,
//! not decisions.

use crate::arena_vec::spares;
use crate::scratch;

/// Frees this thread's scratch memory, if no sequence is being deserialized on it.
///
/// The scratch stack keeps the largest capacity it needed (the biggest sequence's elements, plus
/// those of the sequences enclosing it), so that the next document reuses warm memory. Call this
/// after a one-off large document to give that memory back. It also frees the spare staging
/// buffers [`ArenaVec`](crate::ArenaVec) and [`ArenaString`](crate::ArenaString) keep for reuse
/// (at most 256 KiB per thread).
pub fn release_thread_scratch() {
    scratch::release();
    spares::free_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frees_the_scratch_stack_and_the_spares() {
        spares::free_all();
        spares::give_back(Vec::<u64>::with_capacity(8));
        assert_eq!(spares::count(), 1);
        let bump = bumpalo::Bump::new();
        let mut v = scratch::ScratchVec::<u64>::new(Some(1000)).unwrap();
        v.push(1).unwrap();
        assert_eq!(v.finish_in(&bump).unwrap(), [1]);
        assert!(scratch::thread_scratch_capacity() >= 8000);
        release_thread_scratch();
        assert_eq!(spares::count(), 0);
        assert_eq!(scratch::thread_scratch_capacity(), 0);
    }
}
