//! The state of a deserialization call: one per thread, holding everything a value read inside
//! an [`ArenaSeed`] call is checked against or decided by.
//!
//! serde's `Deserializer` and `Visitor` carry no context of ours, so what a call needs to know
//! deep inside a format's recursion (how much budget is left, how deep it is, how far announced
//! lengths are trusted) lives in one thread-local [`CallState`]. It has no destructor, so
//! reading it is a plain thread-local load. Nothing in it outlives a call: when the outermost
//! call on a thread closes, the state is back to what it was before it opened.
//!
//! # The life of a call
//!
//! 1. **Open.** [`ArenaSeed::deserialize`] checks whether a call on the same arena is open and
//!    the seed asks for nothing of its own; if so it reads the value directly (one
//!    thread-local load). Otherwise it opens a [`CallFrame`](frame::CallFrame): the frame saves
//!    the state of the call it is nested in, puts its own limits in force (never looser than
//!    that call's, see [`Limits::intersect`]), gives the call its byte budget, sets the string
//!    mode ([`ArenaSeed::str_as_bytes`], and whether the input outlives the call: see
//!    [`strings`]) and, when it is the first call on the thread, the
//!    trust announced lengths start with ([`trust`]). The call itself enters one level of
//!    depth. If no call on the same arena is open further out, the call owns its arena: it
//!    takes a checkpoint to rewind to on failure.
//! 2. **Read.** Every container read enters a level ([`DepthGuard`]); sequences and maps check
//!    their lengths ([`check_len`]), strings theirs ([`admit_str`]), and every arena allocation
//!    is charged to the budget ([`charge`]). A sequence whose format announces its length asks
//!    the [`trust`] whether to fill a block of the arena in place, and holds that block's bytes
//!    in the call's open direct bytes ([`PendingGuard`]) until it closes; whether the
//!    announced length proved true raises or drops the trust.
//!
//!    A read may also be **attempted** ([`attempt`](attempt::attempt)): the derive's untagged
//!    enums buffer their input once and try each variant on the buffer in turn. An attempt
//!    takes a checkpoint of the arena and notes the budget left; if it fails, it rewinds the
//!    arena to the checkpoint and puts the budget back, so the next variant starts from where
//!    the failed one did, and N variants tried never hold N copies. It opens no frame: it
//!    runs inside the call in force and ends in it. On an arena that cannot rewind, a failed
//!    attempt keeps its bytes, and the budget keeps counting them.
//! 3. **Close.** A failed call that owns its arena rewinds it. The frame charges the bytes it
//!    used to the call on the same arena it is nested in, if any, puts back the state it
//!    saved, and, when it was the first call on the thread, hands its trust to the seed's
//!    [`LengthTrust`] (if it had one) and drops the thread's back to the floor.
//!
//! # Nesting
//!
//! A seed used inside a call (in a hand-written impl) nests in it:
//! - on the **same arena**, with no settings: part of the call (the common case, and the one
//!   the derive generates: no frame at all);
//! - on the **same arena**, with limits or a string mode: a frame whose limits are the
//!   intersection of its own and the call's, whose budget is what the call has left (at most
//!   its own limit), and whose bytes are charged to the call when it closes. No rewind: the
//!   call owns the arena;
//! - on **another arena**: a call of its own on that arena (its own budget, a checkpoint and a
//!   rewind on failure), under the limits of the call it is nested in, tightened by its own;
//!   the depth keeps counting, since both share the thread's stack. If a call on that other
//!   arena is open further out, the frame's bytes are charged to it and it owns the rewind.
//!
//! [`ArenaSeed`]: crate::ArenaSeed
//! [`ArenaSeed::deserialize`]: crate::ArenaSeed
//! [`ArenaSeed::str_as_bytes`]: crate::ArenaSeed::str_as_bytes
//! [`Limits::intersect`]: crate::Limits::intersect
//! [`LengthTrust`]: crate::LengthTrust

use core::cell::Cell;
use core::ptr;

use serde::de::Error;

use crate::allocator::{AllocError, BumpAllocator, BumpAllocatorExt};
use crate::limits::{DEFAULT_ZERO_SIZED_LEN, LimitHit, Limits};
use strings::Strings;

pub(crate) mod attempt;
pub(crate) mod frame;
pub(crate) mod strings;
pub(crate) mod trust;

/// What one call has in force, saved by a nested frame and put back when it closes.
#[derive(Clone, Copy, Debug)]
struct Scope {
    /// Identity of the arena the call fills ([`BumpAllocator::identity`]); null outside any
    /// call.
    ///
    /// [`BumpAllocator::identity`]: crate::BumpAllocator
    arena: *const (),
    /// The limits in force: the call's own, intersected with those of the calls around it.
    /// Their `depth` is the limit named in errors; [`Scope::max_depth`] is what is checked.
    limits: Limits,
    /// Levels allowed on the thread: entering a level past this fails.
    max_depth: usize,
    /// Arena bytes the call may still allocate (`usize::MAX` when unlimited).
    bytes_left: usize,
    /// How strings are asked of the format.
    strings: Strings,
    /// Elements announced lengths may still claim on the input's word (see [`InputClaim`]):
    /// the bytes of the input the call reads from, less the lengths of the direct blocks
    /// open on it. `0` when the call does not know its input's size.
    input_claims: usize,
}

impl Scope {
    /// The state outside any call: default limits, no budget, strings read as strings.
    const IDLE: Self = Self {
        arena: ptr::null(),
        limits: Limits::DEFAULT,
        max_depth: Limits::DEFAULT.depth_limit(),
        bytes_left: usize::MAX,
        strings: Strings::IDLE,
        input_claims: 0,
    };
}

/// The per-thread state of the calls in progress: the innermost call's [`Scope`], unpacked into
/// one cell per field so the hot checks read a single word, and what every call on the thread
/// shares (depth, trust, open direct bytes).
pub(crate) struct CallState {
    /// The innermost open frame's link, null when no frame is open: the chain through which a
    /// frame finds the call on its arena further out.
    frame: Cell<*const frame::Link>,
    /// See [`Scope::arena`].
    arena: Cell<*const ()>,
    /// See [`Scope::limits`].
    limits: Cell<Limits>,
    /// See [`Scope::max_depth`].
    max_depth: Cell<usize>,
    /// See [`Scope::bytes_left`].
    bytes_left: Cell<usize>,
    /// See [`Scope::strings`].
    strings: Cell<Strings>,
    /// See [`Scope::input_claims`].
    input_claims: Cell<usize>,
    /// Element limit (`usize::MAX` when none), from `limits`.
    max_len: Cell<usize>,
    /// Element limit for zero-sized elements, from `limits`.
    max_zero_sized_len: Cell<usize>,
    /// String length limit (`usize::MAX` when none), from `limits`.
    max_str_len: Cell<usize>,
    /// Levels entered on this thread; `0` when nothing is being read. Always at most
    /// `max_depth`.
    depth: Cell<usize>,
    /// Largest direct block an announced length may take; see [`trust`]. Always within
    /// `trust::FLOOR..=trust::CEILING`.
    trust: Cell<usize>,

    /// Bytes of the direct blocks of the sequences open on this thread (each nested in the
    /// previous); see [`PendingGuard`].
    pending: Cell<usize>,
}

impl CallState {
    /// The innermost call's scope.
    fn scope(&self) -> Scope {
        Scope {
            arena: self.arena.get(),
            limits: self.limits.get(),
            max_depth: self.max_depth.get(),
            bytes_left: self.bytes_left.get(),
            strings: self.strings.get(),
            input_claims: self.input_claims.get(),
        }
    }

    /// Puts `scope` in force.
    fn set_scope(&self, scope: Scope) {
        self.arena.set(scope.arena);
        self.limits.set(scope.limits);
        self.max_depth.set(scope.max_depth);
        self.bytes_left.set(scope.bytes_left);
        self.strings.set(scope.strings);
        self.input_claims.set(scope.input_claims);
        let (len, zero_sized_len, str_len) = unpack(scope.limits);
        self.max_len.set(len);
        self.max_zero_sized_len.set(zero_sized_len);
        self.max_str_len.set(str_len);
    }

    /// Takes `bytes` from the budget.
    #[inline(always)]
    fn charge(&self, bytes: usize) -> Result<(), LimitHit> {
        let left = self.bytes_left.get();
        if left == usize::MAX {
            return Ok(());
        }
        match left.checked_sub(bytes) {
            Some(rest) => {
                self.bytes_left.set(rest);
                Ok(())
            }
            None => Err(self.bytes_hit()),
        }
    }

    /// See the function [`check_len`](fn@check_len).
    #[inline(always)]
    fn check_len(&self, len: usize, elem_size: usize) -> Result<(), LimitHit> {
        let max = if elem_size == 0 {
            self.max_zero_sized_len.get()
        } else {
            self.max_len.get()
        };
        if len > max {
            return Err(LimitHit::Len(max));
        }
        if len.saturating_mul(elem_size) > self.bytes_left.get() {
            return Err(self.bytes_hit());
        }
        Ok(())
    }

    /// The error for going over the byte budget: names the limit in force.
    #[cold]
    fn bytes_hit(&self) -> LimitHit {
        LimitHit::Bytes(self.limits.get().bytes_limit().unwrap_or(0))
    }
}

/// The element limit, the element limit for zero-sized elements and the string length limit
/// of `limits`, as the hot checks compare them (`usize::MAX` for none).
const fn unpack(limits: Limits) -> (usize, usize, usize) {
    let (len, zero_sized_len) = match limits.len_limit() {
        Some(len) => (len, len),
        None => (usize::MAX, DEFAULT_ZERO_SIZED_LEN),
    };
    let str_len = match limits.str_len_limit() {
        Some(len) => len,
        None => usize::MAX,
    };
    (len, zero_sized_len, str_len)
}

std::thread_local! {
    static CALL: CallState = const {
        CallState {
            frame: Cell::new(ptr::null()),
            arena: Cell::new(ptr::null()),
            limits: Cell::new(Limits::DEFAULT),
            max_depth: Cell::new(Limits::DEFAULT.depth_limit()),
            bytes_left: Cell::new(usize::MAX),
            strings: Cell::new(Strings::IDLE),
            input_claims: Cell::new(0),
            max_len: Cell::new(usize::MAX),
            max_zero_sized_len: Cell::new(DEFAULT_ZERO_SIZED_LEN),
            max_str_len: Cell::new(usize::MAX),
            depth: Cell::new(0),
            trust: Cell::new(trust::FLOOR),
            pending: Cell::new(0),
        }
    };
}

/// Runs `f` on this thread's call state.
///
/// Through one instance of `LocalKey::with`, whose closure only returns the state's address:
/// the compiler inlines that small body at every call (the accessor then folds to an offset
/// from the thread pointer). An instance per closure, each with `f`'s body inside, is inlined
/// or not as its caller grows, and one left out of line costs a call and an indirect call to
/// the accessor: on the string path of every format, once per string.
#[inline(always)]
fn with<R>(f: impl FnOnce(&CallState) -> R) -> R {
    let cx: *const CallState = CALL.with(ptr::from_ref);
    // SAFETY: `CALL.with` found this thread's call state alive (it panics otherwise) and
    // returned its address. The state is destroyed only with the thread's thread-locals, which
    // happens on this thread and never during `f`, so it is alive for all of `f`; `f` gets a
    // shared borrow, as `CALL.with(f)` would give it, and `CallState` is not `Sync`, so the
    // borrow stays on this thread.
    f(unsafe { &*cx })
}

/// Whether a call on the arena of identity `arena` is the innermost call on this thread: a
/// seed on that arena with no settings of its own is then part of it.
#[inline(always)]
pub(crate) fn is_open_on(arena: *const ()) -> bool {
    with(|cx| cx.arena.get() == arena)
}

/// Whether no call is open on this thread: a call opened now is the first, and owns its arena.
#[cfg(feature = "json")]
#[inline]
pub(crate) fn is_idle() -> bool {
    with(|cx| cx.frame.get().is_null())
}

/// One level of nesting, left again when dropped, even when unwinding.
///
/// Entered by every call and wherever a type can recurse: a Rust type can only contain itself
/// through indirection, and every indirection arena-core supports (`&T`, slices, arena vectors,
/// maps) goes through a sequence, a map or `&T`, which each enter a level. So the depth bounds
/// the stack, at one thread-local access per container rather than per value.
pub(crate) struct DepthGuard(());

impl DepthGuard {
    /// Enters one level.
    ///
    /// # Errors
    ///
    /// The nesting depth limit, as the format's error.
    #[inline(always)]
    pub(crate) fn enter<E: Error>() -> Result<Self, E> {
        with(|cx| {
            let depth = cx.depth.get() + 1;
            if depth > cx.max_depth.get() {
                return Err(LimitHit::Depth(cx.limits.get().depth_limit()).into_de());
            }
            cx.depth.set(depth);
            if depth == 1 {
                // A read outside any call (`deserialize_in` called directly): it starts from
                // the floor, as a call does, whatever the last such read earned.
                cx.trust.set(trust::FLOOR);
            }
            Ok(Self(()))
        })
    }
}

impl Drop for DepthGuard {
    #[inline(always)]
    fn drop(&mut self) {
        with(|cx| cx.depth.set(cx.depth.get() - 1));
    }
}

/// Takes `bytes` from the call's budget.
#[inline(always)]
pub(crate) fn charge(bytes: usize) -> Result<(), LimitHit> {
    with(|cx| cx.charge(bytes))
}

/// Moves `value` into `arena`, charged to the call's budget: how `&T` and the nodes of a `Value`
/// are placed.
#[inline]
pub(crate) fn alloc_charged<T, A, E>(arena: &A, value: T) -> Result<&mut T, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    charge(size_of::<T>()).map_err(LimitHit::into_de)?;
    arena.try_alloc(value).map_err(AllocError::into_de)
}

/// Bytes the call may still allocate.
#[inline(always)]
pub(crate) fn bytes_left() -> usize {
    with(|cx| cx.bytes_left.get())
}

/// Checks that a sequence of `len` elements of `elem_size` bytes is allowed: under the length
/// limit, and within the byte budget it will need once copied into the arena (so a sequence
/// that cannot fit fails as soon as it outgrows the budget, not after the whole input).
#[inline(always)]
pub(crate) fn check_len(len: usize, elem_size: usize) -> Result<(), LimitHit> {
    with(|cx| cx.check_len(len, elem_size))
}

/// The longest sequence of elements of `elem_size` bytes that [`check_len`] allows right now
/// (the budget can only shrink afterwards).
#[inline(always)]
pub(crate) fn len_allowed(elem_size: usize) -> usize {
    with(|cx| match cx.bytes_left.get().checked_div(elem_size) {
        Some(fit) => cx.max_len.get().min(fit),
        None => cx.max_zero_sized_len.get(),
    })
}

/// Checks that a string of `len` bytes is allowed, and charges it to the byte budget.
///
/// Every string of every format passes here, from many call sites of one closure type, so
/// the thread-local access is kept to two loads (`LocalKey::with` of a larger closure is left
/// out of line, a call and an indirect call to the accessor per string); the charge, when
/// there is a budget, is a second access.
#[inline(always)]
pub(crate) fn admit_str(len: usize) -> Result<(), LimitHit> {
    let (max, left) = with(|cx| (cx.max_str_len.get(), cx.bytes_left.get()));
    if len > max {
        return Err(LimitHit::StrLen(max));
    }
    if left == usize::MAX {
        return Ok(());
    }
    charge(len)
}

/// Whether the call in force has a limit that a string, an array or a map can hit or count
/// against, besides the depth: a byte budget, a length limit or a string length limit. None of
/// them changes while a reader builds values that run no seed of their own (the JSON `Value`
/// loop), so such a reader asks once, and skips [`admit_str`], [`len_allowed`] and [`charge`]
/// when this is false.
#[cfg(feature = "json")]
#[inline]
pub(crate) fn limits_in_force() -> bool {
    with(|cx| {
        cx.max_str_len.get() != usize::MAX
            || cx.max_len.get() != usize::MAX
            || cx.bytes_left.get() != usize::MAX
    })
}

/// How many more levels of nesting the call's depth limit allows ([`DepthGuard::enter`] succeeds
/// that many times more). Like [`limits_in_force`], asked once by a reader that runs no seed
/// of its own, which then counts the levels it opens itself.
#[cfg(feature = "json")]
#[inline]
pub(crate) fn levels_left() -> usize {
    with(|cx| cx.max_depth.get().saturating_sub(cx.depth.get()))
}

/// The hit of a read one level past the call's depth limit, for a reader that counts the
/// levels itself ([`levels_left`]).
#[cfg(feature = "json")]
#[cold]
pub(crate) fn depth_hit() -> LimitHit {
    with(|cx| LimitHit::Depth(cx.limits.get().depth_limit()))
}

/// Checks that a string of `len` bytes is allowed (without charging it).
#[inline(always)]
pub(crate) fn check_str_len(len: usize) -> Result<(), LimitHit> {
    with(|cx| {
        let max = cx.max_str_len.get();
        if len > max {
            Err(LimitHit::StrLen(max))
        } else {
            Ok(())
        }
    })
}

/// How the call asks the format for strings and byte strings ([`Strings`]).
#[inline(always)]
pub(crate) fn strings() -> Strings {
    with(|cx| cx.strings.get())
}

/// Bytes of one open direct block, counted in the call state's open direct bytes until
/// dropped.
pub(crate) struct PendingGuard(usize);

/// Elements of one open direct block taken on the input's word: an announced length no
/// larger than the input the call reads from (a slice, through a format entry point) cannot
/// be a lie that reserves more than the input could fill, since every element of a
/// non-zero-sized type takes at least one byte of it (or the call fails, and its arena is
/// rewound). The call's input claims are the input's bytes less the lengths of the blocks
/// open on it, so nested sequences claiming the whole input each reserve it once together,
/// not once per level. Given back when dropped.
pub(crate) struct InputClaim(usize);

impl InputClaim {
    /// Takes `len` elements from the call's input claims, if that many are left.
    #[inline]
    pub(crate) fn take(len: usize) -> Option<Self> {
        with(|cx| {
            let left = cx.input_claims.get();
            (len <= left).then(|| {
                cx.input_claims.set(left - len);
                Self(len)
            })
        })
    }
}

impl Drop for InputClaim {
    #[inline]
    fn drop(&mut self) {
        with(|cx| cx.input_claims.set(cx.input_claims.get() + self.0));
    }
}

impl PendingGuard {
    /// A direct block of `len` elements of `elem_size` bytes, `bytes` in all, on the trust,
    /// in one access to the call state: `None` if the length is not allowed ([`check_len`]) or
    /// the open direct bytes would pass `bound`, or the trust if that is larger; else the
    /// block's bytes counted as open and charged to the budget, or the limit that charge hit
    /// (nothing counted then).
    #[inline(always)]
    pub(crate) fn take(
        len: usize,
        elem_size: usize,
        bytes: usize,
        bound: usize,
    ) -> Option<Result<Self, LimitHit>> {
        with(|cx| {
            cx.check_len(len, elem_size).ok()?;
            let now = cx.pending.get();
            // The trust can have dropped while blocks were open: `now` may exceed the bound.
            let bound = bound.max(cx.trust.get());
            if bytes > bound.saturating_sub(now) {
                return None;
            }
            if let Err(hit) = cx.charge(bytes) {
                return Some(Err(hit));
            }
            cx.pending.set(now + bytes);
            Some(Ok(Self(bytes)))
        })
    }
}

impl Drop for PendingGuard {
    #[inline]
    fn drop(&mut self) {
        with(|cx| cx.pending.set(cx.pending.get() - self.0));
    }
}

/// Checks what always holds of this thread's call state, and, when nothing is being read on
/// it, that it is idle: no frame, default limits, no budget, no open direct bytes, strings read
/// as strings from input that outlives the read. Panics with a message naming what is broken.
///
/// Not public API: the tests call it after each step.
pub fn check_invariants() {
    with(|cx| {
        let scope = cx.scope();
        assert_eq!(
            (
                cx.max_len.get(),
                cx.max_zero_sized_len.get(),
                cx.max_str_len.get()
            ),
            unpack(scope.limits),
            "the unpacked limits disagree with the limits in force"
        );
        let trust = cx.trust.get();
        assert!(
            (trust::FLOOR..=trust::CEILING).contains(&trust),
            "trust {trust} outside {}..={}",
            trust::FLOOR,
            trust::CEILING
        );
        assert!(
            cx.depth.get() <= scope.max_depth,
            "depth {} past the allowed {}",
            cx.depth.get(),
            scope.max_depth
        );
        assert_eq!(
            cx.frame.get().is_null(),
            scope.arena.is_null(),
            "an open frame has an arena, and only then"
        );
        if cx.depth.get() == 0 {
            assert!(cx.frame.get().is_null(), "a frame is open at depth 0");
            assert_eq!(cx.pending.get(), 0, "direct bytes open at depth 0");
            let idle = Scope::IDLE;
            assert_eq!(
                (
                    scope.limits,
                    scope.max_depth,
                    scope.bytes_left,
                    scope.strings,
                    scope.input_claims
                ),
                (
                    idle.limits,
                    idle.max_depth,
                    idle.bytes_left,
                    idle.strings,
                    idle.input_claims
                ),
                "the state of a closed call is still in force"
            );
        }
    });
}

#[cfg(test)]
pub(crate) mod tests {
    use core::pin::pin;

    use super::frame::{CallFrame, Settings};
    use super::*;

    type E = serde::de::value::Error;

    /// This thread's open direct bytes.
    pub(crate) fn pending() -> usize {
        with(|cx| cx.pending.get())
    }

    /// This thread's input claims left.
    pub(crate) fn input_claims() -> usize {
        with(|cx| cx.input_claims.get())
    }

    fn settings(arena: usize, limits: Option<Limits>) -> Settings {
        Settings {
            arena: ptr::without_provenance(arena),
            limits,
            str_as_bytes: None,
            input: None,
            either_form: None,
            input_len: None,
        }
    }

    #[test]
    fn frames_nest_tighten_and_charge_the_call_on_their_arena() {
        let (a, b) = (0x10, 0x20);
        {
            let outer = pin!(CallFrame::new(None));
            let outer = outer.into_ref();
            let limits = Limits::default().max_bytes(1000).max_len(50).max_depth(10);
            assert!(
                outer.open::<E>(settings(a, Some(limits))).unwrap(),
                "owns a"
            );
            charge(100).unwrap();
            {
                // Same arena, looser limits: the call's are in force, its budget is what is left.
                let same = pin!(CallFrame::new(None));
                let same = same.into_ref();
                let loose = Limits::default().max_bytes(1 << 20).max_len(1 << 20);
                assert!(!same.open::<E>(settings(a, Some(loose))).unwrap());
                assert_eq!(bytes_left(), 900);
                assert_eq!(check_len(51, 1), Err(LimitHit::Len(50)));
                charge(300).unwrap();
                {
                    // Another arena: a call of its own (a fresh budget under the same limits)...
                    let other = pin!(CallFrame::new(None));
                    let other = other.into_ref();
                    assert!(other.open::<E>(settings(b, None)).unwrap(), "owns b");
                    assert_eq!(bytes_left(), 1000);
                    charge(700).unwrap();
                    {
                        // ... and the first arena again inside it: charged to the call on `a`.
                        let back = pin!(CallFrame::new(None));
                        let back = back.into_ref();
                        assert!(!back.open::<E>(settings(a, None)).unwrap());
                        assert_eq!(bytes_left(), 600);
                        charge(50).unwrap();
                        check_invariants();
                    }
                    assert_eq!(bytes_left(), 300, "b's budget is its own");
                }
                assert_eq!(bytes_left(), 550);
            }
            assert_eq!(
                bytes_left(),
                550,
                "the nested calls' bytes were charged to it"
            );
            assert_eq!(charge(551), Err(LimitHit::Bytes(1000)));
            check_invariants();
        }
        check_invariants();
        assert_eq!(bytes_left(), usize::MAX);
    }

    #[test]
    fn a_first_call_with_no_settings_starts_from_the_floor_and_closes_to_idle() {
        // A read outside any call leaves what it earned on the thread.
        {
            let _level = DepthGuard::enter::<E>().unwrap();
            trust::earn(1 << 20);
        }
        assert_eq!(trust::current(), 2 << 20);
        let level = DepthGuard::enter::<E>().unwrap();
        {
            let first = pin!(CallFrame::new(None));
            let first = first.into_ref();
            assert!(
                first.open::<E>(settings(0x10, None)).unwrap(),
                "owns its arena"
            );
            assert!(is_open_on(ptr::without_provenance(0x10)));
            assert_eq!(trust::current(), trust::FLOOR);
            // Opened at depth 1: its own level, and the default limit from there.
            let levels_left = with(|cx| cx.max_depth.get() - cx.depth.get());
            assert_eq!(levels_left, Limits::DEFAULT.depth_limit() - 1);
            {
                let nested = pin!(CallFrame::new(None));
                let nested = nested.into_ref();
                let limits = Limits::default().max_bytes(100);
                assert!(!nested.open::<E>(settings(0x10, Some(limits))).unwrap());
                assert_eq!(bytes_left(), 100);
                charge(10).unwrap();
                {
                    let other = pin!(CallFrame::new(None));
                    let other = other.into_ref();
                    assert!(other.open::<E>(settings(0x20, None)).unwrap(), "owns b");
                    {
                        let back = pin!(CallFrame::new(None));
                        let back = back.into_ref();
                        assert!(!back.open::<E>(settings(0x10, None)).unwrap());
                        assert_eq!(bytes_left(), 90, "the chain leads back to the first");
                    }
                }
                check_invariants();
            }
            assert_eq!(bytes_left(), usize::MAX, "no budget of its own");
            first.succeeded();
        }
        assert!(with(|cx| cx.frame.get().is_null()), "no frame open");
        assert_eq!(trust::current(), trust::FLOOR);
        drop(level);
        check_invariants();
    }

    #[test]
    fn a_nested_depth_limit_counts_from_where_it_opens_and_never_loosens() {
        let outer = pin!(CallFrame::new(None));
        let outer = outer.into_ref();
        outer
            .open::<E>(settings(0x10, Some(Limits::default().max_depth(4))))
            .unwrap();
        let _two = DepthGuard::enter::<E>().unwrap();
        {
            // Depth 2 of 4: a nested limit of 1 allows the nested call's own level only.
            let inner = pin!(CallFrame::new(None));
            let inner = inner.into_ref();
            inner
                .open::<E>(settings(0x10, Some(Limits::default().max_depth(1))))
                .unwrap();
            let err = DepthGuard::enter::<E>().err().unwrap();
            assert_eq!(err.to_string(), "nesting depth limit of 1 exceeded");
        }
        {
            // A looser nested limit leaves the call's in force.
            let inner = pin!(CallFrame::new(None));
            let inner = inner.into_ref();
            inner
                .open::<E>(settings(0x10, Some(Limits::default().max_depth(100))))
                .unwrap();
            let _four = DepthGuard::enter::<E>().unwrap();
            let err = DepthGuard::enter::<E>().err().unwrap();
            assert_eq!(err.to_string(), "nesting depth limit of 4 exceeded");
        }
        check_invariants();
    }

    #[test]
    fn only_the_first_call_carries_trust_and_a_failed_one_hands_on_the_floor() {
        let held = trust::LengthTrust::new();
        for succeed in [true, false] {
            let before = held.bytes();
            {
                let first = pin!(CallFrame::new(Some(&held)));
                let first = first.into_ref();
                first.open::<E>(settings(0x10, None)).unwrap();
                {
                    let nested = pin!(CallFrame::new(Some(&held)));
                    let nested = nested.into_ref();
                    nested.open::<E>(settings(0x20, None)).unwrap();
                    trust::earn(1 << 20);
                    nested.succeeded();
                }
                assert_eq!(held.bytes(), before, "the nested call hands nothing on");
                assert_eq!(trust::current(), 2 << 20, "it shares the call's trust");
                if succeed {
                    first.succeeded();
                }
            }
            assert_eq!(
                trust::current(),
                trust::FLOOR,
                "nothing stays on the thread"
            );
            let expected = if succeed { 2 << 20 } else { trust::FLOOR };
            assert_eq!(held.bytes(), expected);
            check_invariants();
        }
    }
}
