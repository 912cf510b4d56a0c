//! The errors of the document streams: serde_json's error for a document, at the line and
//! column of the whole stream.
//!
//! serde_json's error has no public constructor with a position, and its position is computed
//! from what its reader read. So the document is read again by serde_json behind a prefix of
//! whitespace that has the stream's shape before the document: as many line feeds as the
//! stream has before it, then as many spaces as its line has bytes before it. serde_json skips
//! the prefix as whitespace and meets the document where the stream has it, on the same line
//! and column. serde_json positions errors differently from a slice and from a reader (the
//! column of `number out of range`, for one), so each stream uses the reader serde_json's own
//! stream over the same input would: a slice for [`SliceStream`](super::SliceStream), with the
//! prefix and the document's bytes up to the error copied into one buffer, and a reader for
//! [`ReaderStream`](super::ReaderStream), with the prefix generated as it is read. Either way
//! an error costs a pass over as many bytes as the stream has lines before the document, once:
//! an error ends the stream.

use std::io::{self, Read as _};

use serde::de::{DeserializeSeed, IgnoredAny};
use serde_json::{Deserializer, Error};

use super::rewound_on_error;
use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::call::strings::Input;
use crate::seed::ArenaSeed;

/// Where a document starts in the stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Origin {
    /// How many line feeds the stream has before the document.
    pub(super) newlines: usize,
    /// How many bytes its line has before it.
    pub(super) column: usize,
}

impl Origin {
    /// `self` moved past `bytes`.
    pub(super) fn after(self, bytes: &[u8]) -> Self {
        match bytes.iter().rposition(|&b| b == b'\n') {
            Some(last) => Self {
                newlines: self.newlines + count_newlines(bytes),
                column: bytes.len() - last - 1,
            },
            None => Self {
                newlines: self.newlines,
                column: self.column + bytes.len(),
            },
        }
    }
}

/// How many line feeds `bytes` holds (the stream counts every byte it drops): counted in a
/// byte per lane over runs of [`RUN`] bytes, a whole number of 16-byte vectors of fixed
/// length, which the compiler turns into a vector compare and subtract per 16 bytes and one
/// sum per run.
fn count_newlines(bytes: &[u8]) -> usize {
    let (runs, rest) = bytes.as_chunks::<RUN>();
    let in_runs: usize = runs
        .iter()
        .map(|run| usize::from(run.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum();
    in_runs + rest.iter().filter(|&&b| b == b'\n').count()
}

/// The bytes [`count_newlines`] counts in one run: at most 255, so that a count per lane
/// fits a byte, and a multiple of 16, the width of an SSE2 or NEON vector.
const RUN: usize = 240;

/// Which of serde_json's readers positions the stream's errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Positions {
    /// serde_json's slice reader, as `Deserializer::from_slice(..).into_iter()` positions them.
    Slice,
    /// serde_json's reader of an `io::Read`, as `Deserializer::from_reader(..).into_iter()`.
    Reader,
}

/// What serde_json reads at the start of `doc` with `seed` (from a slice, at `doc`'s own
/// positions), and where it stopped in `doc`. The arena is rewound when it fails.
pub(super) fn serde_json_read<'bump, T, A>(
    seed: ArenaSeed<'bump, T, A>,
    doc: &[u8],
) -> (Result<T, Error>, usize)
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    let mut de = Deserializer::from_slice(doc);
    // SAFETY: `serde_json::Error` holds no references.
    let result = unsafe { rewound_on_error(seed.arena(), || seed.deserialize(&mut de)) };
    (result, stopped_at(de))
}

/// Where `de` stopped reading: its offset as the start of a stream.
fn stopped_at<'de, R: serde_json::de::Read<'de>>(de: Deserializer<R>) -> usize {
    de.into_iter::<IgnoredAny>().byte_offset()
}

/// serde_json's error for the document at the start of `doc`, which it refuses with `first`
/// at `doc`'s own positions after reading `stop` bytes, placed at `origin` in the stream.
pub(super) fn document_error<'bump, T, A>(
    seed: ArenaSeed<'bump, T, A>,
    doc: &[u8],
    first: Error,
    stop: usize,
    origin: Origin,
    positions: Positions,
) -> Error
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    let read = |seed: ArenaSeed<'bump, T, A>, bytes: &[u8]| -> Option<Error> {
        match positions {
            Positions::Slice => {
                let text = prefixed(origin, bytes);
                fails(seed, &mut Deserializer::from_slice(&text))
            }
            Positions::Reader => fails(
                seed.reading_from(Input::Transient),
                &mut Deserializer::from_reader(Prefix::new(origin).chain(bytes)),
            ),
        }
    };
    // serde_json read no further than the byte after where it stopped: the bytes up to it give
    // the same error. The message is checked, and the whole rest read if it differs.
    let near = &doc[..doc.len().min(stop.saturating_add(2))];
    if let Some(err) = read(seed, near)
        && message(&err) == message(&first)
    {
        return err;
    }
    read(seed, doc).unwrap_or(first)
}

/// serde_json's error for a value of `len` bytes at the start of `doc` followed by a byte that
/// neither is whitespace nor starts a value that ends itself, placed at `origin`.
pub(super) fn trailing_error(
    doc: &[u8],
    len: usize,
    origin: Origin,
    positions: Positions,
) -> Error {
    let bytes = &doc[..doc.len().min(len + 1)];
    let err = match positions {
        Positions::Slice => trailing(&mut Deserializer::from_slice(&prefixed(origin, bytes))),
        Positions::Reader => trailing(&mut Deserializer::from_reader(
            Prefix::new(origin).chain(bytes),
        )),
    };
    err.unwrap_or_else(|| serde::de::Error::custom("trailing characters"))
}

/// serde_json's error reading a value from `de`, then checking that only whitespace follows.
fn trailing<'de, R: serde_json::de::Read<'de>>(de: &mut Deserializer<R>) -> Option<Error> {
    match <IgnoredAny as serde::Deserialize>::deserialize(&mut *de) {
        Ok(IgnoredAny) => de.end().err(),
        Err(err) => Some(err),
    }
}

/// serde_json's error reading `seed` from `de`, the arena rewound; `None` if it reads a value.
fn fails<'de, 'bump, T, A, R>(
    seed: ArenaSeed<'bump, T, A>,
    de: &mut Deserializer<R>,
) -> Option<Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: serde_json::de::Read<'de>,
{
    // SAFETY: the error holds no references (a `serde_json::Error` or a unit).
    let result: Result<(), _> = unsafe {
        rewound_on_error(seed.arena(), || match seed.deserialize(&mut *de) {
            Ok(_) => Err(None),
            Err(err) => Err(Some(err)),
        })
    };
    result.err().flatten()
}

/// `bytes` behind the whitespace of `origin`, in one buffer.
fn prefixed(origin: Origin, bytes: &[u8]) -> Vec<u8> {
    let mut text = Vec::with_capacity(origin.newlines + origin.column + bytes.len());
    text.resize(origin.newlines, b'\n');
    text.resize(origin.newlines + origin.column, b' ');
    text.extend_from_slice(bytes);
    text
}

/// An error's message without its position.
fn message(err: &Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// The whitespace of an [`Origin`], as a reader: its line feeds, then its spaces.
struct Prefix {
    newlines: usize,
    spaces: usize,
}

impl Prefix {
    const fn new(origin: Origin) -> Self {
        Self {
            newlines: origin.newlines,
            spaces: origin.column,
        }
    }
}

impl io::Read for Prefix {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let (byte, left) = if self.newlines > 0 {
            (b'\n', &mut self.newlines)
        } else {
            (b' ', &mut self.spaces)
        };
        let n = buf.len().min(*left);
        buf[..n].fill(byte);
        *left -= n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;

    use super::*;

    #[test]
    fn an_origin_counts_lines_and_the_bytes_of_its_last_line() {
        let origin = Origin::default().after(b"ab\ncd\nefg");
        assert_eq!(
            origin,
            Origin {
                newlines: 2,
                column: 3
            }
        );
        assert_eq!(
            origin.after(b"hi"),
            Origin {
                newlines: 2,
                column: 5
            }
        );
        assert_eq!(
            origin.after(b"h\n"),
            Origin {
                newlines: 3,
                column: 0
            }
        );
    }

    #[test]
    fn newlines_are_counted_as_one_at_a_time_whatever_the_length_and_density() {
        // Lengths around the runs, with newlines from none to every byte (a run then counts
        // 240, near the most a byte holds).
        for every in [1, 2, 3, 7, 16, 17, 255, 10_000] {
            let text: Vec<u8> = (0..9000)
                .map(|i| if i % every == 0 { b'\n' } else { b'x' })
                .collect();
            for len in [0, 1, 15, 16, 17, 239, 240, 241, 480, 4079, 4081, 9000] {
                let bytes = &text[..len];
                let one_at_a_time = bytes.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(
                    count_newlines(bytes),
                    one_at_a_time,
                    "every {every}, len {len}"
                );
            }
        }
    }

    #[test]
    fn the_prefix_is_the_same_whitespace_as_a_reader_and_in_a_buffer() {
        let origin = Origin {
            newlines: 3,
            column: 2,
        };
        let mut read = Vec::new();
        Prefix::new(origin)
            .chain(&b"x"[..])
            .read_to_end(&mut read)
            .unwrap();
        assert_eq!(read, b"\n\n\n  x");
        assert_eq!(prefixed(origin, b"x"), read);
    }
}
