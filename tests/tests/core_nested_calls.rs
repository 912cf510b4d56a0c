//! Seeds used inside a call, as a hand-written impl uses them: on the same arena their limits
//! only tighten the call's and their bytes count against its budget; on another arena they are
//! a call of their own (a budget and a rewind of their own), under the same limits.

use std::cell::RefCell;
use std::fmt;
use std::marker::PhantomData;

use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator, Limits, SlabArena};
use arena_tests::Format;
use serde::Deserializer;
use serde::de::{SeqAccess, Visitor};

/// How a [`Parts`] reads each element.
trait ReadPart<'bump, A: BumpAllocator + ?Sized> {
    /// Reads one element of `seq`, if any.
    fn read<'de, S: SeqAccess<'de>>(arena: &'bump A, seq: &mut S) -> Result<Option<()>, S::Error>;
}

/// A sequence whose elements are read by `R` (the value read is the count).
struct Parts<R>(usize, PhantomData<R>);

impl<'bump, A, R> ArenaDeserialize<'bump, A> for Parts<R>
where
    A: BumpAllocator + ?Sized,
    R: ReadPart<'bump, A>,
{
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        struct V<'bump, A: ?Sized, R>(&'bump A, PhantomData<R>);
        impl<'de, 'bump, A: BumpAllocator + ?Sized, R: ReadPart<'bump, A>> Visitor<'de> for V<'bump, A, R> {
            type Value = Parts<R>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Parts<R>, S::Error> {
                let mut n = 0;
                while R::read(self.0, &mut seq)?.is_some() {
                    n += 1;
                }
                Ok(Parts(n, PhantomData))
            }
        }
        deserializer.deserialize_seq(V(arena, PhantomData))
    }
}

/// Reads each element as a `&str` in the same arena, with a seed that tries to lift every limit.
struct Loosened;

impl<'bump, A: BumpAllocator + ?Sized> ReadPart<'bump, A> for Loosened {
    fn read<'de, S: SeqAccess<'de>>(arena: &'bump A, seq: &mut S) -> Result<Option<()>, S::Error> {
        let lifted = Limits::default()
            .max_bytes(usize::MAX)
            .max_depth(1 << 20)
            .max_str_len(usize::MAX);
        let seed = ArenaSeed::<&str, _>::new(arena).with_limits(lifted);
        Ok(seq.next_element_seed(seed)?.map(drop))
    }
}

/// Reads each element as a `&str` in the same arena, at most 3 bytes long.
struct Tightened;

impl<'bump, A: BumpAllocator + ?Sized> ReadPart<'bump, A> for Tightened {
    fn read<'de, S: SeqAccess<'de>>(arena: &'bump A, seq: &mut S) -> Result<Option<()>, S::Error> {
        let seed = ArenaSeed::<&str, _>::new(arena).with_limits(Limits::default().max_str_len(3));
        Ok(seq.next_element_seed(seed)?.map(drop))
    }
}

std::thread_local! {
    /// The other arena [`IntoOther`] reads into.
    static OTHER: RefCell<SlabArena> = RefCell::new(SlabArena::new());
}

/// The other arena's used bytes.
fn other_used() -> usize {
    OTHER.with(|other| BumpAllocator::stats(&*other.borrow()).used_bytes)
}

/// Reads each element as a `&[&str]` into the thread's other arena, with a plain seed.
struct IntoOther;

impl<'bump, A: BumpAllocator + ?Sized> ReadPart<'bump, A> for IntoOther {
    fn read<'de, S: SeqAccess<'de>>(_: &'bump A, seq: &mut S) -> Result<Option<()>, S::Error> {
        OTHER.with(|other| {
            let other = other.borrow();
            let seed = ArenaSeed::<&[&str], SlabArena>::new(&*other);
            Ok(seq.next_element_seed(seed)?.map(drop))
        })
    }
}

/// Reads `json` as `Parts<R>` into `arena` with `limits`: the count, or the error.
fn read<R>(arena: &bumpalo::Bump, limits: Limits, json: &str) -> Result<usize, String>
where
    for<'bump> R: ReadPart<'bump, bumpalo::Bump>,
{
    let seed = ArenaSeed::<Parts<R>, _>::new(arena).with_limits(limits);
    let read = Format::Json.decode_seed(seed, json.as_bytes());
    arena_core::__private::check_call_invariants();
    read.map(|parts| parts.0)
}

/// A JSON array of `n` strings of `len` bytes.
fn strings(n: usize, len: usize) -> String {
    let one = format!("\"{}\"", "x".repeat(len));
    format!("[{}]", vec![one; n].join(","))
}

#[test]
fn a_nested_seed_on_the_same_arena_cannot_escape_the_budget() {
    let bump = bumpalo::Bump::new();
    let limits = Limits::default().max_bytes(1000);
    assert_eq!(read::<Loosened>(&bump, limits, &strings(2, 400)), Ok(2));
    // The third 400 bytes go past the caller's 1,000 whatever the nested seed asked for.
    let e = read::<Loosened>(&bump, limits, &strings(3, 400)).unwrap_err();
    assert!(e.contains("arena byte limit of 1000 bytes exceeded"), "{e}");
}

#[test]
fn a_nested_seed_on_the_same_arena_cannot_loosen_the_other_limits() {
    let bump = bumpalo::Bump::new();
    let e =
        read::<Loosened>(&bump, Limits::default().max_str_len(10), &strings(1, 11)).unwrap_err();
    assert!(
        e.contains("string length limit of 10 bytes exceeded"),
        "{e}"
    );
}

#[test]
fn a_nested_seed_can_tighten_the_limits_for_its_part() {
    let bump = bumpalo::Bump::new();
    assert_eq!(
        read::<Tightened>(&bump, Limits::default(), r#"["abc", "def"]"#),
        Ok(2)
    );
    let e = read::<Tightened>(&bump, Limits::default(), r#"["abc", "defg"]"#).unwrap_err();
    assert!(e.contains("string length limit of 3 bytes exceeded"), "{e}");
}

#[test]
fn a_seed_on_another_arena_is_a_call_of_its_own() {
    let bump = bumpalo::Bump::new();
    let limits = Limits::default().max_bytes(600);
    // Each element is a call on the other arena, with a budget of its own under the caller's
    // limit: 3 x 400 bytes there, nothing charged here.
    let used = other_used();
    let json = format!("[{0},{0},{0}]", strings(1, 400));
    assert_eq!(read::<IntoOther>(&bump, limits, &json), Ok(3));
    assert!(other_used() >= used + 1200);
    // The caller's limit is in force there too.
    let e = read::<IntoOther>(&bump, limits, &format!("[{}]", strings(1, 700))).unwrap_err();
    assert!(e.contains("arena byte limit of 600 bytes exceeded"), "{e}");
}

#[test]
fn a_failed_call_on_another_arena_rewinds_that_arena() {
    let bump = bumpalo::Bump::new();
    let used = other_used();
    // The other arena reads two strings, then fails on a number.
    let e = read::<IntoOther>(&bump, Limits::default(), r#"[["abc", "def", 1]]"#).unwrap_err();
    assert!(e.contains("invalid type"), "{e}");
    assert_eq!(other_used(), used, "the other arena is back where it was");
}
