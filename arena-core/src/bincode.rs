//! One-call bincode entry points (feature `bincode`): a message in a `&[u8]`, or read from a
//! [`std::io::Read`], read into an arena with [bincode] 2 in its serde mode.
//!
//! [`from_slice`] reads one `T` with bincode's standard configuration
//! ([`bincode::config::standard`]), [`from_slice_with_config`]
//! with another (it must match the one the message was written with). Both read with
//! [`ArenaSeed::str_as_bytes`] on: bincode writes a string as its bytes, so the arena reads it
//! as bytes and checks its UTF-8 itself, faster than the format does (invalid UTF-8 is still an
//! error). A sequence whose announced length is at most `input.len()` is read straight into
//! the arena in place, however large (each element takes at least a byte, so the slice bounds
//! what a length can claim). Like `bincode::serde::decode_from_slice`, they read the value from the front of
//! `input` and accept bytes after it; that helper returns how many bytes it read, these return
//! only the value (`bincode::serde::seed_decode_from_slice` with an [`ArenaSeed`] returns
//! both). Errors are [`bincode::error::DecodeError`].
//!
//! [`from_reader`] and [`from_reader_with_config`] read the same message from a reader, as
//! `bincode::serde::decode_from_std_read` does: exactly the message, leaving the reader right
//! after it, with one `read_exact` per value, so a reader with a cost per call (a `File`, a
//! socket) wants a [`BufReader`](std::io::BufReader) around it. Every string is copied into
//! the arena anyway, so the input is not needed after the call: a large file needs the arena
//! and a small read buffer, not the file and the value. An I/O error (an early end included)
//! is [`DecodeError::Io`].
//!
//! From a reader, strings and byte strings are read as what bincode writes them as, a `u64`
//! length and then the bytes: asked for a sequence of `u8`, bincode's reader decoder hands the
//! bytes over one at a time, straight into the arena (a claim up to 64 KiB) or onto its
//! reusable scratch stack as they arrive (a longer one), their UTF-8 checked by the arena (whatever [`ArenaSeed::str_as_bytes`] says; invalid UTF-8 is serde's
//! `invalid_value`, as with `str_as_bytes` from a slice). Asked for a string, the same decoder
//! allocates a buffer of the length the input claims before reading a byte of it, so an
//! input of a few bytes claiming a terabyte would be a terabyte allocation (or a panic past
//! `isize::MAX`), and it builds a `String` per string; bincode bounds that only with a limit
//! fixed in the configuration's type (`with_limit::<N>()`), which cannot follow a seed's
//! [`Limits`](crate::Limits). Here a claimed length is checked against the string length limit
//! before anything is read, and past 64 KiB memory grows only with the bytes that arrive. A
//! configuration's own limit still applies: bincode counts every byte it decodes against it.
//!
//! [`from_slice_seed`], [`from_reader_seed`] and their `_with_config` forms do the same with a
//! seed the caller configured ([`ArenaSeed::with_limits`] for untrusted input,
//! [`ArenaSeed::with_trust`] for a stream of messages); the slice forms turn `str_as_bytes` on
//! only if the seed leaves it unset.
//!
//! # Examples
//!
//! ```
//! let bump = bumpalo::Bump::new();
//! let config = bincode::config::standard();
//! let bytes = bincode::serde::encode_to_vec(("Ada", vec![1u16, 2, 3]), config).unwrap();
//! let (name, numbers): (&str, &[u16]) = arena_core::bincode::from_slice(&bump, &bytes)?;
//! assert_eq!((name, numbers), ("Ada", &[1, 2, 3][..]));
//!
//! // Bytes after the message are accepted, as bincode::serde::decode_from_slice accepts them.
//! let mut longer = bytes.clone();
//! longer.push(0xFF);
//! let again: (&str, &[u16]) = arena_core::bincode::from_slice(&bump, &longer)?;
//! assert_eq!(again, (name, numbers));
//!
//! // From a reader, the same message; the reader stops right after it.
//! let mut reader = std::io::BufReader::new(&longer[..]);
//! let read: (&str, &[u16]) = arena_core::bincode::from_reader(&bump, &mut reader)?;
//! assert_eq!(read, (name, numbers));
//! assert_eq!(std::io::Read::bytes(reader).count(), 1);
//! # Ok::<(), bincode::error::DecodeError>(())
//! ```

use std::io::Read;

use ::bincode::config::{self, Config};
use ::bincode::error::DecodeError;
use ::bincode::serde::OwnedSerdeDecoder;
use serde::de::DeserializeSeed;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::call::strings::Input;
use crate::seed::ArenaSeed;

mod io_reader;

use io_reader::IoReader;

/// Deserializes a `T` into `arena` from the bincode message at the front of `input`, written
/// with the standard configuration.
///
/// # Errors
///
/// A [`DecodeError`] when `input` ends before a `T` does, does not hold a `T` (invalid UTF-8
/// in a string included), or breaks the default [`Limits`](crate::Limits).
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let bytes = bincode::serde::encode_to_vec(["a", "bc"], bincode::config::standard()).unwrap();
/// let words: [&str; 2] = arena_core::bincode::from_slice(&bump, &bytes)?;
/// assert_eq!(words, ["a", "bc"]);
/// # Ok::<(), bincode::error::DecodeError>(())
/// ```
pub fn from_slice<'bump, T, A>(arena: &'bump A, input: &[u8]) -> Result<T, DecodeError>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    from_slice_seed_with_config(ArenaSeed::new(arena), input, config::standard())
}

/// Deserializes a `T` into `arena` from the bincode message at the front of `input`, written
/// with `config`.
///
/// # Errors
///
/// As [`from_slice`], and when the message breaks `config`'s limit.
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let config = bincode::config::legacy();
/// let bytes = bincode::serde::encode_to_vec((7u32, "seven"), config).unwrap();
/// let read: (u32, &str) = arena_core::bincode::from_slice_with_config(&bump, &bytes, config)?;
/// assert_eq!(read, (7, "seven"));
/// # Ok::<(), bincode::error::DecodeError>(())
/// ```
pub fn from_slice_with_config<'bump, T, A, C>(
    arena: &'bump A,
    input: &[u8],
    config: C,
) -> Result<T, DecodeError>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    C: Config,
{
    from_slice_seed_with_config(ArenaSeed::new(arena), input, config)
}

/// Deserializes a `T` with `seed` from the bincode message at the front of `input`, written
/// with the standard configuration, as [`from_slice`] does with the seed's settings;
/// `str_as_bytes` is on unless the seed sets it.
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
/// let bytes = bincode::serde::encode_to_vec(vec!["a", "b", "c"], bincode::config::standard()).unwrap();
/// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
/// let err = arena_core::bincode::from_slice_seed(seed, &bytes).unwrap_err();
/// assert!(err.to_string().contains("sequence length limit of 2 elements"));
/// ```
pub fn from_slice_seed<'bump, T, A>(
    seed: ArenaSeed<'bump, T, A>,
    input: &[u8],
) -> Result<T, DecodeError>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    from_slice_seed_with_config(seed, input, config::standard())
}

/// Deserializes a `T` with `seed` from the bincode message at the front of `input`, written
/// with `config`, as [`from_slice_with_config`] does with the seed's settings; `str_as_bytes`
/// is on unless the seed sets it.
///
/// # Errors
///
/// As [`from_slice_with_config`], and when the value breaks the seed's limits.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, Limits};
///
/// let bump = bumpalo::Bump::new();
/// let config = bincode::config::legacy();
/// let bytes = bincode::serde::encode_to_vec(vec!["a", "bc", "def"], config).unwrap();
/// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
/// let err = arena_core::bincode::from_slice_seed_with_config(seed, &bytes, config).unwrap_err();
/// assert!(err.to_string().contains("sequence length limit of 2 elements"));
/// ```
pub fn from_slice_seed_with_config<'bump, T, A, C>(
    seed: ArenaSeed<'bump, T, A>,
    input: &[u8],
    config: C,
) -> Result<T, DecodeError>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    C: Config,
{
    let seed = seed
        .str_as_bytes_unless_set(true)
        .reading_slice(input.len());
    ::bincode::serde::seed_decode_from_slice(seed, input, config).map(|(value, _read)| value)
}

/// Deserializes a `T` into `arena` from the bincode message `reader` holds next, written with
/// the standard configuration, reading exactly that message.
///
/// # Errors
///
/// A [`DecodeError`] when the message is not a `T` (invalid UTF-8 in a string included) or
/// breaks the default [`Limits`](crate::Limits); [`DecodeError::Io`] when `reader` fails or
/// ends before a `T` does.
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let bytes = bincode::serde::encode_to_vec(["a", "bc"], bincode::config::standard()).unwrap();
/// let words: [&str; 2] = arena_core::bincode::from_reader(&bump, std::io::Cursor::new(bytes))?;
/// assert_eq!(words, ["a", "bc"]);
/// # Ok::<(), bincode::error::DecodeError>(())
/// ```
pub fn from_reader<'bump, T, A, R>(arena: &'bump A, reader: R) -> Result<T, DecodeError>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read,
{
    from_reader_seed_with_config(ArenaSeed::new(arena), reader, config::standard())
}

/// Deserializes a `T` into `arena` from the bincode message `reader` holds next, written with
/// `config`, reading exactly that message.
///
/// # Errors
///
/// As [`from_reader`], and when the message breaks `config`'s limit.
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let config = bincode::config::legacy();
/// let bytes = bincode::serde::encode_to_vec((7u32, "seven"), config).unwrap();
/// let read: (u32, &str) = arena_core::bincode::from_reader_with_config(&bump, &bytes[..], config)?;
/// assert_eq!(read, (7, "seven"));
/// # Ok::<(), bincode::error::DecodeError>(())
/// ```
pub fn from_reader_with_config<'bump, T, A, R, C>(
    arena: &'bump A,
    reader: R,
    config: C,
) -> Result<T, DecodeError>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read,
    C: Config,
{
    from_reader_seed_with_config(ArenaSeed::new(arena), reader, config)
}

/// Deserializes a `T` with `seed` from the bincode message `reader` holds next, written with
/// the standard configuration, as [`from_reader`] does with the seed's settings.
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
/// // A string claiming 2^40 bytes, followed by three: with a string length limit, the claim
/// // fails before anything is read.
/// let mut input = vec![0xFD];
/// input.extend_from_slice(&(1u64 << 40).to_le_bytes());
/// input.extend_from_slice(b"abc");
/// let bump = bumpalo::Bump::new();
/// let seed = ArenaSeed::<&str, _>::new(&bump).with_limits(Limits::default().max_str_len(100));
/// let err = arena_core::bincode::from_reader_seed(seed, &input[..]).unwrap_err();
/// assert!(err.to_string().contains("string length limit of 100 bytes"), "{err}");
/// ```
pub fn from_reader_seed<'bump, T, A, R>(
    seed: ArenaSeed<'bump, T, A>,
    reader: R,
) -> Result<T, DecodeError>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read,
{
    from_reader_seed_with_config(seed, reader, config::standard())
}

/// Deserializes a `T` with `seed` from the bincode message `reader` holds next, written with
/// `config`, as [`from_reader_with_config`] does with the seed's settings.
///
/// # Errors
///
/// As [`from_reader_with_config`], and when the value breaks the seed's limits.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, Limits};
///
/// let bump = bumpalo::Bump::new();
/// let config = bincode::config::legacy();
/// let bytes = bincode::serde::encode_to_vec(vec!["a", "bc", "def"], config).unwrap();
/// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
/// let err = arena_core::bincode::from_reader_seed_with_config(seed, &bytes[..], config);
/// assert!(err.unwrap_err().to_string().contains("sequence length limit of 2 elements"));
/// ```
pub fn from_reader_seed_with_config<'bump, T, A, R, C>(
    seed: ArenaSeed<'bump, T, A>,
    reader: R,
    config: C,
) -> Result<T, DecodeError>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read,
    C: Config,
{
    let mut decoder = OwnedSerdeDecoder::from_reader(IoReader(reader), config);
    seed.reading_from(Input::ByteSeq)
        .deserialize(decoder.as_deserializer())
}
