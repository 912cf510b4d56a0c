//! The thread's count of reads that ran out of what they may use: limit hits and allocation
//! failures, each counted when it becomes a serde error, and the last of them.
//!
//! A failed read can mean two things: the input is not what the type reads (a variant of an
//! untagged enum that does not match), or the read was refused the memory or the limits it
//! needed. The derive's [`attempt`](crate::call::attempt::attempt)s tell them apart by
//! comparing the count before and after a failure: trying the next variant makes sense after
//! the first, never after the second, whose error is the one to report. An attempt reads with
//! an error type that records nothing, so it builds that error from the [`last`] one.
//!
//! Both become serde errors here ([`AllocError::into_de`], [`LimitHit::into_de`]), so the
//! modules that define them (`allocator`, `limits`) know nothing of the count. The count lives
//! apart from the call state because allocation failures happen outside calls too.

use core::cell::Cell;
use core::fmt;

use crate::allocator::AllocError;
use crate::limits::LimitHit;

impl AllocError {
    /// The format's error for it: a custom error with its message, counted as the thread's
    /// read running out of what it may use.
    #[cold]
    pub(crate) fn into_de<E: serde::de::Error>(self) -> E {
        note(Exhausted::Alloc(self));
        E::custom(self)
    }
}

impl LimitHit {
    /// The format's error for it, counted as the thread's read running out of what it may
    /// use.
    #[cold]
    pub(crate) fn into_de<E: serde::de::Error>(self) -> E {
        note(Exhausted::Limit(self));
        E::custom(self)
    }

    /// The JSON reader's refusal for it, counted as [`into_de`](Self::into_de) counts it: a
    /// reader that cannot read its input again (a window of a stream) gives [`last`]'s
    /// message.
    #[cfg(feature = "json")]
    #[cold]
    pub(crate) fn into_refused(self) -> crate::json::Refused {
        note(Exhausted::Limit(self));
        crate::json::Refused
    }
}

/// What a read ran out of; its `Display` is the error message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exhausted {
    Limit(LimitHit),
    Alloc(AllocError),
}

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Limit(hit) => hit.fmt(f),
            Self::Alloc(error) => error.fmt(f),
        }
    }
}

std::thread_local! {
    /// Limit hits and allocation failures raised on this thread (wrapping), and the last of
    /// them (`None` before the first).
    static EXHAUSTED: Cell<(u32, Option<Exhausted>)> = const { Cell::new((0, None)) };
}

/// Counts one limit hit or allocation failure raised on this thread, and keeps it as the last.
#[cold]
fn note(what: Exhausted) {
    EXHAUSTED.with(|cell| cell.set((cell.get().0.wrapping_add(1), Some(what))));
}

/// The count [`note`] keeps: compare two readings for equality only (it wraps).
pub(crate) fn count() -> u32 {
    EXHAUSTED.with(|cell| cell.get().0)
}

/// The last limit hit or allocation failure raised on this thread.
pub(crate) fn last() -> Option<Exhausted> {
    EXHAUSTED.with(|cell| cell.get().1)
}
