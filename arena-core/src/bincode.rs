//! One-call bincode entry points (feature `bincode`): a message in a `&[u8]` read into an
//! arena with [bincode] 2 in its serde mode.
//!
//! [`from_slice`] reads one `T` with bincode's standard configuration
//! ([`bincode::config::standard`]), [`from_slice_with_config`]
//! with another (it must match the one the message was written with). Both read with
//! [`ArenaSeed::str_as_bytes`] on: bincode writes a string as its bytes, so the arena reads it
//! as bytes and checks its UTF-8 itself, faster than the format does (invalid UTF-8 is still an
//! error). Like `bincode::serde::decode_from_slice`, they read the value from the front of
//! `input` and accept bytes after it; that helper returns how many bytes it read, these return
//! only the value (`bincode::serde::seed_decode_from_slice` with an [`ArenaSeed`] returns
//! both). Errors are [`bincode::error::DecodeError`].
//!
//! [`from_slice_seed`] and [`from_slice_seed_with_config`] do the same with a seed the caller
//! configured ([`ArenaSeed::with_limits`] for untrusted input, [`ArenaSeed::with_trust`] for a
//! stream of messages); they turn `str_as_bytes` on only if the seed leaves it unset.
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
//! # Ok::<(), bincode::error::DecodeError>(())
//! ```

use ::bincode::config::{self, Config};
use ::bincode::error::DecodeError;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::seed::ArenaSeed;

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
    let seed = seed.str_as_bytes_unless_set(true);
    ::bincode::serde::seed_decode_from_slice(seed, input, config).map(|(value, _read)| value)
}
