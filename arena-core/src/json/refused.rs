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
        Self::by_value()
    }

    #[cold]
    fn missing_field(_field: &'static str) -> Self {
        Self::by_value();
        refused_by(Grammar::MissingField)
    }

    #[cold]
    fn duplicate_field(_field: &'static str) -> Self {
        Self::by_value();
        refused_by(Grammar::DuplicateField)
    }

    #[cold]
    fn invalid_length(_len: usize, _exp: &dyn serde::de::Expected) -> Self {
        Self::by_value();
        refused_by(Grammar::InvalidLength)
    }
}

impl Refused {
    /// The refusal of a value's type of the token the reader just read whole (a number out of
    /// its integer type's range, a float for an integer), counted as a visitor's refusal
    /// through [`de::Error`](serde::de::Error) is: the direct paths, which refuse with no
    /// visitor, say so by it.
    #[cold]
    #[inline(never)]
    pub(crate) fn by_value() -> Self {
        VALUE_REFUSALS.with(|n| n.set(n.get().wrapping_add(1)));
        Self
    }
}

std::thread_local! {
    /// How many refusals of a value's type this thread made, through a visitor
    /// ([`de::Error`](serde::de::Error)) or a direct path ([`Refused::by_value`]): a reader
    /// over a window, which cannot read its input again, tells by it a value's refusal of the
    /// token it read from its own refusal of the bytes at the reading position. Counted on the
    /// error path only.
    static VALUE_REFUSALS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };

    /// How many refusals this thread's reader made while it skipped a value (one its type
    /// ignores): a reader over a window tells by it that the bytes it refused are of a skipped
    /// value, which serde_json reads without a nesting limit or a check of its UTF-8. Counted
    /// on the error path only.
    static SKIP_REFUSALS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };

    /// How many strings this thread's reader refused for their invalid UTF-8: a reader over a
    /// window tells by it an invalid string it read from one in a value it skipped, which
    /// serde_json skips without checking it. Counted on the error path only.
    static UTF8_REFUSALS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };

    /// How many refusals this thread's reader made at a byte where serde_json's grammar for
    /// the type read says what is wrong, and the last one's kind: a reader over a window,
    /// whose errors are found by reading the bytes again as any value, tells by it where
    /// serde_json's grammar for that type differs from any value's. Counted on the error path
    /// only.
    static GRAMMAR_REFUSALS: core::cell::Cell<(u64, Option<Grammar>)> =
        const { core::cell::Cell::new((0, None)) };
}

/// Counts a refusal of a string's invalid UTF-8 (see [`UTF8_REFUSALS`]).
#[cold]
#[inline(never)]
pub(super) fn refused_utf8() -> Refused {
    UTF8_REFUSALS.with(|n| n.set(n.get().wrapping_add(1)));
    Refused
}

/// Counts a refusal made while skipping a value (see [`SKIP_REFUSALS`]).
#[cold]
#[inline(never)]
pub(super) fn refused_in_skip() {
    SKIP_REFUSALS.with(|n| n.set(n.get().wrapping_add(1)));
}

/// A refusal at a byte where serde_json's grammar for the type read, which a replay reading
/// any value cannot know, says what is wrong (see [`GRAMMAR_REFUSALS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Grammar {
    /// An enum: a value neither an object nor a string where it is due, or, in an enum
    /// written as an object, a `}` where the variant's name is due (an object may be empty,
    /// such an enum may not) or a byte other than `}` after the variant's content (an object
    /// may go on, such an enum holds one entry). serde_json says "expected value" there.
    Enum,
    /// A sequence or an object (its closing byte) whose visitor took no more of its
    /// elements or entries, at a byte other than that one: serde_json says "trailing
    /// comma" or "trailing characters" there.
    Trailing(u8),
    /// A visitor's missing field, at the end of an object: serde_json reads the `}` before it
    /// places the error.
    MissingField,
    /// A visitor's refusal of a sequence's length, where the sequence ends short of what it
    /// takes: serde_json reads the `]` before it places the error.
    InvalidLength,
    /// A visitor's duplicate field, after its key: serde_json looks at the byte after the
    /// key (the `:`) before it places the error.
    DuplicateField,
}

/// Counts a refusal of kind `grammar` (see [`GRAMMAR_REFUSALS`]).
#[cold]
#[inline(never)]
pub(super) fn refused_by(grammar: Grammar) -> Refused {
    GRAMMAR_REFUSALS.with(|n| n.set((n.get().0.wrapping_add(1), Some(grammar))));
    Refused
}

/// This thread's counts of each kind of refusal, taken before a read, to tell after it what
/// its refusal was (see [`since`](Self::since)).
#[derive(Clone, Copy, Debug)]
pub(super) struct Counts {
    value: u64,
    skip: u64,
    utf8: u64,
    grammar: u64,
}

/// What a read's refusal was, from the counts that moved during it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Kinds {
    /// A value's type refused the token read (see [`VALUE_REFUSALS`]).
    pub(super) value: bool,
    /// The reader refused while skipping a value (see [`SKIP_REFUSALS`]).
    pub(super) in_skip: bool,
    /// The reader refused a string's invalid UTF-8 (see [`UTF8_REFUSALS`]).
    pub(super) utf8: bool,
    /// The reader refused at a byte where serde_json's grammar for the type read says what
    /// is wrong (see [`GRAMMAR_REFUSALS`]).
    pub(super) grammar: Option<Grammar>,
}

impl Counts {
    /// This thread's counts now.
    pub(super) fn now() -> Self {
        Self {
            value: VALUE_REFUSALS.with(core::cell::Cell::get),
            skip: SKIP_REFUSALS.with(core::cell::Cell::get),
            utf8: UTF8_REFUSALS.with(core::cell::Cell::get),
            grammar: GRAMMAR_REFUSALS.with(core::cell::Cell::get).0,
        }
    }

    /// The kinds of refusal counted since these counts were taken.
    pub(super) fn since(self) -> Kinds {
        let now = Self::now();
        Kinds {
            value: now.value != self.value,
            in_skip: now.skip != self.skip,
            utf8: now.utf8 != self.utf8,
            grammar: if now.grammar == self.grammar {
                None
            } else {
                GRAMMAR_REFUSALS.with(core::cell::Cell::get).1
            },
        }
    }
}
