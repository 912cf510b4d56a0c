//! One-call JSON entry points (feature `json`): a document in a `&str` or `&[u8]`, or read from
//! a [`std::io::Read`], read into an arena.
//!
//! [`from_str`] and [`from_slice`] read one `T` with [`ArenaSeed::new`] and no settings of its
//! own (JSON strings are text, so [`ArenaSeed::str_as_bytes`] does not apply) through the
//! crate's own JSON reader, which reads what `serde_json::from_slice` reads: the same documents
//! accepted, the same visitor calls, the same values. It follows serde_json's `Deserializer`
//! method by method (128 levels of nesting, keys read as numbers or booleans when a number or a
//! bool is asked for, enums as a string or an object of one entry), scans a string's plain run
//! and a run of whitespace 16 bytes at a time (SSE2 on x86_64, a `u64` at a time elsewhere),
//! checks text above ASCII for UTF-8 with simdutf8, borrows strings without
//! escapes from the input, and reads a float as serde_json with its `float_roundtrip` feature
//! does, correctly rounded (one multiplication or division when the digits and the power of
//! ten are exact in an `f64`, else the Eisel-Lemire algorithm, else the standard library's
//! parser). arena-core does not turn that feature on for the program: without it serde_json
//! reads a few floats of more than 15 digits one unit in the last place away, and faster.
//!
//! A [`Value`](crate::Value) read by these entry points is built straight from the text, each
//! node where it goes, with no visitor in between; it is the value the visitor path reads,
//! under the same limits.
//!
//! The reader's errors carry nothing: a document it refuses is read again by serde_json, whose
//! value or error is the answer. Errors are [`serde_json::Error`] with serde_json's message,
//! line and column, and an invalid document costs a second read. After the value, the input
//! may hold only whitespace; anything else is an error, as `serde_json::from_str` and
//! `serde_json::from_slice` report it.
//!
//! [`from_reader`] reads the same document from a reader, with serde_json's reader. Every string is copied into the arena
//! anyway, so the input is not needed after the call: a large file needs the arena and a small
//! read buffer, not the file and the value. serde_json does not buffer a reader (it calls
//! `read` once per byte), so `from_reader` wraps it in a [`BufReader`]: that costs nothing
//! the caller could miss, since, like `serde_json::from_reader`, it reads to the end of the
//! input (only whitespace may follow the value), and a reader that is already buffered is
//! read in blocks past the second buffer. An I/O error is a [`serde_json::Error`] of category
//! `Io`.
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

use std::io::{self, BufReader};

use ::serde_json::de::Read;
use ::serde_json::{Deserializer, Error};
use serde::de::DeserializeSeed;

mod deserializer;
mod eisel_lemire;
mod map_access;
mod number;
mod pow5;
mod refused;
mod seq_access;
mod string;
mod value;
mod variant_access;
mod whitespace;

#[doc(hidden)]
pub use deserializer::Deserializer as Reader;
#[doc(hidden)]
pub use refused::Refused;

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
/// The reader is wrapped in a [`BufReader`] (serde_json calls `read` once per byte).
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
    read_to_end(
        seed.reading_from(Input::Transient),
        Deserializer::from_reader(BufReader::new(reader)),
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
            let value = seed.read_with(|arena| T::__deserialize_json_in(arena, &mut reader))?;
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
