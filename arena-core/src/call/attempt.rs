//! [`attempt`]: one try at reading a buffered input inside a call, undone when it fails, so that
//! trying one variant after another leaves only the one that matched in the arena.

use core::{fmt, ptr};

use serde::de::Error;

use super::with;
use crate::allocator::BumpAllocator;
use crate::exhaustion;

/// The error type an attempt reads with: it records nothing, so a variant that does not match
/// costs no message (serde_derive's untagged enums build the format's error for every variant
/// that fails, and throw it away). Not public API.
///
/// Its `Display` says only that an attempt failed: [`attempt`] never hands it on, it builds the
/// format's error for the one failure that ends the read (see there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttemptError(());

impl fmt::Display for AttemptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attempt failed")
    }
}

impl std::error::Error for AttemptError {}

impl Error for AttemptError {
    /// Records nothing: `msg` is never formatted.
    #[inline]
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Self(())
    }
}

/// Reads `input` with `read`, and undoes the read if it fails: the arena is rewound to where it
/// was before, and the bytes the read charged to the call's byte budget are the call's again.
/// A read that succeeds keeps everything: `Ok(Some(value))`.
///
/// A failed read is `Ok(None)` when the input is not what `read` reads (try the next variant),
/// and `Err` when the read ran out of what it may use: a limit hit or an allocation failure,
/// counted by the crate's `exhaustion` module, on the way. Another variant could not do better
/// with the same budget and arena, and the error to report is the limit's, not "data did not
/// match any variant". `read` fails with an [`AttemptError`], which holds no message: that
/// error is built here, in the format's error type `E`, from the last limit hit or allocation
/// failure the `exhaustion` module kept (the one `read` raised), with the message `read` would
/// have carried.
///
/// The derive's code for untagged enums (and for the variants marked `untagged`) calls it once
/// per variant on the same buffered input, so trying N variants never holds N copies in the
/// arena, nor counts them against the budget. An arena that cannot rewind
/// ([`BumpAllocator::checkpoint`] returns `None`, as bumpalo's does) keeps the bytes of a
/// failed read, and the budget keeps counting them: it bounds what the arena holds.
///
/// Not public API.
///
/// # What a caller must not do
///
/// Everything `read` allocates in `arena` is given back when it fails, so no reference into
/// those bytes may outlive the failure. `read` is a function pointer, not a closure: it
/// captures nothing, and the `input` it reads was made before the attempt began (for the
/// derive's untagged enums, a `ValueDeserializer`: a copy of a document in the thread's
/// buffer, made before the attempt, and only read). What is left to the caller:
/// - `read` must not store what it allocates anywhere but in its `Ok` value: not in a static
///   or a thread-local, not through `arena` (whose type the caller may have written);
/// - `arena` is the arena `read` allocates in: another arena would not be rewound, while the
///   budget would be given back.
///
/// The derive's generated `read`s keep both as far as the code they call does: they build
/// values only through `ArenaDeserialize` impls and the user's `deserialize_with` functions,
/// and return them. That is the trust [`ArenaSeed`] puts in the same code when it rewinds the
/// arena of a failed call.
///
/// [`ArenaSeed`]: crate::ArenaSeed
///
/// # Errors
///
/// The error of the limit hit or the allocation failure `read` ran into, after the rewind.
pub fn attempt<'bump, A, I, T, E>(
    arena: &'bump A,
    input: I,
    read: fn(&'bump A, I) -> Result<T, AttemptError>,
) -> Result<Option<T>, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    let exhausted = exhaustion::count();
    match rewound_on_failure(arena, input, read) {
        Ok(value) => Ok(Some(value)),
        Err(_) if exhaustion::count() != exhausted => Err(ran_out()),
        Err(_) => Ok(None),
    }
}

/// The format's error for the last limit hit or allocation failure on this thread.
#[cold]
fn ran_out<E: Error>() -> E {
    match exhaustion::last() {
        Some(what) => E::custom(what),
        // `count` moved, so `note` kept one: not reached.
        None => E::custom("the read ran out of what it may use"),
    }
}

/// `read(arena, input)`, undone when it fails: see [`attempt`].
fn rewound_on_failure<'bump, A, I, T>(
    arena: &'bump A,
    input: I,
    read: fn(&'bump A, I) -> Result<T, AttemptError>,
) -> Result<T, AttemptError>
where
    A: BumpAllocator + ?Sized,
{
    let Some(checkpoint) = arena.checkpoint() else {
        return read(arena, input);
    };
    let (frame, depth, bytes_left) =
        with(|cx| (cx.frame.get(), cx.depth.get(), cx.bytes_left.get()));
    let result = read(arena, input);
    if result.is_err() {
        with(|cx| {
            // Frames and levels opened inside `read` were closed when it returned (each lives
            // on its stack): the call in force is the one the attempt began in.
            debug_assert!(
                ptr::eq(cx.frame.get(), frame) && cx.depth.get() == depth,
                "an attempt ends in the call it began in"
            );
            // Inside one call the budget only shrinks: `bytes_left` is the larger.
            debug_assert!(
                cx.bytes_left.get() <= bytes_left,
                "an attempt's budget grew"
            );
            cx.bytes_left.set(bytes_left);
        });
        // SAFETY: `rewind`'s contract, point by point.
        // - The checkpoint is `arena`'s, taken above. The arena was not reset since (a reset
        //   needs `&mut`, and `arena` is borrowed for `'bump`), nor rewound to an earlier
        //   checkpoint: what rewinds inside `read` (an attempt nested in it, a call owning the
        //   arena that opened in it) rewinds to a checkpoint taken inside `read`, after this
        //   one; a call owning the arena further out rewinds only after this function returns.
        // - Nothing allocated after it is used again: `read` failed, so it returned no value;
        //   it captures nothing (a function pointer); its input was made before the checkpoint
        //   was taken, so what it refers to was allocated before it; its error is an `AttemptError`, which holds
        //   nothing; it stored no reference elsewhere (the caller's part, in the docs above);
        //   and everything it built on the way was dropped or forgotten on its own stack
        //   before it returned.
        unsafe { arena.rewind(checkpoint) };
    }
    result
}

#[cfg(test)]
mod tests {
    use core::pin::pin;

    use serde::de::Error as _;

    use super::super::frame::{CallFrame, Settings};
    use super::super::{bytes_left, charge, check_invariants};
    use serde::de::value::UnitDeserializer;

    use super::*;
    use crate::SlabArena;
    use crate::limits::Limits;

    type E = serde::de::value::Error;

    /// Charges and allocates `len` bytes, as a read does.
    fn take<A: BumpAllocator + ?Sized>(arena: &A, len: usize) -> Result<&str, AttemptError> {
        charge(len).map_err(crate::limits::LimitHit::into_de)?;
        arena
            .try_alloc_str(&"x".repeat(len))
            .map_err(crate::AllocError::into_de)
    }

    /// Opens `frame` as a call on `arena` with a budget of `max_bytes`, and returns an input to
    /// attempt reads on.
    fn open<A: BumpAllocator + ?Sized>(
        frame: core::pin::Pin<&CallFrame>,
        arena: &A,
        max_bytes: usize,
    ) -> UnitDeserializer<AttemptError> {
        frame
            .open::<E>(Settings {
                arena: arena.identity(),
                limits: Some(Limits::default().max_bytes(max_bytes)),
                str_as_bytes: None,
                input: None,
                either_form: None,
                input_len: None,
            })
            .unwrap();
        UnitDeserializer::new()
    }

    /// Attempts on `arena` inside a call with a budget of 10 000 bytes: what a failed one used
    /// is given back (to the arena if `rewinds`, and then to the budget), what a successful
    /// one used is kept, also when an attempt nested in it failed.
    fn attempts_on<A: BumpAllocator + ?Sized>(arena: &A, rewinds: bool) {
        let frame = pin!(CallFrame::new(None));
        let input = open(frame.into_ref(), arena, 10_000);
        let used = arena.stats().used_bytes;

        let failed: Result<Option<()>, E> = attempt(arena, input, |arena, _| {
            take(arena, 4000)?;
            Err(AttemptError::custom("no match"))
        });
        assert!(
            matches!(failed, Ok(None)),
            "a mismatch: the next may be tried"
        );
        if rewinds {
            assert_eq!(arena.stats().used_bytes, used, "rewound");
            assert_eq!(bytes_left(), 10_000, "given back");
        } else {
            assert!(arena.stats().used_bytes >= used + 4000, "kept");
            assert_eq!(bytes_left(), 6000, "still counted");
        }
        let left = bytes_left();

        let kept: Result<Option<usize>, E> = attempt(arena, input, |arena, input| {
            let inner: Result<Option<&str>, AttemptError> = attempt(arena, input, |arena, _| {
                take(arena, 3000)?;
                Err(AttemptError::custom("inner"))
            });
            assert!(matches!(inner, Ok(None)));
            take(arena, 1000).map(str::len)
        });
        assert_eq!(kept.unwrap(), Some(1000));
        let inner_kept = if rewinds { 0 } else { 3000 };
        assert_eq!(bytes_left(), left - 1000 - inner_kept);
        check_invariants();
    }

    /// An attempt that hits the byte limit fails with the limit's error, not as a mismatch,
    /// and is rewound all the same.
    fn exhausted_attempt_on<A: BumpAllocator + ?Sized>(arena: &A) {
        let frame = pin!(CallFrame::new(None));
        let input = open(frame.into_ref(), arena, 1000);
        let used = arena.stats().used_bytes;
        let hit: Result<Option<()>, E> = attempt(arena, input, |arena, _| {
            take(arena, 600)?;
            charge(600).map_err(crate::limits::LimitHit::into_de)?;
            Err(AttemptError::custom("not reached"))
        });
        assert_eq!(
            hit.unwrap_err().to_string(),
            "arena byte limit of 1000 bytes exceeded"
        );
        if arena.checkpoint().is_some() {
            assert_eq!(arena.stats().used_bytes, used, "rewound");
            assert_eq!(bytes_left(), 1000, "given back");
        }
        check_invariants();
    }

    /// A message whose formatting fails the test.
    struct NeverFormatted;

    impl fmt::Display for NeverFormatted {
        fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
            panic!("a mismatch was formatted")
        }
    }

    #[test]
    fn a_mismatch_formats_no_message() {
        let arena = SlabArena::new();
        let frame = pin!(CallFrame::new(None));
        let input = open(frame.into_ref(), &arena, 10_000);
        let failed: Result<Option<()>, E> = attempt(&arena, input, |_, _| {
            Err(AttemptError::custom(NeverFormatted))
        });
        assert!(matches!(failed, Ok(None)));
        let failed: Result<Option<u8>, E> = attempt(&arena, input, |_, input| {
            serde::Deserialize::deserialize(input)
        });
        assert!(matches!(failed, Ok(None)), "a unit is no u8");
        check_invariants();
    }

    #[test]
    fn an_attempt_that_runs_out_fails_with_its_error() {
        exhausted_attempt_on(&SlabArena::new());
        #[cfg(feature = "bumpalo")]
        exhausted_attempt_on(&bumpalo::Bump::new());
        check_invariants();
    }

    #[test]
    fn a_failed_attempt_gives_back_what_it_used_on_an_arena_that_rewinds() {
        attempts_on(&SlabArena::new(), true);
        let bump: bump_scope::Bump = bump_scope::Bump::new();
        attempts_on(&bump, true);
        check_invariants();
    }

    #[cfg(feature = "bumpalo")]
    #[test]
    fn a_failed_attempt_keeps_its_bytes_counted_on_an_arena_that_cannot_rewind() {
        attempts_on(&bumpalo::Bump::new(), false);
        check_invariants();
    }
}
