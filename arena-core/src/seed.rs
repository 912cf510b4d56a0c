//! [`ArenaSeed`]: the serde `DeserializeSeed` that carries the arena.

use core::fmt;
use core::marker::PhantomData;
use core::pin::{Pin, pin};

use serde::de::{DeserializeSeed, Deserializer};

use crate::allocator::{BumpAllocator, Checkpoint};
use crate::arena_deserialize::ArenaDeserialize;
use crate::call::frame::{CallFrame, Settings};
use crate::call::strings::Input;
use crate::call::{self, trust::LengthTrust};
use crate::limits::Limits;

/// A [`DeserializeSeed`] that deserializes a `T` into an arena.
///
/// This is how a format is driven: `ArenaSeed::new(&arena).deserialize(&mut deserializer)`, the
/// same with every serde format. Inside a hand-written visitor, pass it to
/// `next_element_seed`, `next_value_seed` or `newtype_variant_seed`.
///
/// Nesting (sequences, maps, `&T`) counts against a depth limit (128 by default), so deeply
/// nested input is an error, not a stack overflow. A call also rewinds its arena when
/// deserialization fails, on arenas that can (see [`BumpAllocator::checkpoint`]): a failed call
/// leaves the arena's used bytes as they were.
/// - [`with_limits`](Self::with_limits) bounds what one call may do;
/// - [`str_as_bytes`](Self::str_as_bytes) reads the strings of postcard and bincode faster;
/// - [`with_trust`](Self::with_trust) carries what announced lengths proved from one document
///   of a stream to the next, so large sequences go straight into the arena.
///
/// For one document in a slice, the format modules (each behind a feature of its name, all
/// with `formats`) wrap this in one call with the fastest settings for the format:
/// `json::{from_str, from_slice}`, `postcard::from_bytes`,
/// `bincode::{from_slice, from_slice_with_config}`, `msgpack::from_slice` and
/// `cbor::from_slice`; each module's `from_reader` reads one from an `std::io::Read` instead,
/// with a small read buffer rather than the whole input. Their `*_seed` forms take a seed
/// configured here, for limits and trust.
///
/// A seed used inside a call (in a hand-written impl) is part of that call: its limits can only
/// tighten the call's, and its bytes count against the call's budget. A seed for another arena
/// is a call of its own on that arena, under the same limits, with a rewind of its own.
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
    call: CallSeed<'bump, A>,
    marker: PhantomData<fn() -> T>,
}

/// What an [`ArenaSeed`] asks of its call: everything but the type it reads, so that opening
/// and closing the call is compiled once per arena and error type, not once per `T`.
struct CallSeed<'bump, A: ?Sized> {
    arena: &'bump A,
    /// Limits this call installs; `None` keeps those in force (the defaults, or an enclosing
    /// call's).
    limits: Option<Limits>,
    /// Whether this call reads strings as bytes; `None` keeps the setting in force (off, or an
    /// enclosing call's).
    str_as_bytes: Option<bool>,
    /// What this call reads from ([`Input`]); `None` keeps what is in force (input that
    /// outlives the call, or an enclosing call's). Set only by the `from_reader` entry points.
    input: Option<Input>,
    /// Whether byte strings and maps are asked for in either form; `None` keeps what is in
    /// force (only the CBOR entry points set it).
    either_form: Option<bool>,
    /// Bytes of the slice this call reads, when known; `None` keeps what is in force (set only
    /// by the entry points that read a slice: announced lengths up to it are taken at their
    /// word, see `call::InputClaim`).
    input_len: Option<usize>,
    /// The trust this call starts with and hands on, if it is the first on its thread.
    trust: Option<&'bump LengthTrust>,
}

impl<'bump, T, A: ?Sized> ArenaSeed<'bump, T, A> {
    /// A seed that deserializes a `T` into `arena`.
    #[must_use]
    #[inline]
    pub const fn new(arena: &'bump A) -> Self {
        Self {
            call: CallSeed {
                arena,
                limits: None,
                str_as_bytes: None,
                input: None,
                either_form: None,
                input_len: None,
                trust: None,
            },
            marker: PhantomData,
        }
    }

    /// Bounds this call, and every value deserialized inside it, by `limits`.
    ///
    /// Inside another call (a seed in a hand-written impl), the limits in force are the
    /// intersection of `limits` and the call's ([`Limits::intersect`]), the depth counting from
    /// where this seed opens, and the bytes come out of what the call has left: a nested seed
    /// can only tighten its caller's limits.
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
        self.call.limits = Some(limits);
        self
    }

    /// With `on`, reads every string of this call (`&str`, and the arena strings of bumpalo and
    /// bump-scope) with `deserialize_bytes`, and checks its UTF-8 here rather than in the
    /// format; with `on == false`, reads them with `deserialize_str`. A seed that does not say
    /// keeps the setting of the call it is nested in (off outside any call), so a hand-written
    /// impl can switch it off for a part of the input written differently.
    ///
    /// Binary formats check a string's UTF-8 with `core::str::from_utf8`, which goes byte by
    /// byte through short strings and a character at a time through text above ASCII; here
    /// short ASCII strings are checked a word at a time, and the rest with SIMD (simdutf8),
    /// so a document of strings reads faster (arena-bench's postcard and bincode cells
    /// measure it). The value read and the inputs accepted are the same; invalid UTF-8 is still
    /// an error, serde's `invalid_value` from the visitor (worded by the format) instead of the
    /// format's own UTF-8 error.
    ///
    /// Only for formats that write a string exactly as a byte string:
    ///
    /// | format | with `str_as_bytes` |
    /// |---|---|
    /// | postcard, bincode | faster; the same values, and invalid UTF-8 is still an error |
    /// | MessagePack (the `msgpack` feature's reader, rmp-serde) | same values, no faster (they check UTF-8 before the visitor) |
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
        self.call.str_as_bytes = Some(on);
        self
    }

    /// Starts this call with the trust `trust` carries, and hands the call's trust back to it
    /// when it succeeds (the floor when it fails): see [`LengthTrust`].
    ///
    /// Without it, every call starts trusting announced lengths only up to a small floor
    /// (16 KiB), whatever ran before on the thread. Only the first call on a thread uses it: a
    /// seed nested in a call reads with the trust of that call, which reads the same input.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::{ArenaSeed, LengthTrust};
    /// use serde::de::DeserializeSeed;
    ///
    /// let trust = LengthTrust::new();
    /// let bytes = postcard::to_allocvec(&vec![7u32; 10_000]).unwrap();
    /// for _ in 0..2 {
    ///     let bump = bumpalo::Bump::new();
    ///     let seed = ArenaSeed::<&[u32], _>::new(&bump).with_trust(&trust);
    ///     let read = seed.deserialize(&mut postcard::Deserializer::from_bytes(&bytes))?;
    ///     assert_eq!(read.len(), 10_000);
    /// }
    /// assert_eq!(trust.bytes(), 2 * 40_000);
    /// # Ok::<(), postcard::Error>(())
    /// ```
    #[must_use]
    pub const fn with_trust(mut self, trust: &'bump LengthTrust) -> Self {
        self.call.trust = Some(trust);
        self
    }

    /// The arena values are built in.
    #[must_use]
    #[inline]
    pub const fn arena(&self) -> &'bump A {
        self.call.arena
    }

    /// This seed with [`str_as_bytes`](Self::str_as_bytes) set to `on` if the caller left it
    /// unset; a setting the caller chose stays. The format modules' fast settings go through
    /// here, so an explicit `str_as_bytes(false)` is kept.
    #[cfg(any(feature = "postcard", feature = "bincode"))]
    #[must_use]
    pub(crate) const fn str_as_bytes_unless_set(mut self, on: bool) -> Self {
        if self.call.str_as_bytes.is_none() {
            self.call.str_as_bytes = Some(on);
        }
        self
    }

    /// This seed reading from `input`: the `from_reader` entry points read with
    /// [`Input::Transient`] (or [`Input::ByteSeq`] for bincode), so that each string is copied
    /// once, from the format's buffer into the arena.
    #[cfg(any(
        feature = "json",
        feature = "postcard",
        feature = "bincode",
        feature = "msgpack",
        feature = "cbor"
    ))]
    #[must_use]
    pub(crate) const fn reading_from(mut self, input: Input) -> Self {
        self.call.input = Some(input);
        self
    }

    /// This seed asking for byte strings and maps in either form (see
    /// `call::strings::Strings::either_form`): the CBOR entry points read so.
    #[cfg(feature = "cbor")]
    #[must_use]
    pub(crate) const fn reading_either_form(mut self) -> Self {
        self.call.either_form = Some(true);
        self
    }

    /// This seed reading a slice of `len` bytes: the entry points of the formats that announce
    /// lengths (postcard, bincode, MessagePack, CBOR) read so, and an announced length up to
    /// `len` elements then goes straight into the arena without earned trust (see
    /// `call::InputClaim`).
    #[cfg(any(
        feature = "postcard",
        feature = "bincode",
        feature = "msgpack",
        feature = "cbor"
    ))]
    #[must_use]
    pub(crate) const fn reading_slice(mut self, len: usize) -> Self {
        self.call.input_len = Some(len);
        self
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
            .field("limits", &self.call.limits)
            .field("str_as_bytes", &self.call.str_as_bytes)
            .field("input", &self.call.input)
            .field("either_form", &self.call.either_form)
            .field("input_len", &self.call.input_len)
            .field("trust", &self.call.trust)
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
        self.read_with(|arena| T::deserialize_in(arena, deserializer))
    }
}

impl<'bump, T, A> ArenaSeed<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    /// Runs `read`, which reads one `T` into the arena it is given, inside a call with this
    /// seed's settings: what [`deserialize`](DeserializeSeed::deserialize) does with
    /// [`ArenaDeserialize::deserialize_in`], and an entry point with a read of its own (the
    /// JSON reader's direct path for a [`Value`](crate::Value)).
    #[inline]
    pub(crate) fn read_with<E: serde::de::Error>(
        self,
        read: impl FnOnce(&'bump A) -> Result<T, E>,
    ) -> Result<T, E> {
        let call = self.call;
        if call.joins_open_call() {
            return read(call.arena);
        }
        let frame = pin!(CallFrame::new(call.trust));
        let frame = frame.into_ref();
        let opened = call.open::<E>(frame)?;
        let result = read(call.arena);
        call.close(frame, opened, result.is_ok());
        result
    }
}

/// A call opened by [`CallSeed::open`], for [`CallSeed::close`].
struct Opened {
    /// Where to rewind the arena to if the read fails: taken when the call owns its arena (no
    /// call on it is open further out) and the arena can rewind.
    checkpoint: Option<Checkpoint>,
}

impl<A: BumpAllocator + ?Sized> CallSeed<'_, A> {
    /// Whether the read is part of the call open on the same arena (a field, an element), with
    /// nothing of its own to set: one thread-local load, and no call of its own to open.
    #[inline]
    fn joins_open_call(&self) -> bool {
        self.limits.is_none()
            && self.str_as_bytes.is_none()
            && self.input.is_none()
            && self.either_form.is_none()
            && self.input_len.is_none()
            && self.trust.is_none()
            && call::is_open_on(self.arena.identity())
    }

    /// Opens a call (see the `call` module) in `frame`: the first on its arena, or one with
    /// settings of its own. Takes the arena's checkpoint if the call owns it.
    ///
    /// # Errors
    ///
    /// The nesting depth limit (see `CallFrame::open`); nothing opened then.
    #[inline]
    fn open<E: serde::de::Error>(&self, frame: Pin<&CallFrame<'_>>) -> Result<Opened, E> {
        let owns_arena = frame.open::<E>(Settings {
            arena: self.arena.identity(),
            limits: self.limits,
            str_as_bytes: self.str_as_bytes,
            input: self.input,
            either_form: self.either_form,
            input_len: self.input_len,
        })?;
        let checkpoint = if owns_arena {
            self.arena.checkpoint()
        } else {
            None
        };
        Ok(Opened { checkpoint })
    }

    /// Ends the read of the call `opened` in `frame` (by [`open`](Self::open) on this seed,
    /// with the read in between): marks the call succeeded, or rewinds the arena if the call
    /// owns it and the read failed. The frame closes when dropped.
    #[inline]
    fn close(&self, frame: Pin<&CallFrame<'_>>, opened: Opened, succeeded: bool) {
        match (succeeded, opened.checkpoint) {
            (true, _) => frame.succeeded(),
            // SAFETY: the checkpoint is this arena's, taken by `open` with nothing reset since
            // (a reset needs `&mut`, and the arena is borrowed for `'bump`). Everything
            // allocated after it belongs to the failed call: no call on this arena is open
            // further out (the frame owns it), calls nested in this one never rewind past it,
            // the error cannot hold arena references (serde builds errors from messages), and
            // the partial values were dropped or leaked on the way out, so nothing allocated
            // after it is used again.
            (false, Some(checkpoint)) => unsafe { self.arena.rewind(checkpoint) },
            (false, None) => {}
        }
    }
}

impl<A: ?Sized> Clone for CallSeed<'_, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: ?Sized> Copy for CallSeed<'_, A> {}
