//! [`Limits`]: bounds on what one deserialization call may do, for input you did not write.
//!
//! The limits in force live in a per-thread context: [`ArenaSeed::with_limits`] installs them
//! for the duration of its call, and every value deserialized inside it (through nested seeds,
//! sequences, maps and the derive's generated code) is checked against them. Outside such a
//! call the defaults apply. The context has no destructor, so it is never torn down: reading it
//! is a plain thread-local load.
//!
//! [`ArenaSeed::with_limits`]: crate::ArenaSeed::with_limits

use core::cell::Cell;
use core::fmt;

use serde::de::Error;

/// Bounds for one deserialization call.
///
/// Every limit hit is a serde error naming the limit and its value. Build it from the defaults:
///
/// ```
/// use arena_core::Limits;
///
/// let limits = Limits::default().max_bytes(64 << 20).max_len(1_000_000).max_str_len(1 << 20);
/// assert_eq!(limits.depth_limit(), 128);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    bytes: Option<usize>,
    depth: usize,
    len: Option<usize>,
    str_len: Option<usize>,
}

/// Sequences of zero-sized elements take no input bytes per element, so nothing in the input
/// bounds them; without an explicit [`Limits::max_len`] they stop at this many elements.
pub const DEFAULT_ZERO_SIZED_LEN: usize = 1 << 20;

/// The nesting depth allowed by default: serde_json's own recursion limit.
pub const DEFAULT_MAX_DEPTH: usize = 128;

impl Default for Limits {
    /// No byte, length or string limit; nesting depth 128.
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl Limits {
    const DEFAULT: Self = Self {
        bytes: None,
        depth: DEFAULT_MAX_DEPTH,
        len: None,
        str_len: None,
    };

    /// At most `bytes` arena bytes for this call, counting every allocation it makes
    /// (alignment padding excluded).
    #[must_use]
    pub const fn max_bytes(mut self, bytes: usize) -> Self {
        self.bytes = Some(bytes);
        self
    }

    /// At most `depth` nested containers: sequences, maps and `&T` references, the call itself
    /// counting as one (`[[1]]` read as `&[&[u8]]` is depth 3).
    #[must_use]
    pub const fn max_depth(mut self, depth: usize) -> Self {
        self.depth = depth;
        self
    }

    /// At most `len` elements in one sequence or entries in one map.
    #[must_use]
    pub const fn max_len(mut self, len: usize) -> Self {
        self.len = Some(len);
        self
    }

    /// At most `len` bytes in one string or byte string.
    #[must_use]
    pub const fn max_str_len(mut self, len: usize) -> Self {
        self.str_len = Some(len);
        self
    }

    /// The arena byte limit, if any.
    #[must_use]
    pub const fn bytes_limit(&self) -> Option<usize> {
        self.bytes
    }

    /// The nesting depth limit.
    #[must_use]
    pub const fn depth_limit(&self) -> usize {
        self.depth
    }

    /// The element count limit, if any.
    #[must_use]
    pub const fn len_limit(&self) -> Option<usize> {
        self.len
    }

    /// The string length limit, if any.
    #[must_use]
    pub const fn str_len_limit(&self) -> Option<usize> {
        self.str_len
    }
}

/// What a limit said no to; its `Display` is the error message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LimitHit {
    Bytes(usize),
    Depth(usize),
    Len(usize),
    StrLen(usize),
}

impl fmt::Display for LimitHit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Bytes(n) => write!(f, "arena byte limit of {n} bytes exceeded"),
            Self::Depth(n) => write!(f, "nesting depth limit of {n} exceeded"),
            Self::Len(n) => write!(f, "sequence length limit of {n} elements exceeded"),
            Self::StrLen(n) => write!(f, "string length limit of {n} bytes exceeded"),
        }
    }
}

/// The per-thread state of the call in progress: the limits in force, unpacked into one cell
/// each so the hot checks read a single word.
struct Context {
    /// The limits in force, for restoring them and naming them in errors.
    limits: Cell<Limits>,
    /// Levels entered (see [`Level`]); `0` outside any seed call.
    depth: Cell<usize>,
    max_depth: Cell<usize>,
    /// Arena bytes this call may still allocate (`usize::MAX` when unlimited).
    bytes_left: Cell<usize>,
    /// Element limit (`usize::MAX` when none).
    max_len: Cell<usize>,
    /// Element limit for zero-sized elements.
    max_zero_sized_len: Cell<usize>,
    /// String length limit (`usize::MAX` when none).
    max_str_len: Cell<usize>,
    /// Largest direct block a sequence may take on the strength of its announced length;
    /// earned by announced lengths that proved true (see
    /// [`slice_builder`](crate::slice_builder)), back to the floor when one proves false.
    trust: Cell<usize>,
    /// The trust the next call on this thread starts with: what the last call that succeeded
    /// ended with, the floor after a call that failed (its input may have lied).
    carried_trust: Cell<usize>,
}

impl Context {
    /// Installs `limits`, with a fresh byte budget; returns what to restore.
    #[cold]
    fn install(&self, limits: Limits) -> (Limits, usize) {
        let old = (self.limits.replace(limits), self.bytes_left.get());
        self.bytes_left.set(limits.bytes.unwrap_or(usize::MAX));
        self.unpack(limits);
        old
    }

    #[cold]
    fn restore(&self, (limits, bytes_left): (Limits, usize)) {
        self.limits.set(limits);
        self.bytes_left.set(bytes_left);
        self.unpack(limits);
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
            None => Err(LimitHit::Bytes(self.limits.get().bytes.unwrap_or(0))),
        }
    }

    fn unpack(&self, limits: Limits) {
        self.max_depth.set(limits.depth);
        self.max_len.set(limits.len.unwrap_or(usize::MAX));
        self.max_zero_sized_len
            .set(limits.len.unwrap_or(DEFAULT_ZERO_SIZED_LEN));
        self.max_str_len.set(limits.str_len.unwrap_or(usize::MAX));
    }
}

std::thread_local! {
    static CONTEXT: Context = const {
        Context {
            limits: Cell::new(Limits::DEFAULT),
            depth: Cell::new(0),
            max_depth: Cell::new(DEFAULT_MAX_DEPTH),
            bytes_left: Cell::new(usize::MAX),
            max_len: Cell::new(usize::MAX),
            max_zero_sized_len: Cell::new(DEFAULT_ZERO_SIZED_LEN),
            max_str_len: Cell::new(usize::MAX),
            trust: Cell::new(TRUST_FLOOR),
            carried_trust: Cell::new(TRUST_FLOOR),
        }
    };
}

/// Whether a seed call is in progress on this thread.
#[inline(always)]
pub(crate) fn in_call() -> bool {
    CONTEXT.with(|cx| cx.depth.get() != 0)
}

/// One level of nesting, lowered again when dropped, even when unwinding.
///
/// Entered by the outermost seed of a call and wherever a type can recurse: a Rust type can
/// only contain itself through indirection, and every indirection arena-core supports (`&T`,
/// slices, arena vectors, maps) goes through a sequence, a map or `&T`, which each enter a level.
/// So the depth bounds the stack, at one thread-local access per container rather than per value.
pub(crate) struct Level(());

impl Level {
    /// Enters one level. Returns it and whether it is the outermost one on this thread.
    ///
    /// # Errors
    ///
    /// The nesting depth limit, as the format's error.
    #[inline(always)]
    pub(crate) fn enter<E: Error>() -> Result<(Self, bool), E> {
        let depth = CONTEXT.with(|cx| {
            let depth = cx.depth.get() + 1;
            if depth > cx.max_depth.get() {
                return Err(cx.max_depth.get());
            }
            cx.depth.set(depth);
            if depth == 1 {
                // A new call: it starts from what the last call on this thread proved.
                cx.trust.set(cx.carried_trust.get());
            }
            Ok(depth)
        });
        match depth {
            Ok(depth) => Ok((Self(()), depth == 1)),
            Err(max) => Err(limit_error(LimitHit::Depth(max))),
        }
    }
}

impl Drop for Level {
    #[inline(always)]
    fn drop(&mut self) {
        CONTEXT.with(|cx| cx.depth.set(cx.depth.get() - 1));
    }
}

/// Limits installed for one call; the previous ones come back when it is dropped, even when
/// unwinding.
pub(crate) struct Installed {
    saved: (Limits, usize),
}

impl Installed {
    /// Installs `limits`, with a fresh byte budget.
    #[cold]
    pub(crate) fn new(limits: Limits) -> Self {
        Self {
            saved: CONTEXT.with(|cx| cx.install(limits)),
        }
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        CONTEXT.with(|cx| cx.restore(self.saved));
    }
}

/// Charges `bytes` of arena memory to the call's budget.
#[inline(always)]
pub(crate) fn charge(bytes: usize) -> Result<(), LimitHit> {
    CONTEXT.with(|cx| cx.charge(bytes))
}

/// Bytes the call may still allocate.
#[inline(always)]
pub(crate) fn bytes_left() -> usize {
    CONTEXT.with(|cx| cx.bytes_left.get())
}

/// Checks that a sequence of `len` elements of `elem_size` bytes is allowed: under the length
/// limit, and within the byte budget it will need once copied into the arena (so a sequence
/// that cannot fit fails as soon as it outgrows the budget, not after the whole input).
#[inline(always)]
pub(crate) fn check_len(len: usize, elem_size: usize) -> Result<(), LimitHit> {
    CONTEXT.with(|cx| {
        let max = if elem_size == 0 {
            cx.max_zero_sized_len.get()
        } else {
            cx.max_len.get()
        };
        if len > max {
            return Err(LimitHit::Len(max));
        }
        if len.saturating_mul(elem_size) > cx.bytes_left.get() {
            return Err(LimitHit::Bytes(cx.limits.get().bytes.unwrap_or(0)));
        }
        Ok(())
    })
}

/// The longest sequence of elements of `elem_size` bytes that [`check_len`] allows right now
/// (the budget can only shrink afterwards).
#[inline]
pub(crate) fn len_allowed(elem_size: usize) -> usize {
    CONTEXT.with(|cx| match cx.bytes_left.get().checked_div(elem_size) {
        Some(fit) => cx.max_len.get().min(fit),
        None => cx.max_zero_sized_len.get(),
    })
}

/// The direct block every announced length gets, before any has proved true.
pub(crate) const TRUST_FLOOR: usize = 16 * 1024;

/// The most trust a call can earn: no single direct block is larger.
pub(crate) const TRUST_CEILING: usize = 64 << 20;

/// Largest direct block an announced length may take now (at least [`TRUST_FLOOR`]).
#[inline(always)]
pub(crate) fn trust() -> usize {
    CONTEXT.with(|cx| cx.trust.get())
}

/// An announced length of `bytes` proved true: blocks up to twice that are trusted from now on
/// in this call (up to [`TRUST_CEILING`]).
#[inline]
pub(crate) fn earn_trust(bytes: usize) {
    CONTEXT.with(|cx| {
        let earned = bytes.saturating_mul(2).min(TRUST_CEILING);
        if earned > cx.trust.get() {
            cx.trust.set(earned);
        }
    });
}

/// An announced length proved false: back to the floor for the rest of the call.
#[cold]
pub(crate) fn lose_trust() {
    CONTEXT.with(|cx| cx.trust.set(TRUST_FLOOR));
}

/// The outermost call on this thread ended, successfully or not: the next call starts with the
/// trust this one earned, or with the floor if it failed (a failed call may have been lied to
/// in a way nothing judged, such as input that ends inside a trusted block).
#[inline]
pub(crate) fn carry_trust(succeeded: bool) {
    CONTEXT.with(|cx| {
        let next = if succeeded {
            cx.trust.get()
        } else {
            TRUST_FLOOR
        };
        cx.carried_trust.set(next);
    });
}

/// Checks that a string of `len` bytes is allowed, and charges it to the byte budget.
#[inline(always)]
pub(crate) fn admit_str(len: usize) -> Result<(), LimitHit> {
    CONTEXT.with(|cx| {
        let max = cx.max_str_len.get();
        if len > max {
            return Err(LimitHit::StrLen(max));
        }
        cx.charge(len)
    })
}

/// Checks that a string of `len` bytes is allowed (without charging it).
#[inline(always)]
pub(crate) fn check_str_len(len: usize) -> Result<(), LimitHit> {
    CONTEXT.with(|cx| {
        let max = cx.max_str_len.get();
        if len > max {
            Err(LimitHit::StrLen(max))
        } else {
            Ok(())
        }
    })
}

/// Turns a limit hit into the format's error.
#[cold]
pub(crate) fn limit_error<E: Error>(hit: LimitHit) -> E {
    E::custom(hit)
}
