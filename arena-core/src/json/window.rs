//! [`Window`]: the input of [`from_reader`](super::from_reader), a bounded window of the
//! stream that the crate's reader refills when it reaches the window's end.
//!
//! The reader refills only where it stands between two tokens, at the end of the input it
//! peeks (the cold end-of-input path of `peek`): every string, number, literal and key lies
//! whole inside one window. For that the window ends at a *cut*: just after a `,`, `:`, `[` or
//! `{` outside any string, which no token spans. A scan of the bytes read ([`Cuts`], a block of
//! 64 bytes at a time where the block holds no backslash) follows which bytes are inside
//! strings (a `"` outside a string opens one, a backslash inside one escapes the byte after it,
//! a `"` closes it) and finds the last cut of the bytes it has; the bytes after it stay in the
//! buffer for the next window. The scan agrees with the reader on where every string starts
//! and ends for every byte the reader accepts (the reader reads a string to its first
//! unescaped quote, and the bytes of an escape after its first, the escaped character, are
//! never a quote or a backslash it accepts); past a byte the reader refuses the
//! two may disagree, but the reader stops there. A cut inside a string the reader is reading
//! would make it refuse at the window's end, never accept: the window only ever shows it
//! bytes of the stream, in order.
//!
//! A window shows the parser up to [`WINDOW_SIZE`] bytes. A token longer than that (one huge
//! string or number, or a run of bytes with no cut in it) grows the buffer to hold it whole,
//! doubling, and shrinks back to a window once the run is read and dropped: the buffer holds at
//! most the longest run of input without a cut, plus a window. The bytes a window starts from
//! (what `from_reader` read whole) are such a run too: the buffer holds them until they are
//! read, then windows of the size it was made with.
//!
//! The 32 bytes before the reading position stay in the buffer at a refill: the reader copies a
//! short string as the 32 bytes of input that end with it, and falls back to copying its exact
//! bytes where fewer than 32 bytes precede its end.

use std::io::{self, Read as _};

use serde::de::DeserializeSeed as _;

use super::refused::{Grammar, Kinds};
use super::string;
use crate::exhaustion::Exhausted;

mod structure;

/// The bytes a window of [`from_reader`](super::from_reader) holds: 256 KiB, a read of a size
/// the OS serves in one call, and a window that stays in the L2 cache while the reader parses
/// it. A run of input with no cut in it that is longer than this grows the window to hold it.
pub const WINDOW_SIZE: usize = 256 * 1024;

/// The bytes before the reading position a refill keeps: the reader's short-string copy reads
/// the 32 bytes of input ending at a string's end.
const KEEP: usize = 32;

/// The spaces a window ends in (see [`Source::window`]): two, so that after the one a `:`
/// consumes, `peek` still finds one.
const PAD: usize = 2;

/// Where the reader's input comes from when it reaches the end of a window.
pub(super) trait Source {
    /// The window the reader reads. It ends in [`PAD`] spaces past its last byte of input,
    /// written over the buffer's bytes there: the reader then meets the end of a window only
    /// after whitespace, on its out-of-line path, and the inlined `peek` of the slice reader
    /// has no branch for it. A cut follows a `,`, `:`, `[` or `{`, where whitespace may stand,
    /// and whitespace after the stream's end is whitespace after the value or completes no
    /// token, so the spaces change nothing the reader accepts or reads.
    fn window(&self) -> &[u8];

    /// Moves to the next window, the reader having reached position `pos` of the current one
    /// (its end, between two tokens): returns where that byte is in the new window, and
    /// whether the new window holds more bytes after it (`false` at the end of the stream).
    fn refill(&mut self, pos: usize) -> (usize, bool);
}

/// A window over the stream `reader` holds, refilled by reads into a buffer of its own.
pub(super) struct Window<R> {
    reader: R,
    /// The bytes read and not yet dropped: `buffer[..filled]`. Its length is its capacity,
    /// so a read writes into initialized bytes.
    buffer: Vec<u8>,
    /// How many bytes of `buffer` hold input: at most `buffer.len()`.
    filled: usize,
    /// Where the window ends: the window is `buffer[..cut]`, `cut <= filled`; a cut, or
    /// `filled` at the end of the stream.
    cut: usize,
    /// Which bytes are inside strings, up to `cuts.scanned` (`cut <= cuts.scanned <= filled`).
    cuts: Cuts,
    /// The size of the windows it reads: `base`, or more after a long token or while the
    /// bytes it was given to start with are read.
    size: usize,
    /// The size it was made with ([`WINDOW_SIZE`] for `from_reader`), which it goes back to
    /// once the bytes it holds fit in it again.
    base: usize,
    /// Where the first byte of `buffer` is in the stream, and the line and column there.
    origin: Position,
    /// Whether `reader` reported the end of the stream or an error.
    ended: bool,
    /// The error `reader` reported, if any.
    error: Option<io::Error>,
    /// Where the reader started reading the current window.
    start: Start,
    /// The buffer's bytes the window's trailing spaces are written over, while they are.
    padded: Option<[u8; PAD]>,
    /// Whether the reader asked for more input at the end of the stream: a refusal then is
    /// the end's (serde_json's `EOF while parsing`), not a value's.
    reached_end: bool,
}

/// A position in the stream: its byte offset, and its line and column as serde_json counts
/// them (the line from 1, the column the number of bytes since the last line feed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Position {
    /// The byte offset from the start of the stream.
    pub(super) offset: u64,
    /// The line, from 1.
    pub(super) line: u64,
    /// The bytes since the line's start.
    pub(super) column: u64,
}

impl Position {
    /// The start of a stream.
    const START: Self = Self {
        offset: 0,
        line: 1,
        column: 0,
    };

    /// The position after `bytes`, which follow this one.
    fn after(self, bytes: &[u8]) -> Self {
        // Counted in a byte a lane, 128 bytes at a time (no lane passes 255), so that the count
        // is a vector loop of byte compares; the last line feed is looked for only if any.
        let lines: usize = bytes
            .chunks(128)
            .map(|chunk| {
                let n = chunk
                    .iter()
                    .fold(0_u8, |n, &b| n.wrapping_add(u8::from(b == b'\n')));
                usize::from(n)
            })
            .sum();
        let line_start = if lines == 0 {
            None
        } else {
            bytes.iter().rposition(|&b| b == b'\n').map(|at| at + 1)
        };
        let len = bytes.len() as u64;
        Self {
            offset: self.offset + len,
            line: self.line + lines as u64,
            column: match line_start {
                Some(at) => (bytes.len() - at) as u64,
                None => self.column + len,
            },
        }
    }
}

/// The scan that finds cuts: which bytes are inside strings, as the reader reads them, and
/// the arrays and objects open around the last cut (for the error of a refused read).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Cuts {
    /// Where the scan stopped in the buffer.
    scanned: usize,
    /// Whether `scanned` is inside a string.
    in_string: bool,
    /// Whether the byte at `scanned` is escaped (the one before it is an escaping backslash).
    escaped: bool,
    /// The last cut found, `0` when none was.
    last: usize,
    /// The `[` and `{` open at `scanned`, innermost last, at most [`MAX_OPEN`] of them.
    open: Vec<u8>,
    /// Whether more than [`MAX_OPEN`] were open at a point, so that `open` is not known.
    lost: bool,
    /// How many of `open` were open at the last cut and stayed open since.
    low: usize,
    /// Those open at the last cut and closed since, innermost first.
    closed: Vec<u8>,
}

/// The most levels [`Cuts`] follows: 128 levels is as deep as the reader reads, and ignored
/// values may nest deeper. Where more were open at the window's start, the error of a refused
/// read is not replayed: it is of category `Data`, at the end of the token refused, whatever
/// serde_json would have said of the bytes there.
const MAX_OPEN: usize = 4096;

impl Cuts {
    /// Scans `bytes[self.scanned..]`, the newly read bytes of the buffer: a block of 64 bytes
    /// at a time where a block holds no backslash (see [`structure`]), else a byte at a time
    /// ([`scan_bytes`](Self::scan_bytes), whose state it ends in either way).
    fn scan(&mut self, bytes: &[u8]) {
        let mut at = self.scanned;
        while let Some(block) = bytes.get(at..at + 64) {
            let block: &[u8; 64] = block.try_into().expect("64 bytes");
            let classes = structure::classify(block);
            if self.escaped || classes.backslash != 0 {
                // An escape: the byte model reads this block.
                self.scanned = at;
                self.scan_bytes(&bytes[..at + 64]);
            } else {
                self.scan_block(at, block, classes);
            }
            at += 64;
        }
        self.scanned = at;
        self.scan_bytes(bytes);
    }

    /// Scans the block of 64 bytes at `at` of the buffer, whose classes are `classes` and which
    /// holds no backslash and starts with no escaped byte: every quote opens or closes a
    /// string, and the brackets and separators outside strings are those the byte model finds.
    #[inline(always)]
    fn scan_block(&mut self, at: usize, block: &[u8; 64], classes: structure::Classes) {
        // Set from an opening quote up to its closing one; all set inside a string at the start.
        let mut inside = structure::prefix_xor(classes.quote);
        if self.in_string {
            inside = !inside;
        }
        self.in_string = inside >> 63 == 1;
        let outside = !inside;
        let mut brackets = (classes.open | classes.close) & outside;
        let mut separators = classes.separator & outside;
        // The highest bit of a non-zero mask, as a position in the buffer.
        let last = |mask: u64| at + 63 - mask.leading_zeros() as usize;
        while brackets != 0 {
            let i = brackets.trailing_zeros();
            let before = (1_u64 << i) - 1;
            if separators & before != 0 {
                self.cut_after(last(separators & before));
                separators &= !before;
            }
            self.bracket(at + i as usize, block[i as usize]);
            brackets &= brackets - 1;
        }
        if separators != 0 {
            self.cut_after(last(separators));
        }
    }

    /// The bracket `b` at `at`, outside strings.
    #[inline(always)]
    fn bracket(&mut self, at: usize, b: u8) {
        if matches!(b, b'[' | b'{') {
            if self.open.len() < MAX_OPEN {
                self.open.push(b);
            } else {
                self.lost = true;
            }
            self.cut_after(at);
        } else if let Some(kind) = self.open.pop()
            && self.open.len() < self.low
        {
            self.closed.push(kind);
            self.low = self.open.len();
        }
    }

    /// Scans `bytes[self.scanned..]` a byte at a time: the model of [`scan`](Self::scan).
    fn scan_bytes(&mut self, bytes: &[u8]) {
        let mut at = self.scanned;
        while at < bytes.len() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                    at += 1;
                    continue;
                }
                // A quote, a backslash, a control character or the end.
                at = string::plain_run(bytes, at).0;
                match bytes.get(at) {
                    Some(b'"') => self.in_string = false,
                    Some(b'\\') => self.escaped = true,
                    _ => {}
                }
                at += 1;
                continue;
            }
            match bytes[at] {
                b'"' => self.in_string = true,
                b @ (b'[' | b'{' | b']' | b'}') => self.bracket(at, b),
                b',' | b':' => self.cut_after(at),
                _ => {}
            }
            at += 1;
        }
        self.scanned = at.min(bytes.len());
    }

    /// Records a cut after the byte at `at`.
    #[inline]
    fn cut_after(&mut self, at: usize) {
        self.last = at + 1;
        self.low = self.open.len();
        self.closed.clear();
    }

    /// The `[` and `{` open at the last cut, outermost first; `None` when not known.
    fn open_at_cut(&self) -> Option<Vec<u8>> {
        if self.lost {
            return None;
        }
        let mut open = self.open[..self.low].to_vec();
        open.extend(self.closed.iter().rev());
        Some(open)
    }

    /// The scan with the buffer's first `dropped` bytes dropped.
    fn dropped(&mut self, dropped: usize) {
        self.scanned -= dropped;
        self.last = self.last.saturating_sub(dropped);
    }
}

/// Where the current window starts reading: the point a refused read's error is found from.
#[derive(Clone, Debug)]
struct Start {
    /// Where in the buffer.
    pos: usize,
    /// The `[` and `{` open there, outermost first; `None` when not known.
    open: Option<Vec<u8>>,
    /// The byte the cut follows, `None` at the start of the stream.
    after: Option<u8>,
}

impl<R: io::Read> Window<R> {
    /// A window over `reader`, of `size` bytes, its first window read.
    #[cfg(test)]
    pub(super) fn new(reader: R, size: usize) -> Self {
        Self::after(Vec::new(), reader, size)
    }

    /// A window over the stream of `read` followed by `reader`'s bytes, of `size` bytes, its
    /// first window read. The buffer holds all of `read` to start with, longer than `size` as
    /// it may be: once the reader is past it, the buffer shrinks back to `size`, so a call holds
    /// the bytes it was given only while it reads them.
    pub(super) fn after(mut read: Vec<u8>, reader: R, size: usize) -> Self {
        let base = size.max(1);
        let size = base.max(read.len());
        let filled = read.len();
        read.resize(size.saturating_add(KEEP + PAD), 0);
        let mut window = Self {
            reader,
            buffer: read,
            filled,
            cut: 0,
            cuts: Cuts::default(),
            size,
            base,
            origin: Position::START,
            ended: false,
            error: None,
            start: Start {
                pos: 0,
                open: Some(Vec::new()),
                after: None,
            },
            reached_end: false,
            padded: None,
        };
        window.refill(0);
        window
    }

    /// Writes the window's trailing spaces (see [`Source::window`]) past its cut.
    fn pad(&mut self) {
        let spaces = &mut self.buffer[self.cut..self.cut + PAD];
        let mut kept = [0; PAD];
        kept.copy_from_slice(spaces);
        spaces.fill(b' ');
        self.padded = Some(kept);
    }

    /// Puts back the buffer's bytes under the window's trailing spaces.
    fn unpad(&mut self) {
        if let Some(kept) = self.padded.take() {
            self.buffer[self.cut..self.cut + PAD].copy_from_slice(&kept);
        }
    }

    /// The error the stream ended with, if it did, taken.
    pub(super) fn io_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// Whether the stream ended and the window shows all of it.
    pub(super) fn at_end(&self) -> bool {
        self.ended && self.cut == self.filled
    }

    /// Where byte `pos` of the window is in the stream.
    pub(super) fn position(&self, pos: usize) -> Position {
        self.origin.after(&self.buffer[..pos.min(self.filled)])
    }

    /// Gives the buffer back down to a window of `base` bytes once what it holds fits there: the
    /// bytes read whole before the first window, or a long token, are read and dropped.
    fn shrink(&mut self) {
        if self.size > self.base && self.filled <= self.base {
            self.size = self.base;
            self.buffer.truncate(self.base.saturating_add(KEEP + PAD));
            self.buffer.shrink_to_fit();
        }
    }

    /// Reads once into the free part of the buffer, growing it when the buffer is full
    /// (a run longer than the window). A buffer that cannot grow ends the stream with an
    /// error of kind `OutOfMemory`.
    fn read_more(&mut self) {
        let room = self.buffer.len() - PAD;
        if self.filled == room {
            let size = self.size.saturating_mul(2);
            let len = size.saturating_add(KEEP + PAD);
            if self
                .buffer
                .try_reserve_exact(len.saturating_sub(self.buffer.len()))
                .is_err()
            {
                self.error = Some(io::ErrorKind::OutOfMemory.into());
                self.ended = true;
                return;
            }
            self.size = size;
            self.buffer.resize(len, 0);
        }
        let room = self.buffer.len() - PAD;
        loop {
            match self.reader.read(&mut self.buffer[self.filled..room]) {
                Ok(0) => self.ended = true,
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    self.ended = true;
                }
            }
            return;
        }
    }
}

impl<R: io::Read> Source for Window<R> {
    fn window(&self) -> &[u8] {
        &self.buffer[..self.cut + PAD]
    }

    fn refill(&mut self, pos: usize) -> (usize, bool) {
        // Past the cut the reader read only the window's trailing spaces.
        let pos = pos.min(self.cut);
        self.unpad();
        if self.at_end() {
            self.reached_end = true;
            self.pad();
            return (pos, false);
        }
        let old_cut = self.cut;
        // Drop what the reader is done with, but the last bytes before it.
        let dropped = pos.saturating_sub(KEEP);
        self.origin = self.origin.after(&self.buffer[..dropped]);
        self.buffer.copy_within(dropped..self.filled, 0);
        self.filled -= dropped;
        self.cut -= dropped;
        self.cuts.dropped(dropped);
        self.shrink();
        let pos = pos - dropped;
        if self.cut > 0 {
            self.start = Start {
                pos,
                open: self.cuts.open_at_cut(),
                after: Some(self.buffer[self.cut - 1]),
            };
        }
        loop {
            self.cuts.scan(&self.buffer[..self.filled]);
            if self.cuts.last > self.cut {
                self.cut = self.cuts.last;
                self.pad();
                return (pos, true);
            }
            if self.ended {
                self.cut = self.filled;
                self.reached_end = self.cut == old_cut - dropped;
                self.pad();
                return (pos, !self.reached_end);
            }
            self.read_more();
        }
    }
}

impl<R: io::Read> Window<R> {
    /// The error of a read the crate's reader refused at `refused_at` in the window: the
    /// stream's error if it reported one, else serde_json's.
    ///
    /// serde_json reads again from where the window starts, after a prefix that opens the
    /// arrays and objects open there and puts it at the same line and column, up to the end of
    /// the token at `refused_at` (see [`token_at`]). A syntax error it meets is the answer. If
    /// it meets none, the refusal was the value's (a type that does not match, a limit): an
    /// error of category `Data` at the end of that token, where serde_json places the errors
    /// of a value's visitor; its message does not name the type, which only the value knew.
    /// A refusal `after_value` is of the bytes after a value read whole. A value's error is
    /// `exhausted`'s message when the read ran out of a limit or of memory. `kinds` says what
    /// the reader's refusal was: a value's visitor or a limit's (see [`value_token`]), one
    /// made while skipping a value its type ignores, of a string's invalid UTF-8, or one where
    /// serde_json's grammar for the type read differs from any value's ([`Grammar`]: an enum,
    /// a sequence or object that takes no more, a missing or duplicate field), whose error is
    /// placed where serde_json places it, after a replay of the bytes before it.
    pub(super) fn error(
        &mut self,
        refused_at: usize,
        after_value: bool,
        exhausted: Option<Exhausted>,
        kinds: Kinds,
    ) -> serde_json::Error {
        let failed = self.error.take();
        let (error, needs_more) = self.refusal(refused_at, after_value, exhausted, kinds);
        match failed {
            // serde_json reads the stream's bytes in order and meets the stream's failure
            // only where it reads past the last of them: the end of the stream, or a number
            // there, whose end it looks for in the byte after it.
            Some(e) if error.is_eof() || needs_more => serde_json::Error::io(e),
            _ => error,
        }
    }

    /// The error of [`error`](Self::error) as if the stream had ended where it stopped, and
    /// whether serde_json reads past the stream's last byte to find it.
    fn refusal(
        &mut self,
        refused_at: usize,
        after_value: bool,
        exhausted: Option<Exhausted>,
        kinds: Kinds,
    ) -> (serde_json::Error, bool) {
        let Kinds {
            value: value_refused,
            in_skip,
            utf8: utf8_refused,
            grammar,
        } = kinds;
        self.unpad();
        let refused_at = refused_at.min(self.filled);
        let input = &self.buffer[..self.filled];
        let start = self.start.pos.min(refused_at);
        let (token, end, looks_after) = if after_value {
            let (end, looks_after) = token_at(input, start, refused_at);
            (end_of_whitespace(input, refused_at), end, looks_after)
        } else {
            value_token(input, start, refused_at, value_refused)
        };
        // serde_json places a value's error after the token, and after the byte it looked at.
        let value_error_at = self.position(end + usize::from(looks_after && end < input.len()));
        let needs_more = !after_value && looks_after && end >= input.len();
        let Some(open) = &self.start.open else {
            return (data_error(value_error_at, exhausted), needs_more);
        };
        let at = self.position(start);
        let mut prefix = Vec::new();
        for (i, &kind) in open.iter().enumerate() {
            let innermost = i + 1 == open.len();
            prefix.extend_from_slice(match (kind, innermost, self.start.after) {
                (b'[', true, Some(b',')) => b"[0,",
                (b'{', true, Some(b',')) => b"{\"\":0,",
                (b'[', _, _) => b"[",
                (b'{', true, Some(b'{')) => b"{",
                _ => b"{\"\":",
            });
        }
        let prefix_len = prefix.len() as u64;
        let (lines, spaces) = if at.line > 1 {
            (at.line - 1, at.column)
        } else {
            (0, at.column.saturating_sub(prefix_len))
        };
        let truncated = end < input.len() || !self.ended;
        // A refusal where serde_json's grammar for the type read says what is wrong (see
        // `Grammar`): the bytes before the refused one are replayed, and where they hold no
        // error, serde_json's error is that grammar's, at its place.
        let grammar = grammar
            .filter(|_| !in_skip && !after_value)
            .and_then(|grammar| self.grammar_error(grammar, refused_at, exhausted));
        let (replay_end, truncated) = if grammar.is_some() {
            (refused_at, true)
        } else {
            (end, truncated)
        };
        let replay = |skip: bool| {
            let replayed = io::Cursor::new(&prefix)
                .chain(io::repeat(b'\n').take(lines))
                .chain(io::repeat(b' ').take(spaces))
                .chain(&input[start..replay_end])
                // Read to here only: a byte after the token where the stream goes on, so that
                // serde_json ends a number or a literal as at the byte that follows it.
                .chain(&b" "[..truncated.into()]);
            let mut de = serde_json::Deserializer::from_reader(io::BufReader::new(replayed));
            let read = if skip {
                <serde::de::IgnoredAny as serde::Deserialize>::deserialize(&mut de).map(|_| ())
            } else {
                Replay.deserialize(&mut de)
            };
            read.and_then(|()| de.end())
        };
        // The replay visits every value, where the reader skips those its type ignores, as
        // serde_json does: without a nesting limit, and with messages of their own. A refusal
        // of a skipped value is replayed skipping every value, the bytes before it being ones
        // the reader read past. So is one where the visiting replay meets the recursion limit
        // where the reader went past it: the reader refuses a visited value's 129th level at
        // its first byte, before where serde_json places that error, so the levels the replay
        // found too deep were of a value the reader skipped. So is one where the replay meets,
        // before the refused token, a string of invalid UTF-8 the reader did not refuse (it
        // refused none, or the refused token's): a string of a skipped value. The refused token itself is a visited value's, which
        // serde_json reads whole where its type does not match (to name it in the message):
        // a string there has its UTF-8 and escapes checked, where the reader refused it unread.
        let mut replayed = replay(in_skip);
        if !in_skip && let Err(e) = &replayed {
            let message = e.to_string();
            let refused = self.position(refused_at);
            let met = (e.line() as u64, e.column() as u64);
            let went_past = (refused.line, refused.column) >= met;
            // The string whose UTF-8 the reader refused, if it refused one: the last before
            // the refused byte (the reader refuses a string it read whole, a key at the byte
            // after it); serde_json places that string's error after its opening quote.
            let string = if utf8_refused {
                string_start(input, start, refused_at)
            } else {
                token
            };
            let at_string = self.position(string);
            let before_string = met < (at_string.line, at_string.column);
            if went_past
                && (message.starts_with("recursion limit exceeded")
                    || ((!utf8_refused || before_string)
                        && message.starts_with("invalid unicode code point")))
            {
                // The skipping replay checks no string's UTF-8: the refused string's error is
                // serde_json's where the replay finds none before it.
                replayed = replay(true);
                if !after_value
                    && grammar.is_none()
                    && input.get(string) == Some(&b'"')
                    && let Err(e) = string_error(&input[string..end], self.position(string))
                    && replayed.as_ref().map_or_else(
                        |r| r.is_eof() || (r.line(), r.column()) > (e.line(), e.column()),
                        |()| true,
                    )
                {
                    replayed = Err(e);
                }
            }
        }
        if let Some(error) = grammar
            && replayed
                .as_ref()
                .map_or_else(serde_json::Error::is_eof, |()| true)
        {
            replayed = Err(error);
        }
        // serde_json meets the end of what it reads after a whole token where the stream
        // goes on, or where the token is whole and the stream ends: the token's value is what
        // the reader refused.
        let whole = is_whole(&input[token..end]);
        let error = match replayed {
            Err(e) if self.reached_end || !(e.is_eof() && (truncated || whole)) => e,
            _ => data_error(value_error_at, exhausted),
        };
        (error, needs_more)
    }

    /// serde_json's error for a refusal of kind `grammar` at `refused_at` (a byte the reader
    /// peeked), where the bytes before it hold none: `None` where it cannot be placed (the
    /// bytes it depends on are past the window's end), and the replay says.
    fn grammar_error(
        &self,
        grammar: Grammar,
        refused_at: usize,
        exhausted: Option<Exhausted>,
    ) -> Option<serde_json::Error> {
        let input = &self.buffer[..self.filled];
        let after_whitespace = |at: usize| end_of_whitespace(input, at);
        let at = after_whitespace(refused_at);
        let byte = *input.get(at)?;
        // The error of reading `bytes` at `at`, `lead` before them.
        let synthetic = |at: usize, lead: &[u8], bytes: &[u8], seq: bool| {
            let stream = placed(self.position(at), lead, bytes)?;
            let mut de = serde_json::Deserializer::from_reader(io::BufReader::new(stream));
            let read = if seq {
                <Vec<serde::de::IgnoredAny> as serde::Deserialize>::deserialize(&mut de).map(|_| ())
            } else {
                <serde::de::IgnoredAny as serde::Deserialize>::deserialize(&mut de).map(|_| ())
            };
            read.and_then(|()| de.end()).err()
        };
        // serde_json's "expected value", "trailing comma" and "trailing characters" at `at`.
        let expected_value = |at| synthetic(at, b"", b"}", false);
        let trailing_comma = |at| synthetic(at, b"[0,", b"]", true);
        let trailing_characters = |at| synthetic(at, b"0", b"x", false);
        match grammar {
            Grammar::Enum => expected_value(at),
            Grammar::Trailing(b'}') if byte == b',' => trailing_comma(at),
            Grammar::Trailing(_) if byte == b',' => {
                // serde_json looks past the comma of a sequence: a `]` makes it a trailing one.
                let next = after_whitespace(at + 1);
                match input.get(next) {
                    Some(b']') => trailing_comma(next),
                    Some(_) => trailing_characters(next),
                    None => None,
                }
            }
            Grammar::Trailing(_) => trailing_characters(at),
            // serde_json reads the `}` of an object missing a field, and the `]` of a sequence
            // that ends short, before it places the visitor's error after it; a length refused
            // elsewhere is a value's refusal, which the replay places.
            Grammar::MissingField | Grammar::InvalidLength => {
                let close = if grammar == Grammar::MissingField {
                    b'}'
                } else {
                    b']'
                };
                (byte == close).then(|| data_error(self.position(at + 1), exhausted))
            }
            // serde_json looks at the `:` after the key (past whitespace), which the reader
            // may have read past: past a string value's opening quote, or past a value after
            // it that is a string, a number or a literal.
            Grammar::DuplicateField => {
                let from = self.start.pos.min(refused_at);
                let last_before = |end: usize| {
                    input[from..end]
                        .iter()
                        .rposition(|b| !matches!(b, b' ' | b'\n' | b'\t' | b'\r'))
                        .map(|i| from + i)
                };
                let in_string = inside_string(input, from, refused_at);
                let colon = match last_before(refused_at) {
                    Some(colon) if input[colon] == b':' => Some(colon),
                    // The opening quote of a string value the reader read with its entry.
                    Some(open) if input[open] == b'"' && in_string => last_before(open),
                    Some(close) if input[close] == b'"' && !in_string => {
                        last_before(string_start(input, from, close))
                    }
                    Some(last) if input[last].is_ascii_alphanumeric() => {
                        let start = input[from..=last]
                            .iter()
                            .rposition(|b| !matches!(b, b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'-' | b'+' | b'.'))
                            .map_or(from, |i| from + i + 1);
                        last_before(start)
                    }
                    _ => None,
                };
                match colon {
                    Some(colon) if input[colon] == b':' => {
                        Some(data_error(self.position(colon + 1), exhausted))
                    }
                    _ if byte == b':' => Some(data_error(self.position(at + 1), exhausted)),
                    _ => None,
                }
            }
        }
    }
}

/// serde_json's error, if any, reading `string` (a string token, from its opening quote) as a
/// string at `at` in the stream: its UTF-8, escapes and control characters checked. A string
/// the stream cuts short is none.
fn string_error(string: &[u8], at: Position) -> Result<(), serde_json::Error> {
    let stream = placed(at, b"", string).expect("no lead to place");
    let mut de = serde_json::Deserializer::from_reader(io::BufReader::new(stream));
    match serde::Deserializer::deserialize_str(&mut de, Replay) {
        Err(e) if !e.is_eof() => Err(e),
        _ => Ok(()),
    }
}

/// A stream holding `bytes` at `at`, `lead` just before them: on their line where it has room
/// for it, else at the end of the line before. `None` where neither has.
fn placed<'a>(at: Position, lead: &'a [u8], bytes: &'a [u8]) -> Option<impl io::Read + 'a> {
    let lead_len = lead.len() as u64;
    let (lines, before_lead, line_feed, after_lead) = if at.column >= lead_len {
        (at.line.saturating_sub(1), at.column - lead_len, 0, 0)
    } else if at.line >= 2 {
        (at.line - 2, 0, 1, at.column)
    } else {
        return None;
    };
    Some(
        io::repeat(b'\n')
            .take(lines)
            .chain(io::repeat(b' ').take(before_lead))
            .chain(lead)
            .chain(&b"\n"[..line_feed])
            .chain(io::repeat(b' ').take(after_lead))
            .chain(bytes),
    )
}

/// The token at or after `at` (after whitespace), `input[from]` being outside any string:
/// where it ends, and whether serde_json looks at the byte after it to find that end (a
/// number). A string's end is its closing quote, also when `at` is inside it; a number's and
/// a literal's where serde_json stops reading them ([`number_end`], [`literal_end`]); any
/// other byte is a token of its own.
fn token_at(input: &[u8], from: usize, at: usize) -> (usize, bool) {
    let mut cuts = Cuts {
        scanned: from,
        ..Cuts::default()
    };
    cuts.scan(&input[..at]);
    let mut at = at;
    if !cuts.in_string {
        while input
            .get(at)
            .is_some_and(|&b| matches!(b, b' ' | b'\n' | b'\t' | b'\r'))
        {
            at += 1;
        }
        let run = |at: usize, part: fn(u8) -> bool| {
            at + input[at..].iter().take_while(|&&b| part(b)).count()
        };
        match input.get(at) {
            None => return (at, false),
            Some(b'"') => {
                cuts.in_string = true;
                at += 1;
            }
            Some(b'-' | b'0'..=b'9') => return (number_end(input, at), true),
            Some(b't' | b'f' | b'n') => return (literal_end(input, at), false),
            Some(b'a'..=b'z') => return (run(at, |b| b.is_ascii_lowercase()), false),
            Some(_) => return (at + 1, false),
        }
    }
    // Inside a string from `at`: to the byte after its closing quote.
    cuts.scanned = at;
    let escaped = cuts.escaped;
    while cuts.in_string && cuts.scanned < input.len() {
        let next = cuts.scanned + 1;
        cuts.scan(&input[..next]);
        cuts.scanned = cuts.scanned.max(next);
    }
    (
        hex_escape_reach(input, at, cuts.scanned, escaped).min(input.len()),
        false,
    )
}

/// Where serde_json stops reading the string whose bytes from `at` (escaped if `escaped`) to
/// `end` [`token_at`] found: a `\u` escape takes the 4 bytes after it before their digits are
/// checked, so where those are no hex digits (a quote among them) serde_json reads past the
/// quote that ends the string for a reader of one escaped byte, to the 4th byte. Past the end
/// of `input` where those bytes run past it.
fn hex_escape_reach(input: &[u8], at: usize, end: usize, mut escaped: bool) -> usize {
    for i in at..end {
        if escaped {
            escaped = false;
            let hex = input.get(i + 1..i + 5);
            if input[i] == b'u' && !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                return (i + 5).max(end);
            }
        } else {
            escaped = input[i] == b'\\';
        }
    }
    end
}

/// Where serde_json stops reading the number at `at` (a `-` or a digit), by JSON's grammar
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`: after its last byte where it is whole,
/// after the byte it refuses where it is not. A byte after a whole number is not read as
/// part of it (`1+` is the number `1`, then a `+`).
fn number_end(input: &[u8], at: usize) -> usize {
    let digit = |i: usize| input.get(i).is_some_and(u8::is_ascii_digit);
    let digits = |i: usize| {
        i + input[i.min(input.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    // Past the byte at `i`, which the number cannot hold there.
    let refused = |i: usize| (i + 1).min(input.len());
    let mut i = at + usize::from(input.get(at) == Some(&b'-'));
    match input.get(i) {
        Some(b'0') if digit(i + 1) => return refused(i + 1),
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(i),
        _ => return refused(i),
    }
    if input.get(i) == Some(&b'.') {
        if !digit(i + 1) {
            return refused(i + 1);
        }
        i = digits(i + 1);
    }
    if matches!(input.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(input.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digit(i) {
            return refused(i);
        }
        i = digits(i);
    }
    i
}

/// Where serde_json stops reading the literal at `at` (a `t`, `f` or `n`): after `true`,
/// `false` or `null` where it is one, after the first byte that differs where it is not.
fn literal_end(input: &[u8], at: usize) -> usize {
    let word: &[u8] = match input[at] {
        b't' => b"true",
        b'f' => b"false",
        _ => b"null",
    };
    let same = input[at..]
        .iter()
        .zip(word)
        .take_while(|(b, w)| b == w)
        .count();
    if same == word.len() {
        at + same
    } else {
        (at + same + 1).min(input.len())
    }
}

/// The token the reader refused at `at`, as [`token_at`]. A value's type refuses after the
/// reader read its token (`value_refused`: a visitor, a direct path or a limit refused), so
/// where `at` follows a whole string, number, literal, array or object, that is the token;
/// the reader refuses a token it cannot read where it starts (a literal after its first
/// letter). Otherwise the reader refused the bytes at `at` (a syntax error, or a token of a
/// kind the type does not read, refused before it is read): the token is the one at `at`.
fn value_token(input: &[u8], from: usize, at: usize, value_refused: bool) -> (usize, usize, bool) {
    if at > from && value_refused {
        let before = &input[from..at];
        let run = |part: fn(&u8) -> bool| at - before.iter().rev().take_while(|b| part(b)).count();
        match input[at - 1] {
            b'0'..=b'9' => {
                let start = run(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'));
                return (start, at, true);
            }
            b'"' if !inside_string(input, from, at) => {
                return (string_start(input, from, at - 1), at, false);
            }
            b']' | b'}' if !inside_string(input, from, at) => return (at - 1, at, false),
            b'a'..=b'z' => {
                let start = run(u8::is_ascii_lowercase);
                if matches!(&input[start..at], b"true" | b"false" | b"null") {
                    return (start, at, false);
                }
                let (end, looks_after) = token_at(input, from, start);
                return (start, end, looks_after);
            }
            _ => {}
        }
    }
    // A literal refused after its first letter: the token is the literal, from its start.
    if at > from && input[at - 1].is_ascii_lowercase() && !inside_string(input, from, at) {
        let start = at
            - input[from..at]
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_lowercase())
                .count();
        if matches!(input[start], b't' | b'f' | b'n') && literal_end(input, start) > at {
            return (start, literal_end(input, start), false);
        }
    }
    let (end, looks_after) = token_at(input, from, at);
    // Inside a string the token is the string, which the reader refused before its end.
    let start = if inside_string(input, from, at) {
        end
    } else {
        end_of_whitespace(input, at)
    };
    (start, end, looks_after)
}

/// Where the whitespace at `at` ends.
fn end_of_whitespace(input: &[u8], at: usize) -> usize {
    at + input[at.min(input.len())..]
        .iter()
        .take_while(|&&b| matches!(b, b' ' | b'\n' | b'\t' | b'\r'))
        .count()
}

/// Whether `token` (as [`token_at`] found it) is a whole value or the start of an array or
/// object: a string with its closing quote, a number of JSON's grammar, a literal, a `[` or
/// a `{`.
fn is_whole(token: &[u8]) -> bool {
    match token {
        [b'[' | b'{'] | b"true" | b"false" | b"null" => true,
        [b'"', .., b'"'] => {
            let mut cuts = Cuts::default();
            cuts.scan(token);
            !cuts.in_string
                && cuts.last == 0
                && token.len() >= 2
                && !ends_escaped(token)
                // Not a `\u` escape whose 4 bytes run past the quote and the token's end.
                && hex_escape_reach(token, 1, token.len(), false) <= token.len()
        }
        [b'-' | b'0'..=b'9', ..] => is_number(token),
        _ => false,
    }
}

/// Whether the closing quote of `token` is escaped.
fn ends_escaped(token: &[u8]) -> bool {
    let slashes = token[..token.len() - 1]
        .iter()
        .rev()
        .take_while(|&&b| b == b'\\')
        .count();
    slashes % 2 == 1
}

/// Whether `text` is a number of JSON's grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_number(text: &[u8]) -> bool {
    let digits = |at: usize| text[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut at = usize::from(text.first() == Some(&b'-'));
    match digits(at) {
        0 => return false,
        n if n > 1 && text[at] == b'0' => return false,
        n => at += n,
    }
    if text.get(at) == Some(&b'.') {
        match digits(at + 1) {
            0 => return false,
            n => at += 1 + n,
        }
    }
    if matches!(text.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(text.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        match digits(at) {
            0 => return false,
            n => at += n,
        }
    }
    at == text.len()
}

/// Whether `input[at]` is inside a string, `input[from]` being outside any.
fn inside_string(input: &[u8], from: usize, at: usize) -> bool {
    let mut cuts = Cuts {
        scanned: from,
        ..Cuts::default()
    };
    cuts.scan(&input[..at]);
    cuts.in_string
}

/// Where the string whose closing quote is at `close` opened, `input[from]` being outside any
/// string: the last quote before `close` that opens a string, found in one pass from `from`
/// (`from` itself if none does).
fn string_start(input: &[u8], from: usize, close: usize) -> usize {
    let mut opened = from;
    let mut in_string = false;
    let mut at = from;
    while at < close {
        match input[at] {
            b'"' => {
                if !in_string {
                    opened = at;
                }
                in_string = !in_string;
            }
            // The escaped byte is never a string's end.
            b'\\' if in_string => at += 1,
            _ => {}
        }
        at += 1;
    }
    opened
}

/// An error of category `Data` at `at`, for a refusal serde_json finds no syntax error in:
/// `exhausted`'s message, or one that says the value does not hold the type.
fn data_error(at: Position, exhausted: Option<Exhausted>) -> serde_json::Error {
    struct Fail(Option<Exhausted>);
    impl serde::de::Visitor<'_> for Fail {
        type Value = ();
        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("a value")
        }
        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
            Err(match self.0 {
                Some(exhausted) => E::custom(exhausted),
                None => E::custom("the value read does not hold the type asked for"),
            })
        }
    }
    // A stream that puts a digit's end at `at`: serde_json positions the visitor's error there,
    // after the byte it peeks past the digit. At a line's start (column 0) that byte is the
    // line feed before it.
    let (digit, lines, spaces): (&[u8], u64, u64) = if at.column == 0 && at.line > 1 {
        (b"0\n", at.line - 2, 0)
    } else {
        (b"0", at.line.saturating_sub(1), at.column.saturating_sub(1))
    };
    let stream = io::repeat(b'\n')
        .take(lines)
        .chain(io::repeat(b' ').take(spaces))
        .chain(digit);
    let mut de = serde_json::Deserializer::from_reader(io::BufReader::new(stream));
    match serde::Deserializer::deserialize_any(&mut de, Fail(exhausted)) {
        Err(e) => e,
        Ok(()) => serde::de::Error::custom("the value read does not hold the type asked for"),
    }
}

/// A value read to check its syntax only, each array and object one level deeper, as any
/// value's visitor reads it (unlike `IgnoredAny`, which serde_json skips without a limit).
struct Replay;

impl<'de> serde::de::DeserializeSeed<'de> for Replay {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Replay {
    type Value = ();

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<S: serde::de::SeqAccess<'de>>(self, mut seq: S) -> Result<(), S::Error> {
        while seq.next_element_seed(Replay)?.is_some() {}
        Ok(())
    }
    fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        while map.next_key_seed(Replay)?.is_some() {
            map.next_value_seed(Replay)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Cuts, Position};

    /// A text of JSON's structural bytes, strings, escapes and others, from `state`.
    fn text(state: &mut u64, len: usize) -> Vec<u8> {
        const BYTES: &[u8] = b"\"\"\"\\\\[]{},:,: \nab1\xc3\xa9\x01";
        (0..len)
            .map(|_| {
                *state ^= *state << 13;
                *state ^= *state >> 7;
                *state ^= *state << 17;
                BYTES[(*state % BYTES.len() as u64) as usize]
            })
            .collect()
    }

    #[test]
    fn the_block_scan_ends_in_the_byte_models_state() {
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        for round in 0..3000 {
            let len = round % 400;
            let mut bytes = text(&mut state, len);
            if round % 2 == 0 {
                // Without escapes, every block is read whole.
                for b in &mut bytes {
                    if *b == b'\\' {
                        *b = b'a';
                    }
                }
            }
            // Scanned in two parts, the first ending anywhere, as refills split it.
            let split = (state % (len as u64 + 1)) as usize;
            let mut blocks = Cuts::default();
            blocks.scan(&bytes[..split]);
            blocks.scan(&bytes);
            let mut model = Cuts::default();
            model.scan_bytes(&bytes);
            assert_eq!(blocks, model, "{bytes:?} split at {split}");
        }
    }

    #[test]
    fn the_position_after_counts_lines_and_columns() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for round in 0..300 {
            let bytes = text(&mut state, round * 3);
            let start = Position {
                offset: 5,
                line: 2,
                column: 3,
            };
            let mut expected = start;
            for &b in &bytes {
                expected.offset += 1;
                if b == b'\n' {
                    expected.line += 1;
                    expected.column = 0;
                } else {
                    expected.column += 1;
                }
            }
            assert_eq!(start.after(&bytes), expected, "{bytes:?}");
        }
    }

    #[test]
    fn tokens_end_where_serde_json_ends_them() {
        let input = b"[1, \"x\"] , 12.5e3] true}";
        assert_eq!(super::token_at(input, 0, 4), (7, false));
        assert_eq!(super::token_at(input, 0, 5), (7, false));
        assert_eq!(super::token_at(input, 0, 3), (7, false));
        assert_eq!(super::token_at(input, 0, 10), (17, true));
        assert_eq!(super::token_at(input, 0, 18), (23, false));
        assert_eq!(super::token_at(input, 0, 7), (8, false));
    }

    #[test]
    fn the_buffer_shrinks_to_its_window_once_the_bytes_read_whole_are_read() {
        use super::{KEEP, PAD, Source as _, Window};
        // 4,001 bytes read whole, then a reader of as many more; windows of 64 bytes.
        let whole = format!("[{}", "1,".repeat(2000)).into_bytes();
        let rest = format!("{}1]", "1,".repeat(2000)).into_bytes();
        let mut window = Window::after(whole.clone(), &rest[..], 64);
        let first = window.window().len();
        assert!(
            first > 3_900,
            "the first window is the bytes read whole: {first}"
        );
        assert!(window.buffer.len() >= whole.len());
        // The reader is at the first window's end.
        let (pos, more) = window.refill(first - PAD);
        assert!(more);
        assert!(
            window.buffer.len() <= 64 + KEEP + PAD,
            "{}",
            window.buffer.len()
        );
        assert!(
            window.buffer.capacity() <= 64 + KEEP + PAD,
            "{}",
            window.buffer.capacity()
        );
        // The next window starts where the reader stands, and holds the stream's next bytes.
        assert_eq!(&window.window()[pos..pos + 4], b"1,1,");
        // A run with no cut, longer than the window, grows the buffer; once it is read and
        // dropped, the buffer is a window again.
        let long = format!(
            "[\"{}\", 1, 2, 3, {}1]",
            "x".repeat(1000),
            "1, ".repeat(100)
        )
        .into_bytes();
        let mut window = Window::after(Vec::new(), &long[..], 64);
        let mut grew = false;
        let mut pos = 0;
        loop {
            grew |= window.buffer.len() > 64 + KEEP + PAD;
            let end = window.window().len() - PAD;
            let (next, more) = window.refill(end.max(pos));
            if !more {
                break;
            }
            pos = next;
        }
        assert!(grew, "the string of 1,000 bytes is longer than the window");
        assert!(
            window.buffer.len() <= 64 + KEEP + PAD,
            "{}",
            window.buffer.len()
        );
    }
}
