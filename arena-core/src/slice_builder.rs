//! [`SliceBuilder`]: where the elements of a `&'bump [T]` go while its sequence is read, and
//! [`SliceVisitor`], which reads a sequence into one.
//!
//! Two places, chosen when the sequence opens:
//! - **straight into the arena**, when the format announces a length (postcard, bincode,
//!   MessagePack, CBOR with definite lengths) that the call trusts, or that the input bounds:
//!   one block of exactly that many elements is allocated up front and filled in place, so the
//!   sequence costs one bump and no copy. [`read_slice`] fills a block of a short trusted
//!   length (a record's tags) without a builder, and hands over to one only when the
//!   sequence turns out longer;
//! - **on the scratch stack** otherwise (JSON gives no length; a length past the trust is not
//!   taken at its word): elements collect outside the arena and are copied in once, at their
//!   exact size. Into a [`SlabArena`], a staged sequence that passes [`LOW_FROM`] bytes moves
//!   once to the low edge of the arena's current chunk and goes on growing there in place
//!   (see `slab_arena::low_edge`): the large top-level array of a document is then neither
//!   copied at its end nor held on the scratch stack. When the chunk has no room left for it,
//!   it goes back to the scratch stack.
//!
//!   A sequence read through [`read_slice`] or the JSON reader's arrays collects its first
//!   [`LOCAL_BYTES`] of elements in a buffer on the reading function's own stack, and opens a
//!   scratch frame only when it outgrows that: most sequences of a document are a few elements
//!   long (a record's tags, a pair of coordinates), and the buffer costs no frame to open or
//!   close, only the copy into the arena at the end that a staged sequence pays anyway.
//!
//! An announced length is only a claim. A direct block is charged to the byte budget when it is
//! taken; if the sequence turns out longer, its elements move to the scratch stack and the block
//! is abandoned; if shorter, its tail stays unused. Either way the waste is bounded:
//! - **Trust is earned**, by announced lengths that proved true, and lost by one that proved
//!   false; see [`call::trust`](crate::call::trust) for the rule and how a stream of calls
//!   carries it ([`LengthTrust`](crate::LengthTrust)).
//! - **Or the input bounds the length.** A call that reads a slice through a format's entry
//!   point knows its size, and a sequence of non-zero-sized elements cannot hold more
//!   elements than the input has bytes left, each taking at least one (a sequence claiming
//!   more fails the call, whose arena is rewound). So a length up to the input's size goes
//!   straight in, the large top-level sequence of a big document included, with no trust
//!   earned first; nested sequences share the input's bytes
//!   ([`InputClaim`](crate::call::InputClaim)). A lie within that bound reserves address
//!   space for the elements it claims, charged to the byte budget, but only the elements the
//!   input really holds are written, so it makes no more memory resident than staging them
//!   would.
//! - **Nested claims share one bound.** The blocks of all sequences open at once on a thread
//!   (each nested inside the previous) hold at most [`DIRECT_PENDING_MAX`] bytes together, or
//!   the trust if larger, so an input of nested headers each claiming many elements reserves
//!   that much at most, not once per level.

use core::alloc::Layout;
use core::fmt;
use core::marker::PhantomData;
use core::mem::{MaybeUninit, size_of};
use core::ptr::NonNull;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::allocator::{AllocError, BumpAllocator, BumpAllocatorExt};
#[cfg(feature = "json")]
use crate::arena_deserialize::ArenaDeserialize;
use crate::call::{self, DepthGuard, InputClaim, PendingGuard, trust};
use crate::limits::LimitHit;
use crate::scratch::ScratchVec;
use crate::slab_arena::SlabArena;
use crate::slot::{SeedIntoSlot, Slot};

/// Largest total of direct blocks open at once on one thread (sequences nested in each other),
/// unless the trust is larger.
pub(crate) const DIRECT_PENDING_MAX: usize = 64 * 1024;

/// Bytes of elements from which a staged sequence read into a [`SlabArena`] moves to the low
/// edge of its current chunk, to grow there in place: a sequence this large costs a copy worth
/// saving, and smaller ones come and go on the scratch stack's warm memory.
const LOW_FROM: usize = 64 * 1024;

/// Bytes of elements a sequence without an announced length collects on its reader's own
/// stack ([`LocalBuf`]) before it opens a scratch frame.
pub(crate) const LOCAL_BYTES: usize = 256;

/// The stack buffer of [`SliceBuilder::open`]: [`LOCAL_BYTES`], aligned for any element of
/// alignment up to 8.
pub(crate) type LocalBuf = MaybeUninit<[u64; LOCAL_BYTES / 8]>;

/// Bytes a block at the low edge grows by at a time: small, since what it takes and does not
/// fill is lost if the arena moves to a new chunk before the block closes.
const LOW_STEP: usize = 16 * 1024;

/// Why an element could not be added.
#[derive(Debug)]
pub(crate) enum BuildError {
    Alloc(AllocError),
    Limit(LimitHit),
}

impl From<AllocError> for BuildError {
    fn from(e: AllocError) -> Self {
        Self::Alloc(e)
    }
}

impl From<LimitHit> for BuildError {
    fn from(e: LimitHit) -> Self {
        Self::Limit(e)
    }
}

impl BuildError {
    /// The format's error for it.
    #[cold]
    pub(crate) fn into_de<E: serde::de::Error>(self) -> E {
        match self {
            Self::Alloc(e) => e.into_de(),
            Self::Limit(e) => e.into_de(),
        }
    }
}

/// The elements of one sequence being read; see the module docs.
pub(crate) struct SliceBuilder<'bump, T> {
    place: Place<'bump, T>,
    /// The direct block borrows the arena for `'bump`.
    marker: PhantomData<&'bump ()>,
}

enum Place<'bump, T> {
    /// A block with room for `cap` elements, the first `len` written: in the arena, or the
    /// reader's stack buffer when its hold is [`Hold::Local`].
    Direct {
        ptr: NonNull<T>,
        cap: usize,
        len: usize,
        /// What the block was taken on, given back when it is no longer open.
        hold: Hold<'bump>,
    },
    Scratch {
        items: ScratchVec<T>,
        /// The length the format announced, if any: when it proves true, the call trusts
        /// larger blocks.
        announced: Option<usize>,
        /// Length up to which pushing needs no check: the length limit and the byte budget as
        /// they were when last checked (the budget only shrinks, so past this the real check
        /// runs again, and the final copy is charged in any case), and [`LOW_FROM`] while
        /// `low` is set.
        unchecked_up_to: usize,
        /// The arena, if it is a [`SlabArena`] whose low edge the elements may move to once
        /// they pass [`LOW_FROM`] bytes; `None` once they tried.
        low: Option<&'bump SlabArena>,
    },
    /// Finished: the elements are handed out, the block's hold or the scratch frame given
    /// back.
    Done,
}

/// What a direct block was taken on.
enum Hold<'bump> {
    /// The trust: its bytes count in the call's open direct bytes.
    Trust(#[expect(dead_code, reason = "held for its Drop")] PendingGuard),
    /// The input's size: its elements count in the call's input claims.
    Input(#[expect(dead_code, reason = "held for its Drop")] InputClaim),
    /// A staged sequence moved to the low edge of a [`SlabArena`]'s current chunk.
    Low(LowBlock<'bump>),
    /// Nothing: the block is the reader's stack buffer ([`SliceBuilder::open`]), its
    /// elements copied into the arena when the sequence ends. The arena, if it is a
    /// [`SlabArena`], for the low edge once the elements outgrow the buffer.
    Local(Option<&'bump SlabArena>),
}

/// The open block of a sequence at the low edge of a [`SlabArena`]'s current chunk (see
/// `slab_arena::low_edge`): closed when the sequence finishes, given back whole when its
/// elements move to the scratch stack. A sequence abandoned by an error leaves it open: the
/// failed call rewinds its arena, which closes it with everything else allocated since its
/// checkpoint (no `Drop` here, which would put a call into every builder's drop).
struct LowBlock<'bump> {
    arena: &'bump SlabArena,
    /// The block's start: the sequence's first element.
    start: NonNull<u8>,
    /// The block's end, where it grows from.
    end: NonNull<u8>,
    /// The length the format announced, if any, judged when the sequence ends as a staged
    /// one's is.
    announced: Option<usize>,
}

impl LowBlock<'_> {
    /// Grows the block of `cap` elements of `T` by up to [`LOW_STEP`] bytes, within the room
    /// its chunk has and the call's limits; the new capacity, or `None` when it cannot grow
    /// (no room, or its chunk is no longer the arena's current one).
    ///
    /// # Errors
    ///
    /// The limit hit when the limits allow no more elements.
    fn grow<T>(&mut self, cap: usize) -> Result<Option<usize>, BuildError> {
        let size = size_of::<T>();
        let allowed = call::len_allowed(size);
        if allowed <= cap {
            call::check_len(cap + 1, size)?;
        }
        let room = self.arena.low_room(self.end).unwrap_or(0) / size;
        let extra = (LOW_STEP / size)
            .max(1)
            .min(room)
            .min(allowed.saturating_sub(cap));
        // `extra * size` is at most the room, so no overflow.
        if extra == 0 || !self.arena.extend_low(self.end, extra * size) {
            return Ok(None);
        }
        // SAFETY: the block was just extended by `extra * size` bytes past `end`.
        self.end = unsafe { self.end.add(extra * size) };
        Ok(Some(cap + extra))
    }

    /// Closes the block as the slice of its first `len` elements of `T`: the rest goes back to
    /// the arena if it can.
    fn close<T>(&self, len: usize) {
        // SAFETY: the first `len` elements are the slice being handed out, inside the block
        // (the arena's `take_low` and `extend_low` made `start..end` the open block); the
        // bytes past them are never used.
        unsafe {
            let keep_to = self.start.cast::<T>().add(len).cast();
            self.arena.close_low(keep_to, self.end);
        }
    }
}

impl<'bump, T> Place<'bump, T> {
    /// A scratch place holding `items`, of a sequence announced as `announced` long, that may
    /// move to `low`'s low edge.
    #[inline(always)]
    fn scratch(
        items: ScratchVec<T>,
        announced: Option<usize>,
        low: Option<&'bump SlabArena>,
    ) -> Self {
        let allowed = call::len_allowed(size_of::<T>());
        // Zero-sized elements take no memory to move.
        let low = low.filter(|_| size_of::<T>() != 0);
        let unchecked_up_to = match low {
            Some(_) => allowed.min((LOW_FROM / size_of::<T>()).max(1)),
            None => allowed,
        };
        Place::Scratch {
            unchecked_up_to,
            items,
            announced,
            low,
        }
    }
}

impl<'bump, T> SliceBuilder<'bump, T> {
    /// Opens a sequence announced as `hint` elements long: a direct arena block if `direct` is
    /// allowed and the call trusts a block that large, else a scratch frame.
    #[inline(always)]
    pub(crate) fn new<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        hint: Option<usize>,
        direct: bool,
    ) -> Result<Self, BuildError> {
        // SAFETY: no buffer is given.
        unsafe { Self::open(arena, hint, direct, None) }
    }

    /// Opens a sequence as [`new`](Self::new) does, but one that announces no length in
    /// `local`, its reader's stack buffer, when the buffer holds at least two elements of `T`
    /// and the call's limits allow as many.
    ///
    /// # Safety
    ///
    /// `local`, if given, outlives the builder and is not used otherwise while the builder is
    /// alive.
    #[inline(always)]
    pub(crate) unsafe fn open<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        hint: Option<usize>,
        direct: bool,
        local: Option<&mut LocalBuf>,
    ) -> Result<Self, BuildError> {
        if direct && let Some(n) = hint {
            // `n * size` cannot overflow once `n` is at most `trust::FLOOR / size`.
            let bytes = if size_of::<T>() == 0 {
                0
            } else if n <= trust::FLOOR / size_of::<T>() {
                n * size_of::<T>()
            } else {
                trusted_bytes::<T>(n).unwrap_or(usize::MAX)
            };
            if bytes != usize::MAX
                && let Some(pending) =
                    PendingGuard::take(n, size_of::<T>(), bytes, DIRECT_PENDING_MAX)
            {
                // The block's bytes are charged; on error `pending` drops here and gives them
                // back to the open direct bytes.
                let pending = pending?;
                let ptr = if bytes == 0 {
                    NonNull::dangling()
                } else {
                    // The layout exists: `bytes` is small.
                    let layout = Layout::array::<T>(n)
                        .map_err(|_| AllocError::size_overflow(align_of::<T>()))?;
                    arena.try_alloc_layout(layout)?.cast::<T>()
                };
                return Ok(Self::direct(ptr, n, Hold::Trust(pending)));
            }
            if let Some((ptr, claim)) = on_input::<T, A>(arena, n) {
                return Ok(Self::direct(ptr, n, Hold::Input(claim)));
            }
            // A length the call does not take at its word: staged, out of line, so that the
            // sequences of formats that announce lengths keep their direct path small.
            return Ok(Self {
                place: Place::scratch(
                    ScratchVec::new_out_of_line(hint)?,
                    hint,
                    arena.as_slab_arena(),
                ),
                marker: PhantomData,
            });
        }
        // No length (JSON): the reader's stack buffer if it was given one and the elements fit
        // it, else staged, the frame opened inline (returned from a call, it would be copied
        // into the builder right after the callee's stores, and stall on them).
        let (size, align) = (size_of::<T>(), align_of::<T>());
        if let Some(buf) = local
            && hint.is_none()
            && size != 0
            && size <= LOCAL_BYTES / 2
            && align <= align_of::<LocalBuf>()
            && call::len_allowed(size) >= LOCAL_BYTES / size
        {
            let ptr = NonNull::from(buf).cast::<T>();
            let cap = LOCAL_BYTES / size;
            return Ok(Self::direct(ptr, cap, Hold::Local(arena.as_slab_arena())));
        }
        Ok(Self {
            place: Place::scratch(ScratchVec::new(hint)?, hint, arena.as_slab_arena()),
            marker: PhantomData,
        })
    }

    /// A builder filling the block `ptr` of `cap` elements, taken on `hold`.
    #[inline(always)]
    fn direct(ptr: NonNull<T>, cap: usize, hold: Hold<'bump>) -> Self {
        Self {
            place: Place::Direct {
                ptr,
                cap,
                len: 0,
                hold,
            },
            marker: PhantomData,
        }
    }

    /// Number of elements added.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match &self.place {
            Place::Direct { len, .. } => *len,
            Place::Scratch { items, .. } => items.len(),
            Place::Done => 0,
        }
    }

    /// Appends `value`, checking the length limit and the byte budget.
    #[inline(always)]
    pub(crate) fn push(&mut self, value: T) -> Result<(), BuildError> {
        self.push_with(|| value)
    }

    /// Appends the value `make` returns, made once there is room for it, as
    /// [`ScratchVec::push_with`] does: a value made inline (a scalar just read) is then
    /// written where it goes, not copied from the stack.
    #[inline(always)]
    pub(crate) fn push_with(&mut self, make: impl FnOnce() -> T) -> Result<(), BuildError> {
        match &mut self.place {
            Place::Direct { ptr, cap, len, .. } if *len < *cap => {
                // SAFETY: `ptr` is a block of `cap` elements of `T` (dangling only for
                // zero-sized `T`, where writes need no memory), and slot `len < cap` is unused.
                unsafe { ptr.add(*len).write(make()) };
                *len += 1;
                // The length limit and the budget were checked for `cap` elements when the
                // block was taken.
                Ok(())
            }
            Place::Direct { .. } => self.spill(make()).map(drop),
            Place::Scratch {
                items,
                unchecked_up_to,
                ..
            } => {
                items.push_with(make)?;
                if items.len() > *unchecked_up_to {
                    self.past_unchecked()?;
                }
                Ok(())
            }
            Place::Done => unreachable!("a finished builder takes no more elements"),
        }
    }

    /// Appends the element `next` just wrote at `src`, as [`push`](Self::push), copied a word
    /// at a time ([`copy_fresh`](crate::scratch::copy_fresh)).
    ///
    /// # Safety
    ///
    /// `src` holds an initialized `T`, which the caller gives up.
    #[inline(always)]
    unsafe fn push_fresh(&mut self, src: &MaybeUninit<T>) -> Result<(), BuildError> {
        match &mut self.place {
            Place::Scratch {
                items,
                unchecked_up_to,
                ..
            } => {
                // SAFETY: the caller's promise.
                unsafe { items.push_fresh(src)? };
                if items.len() > *unchecked_up_to {
                    self.past_unchecked()?;
                }
                Ok(())
            }
            // SAFETY: the caller's promise.
            _ => self.push(unsafe { src.assume_init_read() }),
        }
    }

    /// Appends every element of `seq`, read with `elem`.
    #[inline(always)]
    pub(crate) fn extend_from_seq<'de, S, E>(
        &mut self,
        seq: &mut S,
        elem: E,
    ) -> Result<(), S::Error>
    where
        S: SeqAccess<'de>,
        E: SeedIntoSlot<'de, Value = T> + Copy,
    {
        // SAFETY: `Elements::next` returns `Ok(true)` only when `next_element_seed` returned
        // `Some`, that is when `SlotSeed::deserialize` returned `Ok`, which it does only after
        // writing the slot.
        unsafe { self.fill(Elements { seq, elem }) }
    }

    /// Appends the elements `next` writes, one per call, until it writes none.
    ///
    /// This is the loop of every sequence. `next` writes each element into its slot itself
    /// (for a direct block, its place in the block), so an element goes from the function that
    /// read it to its place as one value of its type: returned as an `Option` inside the
    /// format's `Result`, it would be copied in pieces around that layout (the `Option`'s
    /// niche, the error's bytes) and the read of those pieces stalls on the writes before them.
    /// A direct block is filled by a loop of its own, the block's length in a local (a
    /// register) until the loop ends: a loop of [`push`](Self::push) would store and reload it
    /// through `self` for every element (the cold paths take `&mut self`, so the compiler
    /// keeps the builder in memory). When the block is full, or the elements go to the scratch
    /// stack, the next is written to a local slot and pushed, a word at a time (a copy's wider
    /// loads would stall on the element's narrow stores just made); a push that leaves the
    /// sequence in a block with room (a staged sequence moved to the low edge of a
    /// [`SlabArena`], or a low block that grew) returns to that loop, so such a block is
    /// written in place too.
    ///
    /// # Safety
    ///
    /// `next` returns `Ok(true)` only when it has initialized the slot it was given, and
    /// `Ok(false)` when there is no element.
    ///
    /// `next` is a [`Next`] rather than a closure so that its read is inlined at both of its
    /// calls here whatever the compiler's inlining budget: a closure called twice is inlined
    /// or not as the code around it grows, and a call per element is felt in every sequence.
    #[inline(always)]
    unsafe fn fill<E: serde::de::Error, N: Next<T, E>>(&mut self, mut next: N) -> Result<(), E> {
        loop {
            if let Place::Direct { ptr, cap, len, .. } = &mut self.place {
                let (ptr, cap) = (*ptr, *cap);
                let mut filled = *len;
                while filled < cap {
                    // SAFETY: `ptr` is a block of `cap` elements of `T` (dangling only for
                    // zero-sized `T`, where a slot needs no memory), and slot `filled < cap` is
                    // unused; `MaybeUninit<T>` has the layout of `T`.
                    let slot = unsafe { &mut *ptr.add(filled).as_ptr().cast::<MaybeUninit<T>>() };
                    match next.next(slot) {
                        Ok(true) => filled += 1,
                        Ok(false) => {
                            *len = filled;
                            return Ok(());
                        }
                        Err(e) => {
                            *len = filled;
                            return Err(e);
                        }
                    }
                }
                *len = filled;
            }
            let mut slot = MaybeUninit::uninit();
            if !next.next(&mut slot)? {
                return Ok(());
            }
            if N::COPY_FRESH {
                // SAFETY: `next` returned `Ok(true)`, so it initialized `slot` (the caller's
                // promise); it is moved once.
                unsafe { self.push_fresh(&slot) }
            } else {
                // SAFETY: as above.
                self.push(unsafe { slot.assume_init_read() })
            }
            .map_err(BuildError::into_de)?;
        }
    }

    /// A direct block is full: a block at the low edge grows if it can; any other block's
    /// elements (and those of a low one that cannot grow) move to the scratch stack. Then
    /// `value` is appended; `Ok(true)` when the block grew with room for the next element.
    #[cold]
    #[inline(never)]
    fn spill(&mut self, value: T) -> Result<bool, BuildError> {
        let Place::Direct {
            ptr,
            cap,
            len,
            hold,
        } = &mut self.place
        else {
            unreachable!("only a direct block spills");
        };
        let (ptr, filled) = (*ptr, *len);
        // The announced length, if any, and the arena's low edge for a sequence that outgrew
        // its reader's buffer.
        let (announced, low) = match hold {
            Hold::Low(low) => {
                if let Some(grown) = low.grow::<T>(*cap)? {
                    // SAFETY: the block has room for `grown > cap >= filled` elements, and
                    // slot `filled` is unused.
                    unsafe { ptr.add(filled).write(value) };
                    *cap = grown;
                    *len = filled + 1;
                    return Ok(*len < grown);
                }
                (low.announced, None)
            }
            Hold::Trust(_) | Hold::Input(_) => {
                // The announced length proved false, so it is forgotten.
                trust::lose();
                (None, None)
            }
            // Nothing was announced.
            Hold::Local(low) => (None, *low),
        };
        let mut items = ScratchVec::new(Some(filled.saturating_mul(2)))?;
        for i in 0..filled {
            // SAFETY: slots `0..filled` were written by `push` and are each read once; the
            // block is abandoned right after (its elements are moved, never dropped twice:
            // nothing in an arena is dropped).
            items.push(unsafe { ptr.add(i).read() })?;
        }
        items.push(value)?;
        call::check_len(items.len(), size_of::<T>())?;
        if let Hold::Low(low) = hold {
            // Its elements moved out: none of it is kept.
            low.close::<T>(0);
        }
        // Dropping the old place gives a direct block back: its pending bytes or its input
        // claim.
        self.place = Place::scratch(items, announced, low);
        Ok(false)
    }

    /// A staged sequence passed the length up to which pushing needs no check: the limits are
    /// checked, and past [`LOW_FROM`] bytes the elements move to the low edge of the arena's
    /// current chunk if it is a [`SlabArena`] with the room; `Ok(true)` when they did.
    #[cold]
    #[inline(never)]
    fn past_unchecked(&mut self) -> Result<bool, BuildError> {
        let Place::Scratch {
            items,
            announced,
            unchecked_up_to,
            low,
        } = &mut self.place
        else {
            unreachable!("only a staged sequence is checked");
        };
        let len = items.len();
        call::check_len(len, size_of::<T>())?;
        if let Some(arena) = low.take() {
            let cap = len
                .saturating_add((LOW_STEP / size_of::<T>()).max(1))
                .min(call::len_allowed(size_of::<T>()))
                .max(len);
            if let Ok(layout) = Layout::array::<T>(cap)
                && let Some(start) = arena.take_low(layout)
            {
                let ptr = start.cast::<T>();
                // SAFETY: the block has room for `cap >= len` elements, aligned, and lies in
                // the arena, disjoint from the scratch stack.
                unsafe { items.move_to(ptr.as_ptr()) };
                // What an earlier document staged past this point need not stay resident:
                // sequences this long no longer come here.
                items.release_past(2 * LOW_FROM);
                let block = LowBlock {
                    arena,
                    start,
                    // SAFETY: the block is `cap` elements long.
                    end: unsafe { ptr.add(cap) }.cast(),
                    announced: *announced,
                };
                // Dropping the scratch place closes its frame, empty now.
                self.place = Place::Direct {
                    ptr,
                    cap,
                    len,
                    hold: Hold::Low(block),
                };
                return Ok(cap > len);
            }
        }
        *unchecked_up_to = call::len_allowed(size_of::<T>());
        Ok(false)
    }

    /// The finished slice: the direct block (its unused tail, if any, stays behind), or the
    /// scratch elements copied into the arena at their exact size, charged to the budget.
    /// Leaves the builder finished: its block's hold or its scratch frame is given back
    /// here. By reference: a builder moved into the call is copied first, in wide loads that
    /// stall on the narrow stores of the last `push` (felt once per array or object of a
    /// document of small ones).
    #[inline(always)]
    #[expect(
        clippy::mut_from_ref,
        reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
    )]
    pub(crate) fn finish<A: BumpAllocator + ?Sized>(
        &mut self,
        arena: &'bump A,
    ) -> Result<&'bump mut [T], BuildError>
    where
        T: 'bump,
    {
        let out = match &mut self.place {
            &mut Place::Direct {
                ptr,
                cap,
                len,
                hold: Hold::Trust(_) | Hold::Input(_),
            } => {
                trust::judge::<T>(cap, len);
                // SAFETY: the first `len` slots of the block were written by `push`; the block
                // lives as long as the arena borrow `'bump` and is handed out only here (the
                // builder is finished right after, and forgets it).
                Ok(unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr(), len) })
            }
            &mut Place::Direct {
                ptr,
                len,
                hold: Hold::Low(ref low),
                ..
            } => finish_low(ptr, len, low),
            &mut Place::Direct {
                ptr,
                len,
                hold: Hold::Local(_),
                ..
            } => finish_local(ptr, len, arena),
            Place::Scratch {
                items, announced, ..
            } => finish_scratch(items, *announced, arena),
            Place::Done => Ok(&mut [][..]),
        };
        self.place = Place::Done;
        out
    }

    /// The elements as a scratch vector (moving them out of a direct block if need be), for
    /// containers that are built from the count (the hashbrown maps and sets).
    #[cfg(feature = "hashbrown")]
    pub(crate) fn into_scratch(self) -> Result<ScratchVec<T>, BuildError> {
        match self.place {
            Place::Scratch { items, .. } => Ok(items),
            Place::Done => Ok(ScratchVec::new(None)?),
            Place::Direct { ptr, len, hold, .. } => {
                let mut items = ScratchVec::new(Some(len))?;
                for i in 0..len {
                    // SAFETY: as in `spill`.
                    items.push(unsafe { ptr.add(i).read() })?;
                }
                if let Hold::Low(low) = hold {
                    low.close::<T>(0);
                }
                Ok(items)
            }
        }
    }
}

impl<K, V> SliceBuilder<'_, (K, V)> {
    /// Appends every entry of `map` as a `(key, value)` pair, read with `key` and `value`.
    #[inline(always)]
    pub(crate) fn extend_from_map<'de, M, KS, VS>(
        &mut self,
        map: &mut M,
        key: KS,
        value: VS,
    ) -> Result<(), M::Error>
    where
        M: MapAccess<'de>,
        KS: DeserializeSeed<'de, Value = K> + Copy,
        VS: DeserializeSeed<'de, Value = V> + Copy,
    {
        // SAFETY: `Entries::next` returns `Ok(true)` only right after writing the slot.
        unsafe { self.fill(Entries { map, key, value }) }
    }
}

/// The scratch elements copied into the arena at their exact size, charged to the budget; out
/// of line, so that finishing a direct block stays a few instructions where it is inlined.
#[inline(never)]
fn finish_scratch<'bump, T: 'bump, A: BumpAllocator + ?Sized>(
    items: &mut ScratchVec<T>,
    announced: Option<usize>,
    arena: &'bump A,
) -> Result<&'bump mut [T], BuildError> {
    if let Some(announced) = announced {
        trust::judge::<T>(announced, items.len());
    }
    // `len * size` cannot overflow: the elements exist on the scratch stack.
    call::charge(items.len() * size_of::<T>())?;
    Ok(items.move_into(arena)?)
}

/// The slice of the `len` elements at `ptr`, in its reader's stack buffer, copied into the
/// arena at their exact size and charged to the budget; out of line as [`finish_scratch`] is
/// (inlined, it would cost the sequences of formats that announce lengths a few
/// instructions each, in every sequence's code).
#[inline(never)]
#[expect(
    clippy::mut_from_ref,
    reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
)]
fn finish_local<'bump, T: 'bump, A: BumpAllocator + ?Sized>(
    ptr: NonNull<T>,
    len: usize,
    arena: &'bump A,
) -> Result<&'bump mut [T], BuildError> {
    // `len * size` is at most `LOCAL_BYTES`.
    call::charge(len * size_of::<T>())?;
    let dst = arena.try_alloc_uninit_slice::<T>(len)?;
    // SAFETY: the first `len` elements of the buffer were written by `fill` and are moved
    // once (the builder finishes right after, and forgets them); `dst` is a fresh block of
    // `len` elements (dangling when empty, where nothing is copied), in the arena for `'bump`,
    // disjoint from the stack buffer; after the copy every element is initialised.
    unsafe {
        core::ptr::copy_nonoverlapping(ptr.as_ptr(), dst.as_mut_ptr().cast::<T>(), len);
        Ok(&mut *(core::ptr::from_mut(dst) as *mut [T]))
    }
}

/// The slice of a sequence's first `len` elements at `ptr`, in its low block: charged to the
/// budget, the block closed; out of line as [`finish_scratch`] is.
#[inline(never)]
fn finish_low<'bump, T: 'bump>(
    ptr: NonNull<T>,
    len: usize,
    low: &LowBlock<'bump>,
) -> Result<&'bump mut [T], BuildError> {
    if let Some(announced) = low.announced {
        trust::judge::<T>(announced, len);
    }
    // `len * size` cannot overflow: the elements exist in the block. On error the block is
    // abandoned, and the failed call's rewind frees it.
    call::charge(len * size_of::<T>())?;
    low.close::<T>(len);
    // SAFETY: the first `len` elements of the block were written by `push`; the block lives in
    // the arena for `'bump` and is handed out only here (the builder finishes right after).
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr(), len) })
}

/// A direct block of `n` elements taken on the input's word (see the module docs), if the
/// call's input claims have `n` left, the limits allow it and the arena gives it; otherwise
/// the sequence is staged, and a claim the input cannot fill fails there, as it would anyway.
#[inline(never)]
fn on_input<T, A: BumpAllocator + ?Sized>(arena: &A, n: usize) -> Option<(NonNull<T>, InputClaim)> {
    if size_of::<T>() == 0 {
        return None;
    }
    let claim = InputClaim::take(n)?;
    let bytes = n.checked_mul(size_of::<T>())?;
    call::check_len(n, size_of::<T>()).ok()?;
    let ptr = arena.try_alloc_layout(Layout::array::<T>(n).ok()?).ok()?;
    // Cannot fail: `check_len` saw `bytes` within the budget, and nothing was charged since.
    call::charge(bytes).ok()?;
    Some((ptr.cast::<T>(), claim))
}

/// Bytes of a direct block of `n` elements past the floor, if the call trusts that many.
#[inline(never)]
fn trusted_bytes<T>(n: usize) -> Option<usize> {
    let bytes = n.checked_mul(size_of::<T>())?;
    (bytes <= trust::current()).then_some(bytes)
}

/// What [`SliceBuilder::fill`] calls once per element: reads the next element into `slot`,
/// `Ok(true)` once it is written, `Ok(false)` when there is none.
trait Next<T, E> {
    /// Whether an element written to a local slot is moved to its place a word at a time
    /// ([`copy_fresh`](crate::scratch::copy_fresh)), where a copy's wider loads would wait
    /// on the read's last narrow stores. Measured per reader: the crate's JSON reader gains
    /// from it, and serde's sequences (postcard, MessagePack) lose a few percent.
    const COPY_FRESH: bool = false;

    /// Reads the next element into `slot`.
    fn next(&mut self, slot: &mut MaybeUninit<T>) -> Result<bool, E>;
}

/// The elements of a sequence, each read with `elem`.
struct Elements<'a, S, E> {
    seq: &'a mut S,
    elem: E,
}

impl<'de, S, E> Next<E::Value, S::Error> for Elements<'_, S, E>
where
    S: SeqAccess<'de>,
    E: SeedIntoSlot<'de> + Copy,
{
    #[inline(always)]
    fn next(&mut self, slot: &mut MaybeUninit<E::Value>) -> Result<bool, S::Error> {
        let elem = self.elem;
        Ok(self
            .seq
            .next_element_seed(SlotSeed { elem, slot })?
            .is_some())
    }
}

/// The entries of a map, each read as a pair with `key` and `value`.
struct Entries<'a, M, KS, VS> {
    map: &'a mut M,
    key: KS,
    value: VS,
}

impl<'de, M, KS, VS> Next<(KS::Value, VS::Value), M::Error> for Entries<'_, M, KS, VS>
where
    M: MapAccess<'de>,
    KS: DeserializeSeed<'de> + Copy,
    VS: DeserializeSeed<'de> + Copy,
{
    #[inline(always)]
    fn next(&mut self, slot: &mut MaybeUninit<(KS::Value, VS::Value)>) -> Result<bool, M::Error> {
        let Some(k) = self.map.next_key_seed(self.key)? else {
            return Ok(false);
        };
        let v = self.map.next_value_seed(self.value)?;
        slot.write((k, v));
        Ok(true)
    }
}

/// A seed reading one element with `elem` into `slot`; see [`SliceBuilder::fill`] for why.
struct SlotSeed<'s, 'de, E: DeserializeSeed<'de>> {
    elem: E,
    slot: &'s mut MaybeUninit<E::Value>,
}

impl<'de, E: SeedIntoSlot<'de>> DeserializeSeed<'de> for SlotSeed<'_, 'de, E> {
    type Value = ();

    /// Writes the element into the slot, and returns `Ok` only then.
    #[inline(always)]
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        // A `Filled` of this brand comes only from writing this slot.
        self.elem
            .deserialize_into(deserializer, Slot::new(self.slot))
            .map(drop)
    }
}

/// Reads every element of `seq` with `elem` (a seed for the element type) into an arena slice
/// of their exact size, inside one more level of depth; `direct` lets a trusted announced
/// length go straight into the arena (see [`SliceBuilder`]).
#[inline]
#[expect(
    clippy::mut_from_ref,
    reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
)]
pub(crate) fn read_slice<'de, 'bump, S, E, A>(
    arena: &'bump A,
    mut seq: S,
    elem: E,
    direct: bool,
) -> Result<&'bump mut [E::Value], S::Error>
where
    S: SeqAccess<'de>,
    E: SeedIntoSlot<'de> + Copy,
    E::Value: 'bump,
    A: BumpAllocator + ?Sized,
{
    // The body of `collect`, not a call to it: a builder returned through a `Result` is
    // copied through the stack (the cold paths take `&mut self`, so it lives in memory), once
    // per sequence, and reading its fields back stalls on the copy.
    let _level = DepthGuard::enter::<S::Error>()?;
    let hint = seq.size_hint();
    if direct
        && let Some(n) = hint
        && let Some(block) = short_trusted_block::<E::Value, A>(arena, n)
    {
        // The common sequence of a format that announces lengths (a record's tags, a pair of
        // coordinates): its block filled with its length, pointer and hold in registers, and
        // no builder, whose place lives in memory (its cold paths take `&mut self`) and is
        // matched again to finish.
        let (ptr, pending) = block.map_err(BuildError::into_de)?;
        let mut next = Elements {
            seq: &mut seq,
            elem,
        };
        let mut extra = MaybeUninit::uninit();
        let mut filled = 0;
        loop {
            let slot = if filled < n {
                // SAFETY: `ptr` is a block of `n` elements of `E::Value`, and slot
                // `filled < n` is unused; `MaybeUninit<T>` has the layout of `T`.
                unsafe { &mut *ptr.add(filled).as_ptr().cast::<MaybeUninit<E::Value>>() }
            } else {
                &mut extra
            };
            if !next.next(slot)? {
                break;
            }
            if filled == n {
                // SAFETY: the block's `n` slots are written, and `next` returned `true`
                // for `extra`, so it initialized it (see `Elements::next`).
                return unsafe { read_past_announced(arena, ptr, n, pending, &extra, next) };
            }
            filled += 1;
        }
        trust::judge::<E::Value>(n, filled);
        drop(pending);
        // SAFETY: the first `filled` slots of the block were written just above; the block
        // lives as long as the arena borrow `'bump` and is handed out only here.
        return Ok(unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr(), filled) });
    }
    let mut buf = LocalBuf::uninit();
    // SAFETY: `buf` is declared before `items`, so it outlives it, and is used only through it.
    let mut items = unsafe { SliceBuilder::open(arena, hint, direct, Some(&mut buf)) }
        .map_err(BuildError::into_de)?;
    items.extend_from_seq(&mut seq, elem)?;
    finish(&mut items, arena)
}

/// A block of `n` elements of `T` in `arena`, taken on the trust, when `n` is short enough
/// that its bytes need no overflow check (at most the trust's floor): what
/// [`SliceBuilder::open`] takes for such a length, or `None` where it would not take one
/// (zero-sized `T`, a longer length, a length the limits or the open direct bytes refuse).
#[inline(always)]
fn short_trusted_block<T, A: BumpAllocator + ?Sized>(
    arena: &A,
    n: usize,
) -> Option<Result<(NonNull<T>, PendingGuard), BuildError>> {
    if size_of::<T>() == 0 || n > trust::FLOOR / size_of::<T>() {
        return None;
    }
    // Cannot overflow: `n` is at most `trust::FLOOR / size`.
    let bytes = n * size_of::<T>();
    let pending = PendingGuard::take(n, size_of::<T>(), bytes, DIRECT_PENDING_MAX)?;
    Some(pending.map_err(BuildError::from).and_then(|pending| {
        if bytes == 0 {
            return Ok((NonNull::dangling(), pending));
        }
        // The layout exists: `bytes` is small.
        let layout =
            Layout::array::<T>(n).map_err(|_| AllocError::size_overflow(align_of::<T>()))?;
        // On error `pending` drops here and gives its bytes back to the open direct bytes.
        Ok((arena.try_alloc_layout(layout)?.cast::<T>(), pending))
    }))
}

/// A sequence read by [`read_slice`] into a block of its announced length turned out longer:
/// the rest of it goes through a [`SliceBuilder`] holding that block full, which moves its
/// elements to the scratch stack (the length is forgotten, see [`trust::lose`]) with `extra`,
/// the element past the block, and reads the others there. Out of line: a format that
/// announces a wrong length is rare, and would otherwise put a second loop over the elements
/// into every sequence's code.
///
/// # Safety
///
/// `ptr` is a block in `arena` of `n` elements, where `n` is the length `pending` was taken
/// for, all written; `extra` is initialized, and is given up.
#[cold]
#[inline(never)]
#[expect(
    clippy::mut_from_ref,
    reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
)]
unsafe fn read_past_announced<'de, 'bump, S, E, A>(
    arena: &'bump A,
    ptr: NonNull<E::Value>,
    n: usize,
    pending: PendingGuard,
    extra: &MaybeUninit<E::Value>,
    next: Elements<'_, S, E>,
) -> Result<&'bump mut [E::Value], S::Error>
where
    S: SeqAccess<'de>,
    E: SeedIntoSlot<'de> + Copy,
    E::Value: 'bump,
    A: BumpAllocator + ?Sized,
{
    let mut items = SliceBuilder::direct(ptr, n, Hold::Trust(pending));
    if let Place::Direct { len, .. } = &mut items.place {
        *len = n;
    }
    // SAFETY: the caller's promise; `extra` is moved once.
    let extra = unsafe { extra.assume_init_read() };
    items.push(extra).map_err(BuildError::into_de)?;
    items.extend_from_seq(next.seq, next.elem)?;
    finish(&mut items, arena)
}

/// Reads every element of `seq` with `elem` as [`read_slice`] does, into a builder left open:
/// for containers built from the elements rather than a slice of them (hash maps and sets).
pub(crate) fn collect<'de, 'bump, S, E, A>(
    arena: &'bump A,
    mut seq: S,
    elem: E,
    direct: bool,
) -> Result<SliceBuilder<'bump, E::Value>, S::Error>
where
    S: SeqAccess<'de>,
    E: SeedIntoSlot<'de> + Copy,
    A: BumpAllocator + ?Sized,
{
    let _level = DepthGuard::enter::<S::Error>()?;
    let mut items =
        SliceBuilder::new(arena, seq.size_hint(), direct).map_err(BuildError::into_de)?;
    items.extend_from_seq(&mut seq, elem)?;
    Ok(items)
}

/// One entry of a map read with the seeds `K` and `V`.
type Entry<'de, K, V> = (
    <K as DeserializeSeed<'de>>::Value,
    <V as DeserializeSeed<'de>>::Value,
);

/// Reads every entry of `map` as a `(key, value)` pair, with `key` and `value` (seeds for the
/// two types), into an arena slice of their exact size, inside one more level of depth;
/// `direct` as for [`read_slice`].
#[inline]
pub(crate) fn read_entries<'de, 'bump, M, K, V, A>(
    arena: &'bump A,
    mut map: M,
    key: K,
    value: V,
    direct: bool,
) -> Result<&'bump mut [Entry<'de, K, V>], M::Error>
where
    M: MapAccess<'de>,
    K: DeserializeSeed<'de> + Copy,
    V: DeserializeSeed<'de> + Copy,
    K::Value: 'bump,
    V::Value: 'bump,
    A: BumpAllocator + ?Sized,
{
    // The body of `collect_entries`, for the reason `read_slice` gives.
    let _level = DepthGuard::enter::<M::Error>()?;
    let mut entries =
        SliceBuilder::new(arena, map.size_hint(), direct).map_err(BuildError::into_de)?;
    entries.extend_from_map(&mut map, key, value)?;
    finish(&mut entries, arena)
}

/// Reads every entry of `map` as [`read_entries`] does, into a builder left open, as
/// [`collect`] does.
#[cfg(feature = "hashbrown")]
pub(crate) fn collect_entries<'de, 'bump, M, K, V, A>(
    arena: &'bump A,
    mut map: M,
    key: K,
    value: V,
    direct: bool,
) -> Result<SliceBuilder<'bump, Entry<'de, K, V>>, M::Error>
where
    M: MapAccess<'de>,
    K: DeserializeSeed<'de> + Copy,
    V: DeserializeSeed<'de> + Copy,
    A: BumpAllocator + ?Sized,
{
    let _level = DepthGuard::enter::<M::Error>()?;
    let mut entries =
        SliceBuilder::new(arena, map.size_hint(), direct).map_err(BuildError::into_de)?;
    entries.extend_from_map(&mut map, key, value)?;
    Ok(entries)
}

/// Reads a `&[T]` from the crate's JSON reader: an array straight into a builder, each element
/// with `T`'s own direct path ([`ArenaDeserialize::__deserialize_json_into`]), by the steps
/// [`read_slice`] takes through the reader's serde path (the reader's level, then the call's,
/// then the builder); anything else, and the slices that are not sequences (bytes, a map),
/// through `T`'s slice hook.
#[cfg(feature = "json")]
#[inline]
#[expect(
    clippy::mut_from_ref,
    reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
)]
pub(crate) fn read_json_slice<'bump, T, A>(
    arena: &'bump A,
    reader: &mut crate::json::Reader<'_>,
) -> Result<&'bump mut [T], crate::json::Refused>
where
    T: ArenaDeserialize<'bump, A> + 'bump,
    A: BumpAllocator + ?Sized,
{
    use crate::json::{Array, Refused};

    if !T::__JSON_ARRAY_IS_SEQ {
        return T::__deserialize_slice(arena, reader);
    }
    let Some(mut array) = Array::open(&mut *reader)? else {
        return T::__deserialize_slice(arena, reader);
    };
    let slice = {
        let _level = DepthGuard::enter::<Refused>()?;
        if array.is_empty() {
            // Nothing to stage, copy or charge: no builder.
            &mut []
        } else {
            let mut buf = LocalBuf::uninit();
            // SAFETY: `buf` is declared before `items`, so it outlives it, and is used only
            // through it.
            let mut items = unsafe { SliceBuilder::open(arena, None, true, Some(&mut buf)) }
                .map_err(BuildError::into_de)?;
            // SAFETY: `JsonElements::next` returns `Ok(true)` only when
            // `__deserialize_json_into` returned `Ok`, which it does only with the `Filled` of
            // the slot it was given.
            unsafe {
                items.fill(JsonElements {
                    array: &mut array,
                    arena,
                    marker: PhantomData::<fn() -> T>,
                })?;
            }
            finish(&mut items, arena)?
        }
    };
    array.close()?;
    Ok(slice)
}

/// The elements of a JSON array, each read with its type's direct path.
#[cfg(feature = "json")]
struct JsonElements<'r, 'a, 'de, 'bump, T, A: ?Sized> {
    array: &'r mut crate::json::Array<'a, 'de>,
    arena: &'bump A,
    marker: PhantomData<fn() -> T>,
}

#[cfg(feature = "json")]
impl<'bump, T, A> Next<T, crate::json::Refused> for JsonElements<'_, '_, '_, 'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    const COPY_FRESH: bool = true;

    #[inline(always)]
    fn next(&mut self, slot: &mut MaybeUninit<T>) -> Result<bool, crate::json::Refused> {
        if !self.array.next()? {
            return Ok(false);
        }
        T::__deserialize_json_into(self.arena, self.array.reader(), Slot::new(slot))?;
        Ok(true)
    }
}

/// The finished slice of `items`, in the arena at its exact size, or the format's error.
#[inline(always)]
pub(crate) fn finish<'bump, T, A, E>(
    items: &mut SliceBuilder<'bump, T>,
    arena: &'bump A,
) -> Result<&'bump mut [T], E>
where
    T: 'bump,
    A: BumpAllocator + ?Sized,
    E: serde::de::Error,
{
    items.finish(arena).map_err(BuildError::into_de)
}

/// Visits a sequence into an exactly sized arena slice, reading each element with the seed
/// `elem`.
pub(crate) struct SliceVisitor<'bump, E, A: ?Sized> {
    arena: &'bump A,
    elem: E,
}

impl<'bump, E, A: ?Sized> SliceVisitor<'bump, E, A> {
    /// A visitor that reads the elements with `elem` into `arena`.
    #[inline]
    pub(crate) const fn new(arena: &'bump A, elem: E) -> Self {
        Self { arena, elem }
    }
}

impl<'de, 'bump, E, A> Visitor<'de> for SliceVisitor<'bump, E, A>
where
    E: SeedIntoSlot<'de> + Copy,
    E::Value: 'bump,
    A: BumpAllocator + ?Sized,
{
    type Value = &'bump mut [E::Value];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Self::Value, S::Error> {
        read_slice(self.arena, seq, self.elem, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch;

    /// This thread's open direct bytes.
    fn pending() -> usize {
        call::tests::pending()
    }

    #[test]
    fn announced_lengths_fill_the_arena_in_place() {
        let bump = bumpalo::Bump::new();
        let mut b = SliceBuilder::<u32>::new(&bump, Some(3), true).unwrap();
        for i in 0..3 {
            b.push(i).unwrap();
        }
        let used = bump.allocated_bytes() - bump.chunk_capacity();
        let s = b.finish(&bump).unwrap();
        assert_eq!(s, [0, 1, 2]);
        assert_eq!(
            bump.allocated_bytes() - bump.chunk_capacity(),
            used,
            "no copy"
        );
        assert_eq!(pending(), 0);
    }

    #[test]
    fn longer_than_announced_spills_shorter_keeps_a_prefix() {
        let bump = bumpalo::Bump::new();
        let mut b = SliceBuilder::<u64>::new(&bump, Some(2), true).unwrap();
        for i in 0..10 {
            b.push(i).unwrap();
        }
        assert_eq!(b.len(), 10);
        assert_eq!(b.finish(&bump).unwrap(), (0..10).collect::<Vec<_>>());
        let mut b = SliceBuilder::<u64>::new(&bump, Some(5), true).unwrap();
        b.push(7).unwrap();
        assert_eq!(b.finish(&bump).unwrap(), [7]);
        assert_eq!(pending(), 0);
    }

    #[test]
    fn extend_from_seq_fills_the_block_in_its_loop_then_spills_and_stops_at_an_error() {
        use serde::de::value::{Error, SeqDeserializer};
        let bump = bumpalo::Bump::new();
        let elem = crate::arena_deserialize::NestedSeed::<u8, _>::new(&bump);
        // Exactly as announced, shorter, and longer (the rest pushed after the spill).
        for (announced, real) in [(4, 4), (4, 2), (4, 9), (0, 3)] {
            let mut b = SliceBuilder::<u8>::new(&bump, Some(announced), true).unwrap();
            assert!(is_direct(&b));
            let mut seq = SeqDeserializer::<_, Error>::new(1..=real);
            b.extend_from_seq(&mut seq, elem).unwrap();
            assert_eq!(b.len(), usize::from(real));
            let expected: Vec<u8> = (1..=real).collect();
            assert_eq!(b.finish(&bump).unwrap(), expected);
        }
        // An error ends the loop with the elements read before it kept: 300 is no `u8`.
        let mut b = SliceBuilder::<u8>::new(&bump, Some(4), true).unwrap();
        let mut seq = SeqDeserializer::<_, Error>::new([1u16, 2, 300, 4].into_iter());
        let err = b.extend_from_seq(&mut seq, elem).unwrap_err();
        assert!(err.to_string().contains("300"), "{err}");
        assert_eq!(b.len(), 2);
        assert_eq!(b.finish(&bump).unwrap(), [1, 2]);
        assert_eq!(pending(), 0);
    }

    /// A sequence announcing `announced` elements, whatever `inner` holds.
    struct Announcing<S> {
        inner: S,
        announced: usize,
    }

    impl<'de, S: SeqAccess<'de>> SeqAccess<'de> for Announcing<S> {
        type Error = S::Error;

        fn next_element_seed<T: DeserializeSeed<'de>>(
            &mut self,
            seed: T,
        ) -> Result<Option<T::Value>, S::Error> {
            self.inner.next_element_seed(seed)
        }

        fn size_hint(&self) -> Option<usize> {
            Some(self.announced)
        }
    }

    #[test]
    fn read_slice_fills_a_short_announced_block_and_reads_past_a_wrong_length() {
        use serde::de::value::{Error, SeqDeserializer};
        let bump = bumpalo::Bump::new();
        let elem = crate::arena_deserialize::NestedSeed::<u16, _>::new(&bump);
        let read = |announced: usize, real: u16| {
            let seq = Announcing {
                inner: SeqDeserializer::<_, Error>::new(1..=real),
                announced,
            };
            read_slice(&bump, seq, elem, true).map(|s| s.to_vec())
        };
        // As announced, shorter, longer (the elements past the block read after it), none.
        for (announced, real) in [(4, 4), (4, 2), (4, 9), (1, 2), (0, 0), (0, 3), (3, 0)] {
            let (before, frames) = (trust::current(), scratch::frames_opened());
            let expected: Vec<u16> = (1..=real).collect();
            assert_eq!(
                read(announced, real).unwrap(),
                expected,
                "{announced} announced"
            );
            assert_eq!(pending(), 0, "{announced} announced, {real} read");
            // Only a sequence longer than its block is staged.
            let staged = scratch::frames_opened() != frames;
            assert_eq!(
                staged,
                usize::from(real) > announced,
                "{announced} announced"
            );
            if announced != usize::from(real) {
                // A wrong length is forgotten.
                assert_eq!(trust::current(), trust::FLOOR);
            } else {
                assert!(trust::current() >= before);
            }
        }
        // The trust's floor is the longest length read this way; one past it is read too.
        let n = trust::FLOOR / size_of::<u16>();
        for len in [n, n + 1] {
            let real = u16::try_from(len).unwrap();
            assert_eq!(read(len, real).unwrap().len(), len);
            assert_eq!(pending(), 0);
        }
        // An error ends the read and gives the block's bytes back: 70000 is no `u16`, inside
        // the block and past it.
        for at in [1, 5] {
            let mut values: Vec<u32> = (1..=6).collect();
            values[at] = 70_000;
            let seq = Announcing {
                inner: SeqDeserializer::<_, Error>::new(values.into_iter()),
                announced: 3,
            };
            let err = read_slice(&bump, seq, elem, true).unwrap_err();
            assert!(err.to_string().contains("70000"), "{err}");
            assert_eq!(pending(), 0);
        }
    }

    /// Reads `n` elements made by `make` through [`read_slice`], as a sequence that announces
    /// no length, into `bump`: whether it stayed in the reader's buffer (it opened no scratch
    /// frame), after checking the slice against the elements.
    fn stays_local<T>(bump: &bumpalo::Bump, n: usize, make: impl Fn(usize) -> T) -> bool
    where
        T: Copy
            + PartialEq
            + fmt::Debug
            + serde::de::IntoDeserializer<'static, serde::de::value::Error>,
        for<'b> T: crate::ArenaDeserialize<'b, bumpalo::Bump>,
    {
        use serde::de::value::{Error, SeqDeserializer};
        let elem = crate::arena_deserialize::NestedSeed::<T, _>::new(bump);
        let values: Vec<T> = (0..n).map(make).collect();
        // A filter gives no exact size, so the sequence announces no length.
        let seq = SeqDeserializer::<_, Error>::new(values.iter().copied().filter(|_| true));
        let frames = scratch::frames_opened();
        let read = read_slice(bump, seq, elem, true).unwrap();
        assert_eq!(read, &values[..], "{n} elements");
        scratch::frames_opened() == frames
    }

    #[test]
    fn a_sequence_without_a_length_stays_in_its_readers_buffer_until_it_outgrows_it() {
        let bump = bumpalo::Bump::new();
        for n in [0, 1, 2, 31, 32, 33, 64, 65, 200] {
            let local = stays_local(&bump, n, |i| i as u64 * 3);
            assert_eq!(local, n <= LOCAL_BYTES / 8, "{n} u64s");
        }
        for n in [0, 255, 256, 257, 600] {
            let local = stays_local(&bump, n, |i| i as u8);
            assert_eq!(local, n <= LOCAL_BYTES, "{n} u8s");
        }
        // The buffer is aligned for 8 bytes: `u128` stays in it only where its alignment is 8.
        for n in [15, 16, 17] {
            let local = stays_local(&bump, n, |i| i as u128);
            let fits = align_of::<u128>() <= 8 && n <= LOCAL_BYTES / 16;
            assert_eq!(local, fits, "{n} u128s");
        }
        // Zero-sized elements take no buffer.
        assert!(!stays_local(&bump, 3, |_| ()));
        assert_eq!(pending(), 0);
    }

    #[test]
    fn nested_blocks_share_one_bound() {
        let bump = bumpalo::Bump::new();
        let per = trust::FLOOR / 8;
        let mut open = Vec::new();
        let mut direct = 0;
        for _ in 0..2 * DIRECT_PENDING_MAX / trust::FLOOR {
            let b = SliceBuilder::<u64>::new(&bump, Some(per), true).unwrap();
            direct += usize::from(matches!(b.place, Place::Direct { .. }));
            open.push(b);
        }
        assert_eq!(direct, DIRECT_PENDING_MAX / trust::FLOOR);
        while let Some(b) = open.pop() {
            drop(b);
        }
        assert_eq!(pending(), 0);
        // Too large for a direct block: the scratch stack, with serde's cautious reservation.
        let b = SliceBuilder::<u64>::new(&bump, Some(per + 1), true).unwrap();
        assert!(matches!(b.place, Place::Scratch { .. }));
        assert_eq!(scratch::cautious::<u64>(Some(per + 1)), per + 1);
    }

    /// Whether a sequence of `n` `u64`s announced as `n` long goes straight into the arena.
    fn goes_direct(bump: &bumpalo::Bump, n: usize) -> bool {
        let mut b = SliceBuilder::<u64>::new(bump, Some(n), true).unwrap();
        let direct = matches!(b.place, Place::Direct { .. });
        for i in 0..n as u64 {
            b.push(i).unwrap();
        }
        assert_eq!(b.finish(bump).unwrap().len(), n);
        direct
    }

    #[test]
    fn announced_lengths_that_prove_true_earn_trust_and_a_false_one_loses_it() {
        let bump = bumpalo::Bump::new();
        let floor = trust::FLOOR / 8;
        assert!(goes_direct(&bump, floor));
        assert!(
            !goes_direct(&bump, 3 * floor),
            "past the floor: not trusted yet"
        );
        // That one proved true (on the scratch stack): twice its size is trusted now.
        assert!(goes_direct(&bump, 6 * floor));
        assert!(goes_direct(&bump, 12 * floor), "and it keeps growing");
        assert!(!goes_direct(&bump, 25 * floor));
        assert_eq!(trust::current(), 50 * trust::FLOOR);
        // A sequence shorter than announced: the block's tail is wasted once, then the floor.
        let mut b = SliceBuilder::<u64>::new(&bump, Some(40 * floor), true).unwrap();
        assert!(matches!(b.place, Place::Direct { .. }));
        b.push(1).unwrap();
        assert_eq!(b.finish(&bump).unwrap(), [1]);
        assert_eq!(trust::current(), trust::FLOOR);
        assert!(!goes_direct(&bump, 2 * floor));
        // Longer than announced: the same.
        assert!(goes_direct(&bump, 4 * floor));
        let mut b = SliceBuilder::<u64>::new(&bump, Some(8 * floor), true).unwrap();
        assert!(matches!(b.place, Place::Direct { .. }));
        for i in 0..=8 * floor as u64 {
            b.push(i).unwrap();
        }
        assert_eq!(b.finish(&bump).unwrap().len(), 8 * floor + 1);
        assert_eq!(trust::current(), trust::FLOOR);
        assert_eq!(pending(), 0);
    }

    /// Whether `b` fills an arena block in place.
    fn is_direct<T>(b: &SliceBuilder<'_, T>) -> bool {
        matches!(b.place, Place::Direct { .. })
    }

    #[test]
    fn lengths_the_input_bounds_go_straight_in_and_nested_ones_share_it() {
        use crate::call::frame::{CallFrame, Settings};
        let bump = bumpalo::Bump::new();
        // Past the floor and never trusted: only the input's size can let these in.
        let (outer, inner) = (4 * trust::FLOOR / 8, 6 * trust::FLOOR / 8);
        let frame = core::pin::pin!(CallFrame::new(None));
        let frame = frame.into_ref();
        frame
            .open::<serde::de::value::Error>(Settings {
                arena: BumpAllocator::identity(&bump),
                limits: None,
                str_as_bytes: None,
                input: None,
                either_form: None,
                input_len: Some(outer + inner),
            })
            .unwrap();
        let mut a = SliceBuilder::<u64>::new(&bump, Some(outer), true).unwrap();
        assert!(is_direct(&a), "the input holds that many elements");
        let b = SliceBuilder::<u64>::new(&bump, Some(inner), true).unwrap();
        assert!(is_direct(&b), "and this many more, nested");
        assert_eq!(call::tests::input_claims(), 0);
        let c = SliceBuilder::<u64>::new(&bump, Some(trust::FLOOR / 8 + 1), true).unwrap();
        assert!(!is_direct(&c), "nothing left to claim: staged");
        let d = SliceBuilder::<u64>::new(&bump, Some(3), true).unwrap();
        assert!(is_direct(&d), "small blocks are trusted as ever");
        drop((d, c, b));
        assert_eq!(
            call::tests::input_claims(),
            inner,
            "closed blocks give back"
        );
        for i in 0..outer as u64 {
            a.push(i).unwrap();
        }
        let used = bump.allocated_bytes() - bump.chunk_capacity();
        assert_eq!(a.finish(&bump).unwrap().len(), outer);
        assert_eq!(
            bump.allocated_bytes() - bump.chunk_capacity(),
            used,
            "no copy"
        );
        assert_eq!(call::tests::input_claims(), outer + inner);
        // Zero-sized elements may take no input: their blocks are empty and claim nothing.
        let z = SliceBuilder::<()>::new(&bump, Some(10 * (outer + inner)), true).unwrap();
        assert!(is_direct(&z));
        assert_eq!(call::tests::input_claims(), outer + inner);
    }

    #[test]
    fn without_a_known_input_long_lengths_are_staged() {
        let bump = bumpalo::Bump::new();
        let _level = DepthGuard::enter::<serde::de::value::Error>().unwrap();
        let b = SliceBuilder::<u64>::new(&bump, Some(4 * trust::FLOOR / 8), true).unwrap();
        assert!(!is_direct(&b));
    }

    #[test]
    fn trust_is_capped_and_a_read_outside_any_call_starts_from_the_floor() {
        trust::earn(usize::MAX);
        assert_eq!(trust::current(), trust::CEILING);
        drop(DepthGuard::enter::<serde::de::value::Error>().unwrap());
        assert_eq!(trust::current(), trust::FLOOR, "a new read");
        call::check_invariants();
    }

    /// A fresh `SlabArena` on a pool of its own, its first chunk `first` bytes, its chunks at
    /// most `max`.
    fn slab(first: usize, max: usize) -> crate::SlabArena {
        crate::SlabArena::builder()
            .pool(std::sync::Arc::new(crate::ChunkPool::new()))
            .initial_chunk_size(first)
            .max_chunk_size(max)
            .build()
    }

    /// Pushes `0..n` on a staged builder, with a string of `string` bytes allocated every
    /// `every` elements (what a row's fields take from the top of the chunk); the slice and the
    /// strings' total bytes.
    fn staged(arena: &crate::SlabArena, n: u64, every: u64, string: usize) -> (&mut [u64], usize) {
        use crate::BumpAllocatorExt;
        let text = "s".repeat(string);
        let mut strings = 0;
        let mut b = SliceBuilder::<u64>::new(arena, None, false).unwrap();
        for i in 0..n {
            b.push(i).unwrap();
            if i % every == 0 {
                arena.alloc_str(&text);
                strings += string;
            }
        }
        (b.finish(arena).unwrap(), strings)
    }

    #[test]
    fn a_long_staged_sequence_grows_at_the_low_edge_of_a_slab_arena_without_a_copy() {
        // The scratch stack is the thread's, and where there are no threads (wasm32) every test
        // runs on the main thread, after tests that grew it: measured from an empty one.
        scratch::release();
        let arena = slab(4 << 20, 4 << 20);
        let n = 200_000u64;
        let (s, strings) = staged(&arena, n, 100, 40);
        assert!(s.iter().copied().eq(0..n));
        // Only what came before `LOW_FROM` was staged: the scratch stack never held the rest.
        let scratch = scratch::thread_scratch_capacity();
        assert!(scratch < 4 * LOW_FROM, "{scratch} bytes of scratch");
        let stats = arena.stats();
        assert_eq!(stats.chunks, 1, "{stats}");
        // The elements are in the arena once, the strings below them: nothing else.
        assert_eq!(stats.used_bytes, s.len() * 8 + strings, "{stats}");
        arena.check_invariants();
    }

    #[test]
    fn a_low_block_that_meets_the_top_of_its_chunk_moves_to_the_scratch_stack() {
        // Chunks of 256 KiB for 1.6 MB of elements: the block meets the strings coming down,
        // whether its own growth finds no room or a string's refill retires its chunk first.
        for (every, string) in [(10, 24), (1000, 100_000), (3, 700)] {
            let arena = slab(256 << 10, 256 << 10);
            let n = 200_000u64;
            let (s, strings) = staged(&arena, n, every, string);
            assert!(s.iter().copied().eq(0..n), "every {every}");
            let stats = arena.stats();
            // Used bytes count the elements once: a block left behind is a retired chunk's
            // unused tail, not used memory.
            assert_eq!(
                stats.used_bytes,
                s.len() * 8 + strings,
                "every {every}: {stats}"
            );
            arena.check_invariants();
        }
    }

    #[test]
    fn a_rewind_frees_an_abandoned_low_block_and_keeps_an_older_one() {
        use crate::{BumpAllocator, BumpAllocatorExt};
        let arena = slab(1 << 20, 1 << 20);
        arena.alloc_str("kept");
        // Abandoned (an error in the sequence): the failed call rewinds to where it started,
        // and the arena can take a low block again.
        let start = BumpAllocator::checkpoint(&arena).unwrap();
        let mut b = SliceBuilder::<u64>::new(&arena, None, false).unwrap();
        for i in 0..20_000 {
            b.push(i).unwrap();
        }
        arena.alloc_str("lost");
        drop(b);
        // SAFETY: nothing allocated since the checkpoint is used again.
        unsafe { BumpAllocator::rewind(&arena, start) };
        assert_eq!(arena.stats().used_bytes, 4);
        // A checkpoint taken while a block is open (an untagged variant tried inside one of
        // its elements), rewound: the block stays, and grows on.
        let mut b = SliceBuilder::<u64>::new(&arena, None, false).unwrap();
        for i in 0..20_000 {
            b.push(i).unwrap();
        }
        let checkpoint = BumpAllocator::checkpoint(&arena).unwrap();
        arena.alloc_slice_copy(&[7u8; 50_000]);
        // SAFETY: nothing allocated since the checkpoint is used again.
        unsafe { BumpAllocator::rewind(&arena, checkpoint) };
        for i in 20_000..60_000 {
            b.push(i).unwrap();
        }
        let s = b.finish(&arena).unwrap();
        assert!(s.iter().copied().eq(0..60_000));
        assert_eq!(arena.stats().used_bytes, 4 + 60_000 * 8);
        arena.check_invariants();
    }

    #[test]
    fn a_low_block_keeps_the_limits_of_the_call() {
        use crate::BumpAllocatorExt;
        use serde::de::DeserializeSeed;
        use serde::de::value::{Error, SeqDeserializer};
        let arena = slab(1 << 20, 1 << 20);
        // The arena's first chunk, taken at its first allocation: a low block needs a chunk.
        arena.alloc_str("first");
        let limits = crate::Limits::default().max_len(30_000);
        // Past the trust's floor, so staged, and past `LOW_FROM`, so at the low edge.
        let read = |n: u64| -> Result<usize, Error> {
            let seq = SeqDeserializer::<_, Error>::new(0..n);
            let s: &[u64] = crate::ArenaSeed::new(&arena)
                .with_limits(limits)
                .deserialize(seq)?;
            assert!(s.iter().copied().eq(0..n));
            // Grown at the bottom of the chunk: what is allocated next comes down from the
            // top, above it (a copy made at the end would lie below it).
            let next = arena.alloc_str("next");
            assert!(
                s.as_ptr().addr() < next.as_ptr().addr(),
                "not at the low edge"
            );
            Ok(s.len())
        };
        assert_eq!(read(30_000).unwrap(), 30_000);
        let err = read(30_001).unwrap_err().to_string();
        assert!(err.contains("30000"), "{err}");
    }
}
