//! [`Limits`]: bounds on what one deserialization call may do, for input you did not write.
//!
//! A `Limits` is a plain value; [`ArenaSeed::with_limits`] puts it in force for one call, and
//! the call state (`call.rs`) checks every value deserialized inside it against it.
//! Limits only tighten: a seed nested in a call gets the intersection of its limits and the
//! call's ([`Limits::intersect`]).
//!
//! [`ArenaSeed::with_limits`]: crate::ArenaSeed::with_limits
//! [`LengthTrust`]: crate::LengthTrust

use core::fmt;

/// Bounds for one deserialization call.
///
/// Every limit hit is a serde error naming the limit and its value. The byte budget counts
/// every arena allocation of the call, the blocks that trusted announced lengths reserve
/// included (at most 16 KiB each unless the call, or a [`LengthTrust`](crate::LengthTrust) it
/// was given, saw true
/// lengths of that size). In a seed nested in a call, the limits in force are the intersection
/// of both ([`Limits::intersect`]). Build it from the defaults:
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
    pub(crate) const DEFAULT: Self = Self {
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

    /// The tighter of `self` and `other`, limit by limit: what a seed with limits `self` gets
    /// inside a call whose limits are `other` (no nested seed can loosen its caller's limits).
    ///
    /// ```
    /// use arena_core::Limits;
    ///
    /// let outer = Limits::default().max_bytes(1 << 20).max_depth(16);
    /// let inner = Limits::default().max_bytes(1 << 30).max_len(10);
    /// let both = inner.intersect(outer);
    /// assert_eq!(both.bytes_limit(), Some(1 << 20));
    /// assert_eq!(both.len_limit(), Some(10));
    /// assert_eq!(both.depth_limit(), 16);
    /// ```
    #[must_use]
    pub const fn intersect(self, other: Self) -> Self {
        const fn min(a: Option<usize>, b: Option<usize>) -> Option<usize> {
            match (a, b) {
                (Some(a), Some(b)) if a <= b => Some(a),
                (Some(_), Some(b)) => Some(b),
                (Some(a), None) => Some(a),
                (None, b) => b,
            }
        }
        Self {
            bytes: min(self.bytes, other.bytes),
            depth: if self.depth <= other.depth {
                self.depth
            } else {
                other.depth
            },
            len: min(self.len, other.len),
            str_len: min(self.str_len, other.str_len),
        }
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
