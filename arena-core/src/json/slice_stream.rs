//! [`SliceStream`]: the JSON documents of a slice, one after another, each read into an arena.

use serde_json::Error;

use super::stream_document::{self, Step};
use super::stream_error::{Origin, Positions};
use super::whitespace;
use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::seed::ArenaSeed;
use crate::stream::DocumentStream;

/// The JSON values of a slice separated by whitespace, or following each other where a value
/// ends itself: JSON Lines (NDJSON), concatenated JSON, any whitespace between. Each is read
/// with the crate's reader into the arena [`next_in`](DocumentStream::next_in) or
/// [`next_seed`](DocumentStream::next_seed) is given; the [`DocumentStream`] trait has the
/// loops (one arena reset per document, or a batch per arena).
///
/// It reads what `serde_json::Deserializer::from_slice(input).into_iter()` reads, item by
/// item, [`byte_offset`](Self::byte_offset) included:
/// - a value that does not end itself (a number, `true`, `false`, `null`) must be followed by
///   whitespace, the end, or one of ``"[]{},:``: `1 2`, `1[2]`, `"a""b"` and `[1][2]` are two
///   values each;
/// - `12a` gives an error (`trailing characters`) for `12`, and the stream goes on at `a`
///   (which is then an error);
/// - a document that does not read (not JSON, truncated, not a `T`, over the limits) gives
///   its error, and the stream ends: every later call returns `None`.
///
/// # Errors
///
/// Each item's error is serde_json's, with its message and the line and column in the whole
/// input. The crate's reader refuses without saying why: a refused document is read again by
/// serde_json for its error, then once more behind a copy of the stream's shape before it (as
/// many bytes as the input has lines before the document, see the `stream_error` module),
/// which gives the error its position. That costs a pass over the document and those bytes,
/// once, since an error ends the stream. The arena is rewound to where it was before the
/// failed document.
///
/// # Memory
///
/// Nothing beyond the arena: strings are copied into the arena, the slice is only read.
///
/// # Examples
///
/// ```
/// use arena_core::{DocumentStream, SlabArena};
///
/// let mut arena = SlabArena::new();
/// let mut stream = arena_core::json::SliceStream::new(b"{\"id\": 1}\n{\"id\": 2}\n{\"id\": x}\n");
/// let first = stream.next_in::<&[(&str, u32)], _>(&arena).unwrap()?;
/// assert_eq!(first, [("id", 1)]);
/// assert_eq!(stream.byte_offset(), 9);
/// arena.reset();
/// assert!(stream.next_in::<&[(&str, u32)], _>(&arena).unwrap().is_ok());
/// let err = stream.next_in::<&[(&str, u32)], _>(&arena).unwrap().unwrap_err();
/// assert_eq!(err.to_string(), "expected value at line 3 column 8");
/// assert!(stream.next_in::<&[(&str, u32)], _>(&arena).is_none());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SliceStream<'de> {
    input: &'de [u8],
    /// Where the next document's whitespace starts: at most `input.len()`.
    pos: usize,
    /// [`byte_offset`](Self::byte_offset)'s answer.
    offset: usize,
    /// Where serde_json stopped reading the document that ended the stream, once one has.
    failed_at: Option<usize>,
    /// The reader's buffer for strings with escapes, kept from one document to the next.
    scratch: Vec<u8>,
}

impl<'de> SliceStream<'de> {
    /// A stream at the start of `input`.
    #[must_use]
    pub const fn new(input: &'de [u8]) -> Self {
        Self {
            input,
            pos: 0,
            offset: 0,
            failed_at: None,
            scratch: Vec::new(),
        }
    }

    /// A stream at the start of the text `input`.
    #[must_use]
    pub const fn from_str(input: &'de str) -> Self {
        Self::new(input.as_bytes())
    }

    /// How many bytes of the input the stream has read, as serde_json's
    /// `StreamDeserializer::byte_offset` counts them: up to the end of the last value read,
    /// or to the start of a document that failed. After the end, the whole input; after a
    /// failure ended the stream, where serde_json stopped reading the failed document.
    #[must_use]
    pub const fn byte_offset(&self) -> usize {
        self.offset
    }
}

impl DocumentStream for SliceStream<'_> {
    type Error = Error;

    fn next_seed<'bump, T, A>(&mut self, seed: ArenaSeed<'bump, T, A>) -> Option<Result<T, Error>>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        if let Some(stop) = self.failed_at {
            self.offset = stop;
            return None;
        }
        let start = whitespace::skip(self.input, self.pos);
        self.pos = start;
        self.offset = start;
        if start == self.input.len() {
            return None;
        }
        let input = self.input;
        let origin = || Origin::default().after(&input[..start]);
        match stream_document::read(
            seed,
            &input[start..],
            &mut self.scratch,
            true,
            origin,
            Positions::Slice,
        ) {
            Step::Value(value, len) => {
                self.pos = start + len;
                self.offset = self.pos;
                Some(Ok(value))
            }
            Step::Trailing(err, len) => {
                self.pos = start + len;
                self.offset = self.pos;
                Some(Err(err))
            }
            Step::Failed(err, stop) => {
                self.failed_at = Some(start + stop);
                Some(Err(err))
            }
            // The whole input is at hand.
            Step::More => unreachable!("a complete input needs no more bytes"),
        }
    }
}
