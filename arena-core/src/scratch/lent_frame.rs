//! A scratch frame lent whole to one reader that pushes in a tight loop: the JSON `Value`
//! reader's node stack.
//!
//! A [`ScratchVec`]'s `push` keeps its state in the thread's stack, in `Cell`s: each element
//! loads the stack's length, its capacity and the innermost frame's token, and stores the
//! length and the frame's count. A reader that pushes millions of nodes and calls out between
//! them (a string's copy into the arena) cannot keep any of that in registers, and each push's
//! loads wait on the last one's stores. A [`LentFrame`] takes the innermost frame's whole room
//! at once, as sonic-rs's `NodeBuf` holds its node buffer: the next slot and the room's end
//! are two pointers its owner holds by `&mut`, so a push is one compare and one store. The
//! frame's count and the stack's length are written back only when the room is full and grows,
//! when a large tail moves into the arena (in steps, giving pages back, as
//! [`ScratchVec::move_tail_into`] moves one), and when the lend ends.
//!
//! While the room is lent, the stack's length stands at its capacity and the stack refuses to
//! grow (`Stack::lent`). A frame opened above the lent one (nothing the `Value` reader calls
//! opens one) starts past the room and fails at its first push, instead of writing into the
//! room or moving the memory the pointers point into. Only the lent frame's own growth takes
//! the room back first.

use core::mem;

use super::{Frame, MOVE_STEP, ScratchVec, assert_innermost, move_elements, move_pairs, stack_of};
use crate::allocator::{AllocError, BumpAllocator, BumpAllocatorExt};

/// A [`ScratchVec`] whose frame is lent whole to its owner: see the module docs.
///
/// `T` is not zero-sized (the room's end is a pointer, and a zero-sized room has none).
pub(crate) struct LentFrame<T> {
    /// Element 0 of the frame.
    base: *mut T,
    /// Where the next element goes: the frame holds the elements `base..next`.
    next: *mut T,
    /// One past the room's last whole element: `base <= next <= end`.
    end: *mut T,
    /// The frame; its count, and the stack's length, are stale while the room is lent.
    frame: ScratchVec<T>,
}

impl<T> LentFrame<T> {
    /// Opens a frame on this thread's scratch stack, empty, and lends its room.
    #[inline]
    pub(crate) fn new() -> Result<Self, AllocError> {
        const {
            assert!(
                mem::size_of::<T>() > 0,
                "a lent frame of zero-sized elements"
            )
        };
        let mut frame = ScratchVec::new(None)?;
        let (base, end) = frame.lend();
        Ok(Self {
            base,
            next: base,
            end,
            frame,
        })
    }

    /// Number of elements pushed and not moved out.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        // SAFETY: `base` and `next` point into the same room (or are both the same dangling
        // pointer), `next` not below `base`, a whole number of `T`s apart.
        unsafe { self.next.offset_from_unsigned(self.base) }
    }

    /// Appends `value`.
    #[inline(always)]
    pub(crate) fn push(&mut self, value: T) -> Result<(), AllocError> {
        if self.next == self.end {
            self.grow()?;
        }
        // SAFETY: `next < end`, so `next` is room for one `T` in the lent room, aligned (the
        // room starts at an aligned element and holds whole ones), and nothing else writes
        // there while it is lent (see the module docs).
        unsafe {
            self.next.write(value);
            self.next = self.next.add(1);
        }
        Ok(())
    }

    /// Makes room for at least one more element: takes the room back, grows the frame's
    /// memory, and lends it again.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) -> Result<(), AllocError> {
        let len = self.len();
        // SAFETY: `push` wrote the `len` elements from `base` on.
        unsafe { self.frame.take_back(len) };
        let room = self.frame.reserve_one();
        self.lend_again();
        room
    }

    /// Moves the elements from index `from` on into one arena allocation of exactly their
    /// size, and keeps the first `from` (see [`ScratchVec::move_tail_into`]). A tail shorter
    /// than a step of a large frame's move is copied out of the room with the frame still
    /// lent; a longer one moves as the frame's own tail would, in steps, giving the stack's
    /// pages back behind it.
    ///
    /// # Panics
    ///
    /// If `from` is past the elements.
    #[inline(never)]
    pub(crate) fn move_tail_into<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        from: usize,
        arena: &'bump A,
    ) -> Result<&'bump [T], AllocError>
    where
        T: 'bump,
    {
        self.move_groups(
            from,
            arena,
            |frame| frame.move_tail_into(from, arena),
            // SAFETY: `move_groups` hands over the tail's elements, and room for them.
            |src, dst, n| unsafe { move_elements(src, dst, 0, n) },
        )
    }

    /// [`move_tail_into`](Self::move_tail_into) for a tail of pairs pushed one element after
    /// the other (see [`ScratchVec::move_pairs_into`]).
    ///
    /// # Panics
    ///
    /// If `from` is past the elements, or the tail is not whole pairs.
    #[inline(never)]
    pub(crate) fn move_pairs_into<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        from: usize,
        arena: &'bump A,
    ) -> Result<&'bump [(T, T)], AllocError>
    where
        T: 'bump,
    {
        self.move_groups(
            from,
            arena,
            |frame| frame.move_pairs_into(from, arena),
            // SAFETY: `move_groups` hands over the tail's pairs, and room for them.
            |src, dst, n| unsafe { move_pairs(src, dst, 0, n) },
        )
    }

    /// Moves the elements from index `from` on into one arena allocation of `G`s, each made of
    /// consecutive elements (a `T`, or a pair of them), and keeps the first `from`. A tail of
    /// at least a step of a large frame's move goes through the frame, taken back, with
    /// `large`; a shorter one is moved by `copy(src, dst, n)`, which must move the `n` groups
    /// at `src` to `dst`.
    ///
    /// # Panics
    ///
    /// If `from` is past the elements, or the tail is not whole groups.
    #[inline(always)]
    fn move_groups<'bump, A: BumpAllocator + ?Sized, G>(
        &mut self,
        from: usize,
        arena: &'bump A,
        large: impl FnOnce(&mut ScratchVec<T>) -> Result<&'bump mut [G], AllocError>,
        copy: impl FnOnce(*const T, *mut G, usize),
    ) -> Result<&'bump [G], AllocError>
    where
        T: 'bump,
    {
        let group = const {
            assert!(mem::size_of::<G>().is_multiple_of(mem::size_of::<T>()));
            mem::size_of::<G>() / mem::size_of::<T>()
        };
        let tail = self
            .len()
            .checked_sub(from)
            .expect("a tail of the elements");
        assert!(tail.is_multiple_of(group), "a tail of whole groups");
        if tail * mem::size_of::<T>() >= MOVE_STEP {
            return self.taken_back(large).map(|groups| &*groups);
        }
        let n = tail / group;
        let dst = arena
            .try_alloc_uninit_slice::<G>(n)?
            .as_mut_ptr()
            .cast::<G>();
        // SAFETY: the `n` groups from element `from` on are initialised in the room (`push`
        // wrote them), `copy` moves them, and the room forgets them right after; `dst` is a
        // fresh arena block of `n` groups, disjoint from the stack.
        unsafe {
            let src = self.base.add(from);
            copy(src, dst, n);
            self.next = src;
            Ok(core::slice::from_raw_parts(dst, n))
        }
    }

    /// Runs `f` on the frame with its room taken back (its count and the stack's length
    /// true), then lends it again.
    #[inline(always)]
    fn taken_back<R>(&mut self, f: impl FnOnce(&mut ScratchVec<T>) -> R) -> R {
        let len = self.len();
        // SAFETY: `push` wrote the `len` elements from `base` on.
        unsafe { self.frame.take_back(len) };
        let result = f(&mut self.frame);
        self.lend_again();
        result
    }

    /// Lends the frame's room again, after it was taken back, with the elements the frame
    /// holds now.
    #[inline(always)]
    fn lend_again(&mut self) {
        let (base, end) = self.frame.lend();
        self.base = base;
        // SAFETY: the frame's elements lie in the room, from `base` on.
        self.next = unsafe { base.add(self.frame.len()) };
        self.end = end;
    }
}

impl<T> Drop for LentFrame<T> {
    fn drop(&mut self) {
        let len = self.len();
        // SAFETY: `push` wrote the `len` elements from `base` on. The frame then closes as
        // every frame does, leaking them, as a bump arena's values are.
        unsafe { self.frame.take_back(len) };
    }
}

impl<T> ScratchVec<T> {
    /// Lends the frame's room: returns its element 0 and one past the last whole element that
    /// fits in the memory the frame has now. The frame's elements stay in place; until
    /// [`take_back`](Self::take_back), the frame's count and the stack's length are stale, the
    /// stack's length standing at its capacity and its growth refused (`Stack::lent`).
    ///
    /// # Panics
    ///
    /// If the frame is not the innermost.
    fn lend(&mut self) -> (*mut T, *mut T) {
        match &mut self.frame {
            Frame::Stack {
                stack,
                start,
                token,
                ..
            } => {
                let stack = stack_of(*stack);
                assert_innermost(stack, *token);
                let size = mem::size_of::<T>();
                let cap = stack.cap.get();
                // No overflow: `start <= len <= cap`, and the room's end is inside the buffer.
                let room = (cap - *start) / size * size;
                stack.len.set(cap);
                stack.lent.set(true);
                (
                    stack.at(*start).cast::<T>(),
                    stack.at(*start + room).cast::<T>(),
                )
            }
            Frame::Heap(vec) => {
                let base = vec.as_mut_ptr();
                // SAFETY: the vector's buffer holds `capacity` elements.
                (base, unsafe { base.add(vec.capacity()) })
            }
        }
    }

    /// Ends a lend: the frame holds `count` elements from element 0 of its room.
    ///
    /// # Safety
    ///
    /// The frame's room was lent ([`lend`](Self::lend)), and its first `count` elements are
    /// initialised `T`s, inside the room.
    unsafe fn take_back(&mut self, count: usize) {
        match &mut self.frame {
            Frame::Stack {
                stack,
                start,
                token,
                count: held,
                ..
            } => {
                let stack = stack_of(*stack);
                assert_innermost(stack, *token);
                // No overflow: the `count` elements lie inside the room, inside the buffer.
                let len = *start + count * mem::size_of::<T>();
                debug_assert!(len <= stack.cap.get());
                stack.len.set(len);
                stack.lent.set(false);
                *held = count;
            }
            Frame::Heap(vec) => {
                debug_assert!(count <= vec.capacity());
                // SAFETY: the caller's promise: `count` initialised elements in the buffer.
                unsafe { vec.set_len(count) };
            }
        }
    }

    /// Makes room for one more element past the frame's elements.
    fn reserve_one(&mut self) -> Result<(), AllocError> {
        match &mut self.frame {
            Frame::Stack { stack, .. } => {
                let stack = stack_of(*stack);
                // No overflow: `len <= cap <= isize::MAX`, and so is the size of a `T`.
                stack.ensure(stack.len.get() + mem::size_of::<T>())
            }
            Frame::Heap(vec) => vec
                .try_reserve(1)
                .map_err(|_| AllocError::size_overflow(mem::align_of::<T>())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{MOVE_STEP, STACK};
    use super::*;

    /// A lent frame holds what a vector holds, across growth and tails moved out, and gives the
    /// stack back as it found it.
    #[test]
    fn pushes_and_tails_as_a_vector_would() {
        let bump = bumpalo::Bump::new();
        let mut outer = ScratchVec::<u64>::new(None).unwrap();
        outer.push(7).unwrap();
        let before = STACK.with(|s| s.len.get());
        {
            let mut lent = LentFrame::<[u64; 3]>::new().unwrap();
            let mut model = Vec::new();
            for i in 0..100_000u64 {
                lent.push([i, !i, i % 5]).unwrap();
                model.push([i, !i, i % 5]);
                if i % 1000 == 999 {
                    let tail = lent.move_tail_into(lent.len() - 10, &bump).unwrap();
                    assert_eq!(tail, &model[model.len() - 10..]);
                    model.truncate(model.len() - 10);
                }
                assert_eq!(lent.len(), model.len());
            }
            // Pairs: a short tail, copied out of the lent room, and one of more than a step,
            // which moves as the frame's own tail; then elements the same two ways.
            for n in [20, MOVE_STEP / 48 + 1] {
                let pairs = lent.move_pairs_into(model.len() - 2 * n, &bump).unwrap();
                assert_eq!(pairs.len(), n);
                let tail = model.split_off(model.len() - 2 * n);
                for (pair, want) in pairs.iter().zip(tail.chunks(2)) {
                    assert_eq!([pair.0, pair.1], want);
                }
                assert_eq!(lent.len(), model.len());
            }
            for _ in 0..MOVE_STEP / 24 {
                let i = model.len() as u64;
                lent.push([i, i, i]).unwrap();
                model.push([i, i, i]);
            }
            for from in [model.len() - 3, 0] {
                let tail = lent.move_tail_into(from, &bump).unwrap();
                assert_eq!(tail, &model[from..]);
                model.truncate(from);
            }
            assert_eq!(lent.len(), 0);
        }
        STACK.with(|s| assert!(!s.lent.get() && s.len.get() == before));
        outer.push(8).unwrap();
        assert_eq!(outer.finish_in(&bump).unwrap(), [7, 8]);
        STACK.with(|s| assert_eq!((s.len.get(), s.top.get()), (0, 0)));
    }

    /// A frame opened above a lent one cannot write into its room nor move its memory: its
    /// first push fails, and the lent frame's elements stay.
    #[test]
    fn a_frame_above_a_lent_one_fails_at_its_first_push() {
        let bump = bumpalo::Bump::new();
        let mut lent = LentFrame::<u64>::new().unwrap();
        for i in 0..100 {
            lent.push(i).unwrap();
        }
        {
            let mut above = ScratchVec::<u64>::new(None).unwrap();
            assert!(above.push(1).is_err());
        }
        lent.push(100).unwrap();
        let all = lent.move_tail_into(0, &bump).unwrap();
        assert!(all.iter().copied().eq(0..=100));
    }
}
