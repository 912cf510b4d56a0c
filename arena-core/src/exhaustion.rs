//! The thread's count of reads that ran out of what they may use: limit hits and allocation
//! failures, each counted when it becomes a serde error.
//!
//! A failed read can mean two things: the input is not what the type reads (a variant of an
//! untagged enum that does not match), or the read was refused the memory or the limits it
//! needed. The derive's [`attempt`](crate::call::attempt::attempt)s tell them apart by
//! comparing the count before and after a failure: trying the next variant makes sense after
//! the first, never after the second, whose error is the one to report.
//!
//! The count lives apart from the call state because allocation failures happen outside calls
//! too, and because the modules that raise these errors come before `call`.

use core::cell::Cell;

std::thread_local! {
    /// Limit hits and allocation failures raised on this thread, wrapping.
    static COUNT: Cell<u32> = const { Cell::new(0) };
}

/// Counts one limit hit or allocation failure raised on this thread.
#[cold]
pub(crate) fn note() {
    COUNT.with(|count| count.set(count.get().wrapping_add(1)));
}

/// The count [`note`] keeps: compare two readings for equality only (it wraps).
pub(crate) fn count() -> u32 {
    COUNT.with(Cell::get)
}
