//! One-call postcard entry points (feature `postcard`): a message in a `&[u8]` or read from a
//! [`std::io::Read`] into an arena with [postcard].
//!
//! [`from_bytes`] reads one `T` with [`ArenaSeed::str_as_bytes`] on: postcard writes a string
//! as its bytes, so the arena reads it as bytes and checks its UTF-8 itself, faster than the
//! format does (invalid UTF-8 is still an error). Like `postcard::from_bytes`, it reads the
//! value from the front of `input` and ignores the bytes after it: trailing input is not an
//! error. A sequence whose announced length is at most `input.len()` is read straight into
//! the arena in place, however large: each element takes at least a byte of input, so the
//! slice bounds what a length can claim. Errors are [`postcard::Error`].
//!
//! [`from_reader`] reads the same message from a reader, with the same settings. Every string
//! and slice is copied into the arena anyway, so the input is not needed after the call: a
//! large file needs the arena and a small read buffer, not the file and the value. Each string
//! is read into one buffer reused from string to string and copied from there into the arena
//! once, and a length the input claims is never allocated before its bytes arrive. Like
//! `postcard::from_io`, it reads exactly the message and leaves the reader right after it (the
//! next message of a stream can be read from there); it reads every varint one byte at a time,
//! so a reader with a cost per `read` call (a `File`, a socket) wants a
//! [`BufReader`](std::io::BufReader) around it. A reader that fails or ends early is
//! `DeserializeUnexpectedEnd`, as `postcard::from_io` reports it (postcard's error has no I/O
//! variant).
//!
//! [`from_bytes_seed`] and [`from_reader_seed`] do the same with a seed the caller configured
//! ([`ArenaSeed::with_limits`] for untrusted input, [`ArenaSeed::with_trust`] for a stream of
//! messages); they turn `str_as_bytes` on only if the seed leaves it unset.
//!
//! # Examples
//!
//! ```
//! let bump = bumpalo::Bump::new();
//! let bytes = postcard::to_allocvec(&("Ada", vec![1u16, 2, 3])).unwrap();
//! let (name, numbers): (&str, &[u16]) = arena_core::postcard::from_bytes(&bump, &bytes)?;
//! assert_eq!((name, numbers), ("Ada", &[1, 2, 3][..]));
//!
//! // Bytes after the message are ignored, as postcard::from_bytes ignores them.
//! let mut longer = bytes.clone();
//! longer.push(0xFF);
//! let again: (&str, &[u16]) = arena_core::postcard::from_bytes(&bump, &longer)?;
//! assert_eq!(again, (name, numbers));
//!
//! // From a reader, the same message; the reader stops right after it.
//! let mut reader = std::io::BufReader::new(&longer[..]);
//! let read: (&str, &[u16]) = arena_core::postcard::from_reader(&bump, &mut reader)?;
//! assert_eq!(read, (name, numbers));
//! assert_eq!(std::io::Read::bytes(reader).count(), 1);
//! # Ok::<(), postcard::Error>(())
//! ```

use std::io::Read;

use ::postcard::{Deserializer, Error};
use serde::de::DeserializeSeed;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::call::strings::Input;
use crate::record_stream::RecordFormat;
use crate::seed::ArenaSeed;

mod read_flavor;
mod record_format;

use read_flavor::ReadFlavor;
#[doc(hidden)]
pub use record_format::Records;

/// The postcard records of a slice, one after another, each read into an arena (see
/// [`RecordStream`](crate::RecordStream)): as [`from_bytes_seed`] reads each, `take_from_bytes`
/// style.
pub type SliceStream<'de> = crate::RecordStream<'de, Records>;

/// Deserializes a `T` into `arena` from the postcard message at the front of `input`.
///
/// # Errors
///
/// A [`postcard::Error`] when `input` ends before a `T` does, does not
/// hold a `T` (invalid UTF-8 in a string included), or breaks the default
/// [`Limits`](crate::Limits).
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let bytes = postcard::to_allocvec(&["a", "bc"]).unwrap();
/// let words: [&str; 2] = arena_core::postcard::from_bytes(&bump, &bytes)?;
/// assert_eq!(words, ["a", "bc"]);
/// # Ok::<(), postcard::Error>(())
/// ```
pub fn from_bytes<'bump, T, A>(arena: &'bump A, input: &[u8]) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    from_bytes_seed(ArenaSeed::new(arena), input)
}

/// Deserializes a `T` with `seed` from the postcard message at the front of `input`, as
/// [`from_bytes`] does with the seed's settings; `str_as_bytes` is on unless the seed sets it.
///
/// # Errors
///
/// As [`from_bytes`], and when the value breaks the seed's limits.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, Limits};
///
/// let bump = bumpalo::Bump::new();
/// let bytes = postcard::to_allocvec(&vec!["a", "b", "c"]).unwrap();
/// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
/// let err = arena_core::postcard::from_bytes_seed(seed, &bytes).unwrap_err();
/// // postcard keeps no message for errors raised outside it: the limit is `SerdeDeCustom`.
/// assert_eq!(err, postcard::Error::SerdeDeCustom);
/// ```
pub fn from_bytes_seed<'bump, T, A>(seed: ArenaSeed<'bump, T, A>, input: &[u8]) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    Records::read_record(seed, input).map(|(value, _)| value)
}

/// Deserializes a `T` into `arena` from the postcard message `reader` holds next, reading
/// exactly that message.
///
/// Wrap a reader with a cost per `read` call (a `File`, a socket) in a
/// [`BufReader`](std::io::BufReader): postcard asks for every varint one byte at a time.
///
/// # Errors
///
/// A [`postcard::Error`] when the message is not a `T` (invalid UTF-8 in a string included) or
/// breaks the default [`Limits`](crate::Limits); `DeserializeUnexpectedEnd` when `reader` ends
/// before a `T` does or fails.
///
/// # Examples
///
/// ```
/// use std::io::{BufReader, Write};
///
/// let path = std::env::temp_dir().join(format!("arena-core-doc-{}.postcard", std::process::id()));
/// let words = vec!["alpha".to_owned(), "beta".to_owned()];
/// std::fs::File::create(&path)?.write_all(&postcard::to_allocvec(&words).unwrap())?;
///
/// let arena = arena_core::SlabArena::new();
/// let file = BufReader::new(std::fs::File::open(&path)?);
/// let read: &[&str] = arena_core::postcard::from_reader(&arena, file)?;
/// assert_eq!(read, ["alpha", "beta"]);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_reader<'bump, T, A, R>(arena: &'bump A, reader: R) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read,
{
    from_reader_seed(ArenaSeed::new(arena), reader)
}

/// Deserializes a `T` with `seed` from the postcard message `reader` holds next, as
/// [`from_reader`] does with the seed's settings; `str_as_bytes` is on unless the seed sets
/// it.
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
/// // A string claiming 2^40 bytes, followed by three: an error at the end of the input, with
/// // nothing of the claim allocated.
/// let mut input = vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x20];
/// input.extend_from_slice(b"abc");
/// let bump = bumpalo::Bump::new();
/// let err = arena_core::postcard::from_reader::<&str, _, _>(&bump, &input[..]).unwrap_err();
/// assert_eq!(err, postcard::Error::DeserializeUnexpectedEnd);
///
/// // With a string length limit, the claim fails before anything is read.
/// let seed = ArenaSeed::<&str, _>::new(&bump).with_limits(Limits::default().max_str_len(100));
/// let err = arena_core::postcard::from_reader_seed(seed, &input[..]).unwrap_err();
/// assert_eq!(err, postcard::Error::SerdeDeCustom);
/// ```
pub fn from_reader_seed<'bump, T, A, R>(seed: ArenaSeed<'bump, T, A>, reader: R) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read,
{
    let seed = seed
        .str_as_bytes_unless_set(true)
        .reading_from(Input::Transient);
    let mut de = Deserializer::from_flavor(ReadFlavor::new(reader, seed.arena()));
    seed.deserialize(&mut de)
}
