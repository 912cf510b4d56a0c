//! How far a call takes announced lengths at their word, and [`LengthTrust`], which carries
//! that from one call to the next of a stream.
//!
//! A binary format announces a sequence's length before its elements (postcard, bincode,
//! MessagePack, CBOR). A trusted length lets the sequence be filled in place, in one arena
//! block of exactly that many elements, with no scratch copy (see
//! [`slice_builder`](crate::slice_builder)). But a length is only a claim: a lying one makes
//! the arena reserve a block the input never fills. So trust is earned:
//! - A call starts trusting blocks of [`FLOOR`] bytes.
//! - Each announced length that proves true raises the trust to twice its bytes (up to
//!   [`CEILING`]), so the rings of coordinates or rows of a table after the first go straight
//!   in; one that proves false drops it back to the floor for the rest of the call.
//! - Nothing carries over from one call to the next unless the caller asks: a call given a
//!   [`LengthTrust`] starts with what the last successful call given the same `LengthTrust`
//!   ended with, so the next document of a stream of similar ones reads its large sequences
//!   straight into the arena. A failed call leaves the floor in it (its input may have lied in
//!   a way nothing judged, such as ending inside a trusted block).
//!
//! So the bytes a lying length makes the arena waste are at most twice the bytes of true
//! sequences before it (in its call, or in the calls before it that shared its
//! `LengthTrust`), plus the floor per lie, and they count against the call's byte budget like
//! any other allocation.
//!
//! A call that reads a slice through a format entry point has a second, independent reason to
//! take a length at its word: the input's size bounds it ([`InputClaim`](super::InputClaim)).
//! Such a block neither needs nor counts against the trust.

use core::fmt;
use core::sync::atomic::{AtomicUsize, Ordering};

use super::with;

/// The direct block every announced length gets, before any has proved true.
pub(crate) const FLOOR: usize = 16 * 1024;

/// The most trust a call can earn: no single direct block is larger.
pub(crate) const CEILING: usize = 64 << 20;

/// The trust announced lengths have earned in a stream of calls, carried from one call to the
/// next by the caller: give the same `LengthTrust` to the seed of every document of a stream
/// ([`ArenaSeed::with_trust`]).
///
/// Without one, every call starts from a small floor (16 KiB), so a document's large
/// top-level sequences are collected outside the arena and copied in once, unless the input's
/// size bounds them (the format entry points that read a slice take a length up to the
/// slice's size at its word, trust or not). With one, a call starts with the trust the last
/// successful call of the stream ended with, and those sequences go straight into the arena
/// from a reader too. The price is bounded: a lying length in a
/// later document can make the arena reserve at most twice the bytes of the true sequences
/// before it (never more than 64 MiB in one block, and always within the call's
/// [`Limits::max_bytes`]).
///
/// Keep one per stream of documents from one source (a file, a connection, a client): input
/// from a source you trust less than another should not start with the trust the other
/// earned. A `LengthTrust` is `Sync`, so one stream read by several threads can share it.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, LengthTrust, SlabArena};
/// use serde::de::DeserializeSeed;
///
/// let trust = LengthTrust::new();
/// let rows: Vec<Vec<u64>> = vec![(0..4096).collect(); 2];
/// let bytes = postcard::to_allocvec(&rows).unwrap();
/// for _ in 0..3 {
///     // A fresh arena per document; the trust goes on from one to the next.
///     let arena = SlabArena::new();
///     let seed = ArenaSeed::<&[&[u64]], _>::new(&arena).with_trust(&trust);
///     let read = seed.deserialize(&mut postcard::Deserializer::from_bytes(&bytes))?;
///     assert_eq!(read[1][4095], 4095);
/// }
/// assert!(trust.bytes() >= 2 * 4096 * 8, "rows of 32 KiB proved true");
/// trust.reset();
/// assert_eq!(trust.bytes(), LengthTrust::new().bytes());
/// # Ok::<(), postcard::Error>(())
/// ```
///
/// [`ArenaSeed::with_trust`]: crate::ArenaSeed::with_trust
/// [`Limits::max_bytes`]: crate::Limits::max_bytes
pub struct LengthTrust {
    /// The trust the next call starts with; always within `FLOOR..=CEILING`.
    bytes: AtomicUsize,
}

impl LengthTrust {
    /// A trust that has seen nothing: the next call starts from the floor.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            bytes: AtomicUsize::new(FLOOR),
        }
    }

    /// The largest block an announced length may fill in place at the start of the next call
    /// given this trust.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Forgets what earlier calls proved: the next call starts from the floor.
    pub fn reset(&self) {
        self.bytes.store(FLOOR, Ordering::Relaxed);
    }
}

impl Default for LengthTrust {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for LengthTrust {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LengthTrust")
            .field("bytes", &self.bytes())
            .finish()
    }
}

/// The first call on the thread opens: it starts with what `held` carries, or the floor.
#[cold]
pub(super) fn start(held: Option<&LengthTrust>) {
    let bytes = held.map_or(FLOOR, |t| t.bytes().clamp(FLOOR, CEILING));
    with(|cx| cx.trust.set(bytes));
}

/// The first call on the thread closes with the trust `bytes`, which the thread's state has
/// just given up for the floor (the frame does that in its own access to the state, so
/// nothing carries over unasked): `held` keeps `bytes` if the call succeeded, the floor if
/// not.
#[inline]
pub(super) fn finish(held: Option<&LengthTrust>, succeeded: bool, bytes: usize) {
    if let Some(held) = held {
        held.bytes
            .store(if succeeded { bytes } else { FLOOR }, Ordering::Relaxed);
    }
}

/// Largest direct block an announced length may take now (at least [`FLOOR`]).
#[inline(always)]
pub(crate) fn current() -> usize {
    with(|cx| cx.trust.get())
}

/// A sequence announced as `announced` elements of `T` long had `len`: earn trust if that was
/// true (and large enough to matter), lose it if not.
#[inline(always)]
pub(crate) fn judge<T>(announced: usize, len: usize) {
    if announced != len {
        lose();
    } else if size_of::<T>() != 0 && len > FLOOR / 2 / size_of::<T>() {
        // Only a sequence of more than half the floor raises the trust; the others skip the
        // thread-local access.
        earn(len.saturating_mul(size_of::<T>()));
    }
}

/// An announced length of `bytes` proved true: blocks up to twice that are trusted from now on
/// in this call (up to [`CEILING`]).
#[inline]
pub(crate) fn earn(bytes: usize) {
    with(|cx| {
        let earned = bytes.saturating_mul(2).min(CEILING);
        if earned > cx.trust.get() {
            cx.trust.set(earned);
        }
    });
}

/// An announced length proved false: back to the floor for the rest of the call.
#[cold]
pub(crate) fn lose() {
    with(|cx| cx.trust.set(FLOOR));
}
