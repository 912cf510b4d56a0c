//! [`Refused`]: the error of the crate's JSON reader, which says only that it did not read the
//! input.
//!
//! The entry points read an input the reader refuses again with serde_json, whose error (its
//! message, line and column) is the one the caller sees. So the reader's own error needs no
//! message and no position: it is a unit, and a `Result` carrying it is no larger than the
//! value it carries.

use core::fmt;

/// The reader did not read the input: it is not JSON, does not hold the value asked for, or
/// broke a limit. The entry points then read it with serde_json, which says why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the JSON reader refused the input")
    }
}

impl std::error::Error for Refused {}

impl serde::de::Error for Refused {
    #[cold]
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        VISITOR_REFUSALS.with(|n| n.set(n.get().wrapping_add(1)));
        Self
    }
}

std::thread_local! {
    /// How many refusals of a value's visitor (through [`de::Error`](serde::de::Error)) this
    /// thread made: a reader over a window, which cannot read its input again, tells by it a
    /// value's refusal from one of the bytes after the value. Counted on the error path only.
    static VISITOR_REFUSALS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// How many refusals of a value's visitor this thread made (see [`VISITOR_REFUSALS`]).
pub(super) fn visitor_refusals() -> u64 {
    VISITOR_REFUSALS.with(core::cell::Cell::get)
}
