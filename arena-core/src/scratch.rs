//! The scratch stack: where a sequence collects its elements before it is copied into the arena
//! once, at its exact size.
//!
//! A bump arena cannot reuse the buffer a growing vector leaves behind, so a sequence built by
//! doubling inside the arena holds up to twice its data (and formats like JSON give no length).
//! Instead each sequence pushes its elements on a per-thread byte stack outside the arena; when
//! the sequence ends, its elements are copied into the arena in one allocation of exactly
//! `len * size_of::<T>()` bytes and the stack is popped. Nested sequences finish before the
//! sequence holding them, so one last-in-first-out stack serves every level, and its memory is
//! reused from one document to the next. A frame can also hold nested sequences itself, each
//! one's elements above those of the sequences around it, each moving its own tail into the
//! arena when it ends (`ScratchVec::move_tail_into`): the JSON `Value` reader builds a whole
//! document's arrays and objects in one frame so, lent whole to it (`LentFrame`, in
//! `lent_frame`: base, next and end pointers the reading holds, so a push is a compare and a
//! store; while it is lent, a frame opened above it fails at its first push).
//!
//! Values left on the stack by a failed deserialization are leaked, never dropped, like every
//! value in a bump arena.
//!
//! A sequence read into a [`SlabArena`](crate::SlabArena) leaves the stack once it passes 64
//! KiB, for the low edge of the arena's current chunk (see `slice_builder`), and gives back the
//! stack's pages that an earlier, larger sequence made resident past it
//! ([`ScratchVec::release_past`]); so with that arena the stack holds the short sequences and
//! the start of the long ones.
//!
//! **Resident memory.** A large sequence (the top-level array of a big document) would be held
//! twice at the moment it moves into the arena: on the stack and in its arena block. So a
//! *large* frame (at least [`MOVE_STEP`] bytes) reaching past the stack's first
//! [`KEEP_RESIDENT`] bytes moves in steps from its end, and each step gives the stack's pages
//! past that point back to the OS (`madvise(MADV_DONTNEED)` on unix); the arena block's pages
//! become resident only as the copy writes them, so the sequence is resident about once. The
//! stack keeps its capacity (the pages come back zeroed when a later sequence writes them).
//!
//! A small frame never gives pages back, wherever it sits: the rows of a large document each
//! hold a short sequence staged above the rows' own frame, past `KEEP_RESIDENT` once the rows
//! fill it, and the next row reuses those pages at once. Giving them back would cost an OS call
//! and the page faults to take them again per row. So the OS calls are at most one per
//! `MOVE_STEP` bytes moved (plus one), and the pages given back are only those written since
//! the last release (the stack tracks how high its frames reached), not its whole capacity.

use core::cell::{Cell, UnsafeCell};
use core::marker::PhantomData;
use core::mem::{self, MaybeUninit};
use core::ptr::{self, NonNull};

use crate::allocator::{AllocError, BumpAllocator, BumpAllocatorExt};

#[cfg(feature = "json")]
mod lent_frame;
#[cfg(feature = "json")]
pub(crate) use lent_frame::LentFrame;

/// Serde's cautious rule: never reserve more than 1 MiB because an input said so.
const MAX_PREALLOC_BYTES: usize = 1024 * 1024;

/// Alignment of the stack's memory; element types aligned more strictly use a plain `Vec`.
const BLOCK: usize = 16;

/// Bytes at the bottom of the stack that stay resident when a frame moves into the arena: the
/// sequences of ordinary documents fit, so reading one after another reuses warm memory.
const KEEP_RESIDENT: usize = 8 * 1024 * 1024;

/// Bytes a large frame moves into the arena per step before the stack's pages behind them are
/// given back; also the size from which a frame counts as large. 2 MiB: a release per step is
/// then at most one OS call per 2 MiB moved, and a frame smaller than that is cheaper to keep
/// resident than to fault back in.
const MOVE_STEP: usize = 2 * 1024 * 1024;

/// The unit the stack's memory is made of: `BLOCK` bytes aligned to `BLOCK`.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Block([MaybeUninit<u8>; BLOCK]);

const _: () = assert!(mem::align_of::<Block>() == BLOCK && mem::size_of::<Block>() == BLOCK);

/// One thread's stack of open sequences.
///
/// Its state lives in `Cell`s so that the innermost frame's `push` is a handful of loads and
/// stores: no borrow flag, no call. Only `grow` touches `blocks`, and nothing holds a reference
/// into it across calls (frames keep offsets, and read `base` afresh at each use).
struct Stack {
    /// The memory; every block is "initialised" (a `MaybeUninit` needs nothing), so `len` of
    /// the vector is its usable capacity. Accessed only by `grow` and `release`, which never
    /// run while a reference into it exists.
    blocks: UnsafeCell<Vec<Block>>,
    /// `blocks`' buffer (dangling and `BLOCK`-aligned while it has none).
    base: Cell<*mut u8>,
    /// Usable bytes: `blocks.len() * BLOCK`, at most `isize::MAX`.
    cap: Cell<usize>,
    /// Bytes in use by open frames; always `<= cap`. While a frame is the innermost, it is
    /// exactly where that frame's next element goes.
    len: Cell<usize>,
    /// Token of the innermost open frame, `0` when none is open.
    top: Cell<u64>,
    /// Bytes of the stack that may be resident: every page past it is untouched since it was
    /// given back (or ever). Raised to `len` when a frame closes (a frame's elements and the
    /// frames nested in it all lie below its end at that moment) and by `grow` to the old
    /// capacity (a reallocation may copy all of it); lowered by a large frame's release.
    /// Always `<= cap`.
    high: Cell<usize>,
    /// Whether the innermost frame is lent whole to a [`LentFrame`], which writes past `len`
    /// without moving it: `len` then stands at `cap`, and `grow` refuses, so that a frame
    /// opened above it can neither write into the lent room nor move the memory under it.
    lent: Cell<bool>,
    /// Calls that gave pages back to the OS since the thread started.
    releases: Cell<u64>,
    /// The token the next frame gets; tokens are never reused.
    next_token: Cell<u64>,
}

impl Stack {
    const fn new() -> Self {
        Self {
            blocks: UnsafeCell::new(Vec::new()),
            base: Cell::new(NonNull::<Block>::dangling().as_ptr().cast()),
            cap: Cell::new(0),
            len: Cell::new(0),
            top: Cell::new(0),
            high: Cell::new(0),
            lent: Cell::new(false),
            releases: Cell::new(0),
            next_token: Cell::new(1),
        }
    }

    /// Makes the first `bytes` bytes usable, growing geometrically; the out-of-line path of
    /// `push` and the start of a frame.
    #[cold]
    #[inline(never)]
    fn grow(&self, bytes: usize) -> Result<(), AllocError> {
        if self.lent.get() {
            // A lent frame's writer holds pointers into the memory (see `lent`).
            return Err(AllocError::size_overflow(BLOCK));
        }
        // SAFETY: the stack is thread-local and `grow` calls no user code, so this is the only
        // access to `blocks` while it runs; no reference into it outlives a call (frames hold
        // offsets and re-read `base`).
        let blocks = unsafe { &mut *self.blocks.get() };
        let needed = bytes.div_ceil(BLOCK);
        if needed > blocks.len() {
            let target = needed.max(blocks.len().saturating_mul(2));
            blocks
                .try_reserve_exact(target - blocks.len())
                .map_err(|_| AllocError::size_overflow(BLOCK))?;
            // SAFETY: `try_reserve_exact` made room for `target` blocks, and a `Block` is only
            // `MaybeUninit` bytes, which are valid uninitialised.
            unsafe { blocks.set_len(target) };
            // The reallocation may have copied (and so touched) the whole old capacity.
            self.high.set(self.cap.get());
            // `try_reserve_exact` succeeded, so `target * BLOCK` bytes fit in `isize::MAX`.
            self.cap.set(target * BLOCK);
            self.base.set(blocks.as_mut_ptr().cast());
        }
        Ok(())
    }

    /// Makes the first `bytes` bytes usable.
    #[inline]
    fn ensure(&self, bytes: usize) -> Result<(), AllocError> {
        if bytes <= self.cap.get() {
            Ok(())
        } else {
            self.grow(bytes)
        }
    }

    /// Pointer to byte `offset` of the stack's memory.
    #[inline]
    fn at(&self, offset: usize) -> *mut u8 {
        debug_assert!(offset <= self.cap.get(), "offset {offset} out of the stack");
        // SAFETY: `offset <= cap`, the size of the buffer `base` points to (or 0 for the
        // dangling `base`), as callers compute it from frames inside `len <= cap`.
        unsafe { self.base.get().add(offset) }
    }

    /// Frees the memory, if no frame is open.
    fn release(&self) {
        if self.top.get() == 0 {
            // SAFETY: no frame is open, so nothing points into `blocks`; see `grow`.
            drop(mem::take(unsafe { &mut *self.blocks.get() }));
            self.base.set(NonNull::<Block>::dangling().as_ptr().cast());
            self.cap.set(0);
            self.len.set(0);
            self.high.set(0);
        }
    }

    /// Gives the whole pages of the stack's memory from byte `from` through the page holding
    /// byte `to - 1` (the partial page past `to` too, when it lies in the buffer) back to the
    /// OS; they read as zeros when next touched. Nothing may hold a value from `from` to the
    /// end of the buffer. Returns the offset from which everything up to `to` is given back
    /// (the page boundary at or after `from`, or `to` when no whole page fits), where the next
    /// range below should end.
    fn release_pages(&self, from: usize, to: usize) -> usize {
        debug_assert!(from <= to && to <= self.cap.get());
        #[cfg(unix)]
        {
            // SAFETY: `sysconf` only reads a system constant.
            let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
            let Some(page) = usize::try_from(page).ok().filter(|p| p.is_power_of_two()) else {
                return to;
            };
            let base = self.base.get() as usize;
            // No overflow: `base + cap` is one past the stack's buffer. Rounding up past the
            // buffer's last whole page is cut back to it.
            let end = (base + self.cap.get()) & !(page - 1);
            let first = (base + from).checked_next_multiple_of(page).unwrap_or(end);
            let last = (base + to)
                .checked_next_multiple_of(page)
                .map_or(end, |last| last.min(end));
            if first < last {
                // SAFETY: `first..last` is whole pages inside bytes `from..cap` of the stack's
                // buffer, which the global allocator gave this stack and which holds no live value
                // (the caller's promise; a `Block` is `MaybeUninit`, so zeros are valid contents).
                // MADV_DONTNEED only drops the pages' contents; a failure leaves them resident,
                // which is harmless.
                unsafe {
                    libc::madvise(
                        first as *mut libc::c_void,
                        last - first,
                        libc::MADV_DONTNEED,
                    );
                }
                self.releases.set(self.releases.get() + 1);
                return first - base;
            }
        }
        #[cfg(not(unix))]
        let _ = from;
        to
    }
}

std::thread_local! {
    static STACK: Stack = const { Stack::new() };
}

/// Frees this thread's scratch stack, if no sequence is being deserialized on it.
pub(crate) fn release() {
    let _ = STACK.try_with(Stack::release);
}

/// Bytes of scratch memory this thread holds: what size hints and sequences made it reserve.
/// Not public API: tests check the reservation rules with it.
#[doc(hidden)]
pub fn thread_scratch_capacity() -> usize {
    STACK.try_with(|stack| stack.cap.get()).unwrap_or(0)
}

/// Calls this thread's scratch stack made to give pages back to the OS, since the thread
/// started.
pub(crate) fn thread_page_releases() -> u64 {
    STACK.try_with(|stack| stack.releases.get()).unwrap_or(0)
}

/// Frames opened on this thread's stack so far: tests tell a staged sequence from one that
/// stayed in its reader's buffer with it.
#[cfg(test)]
pub(crate) fn frames_opened() -> u64 {
    STACK.with(|stack| stack.next_token.get())
}

/// Number of elements of `T` worth reserving for a container announcing `hint` elements: never
/// more than 1 MiB, nor more than the call's remaining arena byte budget.
pub(crate) fn cautious<T>(hint: Option<usize>) -> usize {
    let per = mem::size_of::<T>().max(1);
    let bytes = MAX_PREALLOC_BYTES.min(crate::call::bytes_left());
    hint.unwrap_or(0).min(bytes / per)
}

/// A growable sequence of `T` on the scratch stack.
///
/// Open frames must close in the reverse order they opened; that holds by construction because a
/// `ScratchVec` lives in one visitor call and nested sequences are deserialized inside it.
pub(crate) struct ScratchVec<T> {
    frame: Frame<T>,
    /// A `ScratchVec` belongs to the thread whose stack it uses.
    _not_send: PhantomData<*const ()>,
}

enum Frame<T> {
    Stack {
        /// This thread's stack, looked up once when the frame opened: it outlives the frame,
        /// which never leaves the thread (`ScratchVec` is not `Send`) nor the call it opened in.
        stack: NonNull<Stack>,
        /// Byte offset of element 0; a multiple of `align_of::<T>()`.
        start: usize,
        /// Stack length before this frame opened; restored when it closes.
        prev_len: usize,
        /// Token of the frame this one sits on.
        prev_top: u64,
        token: u64,
        /// Elements written; they occupy `start..start + count * size_of::<T>()`.
        count: usize,
    },
    /// For types aligned beyond `BLOCK`, or when the thread-local is already destroyed.
    Heap(Vec<T>),
}

/// Moves the `T` at `src`, written just before, to `dst`: a word at a time when `T` is made of
/// whole words, so that each load is served by the store that wrote its word (or a wider one
/// holding it). A copy's wider loads, each spanning two of the value's fresh narrow stores,
/// would wait for them to reach the cache (a failed store-to-load forward): measured as the
/// hottest instruction of a slice of small structs read from JSON.
///
/// # Safety
///
/// `src` holds an initialized `T`, and `dst` is valid for writing one; both are aligned and
/// do not overlap.
#[inline(always)]
pub(crate) unsafe fn copy_fresh<T>(src: *const T, dst: *mut T) {
    if mem::size_of::<T>().is_multiple_of(8) && mem::align_of::<T>() >= 8 {
        let (src, dst) = (
            src.cast::<MaybeUninit<u64>>(),
            dst.cast::<MaybeUninit<u64>>(),
        );
        for i in 0..mem::size_of::<T>() / 8 {
            // SAFETY: word `i` lies inside the `T` at `src` and at `dst`, both aligned to 8;
            // a `MaybeUninit` word holds padding bytes too. Volatile, so that the compiler
            // keeps the loads a word wide instead of merging them.
            unsafe { dst.add(i).write(src.add(i).read_volatile()) };
        }
    } else {
        // SAFETY: the caller's promise.
        unsafe { dst.write(src.read()) };
    }
}

/// The thread's stack, from a frame's cached pointer.
#[inline]
fn stack_of(stack: NonNull<Stack>) -> &'static Stack {
    // SAFETY: `stack` came from `STACK.try_with` on this thread when the frame opened. A frame
    // never leaves its thread (`ScratchVec` is not `Send`) and closes before the call that opened
    // it returns, while the thread-local is alive: thread-local destructors run one at a time, so
    // none can destroy `STACK` in the middle of a call that holds a frame. The `'static` is never
    // kept beyond one statement by the callers.
    unsafe { stack.as_ref() }
}

/// Checks that the frame `token` is the innermost one: frames close in reverse order by
/// construction, and every write to the stack relies on it.
#[inline]
fn assert_innermost(stack: &Stack, token: u64) {
    assert!(
        stack.top.get() == token,
        "scratch frames closed out of order"
    );
}

impl<T> ScratchVec<T> {
    /// [`new`](Self::new), out of line: for callers where opening a frame is the rare path.
    #[inline(never)]
    pub(crate) fn new_out_of_line(size_hint: Option<usize>) -> Result<Self, AllocError> {
        Self::new(size_hint)
    }

    /// Opens a sequence, reserving room for what `size_hint` announces, within
    /// [`cautious`] bounds. Inlined: returned from a call, the frame would be read back from
    /// memory with wide loads that stall on the narrow stores the callee made.
    #[inline(always)]
    pub(crate) fn new(size_hint: Option<usize>) -> Result<Self, AllocError> {
        let reserve = cautious::<T>(size_hint);
        let frame = if mem::align_of::<T>() > BLOCK {
            None
        } else {
            // The address only, out of `try_with` (see `call::with` for why), then the frame.
            STACK.try_with(ptr::from_ref).ok().map(|stack| {
                // SAFETY: `try_with` found this thread's stack alive and returned its
                // address; thread-local destructors run on this thread, never during this
                // closure, so it is alive here, borrowed shared as `try_with` would lend it.
                let stack: &Stack = unsafe { &*stack };
                let prev_len = stack.len.get();
                let start = prev_len
                    .checked_next_multiple_of(mem::align_of::<T>())
                    .ok_or(AllocError::size_overflow(BLOCK))?;
                let end = reserve
                    .checked_mul(mem::size_of::<T>())
                    .and_then(|bytes| bytes.checked_add(start))
                    .ok_or(AllocError::size_overflow(BLOCK))?;
                stack.ensure(end)?;
                let token = stack.next_token.get();
                stack.next_token.set(token + 1);
                let prev_top = stack.top.replace(token);
                stack.len.set(start);
                Ok(Frame::Stack {
                    stack: NonNull::from(stack),
                    start,
                    prev_len,
                    prev_top,
                    token,
                    count: 0,
                })
            })
        };
        let frame = match frame {
            Some(frame) => frame?,
            None => {
                let mut vec = Vec::new();
                vec.try_reserve(reserve)
                    .map_err(|_| AllocError::size_overflow(mem::align_of::<T>()))?;
                Frame::Heap(vec)
            }
        };
        Ok(Self {
            frame,
            _not_send: PhantomData,
        })
    }

    /// Number of elements pushed.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match &self.frame {
            Frame::Stack { count, .. } => *count,
            Frame::Heap(vec) => vec.len(),
        }
    }

    /// Appends `value`.
    #[inline(always)]
    pub(crate) fn push(&mut self, value: T) -> Result<(), AllocError> {
        // SAFETY: the closure writes a `T` where it is told.
        unsafe { self.push_by(|dst| dst.write(value)) }
    }

    /// Appends the element written at `src` just before, copied a word at a time (see
    /// [`copy_fresh`]).
    ///
    /// # Safety
    ///
    /// `src` holds an initialized `T`, which the caller gives up (it is moved, not copied).
    #[inline(always)]
    pub(crate) unsafe fn push_fresh(&mut self, src: &MaybeUninit<T>) -> Result<(), AllocError> {
        // SAFETY: `src` holds a `T` (the caller's promise), on the caller's stack, apart from
        // the frame's memory; the closure moves it where it is told.
        unsafe { self.push_by(|dst| copy_fresh(src.as_ptr(), dst)) }
    }

    /// Appends the element `write` writes at the pointer it is given: room for one `T` after
    /// the frame's last element, aligned.
    ///
    /// # Safety
    ///
    /// `write` initializes the `T` at its pointer, and opens no frame on this thread.
    #[inline(always)]
    unsafe fn push_by(&mut self, write: impl FnOnce(*mut T)) -> Result<(), AllocError> {
        match &mut self.frame {
            Frame::Stack {
                stack,
                start,
                token,
                count,
                ..
            } => {
                let stack = stack_of(*stack);
                assert_innermost(stack, *token);
                // This frame is the innermost, so the stack ends right after its elements. No
                // overflow: `len <= cap <= isize::MAX` and `size_of::<T>() <= isize::MAX`.
                let offset = stack.len.get();
                debug_assert_eq!(offset, *start + *count * mem::size_of::<T>());
                let end = offset + mem::size_of::<T>();
                stack.ensure(end)?;
                // `ensure` made `offset..end` usable; `offset` is a multiple of
                // `align_of::<T>()` (`start` is, and so is the size of every element before it)
                // and the stack's memory is aligned to `BLOCK >= align_of::<T>()`; this frame is
                // the innermost, so no other frame's elements live at or beyond `offset`.
                write(stack.at(offset).cast::<T>());
                stack.len.set(end);
                *count += 1;
                Ok(())
            }
            Frame::Heap(vec) => {
                vec.try_reserve(1)
                    .map_err(|_| AllocError::size_overflow(mem::align_of::<T>()))?;
                // The room `try_reserve` made after the last element; the caller's `write`
                // initializes it, and the length then counts it.
                write(vec.spare_capacity_mut()[0].as_mut_ptr());
                // SAFETY: the slot at `len` was just initialized, within the capacity.
                unsafe { vec.set_len(vec.len() + 1) };
                Ok(())
            }
        }
    }

    /// Appends the value `make` returns, called once there is room for it: a value made after
    /// the room is taken is written where it goes, not kept across the call that may grow the
    /// stack and copied.
    #[inline(always)]
    pub(crate) fn push_with(&mut self, make: impl FnOnce() -> T) -> Result<(), AllocError> {
        if let Frame::Stack { stack, .. } = &self.frame {
            let stack = stack_of(*stack);
            // Room first, then the value; `push` finds it there, unless `make` grew the stack
            // (which moves nothing of this frame's), and then only checks. No overflow: as in
            // `push`.
            stack.ensure(stack.len.get() + mem::size_of::<T>())?;
        }
        self.push(make())
    }

    /// Moves the elements into one arena allocation of exactly their size, and closes the frame.
    #[cfg(test)]
    pub(crate) fn finish_in<'bump, A: BumpAllocator + ?Sized>(
        mut self,
        arena: &'bump A,
    ) -> Result<&'bump mut [T], AllocError>
    where
        T: 'bump,
    {
        self.move_into(arena)
    }

    /// Moves the elements into one arena allocation of exactly their size, leaving the frame
    /// open and empty (it closes when dropped). By reference: a frame moved into an out-of-line
    /// call is copied first, and the copy's wide loads stall on the narrow stores `push` just
    /// made to it. Inline: its callers are few (`slice_builder::finish_scratch`, itself out of
    /// line, and the byte sequences of `impls::byte_seq`).
    #[inline]
    #[expect(
        clippy::mut_from_ref,
        reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
    )]
    pub(crate) fn move_into<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        arena: &'bump A,
    ) -> Result<&'bump mut [T], AllocError>
    where
        T: 'bump,
    {
        if let Frame::Heap(vec) = &mut self.frame {
            return crate::allocator::move_into(arena, vec);
        }
        let dst = arena.try_alloc_uninit_slice::<T>(self.len())?;
        // SAFETY: `dst` is a fresh arena block of as many elements as the frame holds
        // (dangling for zero-sized `T` or none), disjoint from the stack.
        unsafe { self.move_to(dst.as_mut_ptr().cast::<T>()) };
        // SAFETY: the block now holds that many initialised `T`s, kept valid and unaliased for
        // `'bump` by the arena.
        Ok(unsafe { &mut *(ptr::from_mut(dst) as *mut [T]) })
    }

    /// Moves the elements to `dst`, in order, leaving the frame open and empty. A large frame
    /// gives its stack pages back as it goes (see the module docs).
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of [`len`](Self::len) elements, aligned, and disjoint from
    /// the scratch stack (dangling is fine for zero-sized `T` or no elements).
    #[inline]
    pub(crate) unsafe fn move_to(&mut self, dst: *mut T) {
        // SAFETY: the caller's promise covers the `len` elements `copy` writes to `dst`, and
        // `move_tail_with` hands it the frame's elements, initialised and read once.
        unsafe {
            self.move_tail_with(0, 1, |src, lo, hi| {
                ptr::copy_nonoverlapping(src.add(lo), dst.add(lo), hi - lo);
            });
        }
    }

    /// Moves the elements from index `from` on into one arena allocation of exactly their
    /// size, in order, and keeps the first `from`: the frame serves as a stack of sequences
    /// nested in each other, each one's elements above those of the sequences around it, and
    /// the innermost moves out when it ends (the JSON `Value` reader's nodes).
    ///
    /// # Panics
    ///
    /// If `from` is past the elements.
    #[cfg(feature = "json")]
    #[inline(always)]
    #[expect(
        clippy::mut_from_ref,
        reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
    )]
    pub(crate) fn move_tail_into<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        from: usize,
        arena: &'bump A,
    ) -> Result<&'bump mut [T], AllocError>
    where
        T: 'bump,
    {
        let n = self
            .len()
            .checked_sub(from)
            .expect("a tail of the elements");
        let dst = arena
            .try_alloc_uninit_slice::<T>(n)?
            .as_mut_ptr()
            .cast::<T>();
        // SAFETY: `dst` is a fresh arena block of `n` elements (dangling for zero-sized `T` or
        // none), disjoint from the stack; `move_tail_with` hands `copy` the `n` elements past
        // `from`, initialised, each moved once.
        unsafe {
            self.move_tail_with(from, 1, |src, lo, hi| move_elements(src, dst, lo, hi));
            Ok(core::slice::from_raw_parts_mut(dst, n))
        }
    }

    /// [`move_tail_into`](Self::move_tail_into) for a tail of pairs pushed one element after
    /// the other (a key, then its value): into one arena allocation of `(T, T)`s.
    ///
    /// # Panics
    ///
    /// If `from` is past the elements, or the tail is not whole pairs.
    #[cfg(feature = "json")]
    #[inline(always)]
    #[expect(
        clippy::mut_from_ref,
        reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
    )]
    pub(crate) fn move_pairs_into<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        from: usize,
        arena: &'bump A,
    ) -> Result<&'bump mut [(T, T)], AllocError>
    where
        T: 'bump,
    {
        let tail = self
            .len()
            .checked_sub(from)
            .expect("a tail of the elements");
        assert!(tail.is_multiple_of(2), "a tail of whole pairs");
        let n = tail / 2;
        let dst = arena
            .try_alloc_uninit_slice::<(T, T)>(n)?
            .as_mut_ptr()
            .cast::<(T, T)>();
        // SAFETY: `dst` is a fresh arena block of `n` pairs (dangling when it has no bytes),
        // disjoint from the stack; `move_tail_with` hands `copy` the `2 * n` elements past
        // `from`, initialised, and each group `i` (elements `2 * i` and `2 * i + 1`) once.
        unsafe {
            self.move_tail_with(from, 2, |src, lo, hi| move_pairs(src, dst, lo, hi));
            Ok(core::slice::from_raw_parts_mut(dst, n))
        }
    }

    /// Moves the elements from index `from` on out of the frame with `copy`, and keeps the
    /// first `from`. The tail is taken as groups of `group` consecutive elements (its length a
    /// multiple of `group`): `copy(src, lo, hi)` must move groups `lo..hi`, whose elements
    /// start at `src.add(lo * group)`, `src` being element `from`. A large tail on the stack
    /// moves in steps from its end, giving the stack's pages back behind each
    /// ([`move_releasing`]); `copy` may then run several times, on ranges that do not overlap
    /// and together cover every group once.
    ///
    /// # Safety
    ///
    /// `copy` must move (read once, and not drop) exactly the elements of the groups it is
    /// given, and write them only outside the scratch stack: the frame forgets them.
    #[inline(always)]
    unsafe fn move_tail_with(
        &mut self,
        from: usize,
        group: usize,
        mut copy: impl FnMut(*const T, usize, usize),
    ) {
        match &mut self.frame {
            Frame::Heap(vec) => {
                let len = vec.len();
                debug_assert!(from <= len && (len - from).is_multiple_of(group));
                // SAFETY: elements `from..len` are initialised and `copy` moves them (the
                // caller's promise); `set_len(from)` right after forgets them, with no panic
                // in between.
                unsafe {
                    copy(vec.as_ptr().add(from), 0, (len - from) / group);
                    vec.set_len(from);
                }
            }
            Frame::Stack {
                stack,
                start,
                token,
                count,
                ..
            } => {
                let stack = stack_of(*stack);
                assert_innermost(stack, *token);
                debug_assert!(from <= *count && (*count - from).is_multiple_of(group));
                let size = mem::size_of::<T>();
                // No overflow: the frame's elements are inside the stack's buffer.
                let tail_start = *start + from * size;
                let src = stack.at(tail_start).cast::<T>();
                let groups = (*count - from) / group;
                let bytes = (*count - from) * size;
                if bytes < MOVE_STEP || tail_start + bytes <= KEEP_RESIDENT {
                    // SAFETY: the tail's elements are initialised at `src` (see `push`), and
                    // `copy` moves them (the caller's promise).
                    copy(src, 0, groups);
                    stack.len.set(tail_start);
                } else {
                    // SAFETY: `tail_start` is where the tail starts on `stack`, the innermost
                    // frame's end; everything above it is free once `copy` moved it.
                    unsafe {
                        move_releasing(stack, tail_start, groups, group * size, |lo, hi| {
                            copy(src, lo, hi);
                        });
                    }
                }
                *count = from;
            }
        }
    }

    /// Gives the stack's pages from `keep` bytes past this frame's start back to the OS, as far
    /// as they may be resident, once its elements have moved out for good (to the low edge of
    /// a [`SlabArena`](crate::SlabArena), where the sequence goes on growing): a large sequence
    /// an earlier document staged then does not stay resident for nothing. One OS call at
    /// most, and none when nothing past that point was touched since the last release (the
    /// sequences that move out reach this frame's start plus about their threshold).
    pub(crate) fn release_past(&mut self, keep: usize) {
        if let Frame::Stack {
            stack,
            start,
            token,
            count,
            ..
        } = &self.frame
        {
            let stack = stack_of(*stack);
            assert_innermost(stack, *token);
            debug_assert_eq!(*count, 0, "the frame's elements moved out");
            // The frame is the innermost and empty: nothing lives from its start up.
            let from = start.saturating_add(keep);
            let high = stack.high.get().max(stack.len.get());
            if from < high {
                stack.high.set(stack.release_pages(from, high));
            }
        }
    }

    /// Moves the elements out one by one, in order, into `f`; stops at the first error.
    ///
    /// Nothing is borrowed while `f` runs, so `f` may allocate and deserialize.
    #[cfg(any(feature = "hashbrown", test))]
    pub(crate) fn drain_each<E>(mut self, mut f: impl FnMut(T) -> Result<(), E>) -> Result<(), E> {
        match &mut self.frame {
            Frame::Stack {
                stack,
                start,
                token,
                count,
                ..
            } => {
                let total = mem::take(count);
                for i in 0..total {
                    let value = {
                        let stack = stack_of(*stack);
                        assert_innermost(stack, *token);
                        // SAFETY: element `i < total` was written by `push` at this offset and
                        // is read exactly once (the count was taken, so nothing reads it again).
                        unsafe { stack.at(*start).cast::<T>().add(i).read() }
                    };
                    f(value)?;
                }
                Ok(())
            }
            Frame::Heap(vec) => mem::take(vec).into_iter().try_for_each(f),
        }
    }
}

/// Moves the elements `lo..hi` from `src` to `dst`: the copy of
/// [`ScratchVec::move_tail_into`].
///
/// # Safety
///
/// `src` holds `hi` initialised elements, which the caller gives up from `lo` on; `dst` is
/// valid for writing `hi` elements, disjoint from them.
#[cfg(feature = "json")]
#[inline(always)]
unsafe fn move_elements<T>(src: *const T, dst: *mut T, lo: usize, hi: usize) {
    // SAFETY: the caller's promise.
    unsafe { ptr::copy_nonoverlapping(src.add(lo), dst.add(lo), hi - lo) };
}

/// Moves the pairs `lo..hi`, elements `2 * lo..2 * hi` of `src` (a key, then its value), to
/// `dst`: the copy of [`ScratchVec::move_pairs_into`].
///
/// # Safety
///
/// `src` holds `2 * hi` initialised elements, which the caller gives up from `2 * lo` on;
/// `dst` is valid for writing `hi` pairs, disjoint from them.
#[cfg(feature = "json")]
#[inline(always)]
unsafe fn move_pairs<T>(src: *const T, dst: *mut (T, T), lo: usize, hi: usize) {
    for i in lo..hi {
        // Field by field: a pair made on the stack and then stored is copied through it in
        // pieces, and the wide loads stall on the narrow stores.
        // SAFETY: the caller's promise covers pair `i` of `dst` and elements `2 * i` and
        // `2 * i + 1` of `src`.
        unsafe {
            let pair = dst.add(i);
            ptr::copy_nonoverlapping(src.add(2 * i), &raw mut (*pair).0, 1);
            ptr::copy_nonoverlapping(src.add(2 * i + 1), &raw mut (*pair).1, 1);
        }
    }
}

/// Moves the `len` groups of `size` bytes each that a large frame holds from byte `start` of
/// `stack` on, with `copy(lo, hi)` moving groups `lo..hi`, in steps of about [`MOVE_STEP`]
/// bytes from the end, giving the stack's pages past [`KEEP_RESIDENT`] back to the OS behind
/// each step (with the first step, the pages written above the frame, up to `high`), so that
/// the elements are resident about once while they move. Leaves the stack's length at `start`.
///
/// # Safety
///
/// Byte `start` of `stack` must be where the innermost frame's moving elements start, with
/// nothing live past them; `copy` must move the groups it is given out of the stack, so that
/// nothing reads them there afterwards.
#[cold]
#[inline(never)]
unsafe fn move_releasing(
    stack: &Stack,
    start: usize,
    len: usize,
    size: usize,
    mut copy: impl FnMut(usize, usize),
) {
    let step = (MOVE_STEP / size.max(1)).max(1);
    // Everything above the frame is free (the frame is the innermost), and nothing past `high`
    // is resident.
    let mut released = stack.high.get().max(stack.len.get());
    let mut hi = len;
    while hi > 0 {
        let lo = hi.saturating_sub(step);
        copy(lo, hi);
        // Bytes of the stack from group `lo` up hold nothing live any more.
        let from = (start + lo * size).max(KEEP_RESIDENT);
        if from < released {
            released = stack.release_pages(from, released);
        }
        hi = lo;
    }
    // Every page from `released` up was given back (or never touched); the frame holds nothing
    // any more past `start`, so closing it raises `high` no higher than that.
    stack.high.set(released);
    stack.len.set(start);
}

impl<T> Drop for ScratchVec<T> {
    fn drop(&mut self) {
        if let Frame::Stack {
            stack,
            prev_len,
            prev_top,
            token,
            ..
        } = self.frame
        {
            let stack = stack_of(stack);
            debug_assert_eq!(stack.top.get(), token, "scratch frames closed out of order");
            // Everything this frame and the frames nested in it wrote lies below `len`.
            if stack.len.get() > stack.high.get() {
                stack.high.set(stack.len.get());
            }
            stack.top.set(prev_top);
            stack.len.set(prev_len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_frames_keep_their_elements() {
        let bump = bumpalo::Bump::new();
        let mut outer = ScratchVec::<u64>::new(Some(2)).unwrap();
        outer.push(1).unwrap();
        let mut inner = ScratchVec::<u8>::new(None).unwrap();
        for b in 0..100u8 {
            inner.push(b).unwrap();
        }
        let inner = inner.finish_in(&bump).unwrap();
        outer.push(2).unwrap();
        let outer = outer.finish_in(&bump).unwrap();
        assert_eq!(outer, [1, 2]);
        assert_eq!(inner, (0..100).collect::<Vec<u8>>());
        STACK.with(|s| assert_eq!((s.len.get(), s.top.get()), (0, 0)));
    }

    #[test]
    fn a_value_made_with_a_frame_of_its_own_lands_after_the_elements() {
        let bump = bumpalo::Bump::new();
        let mut outer = ScratchVec::<u64>::new(Some(1)).unwrap();
        outer.push(1).unwrap();
        let before = thread_scratch_capacity();
        // `make` opens, fills past the stack's capacity and finishes a frame of its own.
        outer
            .push_with(|| {
                let mut inner = ScratchVec::<u8>::new(None).unwrap();
                for b in 0..=u8::MAX {
                    for _ in 0..(before / 256 + 1) {
                        inner.push(b).unwrap();
                    }
                }
                inner.finish_in(&bump).unwrap().len() as u64
            })
            .unwrap();
        assert!(thread_scratch_capacity() > before);
        outer.push(3).unwrap();
        let outer = outer.finish_in(&bump).unwrap();
        assert_eq!(outer, [1, 256 * (before as u64 / 256 + 1), 3]);
        STACK.with(|s| assert_eq!((s.len.get(), s.top.get()), (0, 0)));
    }

    #[test]
    fn abandoned_frames_pop_the_stack() {
        {
            let mut v = ScratchVec::<u32>::new(Some(10)).unwrap();
            v.push(7).unwrap();
        }
        STACK.with(|s| assert_eq!((s.len.get(), s.top.get()), (0, 0)));
    }

    #[test]
    fn over_aligned_and_zero_sized_elements() {
        #[derive(Clone, Copy, PartialEq, Debug)]
        #[repr(align(64))]
        struct Wide(u8);
        let bump = bumpalo::Bump::new();
        let mut v = ScratchVec::new(None).unwrap();
        for i in 0..5 {
            v.push(Wide(i)).unwrap();
        }
        let s = v.finish_in(&bump).unwrap();
        assert!(s.as_ptr().is_aligned());
        assert_eq!(s, [Wide(0), Wide(1), Wide(2), Wide(3), Wide(4)]);

        let mut z = ScratchVec::new(Some(usize::MAX)).unwrap();
        for _ in 0..1000 {
            z.push(()).unwrap();
        }
        assert_eq!(z.finish_in(&bump).unwrap().len(), 1000);
    }

    #[test]
    fn huge_hints_reserve_cautiously() {
        assert_eq!(cautious::<u8>(Some(usize::MAX)), MAX_PREALLOC_BYTES);
        assert_eq!(cautious::<u64>(Some(usize::MAX)), MAX_PREALLOC_BYTES / 8);
        assert_eq!(cautious::<()>(Some(3)), 3);
        assert_eq!(cautious::<u64>(None), 0);
    }

    /// Pushes `n` elements of `[u64; 3]` (24 bytes, a size that does not divide a step) on a
    /// frame and moves them into `bump`, checking every one.
    fn move_large(bump: &bumpalo::Bump, n: usize) {
        let mut v = ScratchVec::<[u64; 3]>::new(None).unwrap();
        for i in 0..n as u64 {
            v.push([i, !i, i % 7]).unwrap();
        }
        let s = v.finish_in(bump).unwrap();
        assert_eq!(s.len(), n);
        for (i, e) in s.iter().enumerate() {
            let i = i as u64;
            assert_eq!(*e, [i, !i, i % 7]);
        }
    }

    #[test]
    fn large_frames_move_whole_past_the_resident_part() {
        let bump = bumpalo::Bump::new();
        let per_step = MOVE_STEP / 24;
        // Just past the resident part, a whole number of steps and one more element, and under a
        // frame that holds elements of its own.
        for n in [
            KEEP_RESIDENT / 24 + 1,
            5 * per_step + 1,
            2 * KEEP_RESIDENT / 24,
        ] {
            move_large(&bump, n);
        }
        let mut outer = ScratchVec::<u8>::new(None).unwrap();
        for b in 0..=200u8 {
            outer.push(b).unwrap();
        }
        move_large(&bump, KEEP_RESIDENT / 24 + per_step);
        outer.push(201).unwrap();
        let outer = outer.finish_in(&bump).unwrap();
        assert_eq!(outer, (0..=201).collect::<Vec<u8>>());
        STACK.with(|s| assert_eq!((s.len.get(), s.top.get()), (0, 0)));
    }

    /// After a large frame moved into the arena, the stack holds no resident page past
    /// `KEEP_RESIDENT`: the sequence was not held twice.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_moved_large_frame_leaves_no_resident_pages_behind() {
        let bump = bumpalo::Bump::new();
        move_large(&bump, 3 * KEEP_RESIDENT / 24);
        let (base, cap) = STACK.with(|s| (s.base.get() as usize, s.cap.get()));
        assert!(cap >= 3 * KEEP_RESIDENT);
        // SAFETY: `sysconf` only reads a system constant.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap();
        let first = (base + KEEP_RESIDENT).next_multiple_of(page);
        let last = (base + cap) & !(page - 1);
        let mut resident = vec![0u8; (last - first) / page];
        // SAFETY: `first..last` is whole pages of this thread's stack buffer, which is mapped;
        // `mincore` writes one byte per page into `resident`, which has room for them.
        let r = unsafe {
            libc::mincore(
                first as *mut libc::c_void,
                last - first,
                resident.as_mut_ptr().cast(),
            )
        };
        assert_eq!(r, 0);
        let still = resident.iter().filter(|&&b| b & 1 != 0).count();
        assert_eq!(
            still,
            0,
            "{still} of {} pages still resident",
            resident.len()
        );
    }

    /// The rows of a large document: an outer frame past `KEEP_RESIDENT`, and above it one
    /// short sequence per row. The short ones give nothing back (the next row reuses their
    /// pages); the outer one gives its pages back in steps: at most one OS call per MiB moved.
    #[test]
    fn small_frames_above_a_large_one_make_no_os_call() {
        let bump = bumpalo::Bump::new();
        let rows = 3 * KEEP_RESIDENT / 24;
        let before = thread_page_releases();
        let mut outer = ScratchVec::<[u64; 3]>::new(None).unwrap();
        for i in 0..rows as u64 {
            let mut tags = ScratchVec::<u64>::new(None).unwrap();
            tags.push(i).unwrap();
            tags.push(!i).unwrap();
            let tags = tags.finish_in(&bump).unwrap();
            assert_eq!(tags, [i, !i]);
            outer.push([i, !i, 0]).unwrap();
        }
        assert_eq!(
            thread_page_releases(),
            before,
            "no call while the rows are read"
        );
        let moved = rows * 24;
        assert_eq!(outer.finish_in(&bump).unwrap().len(), rows);
        let calls = thread_page_releases() - before;
        #[cfg(unix)]
        assert!(calls >= 1, "the large frame gives its pages back");
        assert!(
            calls <= (moved >> 20) as u64,
            "{calls} calls for {} MiB moved",
            moved >> 20
        );
        STACK.with(|s| {
            assert_eq!((s.len.get(), s.top.get()), (0, 0));
            // Only a release lowers the mark, and pages are given back on unix only.
            #[cfg(unix)]
            assert!(
                s.high.get() <= KEEP_RESIDENT + 4096,
                "high {}",
                s.high.get()
            );
        });
    }

    #[test]
    fn drain_moves_every_element_once() {
        let mut v = ScratchVec::new(None).unwrap();
        for i in 0..50u32 {
            v.push(i.to_string()).unwrap();
        }
        let mut out = Vec::new();
        v.drain_each(|s| {
            out.push(s);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(out.len(), 50);
        assert_eq!(out[49], "49");
    }

    /// One step of [`tails_move_out_as_a_stack_of_vectors_would`]'s script.
    #[cfg(feature = "json")]
    #[derive(Clone, Debug)]
    enum Op {
        Push(u64),
        Open,
        /// Closes the innermost level as a slice of its elements.
        Close,
        /// Closes it as pairs (its last element dropped from the model when it is odd, as
        /// the reader never leaves a key without its value).
        ClosePairs,
    }

    #[cfg(feature = "json")]
    use proptest::prelude::*;

    #[cfg(feature = "json")]
    proptest! {
        /// Levels nested in one frame, each pushing its elements above the last one's and
        /// moving them out when it closes, hold what a stack of vectors holds: every tail
        /// moved out is that level's elements in order (pairs in order), and the levels below
        /// keep theirs.
        #[test]
        fn tails_move_out_as_a_stack_of_vectors_would(
            ops in proptest::collection::vec(
                prop_oneof![
                    4 => any::<u64>().prop_map(Op::Push),
                    1 => Just(Op::Open),
                    1 => Just(Op::Close),
                    1 => Just(Op::ClosePairs),
                ],
                0..200,
            )
        ) {
            let bump = bumpalo::Bump::new();
            let mut frame = ScratchVec::<[u64; 3]>::new(None).unwrap();
            // The model: the open levels' elements, and where each level starts in the frame.
            let mut model: Vec<Vec<u64>> = vec![Vec::new()];
            let mut bases = vec![0];
            for op in ops {
                match op {
                    Op::Push(v) => {
                        frame.push([v, !v, v.rotate_left(7)]).unwrap();
                        model.last_mut().unwrap().push(v);
                    }
                    Op::Open => {
                        bases.push(frame.len());
                        model.push(Vec::new());
                    }
                    Op::Close | Op::ClosePairs if bases.len() == 1 => {}
                    Op::Close => {
                        let base = bases.pop().unwrap();
                        let want = model.pop().unwrap();
                        let got = frame.move_tail_into(base, &bump).unwrap();
                        let got: Vec<u64> = got.iter().map(|e| e[0]).collect();
                        prop_assert_eq!(got, want);
                    }
                    Op::ClosePairs => {
                        let base = bases.pop().unwrap();
                        let mut want = model.pop().unwrap();
                        if want.len() % 2 == 1 {
                            want.pop();
                            frame.move_tail_into(frame.len() - 1, &bump).unwrap();
                        }
                        let got = frame.move_pairs_into(base, &bump).unwrap();
                        for (pair, want) in got.iter().zip(want.chunks(2)) {
                            prop_assert_eq!(pair.0, [want[0], !want[0], want[0].rotate_left(7)]);
                            prop_assert_eq!(pair.1, [want[1], !want[1], want[1].rotate_left(7)]);
                        }
                        prop_assert_eq!(got.len() * 2, want.len());
                    }
                }
                prop_assert_eq!(frame.len(), model.iter().map(Vec::len).sum::<usize>());
            }
            let rest: Vec<u64> = frame.move_tail_into(0, &bump).unwrap().iter().map(|e| e[0]).collect();
            prop_assert_eq!(rest, model.concat());
        }
    }

    /// A tail past the resident part and larger than a step moves out in steps, giving the
    /// stack's pages back behind it, as a whole large frame does; what lies below it stays.
    /// Pairs too, and on a frame of over-aligned elements, which lives on the heap.
    #[cfg(feature = "json")]
    #[test]
    fn large_tails_move_out_in_steps_and_keep_what_lies_below() {
        let bump = bumpalo::Bump::new();
        let below = KEEP_RESIDENT / 24;
        // A few steps each, of elements and of pairs.
        let tail = 3 * MOVE_STEP / 24 + 1;
        let mut frame = ScratchVec::<[u64; 3]>::new(None).unwrap();
        for i in 0..(below + 3 * tail) as u64 {
            frame.push([i, !i, i % 7]).unwrap();
        }
        #[cfg(unix)]
        let releases = thread_page_releases();
        let pairs = frame.move_pairs_into(below + tail, &bump).unwrap();
        assert_eq!(pairs.len(), tail);
        for (k, (a, b)) in pairs.iter().enumerate() {
            let i = (below + tail + 2 * k) as u64;
            assert_eq!((*a, *b), ([i, !i, i % 7], [i + 1, !(i + 1), (i + 1) % 7]));
        }
        let slice = frame.move_tail_into(below, &bump).unwrap();
        assert_eq!(slice.len(), tail);
        for (k, e) in slice.iter().enumerate() {
            let i = (below + k) as u64;
            assert_eq!(*e, [i, !i, i % 7]);
        }
        #[cfg(unix)]
        assert!(thread_page_releases() > releases);
        assert_eq!(frame.len(), below);
        let rest = frame.finish_in(&bump).unwrap();
        assert!(rest.iter().enumerate().all(|(i, e)| e[0] == i as u64));
        STACK.with(|s| assert_eq!((s.len.get(), s.top.get()), (0, 0)));

        #[derive(Clone, Copy, PartialEq, Debug)]
        #[repr(align(64))]
        struct Wide(u8);
        let mut heap = ScratchVec::new(None).unwrap();
        for i in 0..9 {
            heap.push(Wide(i)).unwrap();
        }
        let pairs = heap.move_pairs_into(5, &bump).unwrap();
        assert_eq!(pairs, [(Wide(5), Wide(6)), (Wide(7), Wide(8))]);
        assert!(pairs.as_ptr().is_aligned());
        assert_eq!(
            heap.move_tail_into(2, &bump).unwrap(),
            [Wide(2), Wide(3), Wide(4)]
        );
        assert_eq!(heap.finish_in(&bump).unwrap(), [Wide(0), Wide(1)]);
    }
}
