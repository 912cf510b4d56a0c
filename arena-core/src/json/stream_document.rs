//! One document of a JSON stream, read from the bytes at hand: the step both streams take,
//! as serde_json's `StreamDeserializer::next` takes it.
//!
//! After a value, serde_json's stream needs the byte that follows to be whitespace, the end of
//! the input, or one of ``"[]{},:`` unless the value ends itself (an array, an object or a
//! string): `1 2`, `1[2]`, `"a""b"` and `[1][2]` are two values each, while `12a` is `12`
//! refused with `trailing characters` (the stream goes on, and refuses `a`). A value that
//! does not read ends the stream.
//!
//! The bytes at hand may end before the stream does (a [`ReaderStream`](super::ReaderStream)'s
//! window): a document is then only read once it ends before the window's end, or the
//! reader is at its end. A value that does not end itself, read up to the window's end, may
//! go on past it; so may a document that serde_json refuses at the window's last byte.

use serde_json::Error;

use super::deserializer::Deserializer;
use super::refused::Refused;
use super::rewound_on_error;
use super::stream_error::{self, Origin, Positions};
use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::seed::ArenaSeed;

/// What reading the document at the start of the bytes at hand gave.
pub(super) enum Step<T> {
    /// A value, `len` bytes long.
    Value(T, usize),
    /// A value of `len` bytes read, and refused for the byte after it: the stream goes on at
    /// that byte.
    Trailing(Error, usize),
    /// A document that does not read: the stream ends.
    Failed(Error, usize),
    /// The document may go on past the bytes at hand: read more and try again.
    More,
}

/// Why a read gave no value.
enum Attempt {
    /// A value of this many bytes, followed by a byte that does not end it.
    Trailing(usize),
    /// The document may go on past the bytes at hand.
    More,
    /// serde_json's error, and where it stopped reading.
    Failed(Error, usize),
}

/// Whether `next`, the byte after a value that does not end itself, ends it for serde_json's
/// stream.
const fn ends_value(next: Option<&u8>) -> bool {
    matches!(
        next,
        None | Some(b' ' | b'\n' | b'\t' | b'\r' | b'"' | b'[' | b']' | b'{' | b'}' | b',' | b':')
    )
}

/// Reads the document at the start of `doc` (its first byte is no whitespace) with `seed`.
/// `scratch` is the reader's buffer for strings with escapes, kept by the stream. `complete`
/// says whether the stream ends with `doc`; `origin` is where `doc` starts in the stream
/// (asked for only on an error), and `positions` whose positions errors carry. A failed
/// document, or one to read again, leaves the arena where it was.
pub(super) fn read<'bump, T, A>(
    seed: ArenaSeed<'bump, T, A>,
    doc: &[u8],
    scratch: &mut Vec<u8>,
    complete: bool,
    origin: impl Fn() -> Origin,
    positions: Positions,
) -> Step<T>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    let ends_itself = matches!(doc.first(), Some(b'[' | b'{' | b'"'));
    // How a value of `len` bytes ends, as serde_json's stream checks it.
    let check_end = |len: usize| {
        if !ends_itself {
            if len == doc.len() && !complete {
                return Err(Attempt::More);
            }
            if !ends_value(doc.get(len)) {
                return Err(Attempt::Trailing(len));
            }
        }
        Ok(())
    };
    let mut reader = Deserializer::with_scratch(doc, core::mem::take(scratch));
    let mut read = || {
        let value = reader.read_seed(seed).map_err(|Refused| None)?;
        check_end(reader.pos()).map_err(Some)?;
        Ok(value)
    };
    let ours = if ends_itself {
        // Only the reader can refuse a value that ends itself, and the seed's call rewinds
        // the arena then, as `rewound_on_error` would (when it owns the arena; when a call
        // further out does, neither rewinds).
        read()
    } else {
        // SAFETY: `Attempt` holds no references (a `serde_json::Error` owns its message), nor
        // does `None`, the reader's refusal.
        unsafe { rewound_on_error(seed.arena(), read) }
    };
    let len = reader.pos();
    *scratch = reader.into_scratch();
    // A document the crate's reader refused: serde_json's value or error is the answer.
    let read = match ours {
        Ok(value) => Ok((value, len)),
        Err(Some(attempt)) => Err(attempt),
        // SAFETY: as above.
        Err(None) => unsafe {
            rewound_on_error(seed.arena(), || {
                let (result, stop) = stream_error::serde_json_read(seed, doc);
                // serde_json looked at most at the byte after where it stopped.
                let may_go_on = !complete && stop.saturating_add(1) >= doc.len();
                match result {
                    Err(err) if may_go_on || (!complete && err.is_eof()) => Err(Attempt::More),
                    Err(err) => Err(Attempt::Failed(err, stop)),
                    Ok(_) if may_go_on => Err(Attempt::More),
                    Ok(value) => check_end(stop).map(|()| (value, stop)),
                }
            })
        },
    };
    match read {
        Ok((value, len)) => Step::Value(value, len),
        Err(Attempt::More) => Step::More,
        Err(Attempt::Trailing(len)) => Step::Trailing(
            stream_error::trailing_error(doc, len, origin(), positions),
            len,
        ),
        Err(Attempt::Failed(err, stop)) => Step::Failed(
            stream_error::document_error(seed, doc, err, stop, origin(), positions),
            stop,
        ),
    }
}
