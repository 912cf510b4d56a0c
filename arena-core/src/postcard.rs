//! One-call postcard entry point (feature `postcard`): a message in a `&[u8]` read into an
//! arena with [postcard].
//!
//! [`from_bytes`] reads one `T` with [`ArenaSeed::str_as_bytes`] on: postcard writes a string
//! as its bytes, so the arena reads it as bytes and checks its UTF-8 itself, faster than the
//! format does (invalid UTF-8 is still an error). Like `postcard::from_bytes`, it reads the
//! value from the front of `input` and ignores the bytes after it: trailing input is not an
//! error. Errors are [`postcard::Error`].
//!
//! [`from_bytes_seed`] does the same with a seed the caller configured
//! ([`ArenaSeed::with_limits`] for untrusted input, [`ArenaSeed::with_trust`] for a stream of
//! messages); it turns `str_as_bytes` on only if the seed leaves it unset.
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
//! # Ok::<(), postcard::Error>(())
//! ```

use ::postcard::{Deserializer, Error};
use serde::de::DeserializeSeed;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::seed::ArenaSeed;

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
    let seed = seed.str_as_bytes_unless_set(true);
    seed.deserialize(&mut Deserializer::from_bytes(input))
}
