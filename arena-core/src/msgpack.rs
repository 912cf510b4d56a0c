//! One-call MessagePack entry points (feature `msgpack`): a message in a `&[u8]`, or read from
//! a [`std::io::Read`], read into an arena.
//!
//! [`from_slice`] reads one `T` with [`ArenaSeed::new`] and no settings of its own but the
//! input's size (an array or map whose announced length is at most `input.len()` is read
//! straight into the arena in place, however large: each element takes at least a byte),
//! through this module's [`Deserializer`]: a reader over the slice that reads what
//! `rmp_serde::from_slice` reads, with the same values and errors, dispatching on each marker
//! byte in one `match` and borrowing strings (field names included) and bins from the input.
//! It checks a string's UTF-8 before the arena sees it, so [`ArenaSeed::str_as_bytes`] would
//! read the same values no faster. Structs read both as arrays (`rmp_serde::to_vec`) and as
//! maps with field names (`rmp_serde::to_vec_named`). Like `rmp_serde::from_slice`, it reads
//! the value from the front of `input` and ignores the bytes after it: trailing input is not
//! an error. Errors are [`rmp_serde::decode::Error`]. What the two read differently: enums
//! written as maps count toward the nesting limit here (see [`Deserializer`]).
//!
//! [`from_reader`] reads the same message from a reader with rmp-serde's own deserializer
//! (`rmp_serde::Deserializer::new`), as `rmp_serde::from_read` does. A reader is not the hot
//! path (every string is copied out of it, and each read is a call on the reader), so it
//! keeps rmp-serde's reading rather than a second copy of this module's. It reads exactly the
//! message and leaves the reader right after it, with one `read_exact` per marker, length and
//! value, so a reader with a cost per call (a `File`, a socket) wants a
//! [`BufReader`](std::io::BufReader) around it. Every string is copied into the arena anyway,
//! so the input is not needed after the call: a large file needs the arena and a small read
//! buffer (rmp-serde's, holding one string at a time and growing only with the bytes that
//! arrive), not the file and the value. An I/O error is `InvalidMarkerRead` or
//! `InvalidDataRead`, as rmp-serde reports it.
//!
//! [`from_slice_seed`] and [`from_reader_seed`] do the same with a seed the caller configured
//! ([`ArenaSeed::with_limits`] for untrusted input, [`ArenaSeed::with_trust`] for a stream of
//! messages).
//!
//! # Examples
//!
//! ```
//! let bump = bumpalo::Bump::new();
//! let bytes = rmp_serde::to_vec(&("Ada", vec![1u16, 2, 3])).unwrap();
//! let (name, numbers): (&str, &[u16]) = arena_core::msgpack::from_slice(&bump, &bytes)?;
//! assert_eq!((name, numbers), ("Ada", &[1, 2, 3][..]));
//!
//! // Bytes after the message are ignored, as rmp_serde::from_slice ignores them.
//! let mut longer = bytes.clone();
//! longer.push(0xC1);
//! let again: (&str, &[u16]) = arena_core::msgpack::from_slice(&bump, &longer)?;
//! assert_eq!(again, (name, numbers));
//!
//! // From a reader, the same message; the reader stops right after it.
//! let mut reader = std::io::BufReader::new(&longer[..]);
//! let read: (&str, &[u16]) = arena_core::msgpack::from_reader(&bump, &mut reader)?;
//! assert_eq!(read, (name, numbers));
//! assert_eq!(std::io::Read::bytes(reader).count(), 1);
//! # Ok::<(), rmp_serde::decode::Error>(())
//! ```

use std::io::Read;

use ::rmp_serde::decode::Error;
use serde::de::DeserializeSeed;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::call::strings::Input;
use crate::seed::ArenaSeed;

mod deserializer;
mod ext_deserializer;
mod map_access;
mod reader;
mod record_format;
mod seq_access;
mod variant_access;

pub use deserializer::Deserializer;
#[doc(hidden)]
pub use record_format::Records;

/// The MessagePack values of a slice, one after another, each read into an arena (see
/// [`RecordStream`](crate::RecordStream)), as [`from_slice_seed`] reads each.
pub type SliceStream<'de> = crate::RecordStream<'de, Records>;

/// Deserializes a `T` into `arena` from the MessagePack value at the front of `input`.
///
/// # Errors
///
/// A [`rmp_serde::decode::Error`] when `input` ends before a `T` does, does not hold a
/// `T`, or breaks the default [`Limits`](crate::Limits).
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let bytes = rmp_serde::to_vec(&["a", "bc"]).unwrap();
/// let words: [&str; 2] = arena_core::msgpack::from_slice(&bump, &bytes)?;
/// assert_eq!(words, ["a", "bc"]);
/// # Ok::<(), rmp_serde::decode::Error>(())
/// ```
pub fn from_slice<'bump, T, A>(arena: &'bump A, input: &[u8]) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    from_slice_seed(ArenaSeed::new(arena), input)
}

/// Deserializes a `T` with `seed` from the MessagePack value at the front of `input`, as
/// [`from_slice`] does with the seed's settings.
///
/// # Errors
///
/// As [`from_slice`], and when the value breaks the seed's limits.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, Limits};
///
/// let bump = bumpalo::Bump::new();
/// let bytes = rmp_serde::to_vec(&["a", "b", "c"]).unwrap();
/// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
/// let err = arena_core::msgpack::from_slice_seed(seed, &bytes).unwrap_err();
/// assert!(err.to_string().contains("sequence length limit of 2 elements"));
/// ```
pub fn from_slice_seed<'bump, T, A>(seed: ArenaSeed<'bump, T, A>, input: &[u8]) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    seed.reading_slice(input.len())
        .deserialize(&mut Deserializer::from_slice(input))
}

/// Deserializes a `T` into `arena` from the MessagePack value `reader` holds next, reading
/// exactly that value.
///
/// # Errors
///
/// A [`rmp_serde::decode::Error`] when `reader` fails or ends before a `T` does, the value is
/// not a `T`, or it breaks the default [`Limits`](crate::Limits).
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let bytes = rmp_serde::to_vec_named(&("Ada", 1815)).unwrap();
/// let read: (&str, u32) = arena_core::msgpack::from_reader(&bump, std::io::Cursor::new(bytes))?;
/// assert_eq!(read, ("Ada", 1815));
/// # Ok::<(), rmp_serde::decode::Error>(())
/// ```
pub fn from_reader<'bump, T, A, R>(arena: &'bump A, reader: R) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read,
{
    from_reader_seed(ArenaSeed::new(arena), reader)
}

/// Deserializes a `T` with `seed` from the MessagePack value `reader` holds next, as
/// [`from_reader`] does with the seed's settings.
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
/// let bytes = rmp_serde::to_vec(&["a", "b", "c"]).unwrap();
/// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
/// let err = arena_core::msgpack::from_reader_seed(seed, &bytes[..]).unwrap_err();
/// assert!(err.to_string().contains("sequence length limit of 2 elements"));
/// ```
pub fn from_reader_seed<'bump, T, A, R>(seed: ArenaSeed<'bump, T, A>, reader: R) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read,
{
    seed.reading_from(Input::Transient)
        .deserialize(&mut ::rmp_serde::Deserializer::new(reader))
}
