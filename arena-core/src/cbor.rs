//! One-call CBOR entry points (feature `cbor`): a data item in a `&[u8]`, or read from a
//! [`std::io::BufRead`], read into an arena with [cbor4ii].
//!
//! [`from_slice`] reads one `T` with [`ArenaSeed::new`] and no settings of its own but the
//! input's size (an array or map whose announced length is at most `input.len()` is read
//! straight into the arena in place, however large: each element takes at least a byte). CBOR
//! text strings are not byte strings, so [`ArenaSeed::str_as_bytes`] must stay off (with it, every
//! string is an error). Like `cbor4ii::serde::from_slice`, it reads the data item at the front
//! of `input` and ignores the bytes after it: trailing input is not an error. Errors are
//! [`cbor4ii::serde::DecodeError<Infallible>`](::cbor4ii::serde::DecodeError): a slice reader
//! has no I/O error of its own, and input that ends early is a decode error like any other.
//!
//! Both entry points read `&[u8]`, [`BStr`](crate::BStr) and `&[(K, V)]` in both of serde's
//! forms: a byte string or an array of integers, a map or an array of pairs. cbor4ii's
//! deserializer reads only the form it is asked for, and serde writes `Vec<u8>` and
//! `Vec<(K, V)>` (the owned twins) as arrays, so these entry points ask for either; an
//! [`ArenaSeed`] given cbor4ii's deserializer directly reads the byte string and map forms only.
//!
//! [`from_reader`] reads the same data item from a buffered reader, as
//! `cbor4ii::serde::from_reader` does: it takes a [`BufRead`] (cbor4ii reads from the
//! reader's buffer), consumes exactly the data item and leaves the reader right after it, so
//! the next item of a CBOR sequence can be read from there (a buffer of our own would take
//! bytes past the item out of the caller's reader). Wrap a plain reader in a
//! [`BufReader`](std::io::BufReader). Every string is copied into the arena anyway, so the
//! input is not needed after the call: a large file needs the arena and the reader's buffer,
//! not the file and the value. cbor4ii reads each string from a reader into a `String` of its
//! own (one allocation per string, reserving at most 16 KiB ahead of the bytes that arrived),
//! which the arena copies and drops. Errors are
//! [`cbor4ii::serde::DecodeError<std::io::Error>`](::cbor4ii::serde::DecodeError).
//!
//! [`from_slice_seed`] and [`from_reader_seed`] do the same with a seed the caller configured
//! ([`ArenaSeed::with_limits`] for untrusted input, [`ArenaSeed::with_trust`] for a stream of
//! items).
//!
//! # Examples
//!
//! ```
//! let bump = bumpalo::Bump::new();
//! let bytes = cbor4ii::serde::to_vec(Vec::new(), &("Ada", vec![1u16, 2, 3])).unwrap();
//! let (name, numbers): (&str, &[u16]) = arena_core::cbor::from_slice(&bump, &bytes)?;
//! assert_eq!((name, numbers), ("Ada", &[1, 2, 3][..]));
//!
//! // Bytes after the data item are ignored, as cbor4ii::serde::from_slice ignores them.
//! let mut longer = bytes.clone();
//! longer.push(0xFF);
//! let again: (&str, &[u16]) = arena_core::cbor::from_slice(&bump, &longer)?;
//! assert_eq!(again, (name, numbers));
//!
//! // From a reader, the same data item; the reader stops right after it.
//! let mut reader = &longer[..];
//! let read: (&str, &[u16]) = arena_core::cbor::from_reader(&bump, &mut reader).unwrap();
//! assert_eq!(read, (name, numbers));
//! assert_eq!(reader, [0xFF]);
//! # Ok::<(), cbor4ii::serde::DecodeError<std::convert::Infallible>>(())
//! ```

use core::convert::Infallible;
use std::io::{self, BufRead};

use ::cbor4ii::core::utils::{IoReader, SliceReader};
use ::cbor4ii::serde::{DecodeError, Deserializer};
use serde::de::DeserializeSeed;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::call::strings::Input;
use crate::seed::ArenaSeed;

mod record_format;

#[doc(hidden)]
pub use record_format::Records;

/// The CBOR data items of a slice, one after another (a CBOR sequence, RFC 8742), each read
/// into an arena (see [`RecordStream`](crate::RecordStream)), as [`from_slice_seed`] reads each.
pub type SliceStream<'de> = crate::RecordStream<'de, Records>;

/// Deserializes a `T` into `arena` from the CBOR data item at the front of `input`.
///
/// # Errors
///
/// A [`DecodeError`] when `input` ends before a `T` does, does not hold a `T`, or breaks the
/// default [`Limits`](crate::Limits).
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let bytes = cbor4ii::serde::to_vec(Vec::new(), &["a", "bc"]).unwrap();
/// let words: [&str; 2] = arena_core::cbor::from_slice(&bump, &bytes)?;
/// assert_eq!(words, ["a", "bc"]);
/// # Ok::<(), cbor4ii::serde::DecodeError<std::convert::Infallible>>(())
/// ```
pub fn from_slice<'bump, T, A>(arena: &'bump A, input: &[u8]) -> Result<T, DecodeError<Infallible>>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    from_slice_seed(ArenaSeed::new(arena), input)
}

/// Deserializes a `T` with `seed` from the CBOR data item at the front of `input`, as
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
/// let bytes = cbor4ii::serde::to_vec(Vec::new(), &["a", "b", "c"]).unwrap();
/// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
/// let err = arena_core::cbor::from_slice_seed(seed, &bytes).unwrap_err();
/// assert!(err.to_string().contains("sequence length limit of 2 elements"));
/// ```
pub fn from_slice_seed<'bump, T, A>(
    seed: ArenaSeed<'bump, T, A>,
    input: &[u8],
) -> Result<T, DecodeError<Infallible>>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    seed.reading_either_form()
        .reading_slice(input.len())
        .deserialize(&mut Deserializer::new(SliceReader::new(input)))
}

/// Deserializes a `T` into `arena` from the CBOR data item `reader` holds next, consuming
/// exactly that item.
///
/// # Errors
///
/// A [`DecodeError`] when `reader` fails or ends before a `T` does, the item is not a `T`, or
/// it breaks the default [`Limits`](crate::Limits).
///
/// # Examples
///
/// ```
/// use std::io::BufReader;
///
/// let bump = bumpalo::Bump::new();
/// let bytes = cbor4ii::serde::to_vec(Vec::new(), &["a", "bc"]).unwrap();
/// let words: [&str; 2] = arena_core::cbor::from_reader(&bump, BufReader::new(&bytes[..]))?;
/// assert_eq!(words, ["a", "bc"]);
/// # Ok::<(), cbor4ii::serde::DecodeError<std::io::Error>>(())
/// ```
pub fn from_reader<'bump, T, A, R>(arena: &'bump A, reader: R) -> Result<T, DecodeError<io::Error>>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: BufRead,
{
    from_reader_seed(ArenaSeed::new(arena), reader)
}

/// Deserializes a `T` with `seed` from the CBOR data item `reader` holds next, as
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
/// let bytes = cbor4ii::serde::to_vec(Vec::new(), &["a", "b", "c"]).unwrap();
/// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
/// let err = arena_core::cbor::from_reader_seed(seed, &bytes[..]).unwrap_err();
/// assert!(err.to_string().contains("sequence length limit of 2 elements"));
/// ```
pub fn from_reader_seed<'bump, T, A, R>(
    seed: ArenaSeed<'bump, T, A>,
    reader: R,
) -> Result<T, DecodeError<io::Error>>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: BufRead,
{
    seed.reading_from(Input::Transient)
        .reading_either_form()
        .deserialize(&mut Deserializer::new(IoReader::new(reader)))
}
