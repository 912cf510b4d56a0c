//! The `json_reader` property: `arena_core::json::from_reader` over a reader that hands out
//! the input in chunks of arbitrary sizes reads what `arena_core::json::from_slice` reads on
//! the same bytes, and on bytes it refuses gives serde_json's error (category, line and column)
//! as serde_json reads the same type from a reader; an input no longer than the bytes read
//! whole is read as a slice, and gives `from_slice`'s error.
//!
//! The input's first byte says how many of the next bytes are chunk sizes (each from 1 to
//! 256), and how many bytes are read whole before the window (0 to 15: the bound that is
//! `WHOLE_INPUT_MAX` for `from_reader`); the rest is the JSON. The window refills where the chunks end, so the sizes put the
//! refills anywhere in the text. `arena_core::Value` and the fuzz document type are read, into
//! a bumpalo `Bump` and into a `SlabArena` (whose short-string copy reads the bytes before a
//! string).

use core::fmt::Debug;
use std::io;

use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator, Value};
use arena_tests::probe::with_large_stack;
use serde::de::DeserializeSeed;

use crate::Doc;

/// A reader that hands out its text in chunks of the sizes it cycles through.
struct Chunks<'a> {
    text: &'a [u8],
    sizes: &'a [u8],
    next: usize,
}

impl io::Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = match self.sizes {
            [] => usize::MAX,
            sizes => usize::from(sizes[self.next % sizes.len()]) + 1,
        };
        self.next += 1;
        let n = size.min(buf.len()).min(self.text.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

/// Checks the property on `data`; panics (a finding) when it does not hold.
pub fn check(data: &[u8]) {
    let Some((&count, rest)) = data.split_first() else {
        return;
    };
    let (sizes, bytes) = rest.split_at(usize::from(count % 16).min(rest.len()));
    let whole = usize::from(count / 16);
    with_large_stack(|| {
        reads_alike(&bumpalo::Bump::new(), bytes, sizes, whole);
        reads_alike(&arena_core::SlabArena::new(), bytes, sizes, whole);
    });
}

/// `Value` and the fuzz document type read from `bytes` in chunks of `sizes`, `whole` bytes
/// read whole.
fn reads_alike<A: BumpAllocator>(arena: &A, bytes: &[u8], sizes: &[u8], whole: usize) {
    read_alike::<Value<'_>, A>(arena, bytes, sizes, whole, "Value");
    read_alike::<Doc<'_>, A>(arena, bytes, sizes, whole, "Doc");
}

/// A `T` read from `bytes` in chunks of `sizes` into `arena`, against `from_slice` for the
/// value and serde_json's reader for the error.
fn read_alike<'a, T, A>(arena: &'a A, bytes: &[u8], sizes: &[u8], whole: usize, what: &str)
where
    T: ArenaDeserialize<'a, A> + Debug,
    A: BumpAllocator,
{
    let read: Result<T, _> = arena_core::json::__from_reader_seed_whole_max(
        ArenaSeed::new(arena),
        Chunks {
            text: bytes,
            sizes,
            next: 0,
        },
        whole,
    );
    let sliced: Result<T, _> = arena_core::json::from_slice(arena, bytes);
    match (read, sliced) {
        (Ok(read), Ok(sliced)) => assert_eq!(
            format!("{read:?}"),
            format!("{sliced:?}"),
            "{what} reads {bytes:02x?} in chunks of {sizes:?} ({whole} whole) differently"
        ),
        // An input read whole is read as a slice: its error is from_slice's.
        (Err(read), Err(sliced)) if bytes.len() <= whole => {
            let at = |e: &serde_json::Error| (e.classify(), e.line(), e.column());
            assert_eq!(
                at(&read),
                at(&sliced),
                "{what} refuses {bytes:02x?} read whole otherwise ({read} / {sliced})"
            );
        }
        (Err(read), Err(_)) => {
            let mut de = serde_json::Deserializer::from_reader(bytes);
            let theirs = ArenaSeed::<T, A>::new(arena)
                .deserialize(&mut de)
                .and_then(|v| de.end().map(|()| v))
                .expect_err("serde_json refuses what from_slice refuses");
            let at = |e: &serde_json::Error| (e.classify(), e.line(), e.column());
            // The one documented difference: a key its struct refuses, followed by a syntax
            // error, is that syntax error, on the key's line at or after serde_json's column.
            let refused_key = ["duplicate field", "unknown field"]
                .iter()
                .any(|m| theirs.to_string().starts_with(m));
            if refused_key
                && read.is_syntax()
                && read.line() == theirs.line()
                && read.column() >= theirs.column()
            {
                return;
            }
            assert_eq!(
                at(&read),
                at(&theirs),
                "{what} refuses {bytes:02x?} in chunks of {sizes:?} ({whole} whole) otherwise ({read} / {theirs})"
            );
        }
        (read, sliced) => panic!(
            "{what} reads {bytes:02x?} in chunks of {sizes:?} as {read:?}, from a slice {sliced:?}"
        ),
    }
}
