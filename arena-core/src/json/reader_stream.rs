//! [`ReaderStream`]: the JSON documents of an `io::Read`, one after another, each read into an
//! arena, through a window of the input.

use std::io;

use serde_json::Error;

use super::document_end::DocumentEnd;
use super::stream_document::{self, Step};
use super::stream_error::{Origin, Positions};
use super::whitespace;
use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::seed::ArenaSeed;
use crate::stream::DocumentStream;

/// The JSON values a reader holds, separated by whitespace or following each other where a
/// value ends itself (JSON Lines, concatenated JSON), each read with the crate's reader into
/// the arena it is given: [`SliceStream`](super::SliceStream) over a reader.
///
/// It reads what `serde_json::Deserializer::from_reader(reader).into_iter()` reads, item by
/// item, as [`SliceStream`](super::SliceStream) does for a slice, with serde_json's reader's
/// positions in errors and its [`byte_offset`](Self::byte_offset) (which stays at the start of
/// a document that ended the stream). An I/O error is an item's error (category `Io`) and ends
/// the stream; `Interrupted` is retried.
///
/// The reader is read in large blocks into a window ([`DEFAULT_WINDOW`] bytes unless
/// [`with_window`](Self::with_window) says otherwise), and each document is read from the
/// window. A document that runs past the window's end is read again once more of the input
/// is in: the window's unread bytes move to its front, the reader fills the rest, and the
/// window doubles when one document fills it whole. With a window of 1 MiB or more and
/// documents of a few KiB, the second read of the one document that straddles each refill
/// costs well under 1% of the reading. A document longer than what one `read` call brings in
/// is not read again after each call: its brackets and strings are followed, each byte once,
/// and it is read again when they close (or when twice as much of it is in as at its last
/// read, for input that is no JSON), so a long document costs about two reads of it whatever
/// the reader's block size.
///
/// # Errors
///
/// As [`SliceStream`](super::SliceStream): serde_json's error at the line and column of the
/// whole stream, one per failed document, the arena rewound. A document the crate's reader
/// refuses at the window's end is read by serde_json from the window to tell a document that
/// goes on past the window from one that fails.
///
/// # Memory
///
/// The window: its size, or twice the longest document, whichever is larger. Strings are
/// copied into the arena, so nothing read borrows the window.
///
/// # Examples
///
/// ```
/// use arena_core::{DocumentStream, SlabArena};
///
/// let input = std::io::Cursor::new("{\"id\": 1, \"tags\": [\"a\"]}\n{\"id\": 2, \"tags\": []}\n");
/// let mut stream = arena_core::json::ReaderStream::new(input);
/// let mut arena = SlabArena::new();
/// let mut ids = Vec::new();
/// while let Some(row) = stream.next_in::<&[(&str, arena_core::Value<'_>)], _>(&arena) {
///     ids.push(row?[0].1.as_u64());
///     arena.reset();
/// }
/// assert_eq!(ids, [Some(1), Some(2)]);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug)]
pub struct ReaderStream<R> {
    reader: R,
    /// The window: `window[start..end]` is read from the reader and not yet consumed. Its
    /// length is its capacity; the bytes past `end` are free space.
    window: Vec<u8>,
    /// Where the unconsumed bytes start: at most `end`.
    start: usize,
    /// Where the bytes read from the reader end: at most `window.len()`.
    end: usize,
    /// Whether the reader said it has no more.
    eof: bool,
    /// How many bytes of the input came before `window[0]`.
    dropped: usize,
    /// Where `window[0]` is in the input.
    origin: Origin,
    /// [`byte_offset`](Self::byte_offset)'s answer.
    offset: usize,
    /// Whether an error ended the stream.
    failed: bool,
    /// The reader's buffer for strings with escapes, kept from one document to the next.
    scratch: Vec<u8>,
    /// The document at `start` when it ran past the window's end: how far it has been
    /// followed, and how many bytes of it the window held when it was last read.
    pending: Option<(DocumentEnd, usize)>,
    /// Documents read from the window, whole or not.
    #[cfg(test)]
    reads: usize,
}

/// The window a [`ReaderStream`] reads into unless told otherwise: 1 MiB, so each `read` call
/// brings in many documents of a few KiB.
pub const DEFAULT_WINDOW: usize = 1 << 20;

impl<R: io::Read> ReaderStream<R> {
    /// A stream over `reader`, with a window of [`DEFAULT_WINDOW`] bytes.
    #[must_use]
    pub fn new(reader: R) -> Self {
        Self::with_window(reader, DEFAULT_WINDOW)
    }

    /// A stream over `reader`, with a window of `window` bytes (at least 1) to start with.
    #[must_use]
    pub fn with_window(reader: R, window: usize) -> Self {
        Self {
            reader,
            window: vec![0; window.max(1)],
            start: 0,
            end: 0,
            eof: false,
            dropped: 0,
            origin: Origin::default(),
            offset: 0,
            failed: false,
            scratch: Vec::new(),
            pending: None,
            #[cfg(test)]
            reads: 0,
        }
    }

    /// How many bytes of the input the stream has read, as serde_json's
    /// `StreamDeserializer::byte_offset` counts them for a reader: up to the end of the last
    /// value read, or to the start of a document that failed.
    #[must_use]
    pub const fn byte_offset(&self) -> usize {
        self.offset
    }

    /// The reader, with whatever of its input the window holds unread dropped.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// Moves the unconsumed bytes to the window's front, doubles the window if they fill it,
    /// and reads from the reader into the free space; sets `eof` on a read of nothing.
    fn refill(&mut self) -> io::Result<()> {
        if self.start > 0 {
            let consumed = &self.window[..self.start];
            self.origin = self.origin.after(consumed);
            self.dropped += self.start;
            self.window.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.window.len() {
            let doubled = self.window.len().saturating_mul(2);
            self.window.resize(doubled, 0);
        }
        loop {
            match self.reader.read(&mut self.window[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
    }
}

impl<R: io::Read> DocumentStream for ReaderStream<R> {
    type Error = Error;

    fn next_seed<'bump, T, A>(&mut self, seed: ArenaSeed<'bump, T, A>) -> Option<Result<T, Error>>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        if self.failed {
            return None;
        }
        loop {
            let start = whitespace::skip(&self.window[..self.end], self.start);
            self.start = start;
            if start == self.end {
                if self.eof {
                    self.offset = self.dropped + start;
                    return None;
                }
            } else {
                self.offset = self.dropped + start;
                let (window, base) = (&self.window[..self.end], self.origin);
                let origin = || base.after(&window[..start]);
                let doc = &window[start..];
                // A document that ran past the window's end is read again only once the window
                // holds the whole of it, or twice as much of it as when it was last read.
                let wait = match &mut self.pending {
                    Some((end, read)) => {
                        !self.eof && doc.len() < read.saturating_mul(2) && !end.complete(doc)
                    }
                    None => false,
                };
                if wait {
                    if let Err(err) = self.refill() {
                        self.failed = true;
                        return Some(Err(Error::io(err)));
                    }
                    continue;
                }
                let len = doc.len();
                #[cfg(test)]
                {
                    self.reads += 1;
                }
                match stream_document::read(
                    seed,
                    doc,
                    &mut self.scratch,
                    self.eof,
                    origin,
                    Positions::Reader,
                ) {
                    Step::Value(value, len) => {
                        self.pending = None;
                        self.start = start + len;
                        self.offset = self.dropped + self.start;
                        return Some(Ok(value));
                    }
                    Step::Trailing(err, len) => {
                        self.pending = None;
                        self.start = start + len;
                        self.offset = self.dropped + self.start;
                        return Some(Err(err));
                    }
                    Step::Failed(err, _) => {
                        self.failed = true;
                        return Some(Err(err));
                    }
                    Step::More => {
                        let end = self
                            .pending
                            .map_or_else(DocumentEnd::default, |(end, _)| end);
                        self.pending = Some((end, len));
                    }
                }
            }
            if let Err(err) = self.refill() {
                self.failed = true;
                return Some(Err(Error::io(err)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SlabArena;

    #[test]
    fn the_window_grows_to_the_longest_document_and_no_further() {
        let long = format!("[{}]", vec!["1"; 200].join(","));
        let text = format!("1\n{long}\n2\n{long}\n3\n");
        let mut stream = ReaderStream::with_window(text.as_bytes(), 4);
        let arena = SlabArena::new();
        let mut lens = Vec::new();
        while let Some(doc) = stream.next_in::<crate::Value<'_>, _>(&arena) {
            lens.push(doc.unwrap().as_array().map_or(0, <[_]>::len));
        }
        assert_eq!(lens, [0, 200, 0, 200, 0]);
        // Doubled from 4 until one document fits: less than twice the longest one.
        assert!(
            stream.window.len() < 2 * long.len(),
            "{}",
            stream.window.len()
        );
        assert!(stream.window.len() >= long.len());
        assert_eq!(stream.byte_offset(), text.len());
    }

    /// A reader that hands out one byte per call.
    struct ByteAtATime<'a>(&'a [u8]);

    impl io::Read for ByteAtATime<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let one = buf.len().min(1);
            self.0.read(&mut buf[..one])
        }
    }

    #[test]
    fn a_document_longer_than_a_read_is_read_about_twice_not_once_a_read() {
        let long = format!("[{}]", vec!["{\"a\": \"]}\\\"\"}"; 2000].join(","));
        let text = format!("{long}\n{long} 7");
        let mut stream = ReaderStream::with_window(ByteAtATime(text.as_bytes()), 64);
        let arena = SlabArena::new();
        let mut lens = Vec::new();
        while let Some(doc) = stream.next_in::<crate::Value<'_>, _>(&arena) {
            lens.push(doc.unwrap().as_array().map_or(0, <[_]>::len));
        }
        assert_eq!(lens, [2000, 2000, 0]);
        // Each long document: read at its first byte, then at each doubling of what the window
        // held of it at its last read (from one byte), then once whole; the number read alone.
        let per_long = 2 + (long.len() as f64).log2().ceil() as usize;
        assert!(
            stream.reads <= 2 * per_long + 2,
            "{} reads for {} bytes",
            stream.reads,
            text.len()
        );
    }
}
