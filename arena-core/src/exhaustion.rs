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
//! The count lives apart from the call state because allocation failures happen outside calls
//! too, and because the modules that raise these errors come before `call`.

use core::cell::Cell;
use core::fmt;

use crate::allocator::AllocError;
use crate::limits::LimitHit;

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
    /// Limit hits and allocation failures raised on this thread, wrapping.
    static COUNT: Cell<u32> = const { Cell::new(0) };
    /// The last of them, `None` before the first.
    static LAST: Cell<Option<Exhausted>> = const { Cell::new(None) };
}

/// Counts one limit hit or allocation failure raised on this thread, and keeps it as the last.
#[cold]
pub(crate) fn note(what: Exhausted) {
    COUNT.with(|count| count.set(count.get().wrapping_add(1)));
    LAST.with(|last| last.set(Some(what)));
}

/// The count [`note`] keeps: compare two readings for equality only (it wraps).
pub(crate) fn count() -> u32 {
    COUNT.with(Cell::get)
}

/// The last limit hit or allocation failure raised on this thread.
pub(crate) fn last() -> Option<Exhausted> {
    LAST.with(Cell::get)
}
