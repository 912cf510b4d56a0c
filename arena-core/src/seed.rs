//! [`ArenaSeed`]: the serde `DeserializeSeed` that carries the arena.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{DeserializeSeed, Deserializer};

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::impls::str::StrAsBytes;
use crate::limits::{self, Installed, Level, Limits};

/// A [`DeserializeSeed`] that deserializes a `T` into an arena.
///
/// This is how a format is driven: `ArenaSeed::new(&arena).deserialize(&mut deserializer)`, the
/// same with every serde format. Inside a hand-written visitor, pass it to
/// `next_element_seed`, `next_value_seed` or `newtype_variant_seed`.
///
/// Nesting (sequences, maps, `&T`) counts against a depth limit (128 by default), so deeply
/// nested input is an error, not a stack overflow. The outermost seed on a thread also rewinds
/// the arena when deserialization fails, on arenas that can (see
/// [`BumpAllocator::checkpoint`]): a failed call leaves the arena's used bytes as they were.
/// [`with_limits`](Self::with_limits) bounds what one call may do;
/// [`str_as_bytes`](Self::str_as_bytes) reads the strings of postcard and bincode faster.
///
/// # Examples
///
/// ```
/// use arena_core::ArenaSeed;
/// use serde::de::DeserializeSeed;
///
/// let bump = bumpalo::Bump::new();
/// let bytes = postcard::to_allocvec(&vec!["a".to_owned(), "bc".to_owned()]).unwrap();
/// let mut de = postcard::Deserializer::from_bytes(&bytes);
/// let words: &[&str] = ArenaSeed::new(&bump).deserialize(&mut de)?;
/// assert_eq!(words, ["a", "bc"]);
/// # Ok::<(), postcard::Error>(())
/// ```
pub struct ArenaSeed<'bump, T, A: ?Sized> {
    arena: &'bump A,
    /// Limits this call installs; `None` keeps those in force (the defaults, or an enclosing
    /// call's).
    limits: Option<Limits>,
    /// Whether this call reads strings as bytes; `None` keeps the setting in force (off, or an
    /// enclosing call's).
    str_as_bytes: Option<bool>,
    marker: PhantomData<fn() -> T>,
}

impl<'bump, T, A: ?Sized> ArenaSeed<'bump, T, A> {
    /// A seed that deserializes a `T` into `arena`.
    #[must_use]
    #[inline]
    pub const fn new(arena: &'bump A) -> Self {
        Self {
            arena,
            limits: None,
            str_as_bytes: None,
            marker: PhantomData,
        }
    }

    /// Bounds this call, and every value deserialized inside it, by `limits`.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::{ArenaSeed, Limits};
    /// use serde::de::DeserializeSeed;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
    /// let err = seed.deserialize(&mut serde_json::Deserializer::from_str(r#"["a", "b", "c"]"#));
    /// assert!(err.unwrap_err().to_string().contains("sequence length limit of 2 elements"));
    /// ```
    #[must_use]
    pub const fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// With `on`, reads every string of this call (`&str`, and the arena strings of bumpalo and
    /// bump-scope) with `deserialize_bytes`, and checks its UTF-8 here rather than in the
    /// format; with `on == false`, reads them with `deserialize_str`. A seed that does not say
    /// keeps the setting of the call it is nested in (off outside any call), so a hand-written
    /// impl can switch it off for a part of the input written differently.
    ///
    /// Binary formats check a string's UTF-8 with `core::str::from_utf8`, which goes byte by
    /// byte through short strings; here short ASCII strings are checked a word at a time, and
    /// the rest by `from_utf8`. On postcard this reads the same input in about a quarter fewer
    /// instructions (arena-bench's city of names and emails: 24.1M instead of 34.2M per
    /// document). The value read and the inputs accepted are the same; invalid UTF-8 is still
    /// an error, serde's `invalid_value` from the visitor (worded by the format) instead of the
    /// format's own UTF-8 error.
    ///
    /// Only for formats that write a string exactly as a byte string:
    ///
    /// | format | with `str_as_bytes` |
    /// |---|---|
    /// | postcard, bincode | faster; the same values, and invalid UTF-8 is still an error |
    /// | MessagePack (rmp-serde) | same values, no faster (it checks UTF-8 before the visitor) |
    /// | CBOR (cbor4ii) | fails: strings are not byte strings there |
    /// | JSON and other human-readable formats | ignored (their byte strings read differently) |
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::ArenaSeed;
    /// use serde::de::DeserializeSeed;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let bytes = postcard::to_allocvec(&("Ada", "ada@example.org")).unwrap();
    /// let seed = ArenaSeed::<(&str, &str), _>::new(&bump).str_as_bytes(true);
    /// let person = seed.deserialize(&mut postcard::Deserializer::from_bytes(&bytes))?;
    /// assert_eq!(person, ("Ada", "ada@example.org"));
    ///
    /// // Invalid UTF-8 is still an error.
    /// let seed = ArenaSeed::<&str, _>::new(&bump).str_as_bytes(true);
    /// assert!(seed.deserialize(&mut postcard::Deserializer::from_bytes(&[2, 0xC3, 0x28])).is_err());
    /// # Ok::<(), postcard::Error>(())
    /// ```
    #[must_use]
    pub const fn str_as_bytes(mut self, on: bool) -> Self {
        self.str_as_bytes = Some(on);
        self
    }

    /// The arena values are built in.
    #[must_use]
    #[inline]
    pub const fn arena(&self) -> &'bump A {
        self.arena
    }
}

impl<T, A: ?Sized> Clone for ArenaSeed<'_, T, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, A: ?Sized> Copy for ArenaSeed<'_, T, A> {}

impl<T, A: ?Sized> fmt::Debug for ArenaSeed<'_, T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArenaSeed")
            .field("type", &core::any::type_name::<T>())
            .field("limits", &self.limits)
            .field("str_as_bytes", &self.str_as_bytes)
            .finish_non_exhaustive()
    }
}

impl<'de, 'bump, T, A> DeserializeSeed<'de> for ArenaSeed<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    type Value = T;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        // Inside a call (a field, an element): one thread-local load, nothing else to do.
        if self.limits.is_none() && self.str_as_bytes.is_none() && limits::in_call() {
            return T::deserialize_in(self.arena, deserializer);
        }
        self.deserialize_call(deserializer)
    }
}

impl<'bump, T, A> ArenaSeed<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    /// The outermost seed of a call (or one installing limits or `str_as_bytes`): installs
    /// them, enters the first level, and rewinds the arena if the call fails.
    fn deserialize_call<'de, D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        // Declared first, dropped last: the limits stay installed until the level is left.
        let _installed = self.limits.map(Installed::new);
        let _str_as_bytes = self.str_as_bytes.map(StrAsBytes::install);
        let (_level, outermost) = Level::enter::<D::Error>()?;
        if !outermost {
            return T::deserialize_in(self.arena, deserializer);
        }
        let checkpoint = self.arena.checkpoint();
        let result = T::deserialize_in(self.arena, deserializer);
        limits::carry_trust(result.is_ok());
        if let (Err(_), Some(checkpoint)) = (&result, checkpoint) {
            // SAFETY: the checkpoint is this arena's, taken just above with nothing reset since
            // (a reset needs `&mut`, and the arena is borrowed for `'bump`). Everything allocated
            // after it belongs to the failed call: nested seeds never rewind, the error cannot
            // hold arena references (serde builds errors from messages), and the partial values
            // were dropped or leaked on the way out, so nothing allocated after it is used again.
            unsafe { self.arena.rewind(checkpoint) };
        }
        result
    }
}

/// The seed arena-core's own impls and the derive use for the values inside a value (fields,
/// elements, keys): it calls [`ArenaDeserialize::deserialize_in`] directly, skipping the check
/// [`ArenaSeed`] makes to know whether it is the outermost seed of a call (one thread-local
/// access per field otherwise). Not public API.
#[doc(hidden)]
pub struct NestedSeed<'bump, T, A: ?Sized> {
    arena: &'bump A,
    marker: PhantomData<fn() -> T>,
}

impl<'bump, T, A: ?Sized> NestedSeed<'bump, T, A> {
    /// A seed for a value nested in one being deserialized into `arena`.
    #[inline(always)]
    pub const fn new(arena: &'bump A) -> Self {
        Self {
            arena,
            marker: PhantomData,
        }
    }
}

impl<'de, 'bump, T, A> DeserializeSeed<'de> for NestedSeed<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    type Value = T;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize_in(self.arena, deserializer)
    }
}

impl<T, A: ?Sized> fmt::Debug for NestedSeed<'_, T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NestedSeed")
    }
}
