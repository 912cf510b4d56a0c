//! One-call JSON entry points (feature `json`): a document in a `&str` or `&[u8]`, or read from
//! a [`std::io::Read`], read into an arena.
//!
//! [`from_str`] and [`from_slice`] read one `T` with [`ArenaSeed::new`] and no settings of its
//! own (JSON strings are text, so [`ArenaSeed::str_as_bytes`] does not apply) through the
//! crate's own JSON reader, which reads what `serde_json::from_slice` reads: the same documents
//! accepted, the same visitor calls, the same values. It follows serde_json's `Deserializer`
//! method by method (128 levels of nesting, keys read as numbers or booleans when a number or a
//! bool is asked for, enums as a string or an object of one entry), scans a string's plain run
//! and a run of whitespace 16 bytes at a time (SSE2 on x86_64 and NEON on aarch64, both part of
//! every CPU of their architecture; `simd128` on wasm32 when the build enables it; a `u64` at a
//! time elsewhere), checks text above ASCII for UTF-8 with simdutf8, borrows strings without
//! escapes from the input, and reads a float as
//! serde_json with its `float_roundtrip` feature does, correctly rounded (one multiplication
//! or division when the digits and the power of ten are exact in an `f64`, else the
//! Eisel-Lemire algorithm, else the standard library's parser). arena-core does not turn that
//! feature on for the program: without it serde_json reads a few floats of more than 15 digits
//! one unit in the last place away, and faster.
//!
//! A [`Value`](crate::Value) read by these entry points is built straight from the text, each
//! node where it goes, with no visitor in between; it is the value the visitor path reads,
//! under the same limits. So is a derived struct with named fields (see the derive's docs): it
//! reads its object entry by entry, recognizing the entry it expects next by comparing it, as
//! a compact serializer writes it (`,"name":`), with the bytes of the input, and its fields
//! (integers, `f64`, strings, options, slices, tuples, structs) with their own direct paths.
//! A string that a `&str` or a `Value` keeps is copied into the arena; into a
//! [`SlabArena`](crate::SlabArena), a plain ASCII string of up to 32 bytes is copied as the 32
//! bytes of input that end with it, written just below the arena's cursor and kept at its
//! length, so the copy has no branch on the length.
//!
//! The reader's errors carry nothing: a document it refuses is read again by serde_json, whose
//! value or error is the answer. Errors are [`serde_json::Error`] with serde_json's message,
//! line and column, and an invalid document costs a second read. After the value, the input
//! may hold only whitespace; anything else is an error, as `serde_json::from_str` and
//! `serde_json::from_slice` report it.
//!
//! [`from_reader`] reads the same document from a reader. It reads the input whole into a
//! buffer, up to [`WHOLE_INPUT_MAX`] (64 MiB), and reads a document that fits with the crate's
//! reader, as [`from_slice`] does: the buffer is dropped when the call returns, since every
//! string is copied into the arena. A longer input is read as it streams in, with serde_json's
//! reader over the buffer and then the rest of the reader (several times slower, but the
//! process holds the arena and that buffer, not the whole file and the value). serde_json
//! does not buffer a reader (it calls `read` once per byte), so that stream goes through a
//! [`BufReader`]. Either way the input is read to its end, as `serde_json::from_reader`
//! reads it (only whitespace may follow the value). An I/O error is a [`serde_json::Error`] of
//! category `Io`; one met while the buffer fills is the answer, even if the text before it
//! was already no JSON.
//!
//! A stream of documents (JSON Lines, concatenated or whitespace-separated values) is read
//! with [`SliceStream`] from a slice and [`ReaderStream`] from a reader, through a window of the
//! input: each document with the crate's reader, into the arena the caller passes for it (see
//! [`DocumentStream`](crate::DocumentStream) for the loops), item by item as serde_json's
//! `StreamDeserializer` reads them.
//!
//! [`from_str_seed`], [`from_slice_seed`] and [`from_reader_seed`] do the same with a seed the
//! caller configured:
//! [`ArenaSeed::with_limits`] for untrusted input, [`ArenaSeed::with_trust`] for a stream of
//! documents.
//!
//! # Examples
//!
//! ```
//! let bump = bumpalo::Bump::new();
//! let cities: &[(&str, u32)] =
//!     arena_core::json::from_str(&bump, r#"[["Paris", 2148000], ["Lyon", 522000]]"#)?;
//! assert_eq!(cities, [("Paris", 2148000), ("Lyon", 522000)]);
//!
//! // Trailing whitespace is accepted, anything else is not.
//! assert!(arena_core::json::from_str::<&str, _>(&bump, "\"a\"  \n").is_ok());
//! assert!(arena_core::json::from_str::<&str, _>(&bump, "\"a\" \"b\"").is_err());
//!
//! // From a reader, the same.
//! let text = br#"[["Paris", 2148000], ["Lyon", 522000]]"#;
//! let read: &[(&str, u32)] = arena_core::json::from_reader(&bump, &text[..])?;
//! assert_eq!(read, cities);
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::io::{self, BufReader, Read as _};

use ::serde_json::de::Read;
use ::serde_json::{Deserializer, Error};
use serde::de::DeserializeSeed;

mod deserializer;
mod direct;
mod document_end;
mod eisel_lemire;
mod map_access;
#[cfg(target_arch = "aarch64")]
mod neon_mask;
mod number;
mod pow5;
mod reader_stream;
mod refused;
mod scan;
mod seq_access;
mod slice_stream;
mod stream_document;
mod stream_error;
mod string;
mod value;
mod variant_access;
mod whitespace;

#[doc(hidden)]
pub use deserializer::Deserializer as Reader;
pub(crate) use direct::Array;
#[doc(hidden)]
pub use direct::{Fields, Object};
pub use reader_stream::{DEFAULT_WINDOW, ReaderStream};
#[doc(hidden)]
pub use refused::Refused;
pub use slice_stream::SliceStream;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::call;
use crate::call::strings::Input;
use crate::seed::ArenaSeed;

/// Deserializes a `T` into `arena` from the JSON text `input`.
///
/// # Errors
///
/// A [`serde_json::Error`] when `input` is not JSON, does not hold a `T`,
/// holds more than whitespace after it, or breaks the default [`Limits`](crate::Limits).
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let tags: &[&str] = arena_core::json::from_str(&bump, r#"["a", "bc"]"#)?;
/// assert_eq!(tags, ["a", "bc"]);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_str<'bump, T, A>(arena: &'bump A, input: &str) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    from_str_seed(ArenaSeed::new(arena), input)
}

/// Deserializes a `T` into `arena` from the JSON bytes `input`.
///
/// # Errors
///
/// A [`serde_json::Error`] when `input` is not JSON (invalid UTF-8
/// included), does not hold a `T`, holds more than whitespace after it, or breaks the default
/// [`Limits`](crate::Limits).
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let point: (i32, i32) = arena_core::json::from_slice(&bump, b"[3, -4]")?;
/// assert_eq!(point, (3, -4));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_slice<'bump, T, A>(arena: &'bump A, input: &[u8]) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    from_slice_seed(ArenaSeed::new(arena), input)
}

/// Deserializes a `T` with `seed` from the JSON text `input`, as [`from_str`] does with the
/// seed's limits and trust.
///
/// # Errors
///
/// As [`from_str`], and when the value breaks the seed's limits.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, Limits};
///
/// let bump = bumpalo::Bump::new();
/// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
/// let err = arena_core::json::from_str_seed(seed, r#"["a", "b", "c"]"#).unwrap_err();
/// assert!(err.to_string().contains("sequence length limit of 2 elements"));
/// ```
pub fn from_str_seed<'bump, T, A>(seed: ArenaSeed<'bump, T, A>, input: &str) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    read_slice(seed, input.as_bytes())
}

/// Deserializes a `T` with `seed` from the JSON bytes `input`, as [`from_slice`] does with the
/// seed's limits and trust.
///
/// # Errors
///
/// As [`from_slice`], and when the value breaks the seed's limits.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, LengthTrust, Limits};
///
/// let trust = LengthTrust::new();
/// for doc in [&b"[1, 2]"[..], b"[3, 4, 5]"] {
///     let bump = bumpalo::Bump::new();
///     let seed = ArenaSeed::<&[u32], _>::new(&bump)
///         .with_limits(Limits::default().max_len(1000))
///         .with_trust(&trust);
///     let numbers = arena_core::json::from_slice_seed(seed, doc)?;
///     assert!(numbers.len() >= 2);
/// }
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_slice_seed<'bump, T, A>(seed: ArenaSeed<'bump, T, A>, input: &[u8]) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    read_slice(seed, input)
}

/// Deserializes a `T` into `arena` from the JSON text `reader` holds, to its end.
///
/// An input of up to [`WHOLE_INPUT_MAX`] bytes is read whole, then with the crate's reader; a
/// longer one as it streams in, through serde_json's (see the module docs).
///
/// # Errors
///
/// A [`serde_json::Error`] when the input is not JSON (invalid UTF-8 included), does not hold
/// a `T`, holds more than whitespace after it, or breaks the default
/// [`Limits`](crate::Limits); one of category `Io` when `reader` fails.
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let input = std::io::Cursor::new(r#"{"name": "Ada", "year": 1815}"#);
/// let map: &[(&str, arena_core::Value<'_>)] = arena_core::json::from_reader(&bump, input)?;
/// assert_eq!(map[0].0, "name");
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_reader<'bump, T, A, R>(arena: &'bump A, reader: R) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: io::Read,
{
    from_reader_seed(ArenaSeed::new(arena), reader)
}

/// Deserializes a `T` with `seed` from the JSON text `reader` holds, as [`from_reader`] does
/// with the seed's limits and trust.
///
/// # Errors
///
/// As [`from_reader`], and when the value breaks the seed's limits.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, Limits};
///
/// let bump = bumpalo::Bump::new();
/// let seed = ArenaSeed::<&str, _>::new(&bump).with_limits(Limits::default().max_str_len(3));
/// let err = arena_core::json::from_reader_seed(seed, &br#""long""#[..]).unwrap_err();
/// assert!(err.to_string().contains("string length limit of 3 bytes"), "{err}");
/// ```
pub fn from_reader_seed<'bump, T, A, R>(seed: ArenaSeed<'bump, T, A>, reader: R) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: io::Read,
{
    read_buffered(seed, reader, WHOLE_INPUT_MAX)
}

/// The longest input [`from_reader`] reads whole before reading it with the crate's reader:
/// 64 MiB. A longer one streams through serde_json's reader.
pub const WHOLE_INPUT_MAX: usize = 64 * 1024 * 1024;

/// [`from_reader_seed`] with `whole_max` for [`WHOLE_INPUT_MAX`].
fn read_buffered<'bump, T, A, R>(
    seed: ArenaSeed<'bump, T, A>,
    mut reader: R,
    whole_max: usize,
) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: io::Read,
{
    let mut buffer = Vec::new();
    // One byte past the bound tells an input of exactly `whole_max` bytes from a longer one.
    let limit = u64::try_from(whole_max).map_or(u64::MAX, |max| max.saturating_add(1));
    (&mut reader)
        .take(limit)
        .read_to_end(&mut buffer)
        .map_err(Error::io)?;
    if buffer.len() <= whole_max {
        return read_slice(seed, &buffer);
    }
    read_to_end(
        seed.reading_from(Input::Transient),
        Deserializer::from_reader(BufReader::new(io::Cursor::new(buffer).chain(reader))),
    )
}

/// Reads one value from `input` with the crate's reader, then checks that only whitespace
/// follows; an input the reader refuses is read again by serde_json, whose value or error is
/// the answer.
///
/// A value followed by more than whitespace is read into the arena before the refusal: each
/// read that fails rewinds the arena to where it was (see [`rewound_on_error`]), as a failed
/// call does.
fn read_slice<'bump, T, A>(seed: ArenaSeed<'bump, T, A>, input: &[u8]) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    let mut reader = deserializer::Deserializer::from_slice(input);
    // SAFETY: `Refused` and `serde_json::Error` hold no references.
    let ours = unsafe {
        rewound_on_error(seed.arena(), || {
            let value = seed.read_with(|arena| {
                reader.ask_limits();
                T::__deserialize_json_in(arena, &mut reader)
            })?;
            reader.end()?;
            Ok::<T, Refused>(value)
        })
    };
    if let Ok(value) = ours {
        return Ok(value);
    }
    // SAFETY: as above.
    unsafe {
        rewound_on_error(seed.arena(), || {
            read_to_end(seed, Deserializer::from_slice(input))
        })
    }
}

/// Runs `read`, and rewinds `arena` to where it was when `read` fails (on arenas that can),
/// unless a call is open on the thread: that call keeps what it read, as a nested call does.
/// `read` is a whole call on `arena` (it opens and closes one), so this gives back, as the
/// call's own rewind does, what a value that read but then failed a check after the call
/// (trailing characters) left in the arena.
///
/// # Safety
///
/// `E` holds no reference to anything `read` allocated in `arena` (an error built from a
/// message, or a unit).
unsafe fn rewound_on_error<A, T, E>(arena: &A, read: impl FnOnce() -> Result<T, E>) -> Result<T, E>
where
    A: BumpAllocator + ?Sized,
{
    let checkpoint = if call::is_idle() {
        arena.checkpoint()
    } else {
        None
    };
    let result = read();
    if let (Err(_), Some(checkpoint)) = (&result, checkpoint) {
        // SAFETY: the checkpoint is this arena's, taken just above with no call open on the
        // thread, so `read`'s call owned the arena and closed again; the arena was not reset
        // since (it is borrowed). Everything allocated after the checkpoint belongs to the
        // failed read: its value was dropped on the way out, and the error holds no reference
        // to it (the caller's guarantee), so nothing of it is used again.
        unsafe { arena.rewind(checkpoint) };
    }
    result
}

/// Reads one value, then checks that only whitespace follows, as serde_json's helpers do.
fn read_to_end<'de, 'bump, T, A, R>(
    seed: ArenaSeed<'bump, T, A>,
    mut de: Deserializer<R>,
) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read<'de>,
{
    let value = seed.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out `text`, then fails.
    struct FailsAfter<'a>(&'a [u8]);

    impl io::Read for FailsAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("the disk went away"));
            }
            self.0.read(buf)
        }
    }

    #[test]
    fn inputs_read_whole_or_streamed_read_alike() {
        let text = br#"{"name": "Ada", "tags": ["a\"b", "\u00e9"], "n": [1, 2.5, -3]} "#;
        let bump = bumpalo::Bump::new();
        type Doc<'a> = &'a [(&'a str, crate::Value<'a>)];
        let expected: Doc<'_> = from_slice(&bump, text).unwrap();
        // Shorter than the bound, exactly at it, one byte past it, and streamed from the start.
        for whole_max in [usize::MAX, text.len(), text.len() - 1, 0] {
            let read: Doc<'_> = read_buffered(ArenaSeed::new(&bump), &text[..], whole_max).unwrap();
            assert_eq!(read, expected, "{whole_max}");
            for bad in [&br#"{"name": 1} x"#[..], br#"{"name": "#, b"\xff"] {
                let ours = read_buffered::<Doc<'_>, _, _>(ArenaSeed::new(&bump), bad, whole_max)
                    .unwrap_err();
                let theirs = serde_json::from_reader::<_, serde::de::IgnoredAny>(bad).unwrap_err();
                assert_eq!(ours.classify(), theirs.classify(), "{whole_max}: {ours}");
                assert_eq!(ours.line(), theirs.line(), "{whole_max}: {ours}");
            }
        }
    }

    #[test]
    fn an_io_error_is_an_error_of_category_io() {
        let bump = bumpalo::Bump::new();
        for whole_max in [usize::MAX, 4] {
            let err = read_buffered::<&[u32], _, _>(
                ArenaSeed::new(&bump),
                FailsAfter(b"[1, 2, 3"),
                whole_max,
            )
            .unwrap_err();
            assert!(err.is_io(), "{whole_max}: {err}");
            assert!(err.to_string().contains("the disk went away"), "{err}");
        }
    }
}
