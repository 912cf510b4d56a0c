//! One-call JSON entry points (feature `json`): a document in a `&str` or `&[u8]`, or read from
//! a [`std::io::Read`], read into an arena.
//!
//! [`from_str`] and [`from_slice`] read one `T` with [`ArenaSeed::new`] and no settings of its
//! own (JSON strings are text, so [`ArenaSeed::str_as_bytes`] does not apply) through the
//! crate's own JSON reader, which reads what `serde_json::from_slice` reads: the same documents
//! accepted, the same visitor calls, the same values. It follows serde_json's `Deserializer`
//! method by method (128 levels of nesting, keys read as numbers or booleans when a number or a
//! bool is asked for, enums as a string or an object of one entry), scans a string's plain run
//! and a run of whitespace 16 bytes at a time (SSE2 on x86_64 and NEON on aarch64, both part of
//! every CPU of their architecture; `simd128` on wasm32 when the build enables it; a `u64` at a
//! time elsewhere), checks text above ASCII for UTF-8 with simdutf8, borrows strings without
//! escapes from the input, and reads a float as
//! serde_json with its `float_roundtrip` feature does, correctly rounded (one multiplication
//! or division when the digits and the power of ten are exact in an `f64`, else the
//! Eisel-Lemire algorithm, else the standard library's parser). arena-core does not turn that
//! feature on for the program: without it serde_json reads a few floats of more than 15 digits
//! one unit in the last place away, and faster.
//!
//! A [`Value`](crate::Value) read by these entry points is built straight from the text, each
//! node where it goes, with no visitor in between; it is the value the visitor path reads,
//! under the same limits. So is a derived struct with named fields (see the derive's docs): it
//! reads its object entry by entry, recognizing the entry it expects next by comparing it, as
//! a compact serializer writes it (`,"name":`), with the bytes of the input, and its fields
//! (integers, `f64`, strings, options, slices, tuples, structs) with their own direct paths.
//! A string that a `&str` or a `Value` keeps is copied into the arena; into a
//! [`SlabArena`](crate::SlabArena), a plain ASCII string of up to 32 bytes is copied as the 32
//! bytes of input that end with it, written just below the arena's cursor and kept at its
//! length, so the copy has no branch on the length.
//!
//! The reader's errors carry nothing: a document it refuses is read again by serde_json, whose
//! value or error is the answer. Errors are [`serde_json::Error`] with serde_json's message,
//! line and column, and an invalid document costs a second read. After the value, the input
//! may hold only whitespace; anything else is an error, as `serde_json::from_str` and
//! `serde_json::from_slice` report it.
//!
//! [`from_reader`] reads the same document from a reader, of any size, with the crate's reader. An
//! input of up to [`WHOLE_INPUT_MAX`] bytes (64 MiB) is read whole and read as a slice, which is
//! the faster of the two. A longer one is read over a window of the stream that the reader refills
//! when it reaches the window's end: the bytes read whole, then windows of [`WINDOW_SIZE`] (256
//! KiB), the buffer shrinking to that once the reader is past them. A window ends just after a `,`,
//! `:`, `[` or `{` outside any string (a scan of the bytes read follows the strings), so the reader
//! refills only between two tokens and every string, number, escape, literal and key it reads lies
//! whole in one window; the 32 bytes before the reading position stay, for the short-string copy. A
//! run of input with no such byte in it that is longer than the window (one huge string, a long
//! number, a long run of whitespace) grows the buffer to hold it whole, so the call holds the
//! arena, plus a window and the longest such run. Nothing borrowed from a window outlives a refill:
//! strings reach visitors as temporary (`visit_str`) and every string a value keeps is copied into
//! the arena. The reader reads what it reads from a slice: the same documents accepted and refused,
//! the same values.
//!
//! An input the reader refuses cannot be read again from its start, so its error is found from
//! the start of the window: serde_json reads, after a prefix that opens the arrays and objects
//! open there and puts it at the same line and column of the stream, up to the end of the
//! token the reader refused. A syntax or end-of-input error it meets there is the answer, with
//! serde_json's message and the line and column of the whole stream. Where it meets none, the
//! value refused the token (a type that does not match, a limit): the error is of category
//! `Data`, at the line and column where serde_json places a value's error (after the token),
//! with the limit's message when the read broke one, else a message that does not name the
//! type. An I/O error is an error of category `Io`, and is
//! the answer even when the text read before it is already no JSON (the window reads ahead).
//! The input is read to its end, as `serde_json::from_reader` reads it (only whitespace may
//! follow the value). A failed call rewinds the arena, as the slice entry points do.
//!
//! A stream of documents (JSON Lines, concatenated or whitespace-separated values) is read
//! with [`SliceStream`] from a slice and [`ReaderStream`] from a reader, through a window of the
//! input: each document with the crate's reader, into the arena the caller passes for it (see
//! [`DocumentStream`](crate::DocumentStream) for the loops), item by item as serde_json's
//! `StreamDeserializer` reads them.
//!
//! [`from_str_seed`], [`from_slice_seed`] and [`from_reader_seed`] do the same with a seed the
//! caller configured:
//! [`ArenaSeed::with_limits`] for untrusted input, [`ArenaSeed::with_trust`] for a stream of
//! documents.
//!
//! # Examples
//!
//! ```
//! let bump = bumpalo::Bump::new();
//! let cities: &[(&str, u32)] =
//!     arena_core::json::from_str(&bump, r#"[["Paris", 2148000], ["Lyon", 522000]]"#)?;
//! assert_eq!(cities, [("Paris", 2148000), ("Lyon", 522000)]);
//!
//! // Trailing whitespace is accepted, anything else is not.
//! assert!(arena_core::json::from_str::<&str, _>(&bump, "\"a\"  \n").is_ok());
//! assert!(arena_core::json::from_str::<&str, _>(&bump, "\"a\" \"b\"").is_err());
//!
//! // From a reader, the same.
//! let text = br#"[["Paris", 2148000], ["Lyon", 522000]]"#;
//! let read: &[(&str, u32)] = arena_core::json::from_reader(&bump, &text[..])?;
//! assert_eq!(read, cities);
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::io::{self, Read as _};

use ::serde_json::de::Read;
use ::serde_json::{Deserializer, Error};
use serde::de::DeserializeSeed;

mod deserializer;
mod direct;
mod document_end;
mod eisel_lemire;
mod map_access;
#[cfg(target_arch = "aarch64")]
mod neon_mask;
mod number;
mod pow5;
mod reader_stream;
mod refused;
mod scan;
mod seq_access;
mod slice_stream;
mod stream_document;
mod stream_error;
mod string;
mod value;
mod variant_access;
mod whitespace;
mod window;

pub use window::WINDOW_SIZE;

#[doc(hidden)]
pub use deserializer::Deserializer as Reader;
pub(crate) use direct::Array;
#[doc(hidden)]
pub use direct::{Fields, Object};
pub use reader_stream::{DEFAULT_WINDOW, ReaderStream};
#[doc(hidden)]
pub use refused::Refused;
pub use slice_stream::SliceStream;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::call;
use crate::call::strings::Input;
use crate::seed::ArenaSeed;

/// Deserializes a `T` into `arena` from the JSON text `input`.
///
/// # Errors
///
/// A [`serde_json::Error`] when `input` is not JSON, does not hold a `T`,
/// holds more than whitespace after it, or breaks the default [`Limits`](crate::Limits).
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let tags: &[&str] = arena_core::json::from_str(&bump, r#"["a", "bc"]"#)?;
/// assert_eq!(tags, ["a", "bc"]);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_str<'bump, T, A>(arena: &'bump A, input: &str) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    from_str_seed(ArenaSeed::new(arena), input)
}

/// Deserializes a `T` into `arena` from the JSON bytes `input`.
///
/// # Errors
///
/// A [`serde_json::Error`] when `input` is not JSON (invalid UTF-8
/// included), does not hold a `T`, holds more than whitespace after it, or breaks the default
/// [`Limits`](crate::Limits).
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let point: (i32, i32) = arena_core::json::from_slice(&bump, b"[3, -4]")?;
/// assert_eq!(point, (3, -4));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_slice<'bump, T, A>(arena: &'bump A, input: &[u8]) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    from_slice_seed(ArenaSeed::new(arena), input)
}

/// Deserializes a `T` with `seed` from the JSON text `input`, as [`from_str`] does with the
/// seed's limits and trust.
///
/// # Errors
///
/// As [`from_str`], and when the value breaks the seed's limits.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, Limits};
///
/// let bump = bumpalo::Bump::new();
/// let seed = ArenaSeed::<&[&str], _>::new(&bump).with_limits(Limits::default().max_len(2));
/// let err = arena_core::json::from_str_seed(seed, r#"["a", "b", "c"]"#).unwrap_err();
/// assert!(err.to_string().contains("sequence length limit of 2 elements"));
/// ```
pub fn from_str_seed<'bump, T, A>(seed: ArenaSeed<'bump, T, A>, input: &str) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    read_slice(seed, input.as_bytes())
}

/// Deserializes a `T` with `seed` from the JSON bytes `input`, as [`from_slice`] does with the
/// seed's limits and trust.
///
/// # Errors
///
/// As [`from_slice`], and when the value breaks the seed's limits.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, LengthTrust, Limits};
///
/// let trust = LengthTrust::new();
/// for doc in [&b"[1, 2]"[..], b"[3, 4, 5]"] {
///     let bump = bumpalo::Bump::new();
///     let seed = ArenaSeed::<&[u32], _>::new(&bump)
///         .with_limits(Limits::default().max_len(1000))
///         .with_trust(&trust);
///     let numbers = arena_core::json::from_slice_seed(seed, doc)?;
///     assert!(numbers.len() >= 2);
/// }
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_slice_seed<'bump, T, A>(seed: ArenaSeed<'bump, T, A>, input: &[u8]) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    read_slice(seed, input)
}

/// Deserializes a `T` into `arena` from the JSON text `reader` holds, to its end.
///
/// An input of up to [`WHOLE_INPUT_MAX`] bytes is read whole, then with the crate's reader as
/// [`from_slice`] reads it. A longer one is read with the crate's reader too, through a window
/// that it refills from `reader`: the bytes read whole are the first window, then windows of
/// [`WINDOW_SIZE`] bytes, so the call holds the arena and one window, not the file (the bytes
/// read whole only until the reader is past them). A run of text with no `,`, `:`, `[` or `{` outside
/// a string in it that is longer than the window (one huge string, say) grows the window to
/// hold it. `reader` needs no `BufReader` (see the module docs).
///
/// # Errors
///
/// A [`serde_json::Error`] when the input is not JSON (invalid UTF-8 included), does not hold
/// a `T`, holds more than whitespace after it, or breaks the default
/// [`Limits`](crate::Limits), at the line and column of the whole stream; one of category `Io`
/// when `reader` fails. A syntax error is serde_json's own; a value's (a `T` the text does not
/// hold, a limit) is of category `Data` with a message that does not name the type. Past
/// [`WHOLE_INPUT_MAX`] one error differs from serde_json's: a key that a struct refuses (a
/// duplicate, or one it denies as unknown) followed by a syntax error (no `:`, or no value
/// after it) gives that syntax error, where serde_json gives the key's.
///
/// # Examples
///
/// ```
/// let bump = bumpalo::Bump::new();
/// let input = std::io::Cursor::new(r#"{"name": "Ada", "year": 1815}"#);
/// let map: &[(&str, arena_core::Value<'_>)] = arena_core::json::from_reader(&bump, input)?;
/// assert_eq!(map[0].0, "name");
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_reader<'bump, T, A, R>(arena: &'bump A, reader: R) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: io::Read,
{
    from_reader_seed(ArenaSeed::new(arena), reader)
}

/// Deserializes a `T` with `seed` from the JSON text `reader` holds, as [`from_reader`] does
/// with the seed's limits and trust.
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
/// let seed = ArenaSeed::<&str, _>::new(&bump).with_limits(Limits::default().max_str_len(3));
/// let err = arena_core::json::from_reader_seed(seed, &br#""long""#[..]).unwrap_err();
/// assert!(err.to_string().contains("string length limit of 3 bytes"), "{err}");
/// ```
pub fn from_reader_seed<'bump, T, A, R>(seed: ArenaSeed<'bump, T, A>, reader: R) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: io::Read,
{
    __from_reader_seed_whole_max(seed, reader, WHOLE_INPUT_MAX)
}

/// The longest input [`from_reader`] reads whole, then as a slice: 64 MiB. A longer one is read
/// through a window refilled from the reader: the bytes read whole are its first window, then
/// windows of [`WINDOW_SIZE`] bytes.
pub const WHOLE_INPUT_MAX: usize = 64 * 1024 * 1024;

/// [`from_reader_seed`] with `whole_max` for [`WHOLE_INPUT_MAX`]: reads up to `whole_max`
/// bytes whole and reads them as a slice; past that, reads through a window whose first bytes
/// are the ones read (see [`window::Window::after`]). Public for the tests and the fuzz target
/// that compare the window path with [`from_slice`].
///
/// # Errors
///
/// As [`from_reader_seed`].
#[doc(hidden)]
pub fn __from_reader_seed_whole_max<'bump, T, A, R>(
    seed: ArenaSeed<'bump, T, A>,
    mut reader: R,
    whole_max: usize,
) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: io::Read,
{
    let mut buffer = Vec::new();
    // One byte past the bound tells an input of exactly `whole_max` bytes from a longer one.
    let limit = u64::try_from(whole_max).map_or(u64::MAX, |max| max.saturating_add(1));
    (&mut reader)
        .take(limit)
        .read_to_end(&mut buffer)
        .map_err(Error::io)?;
    if buffer.len() <= whole_max {
        return read_slice(seed, &buffer);
    }
    read_windowed(seed, window::Window::after(buffer, reader, WINDOW_SIZE))
}

/// [`from_reader_seed`] through `window`.
fn read_windowed<'bump, T, A, R>(
    seed: ArenaSeed<'bump, T, A>,
    mut window: window::Window<R>,
) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: io::Read,
{
    let seed = seed.reading_from(Input::Transient);
    // Whether the value was read, so that a refusal is of what follows it.
    let read = core::cell::Cell::new(false);
    let exhausted = crate::exhaustion::count();
    let counts = refused::Counts::now();
    let (ours, refused_at) = {
        // SAFETY: `window` outlives the reader, which is dropped at the end of this block,
        // and nothing else uses it meanwhile. Nothing borrowed from the input outlives a
        // refill: the reader hands strings to visitors as temporary in window mode, every
        // string a value keeps is copied into the arena, and the direct paths use the bytes
        // they compare before they read on.
        let mut reader = unsafe { deserializer::Deserializer::from_window(&mut window) };
        // SAFETY: `Refused` holds no references.
        let ours = unsafe {
            rewound_on_error(seed.arena(), || {
                let value = reader.read_seed(seed)?;
                read.set(true);
                reader.end()?;
                Ok::<T, Refused>(value)
            })
        };
        (ours, reader.pos())
    };
    // The stream may fail after a value read whole, where serde_json looks past the last byte
    // for what follows it: the stream's error, as for a failure inside the value.
    if ours.is_ok()
        && let Some(e) = window.io_error()
    {
        return Err(Error::io(e));
    }
    ours.map_err(|Refused| {
        let ran_out = (crate::exhaustion::count() != exhausted)
            .then(crate::exhaustion::last)
            .flatten();
        let mut kinds = counts.since();
        kinds.value |= ran_out.is_some();
        window.error(refused_at, read.get(), ran_out, kinds)
    })
}

/// Reads one value from `input` with the crate's reader, then checks that only whitespace
/// follows; an input the reader refuses is read again by serde_json, whose value or error is
/// the answer.
///
/// A value followed by more than whitespace is read into the arena before the refusal: each
/// read that fails rewinds the arena to where it was (see [`rewound_on_error`]), as a failed
/// call does.
fn read_slice<'bump, T, A>(seed: ArenaSeed<'bump, T, A>, input: &[u8]) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    let mut reader = deserializer::Deserializer::from_slice(input);
    // SAFETY: `Refused` and `serde_json::Error` hold no references.
    let ours = unsafe {
        rewound_on_error(seed.arena(), || {
            let value = reader.read_seed(seed)?;
            reader.end()?;
            Ok::<T, Refused>(value)
        })
    };
    if let Ok(value) = ours {
        return Ok(value);
    }
    // SAFETY: as above.
    unsafe {
        rewound_on_error(seed.arena(), || {
            read_to_end(seed, Deserializer::from_slice(input))
        })
    }
}

/// Runs `read`, and rewinds `arena` to where it was when `read` fails (on arenas that can),
/// unless a call is open on the thread: that call keeps what it read, as a nested call does.
/// `read` is a whole call on `arena` (it opens and closes one), so this gives back, as the
/// call's own rewind does, what a value that read but then failed a check after the call
/// (trailing characters) left in the arena.
///
/// # Safety
///
/// `E` holds no reference to anything `read` allocated in `arena` (an error built from a
/// message, or a unit).
unsafe fn rewound_on_error<A, T, E>(arena: &A, read: impl FnOnce() -> Result<T, E>) -> Result<T, E>
where
    A: BumpAllocator + ?Sized,
{
    let checkpoint = if call::is_idle() {
        arena.checkpoint()
    } else {
        None
    };
    let result = read();
    if let (Err(_), Some(checkpoint)) = (&result, checkpoint) {
        // SAFETY: the checkpoint is this arena's, taken just above with no call open on the
        // thread, so `read`'s call owned the arena and closed again; the arena was not reset
        // since (it is borrowed). Everything allocated after the checkpoint belongs to the
        // failed read: its value was dropped on the way out, and the error holds no reference
        // to it (the caller's guarantee), so nothing of it is used again.
        unsafe { arena.rewind(checkpoint) };
    }
    result
}

/// Reads one value, then checks that only whitespace follows, as serde_json's helpers do.
fn read_to_end<'de, 'bump, T, A, R>(
    seed: ArenaSeed<'bump, T, A>,
    mut de: Deserializer<R>,
) -> Result<T, Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read<'de>,
{
    let value = seed.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out `text` in chunks of the sizes `sizes` cycles through, then
    /// fails if `fails`.
    struct Chunks<'a> {
        text: &'a [u8],
        sizes: &'a [usize],
        next: usize,
        fails: bool,
    }

    impl<'a> Chunks<'a> {
        fn new(text: &'a [u8], sizes: &'a [usize]) -> Self {
            Self {
                text,
                sizes,
                next: 0,
                fails: false,
            }
        }
    }

    impl io::Read for Chunks<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.text.is_empty() && self.fails {
                return Err(io::Error::other("the disk went away"));
            }
            let size = self.sizes[self.next % self.sizes.len()].max(1);
            self.next += 1;
            let n = size.min(buf.len()).min(self.text.len());
            buf[..n].copy_from_slice(&self.text[..n]);
            self.text = &self.text[n..];
            Ok(n)
        }
    }

    type Doc<'a> = &'a [(&'a str, crate::Value<'a>)];

    /// Reads `text` as `$t` from readers of several chunk sizes through windows of several
    /// sizes, and checks each read against `from_slice`'s.
    macro_rules! read_alike {
        ($t:ty, $text:expr) => {{
            let text: &[u8] = $text;
            let bump = bumpalo::Bump::new();
            let expected = from_slice::<$t, _>(&bump, text);
            // The error is serde_json's reading the same type from a reader.
            let theirs = read_to_end::<$t, _, _>(
                ArenaSeed::new(&bump).reading_from(Input::Transient),
                Deserializer::from_reader(text),
            )
            .err();
            for sizes in [
                &[1][..],
                &[2],
                &[7],
                &[3, 1, 4, 1, 5, 9, 2, 6],
                &[usize::MAX],
            ] {
                for size in [1, 5, 16, 64, WINDOW_SIZE] {
                    let read = read_windowed::<$t, _, _>(
                        ArenaSeed::new(&bump),
                        window::Window::new(Chunks::new(text, sizes), size),
                    );
                    match (&read, &expected) {
                        (Ok(read), Ok(expected)) => assert_eq!(read, expected, "{sizes:?} {size}"),
                        (Err(read), Err(_)) => {
                            let theirs = theirs.as_ref().expect("serde_json refuses it too");
                            let at = |e: &Error| (e.classify(), e.line(), e.column());
                            assert_eq!(at(read), at(theirs), "{sizes:?} {size}: {read} / {theirs}");
                        }
                        _ => panic!("{sizes:?} {size}: {read:?} against {expected:?}"),
                    }
                }
            }
        }};
    }

    #[test]
    fn inputs_read_from_windows_read_as_from_a_slice() {
        read_alike!(Doc<'_>, br#"{"name": "Ada", "tags": ["a\"b", "\u00e9", "\ud83d\ude00"], "n": [1, 2.5, -3, 1.7976931348623157e308, 123456789012345678901234567890, 5e-324]} "#);
        read_alike!(Doc<'_>, b"{\"a\" :\n\t[ true , false , null ]  \r\n}\n\n");
        read_alike!(
            &[f64],
            b"[0.1, 2.2250738585072014e-308, 1e23, -0, 3.141592653589793238462643383279]"
        );
        read_alike!(&[&str], br#"["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "b", "", "\n\t\\\/", "caf\u00e9 \u20ac"]"#);
        read_alike!(
            crate::Value<'_>,
            b"  [ [ ] , { } , [ [ [ 1 ] ] ] , \"x\" ]  "
        );
        read_alike!(Doc<'_>, br#"{"name": 1} x"#);
        read_alike!(Doc<'_>, br#"{"name": "#);
        read_alike!(Doc<'_>, b"\xff");
        read_alike!(&str, b"");
        read_alike!(&str, b"   ");
        read_alike!(u64, b"12345678901234567890");
        read_alike!(u64, b" 123456789 ");
        read_alike!(&[u32], b"[1,2,]");
        read_alike!(&[u32], b"[1,2,\"x\"]");
        read_alike!(Option<bool>, b"nul");
        read_alike!(Option<bool>, b"null");
    }

    #[test]
    fn errors_are_positioned_in_the_whole_stream() {
        let mut long = Vec::new();
        long.extend_from_slice(b"[");
        for i in 0..300 {
            long.extend_from_slice(
                format!("{{\"a\": [{i}, \"x\\n\"],\n \"b\": {{}}}},").as_bytes(),
            );
        }
        let valid_end = long.len();
        for tail in [
            &b"1]"[..],
            b"1.]",
            b"\"\\q\"]",
            b"\"\xff\"]",
            b"tru]",
            b"1] x",
            b"1,]",
            b"{\"a\" 1}]",
            b"\"x\"]",
            b"[[1, \"y\"]]]",
            b"1",
        ] {
            long.truncate(valid_end);
            long.extend_from_slice(tail);
            read_alike!(crate::Value<'_>, &long);
            read_alike!(&[Doc<'_>], &long);
        }
        // A string of many escaped quotes, refused: where it starts is found in one pass.
        let quotes = format!("[\"{}\"]", "\\\"".repeat(2_000));
        read_alike!(&[char], quotes.as_bytes());
        let deep = format!("{}1{}", "[".repeat(130), "]".repeat(130));
        read_alike!(crate::Value<'_>, deep.as_bytes());
        read_alike!(&[u8], b"[1, 2, 300]");
        read_alike!(&[&str], b"[\"a\", \"\\ud800\"]");
        read_alike!(&[&str], b"[\"a\", \"b\" \"c\"]");
        read_alike!(f64, b"1e400");
        read_alike!(f64, b"-");
        read_alike!(crate::Value<'_>, b"\"9");
        read_alike!(crate::Value<'_>, b"0=");
        read_alike!(crate::Value<'_>, b"0- ");
        read_alike!(Doc<'_>, b"0- ");
    }

    #[test]
    fn a_value_breaking_a_limit_in_a_window_has_the_slice_forms_message() {
        let text = br#"{"a": [1, [2, [3]]], "b": "a long string", "c": [1, 2, 3, 4]}"#;
        let message = |e: &Error| e.to_string().split(" at line").next().map(String::from);
        for limits in [
            crate::Limits::default().max_len(3),
            crate::Limits::default().max_str_len(5),
            crate::Limits::default().max_bytes(64),
            crate::Limits::default().max_depth(2),
        ] {
            let bump = bumpalo::Bump::new();
            let seed = || ArenaSeed::<crate::Value<'_>, _>::new(&bump).with_limits(limits);
            let sliced = from_slice_seed(seed(), text).unwrap_err();
            for size in [4, WINDOW_SIZE] {
                let window = window::Window::new(Chunks::new(text, &[3]), size);
                let read = read_windowed(seed(), window).unwrap_err();
                assert_eq!(message(&read), message(&sliced), "{limits:?} {size}");
            }
        }
    }

    #[test]
    fn a_limit_error_rewinds_the_arena() {
        let arena = crate::SlabArena::new();
        let kept: &[&str] = from_slice(&arena, br#"["kept"]"#).unwrap();
        let used = arena.stats().used_bytes;
        let text = br#"["a", "bb", "ccc", "dddd"]"#;
        for (limits, message) in [
            (
                crate::Limits::default().max_len(3),
                "sequence length limit of 3 elements exceeded",
            ),
            (
                crate::Limits::default().max_str_len(3),
                "string length limit of 3 bytes exceeded",
            ),
        ] {
            for (sizes, size) in [(&[2][..], 4), (&[1], 1), (&[usize::MAX], WINDOW_SIZE)] {
                let seed = ArenaSeed::<&[&str], _>::new(&arena).with_limits(limits);
                let window = window::Window::new(Chunks::new(text, sizes), size);
                let err = read_windowed(seed, window).unwrap_err();
                assert!(err.is_data(), "{err}");
                assert!(err.to_string().contains(message), "{err}");
                assert_eq!(arena.stats().used_bytes, used);
            }
        }
        assert_eq!(kept, ["kept"]);
    }

    #[test]
    fn a_syntax_error_right_after_a_token_is_serde_jsons() {
        // The reader stands just after a whole token when it refuses the byte after it.
        read_alike!(crate::Value<'_>, b" [2, \"p{\"id\": 3, \xff\"at\": 0]");
        read_alike!(crate::Value<'_>, b"{\"id\"x: 1}");
        read_alike!(crate::Value<'_>, b"[3,4x]");
        read_alike!(crate::Value<'_>, b"[[1]x]");
        read_alike!(crate::Value<'_>, b"{\"a\": true!}");
        read_alike!(&[u32], b"[1, \"x\"y]");
    }

    #[test]
    fn the_window_tells_a_types_refusal_from_one_of_the_bytes() {
        // The reader refuses the byte after a whole token itself, where a value could follow.
        read_alike!(crate::Value<'_>, b" [2, \"p{\": 0, \"target\"\"\"]&, \"act");
        read_alike!(crate::Value<'_>, b"[\"a\":1]");
        read_alike!(crate::Value<'_>, b"[1 :2]");
        read_alike!(&[u32], b"[1, 2}");
        // A direct path refuses the number it read: out of the type's range, or a float.
        read_alike!(&[u16], b"[1, 70000]");
        read_alike!(&[u16], b"[1, 70000x]");
        read_alike!(&[u16], b"[1, 70000 ]");
        read_alike!(&[u32], b"[1.5:]");
        read_alike!((u8, &str), b"[300,\"a\"]");
        read_alike!(u8, b"256 x");
        // The type refuses a token before reading it: serde_json reads the token as far as
        // its grammar goes, and no further.
        read_alike!(&[u32], b"111+");
        read_alike!(&str, b"111+");
        read_alike!(&str, b"1.5e+3-1");
        read_alike!(&str, b"01");
        read_alike!(&str, b"1.]");
        read_alike!(&str, b"1e+");
        read_alike!(&str, b"-x");
        read_alike!(&str, b"truex");
        read_alike!(&str, b"nul]");
        read_alike!(u32, b"\"ab\"x");
        read_alike!((u8, &str), b"[1]");
        read_alike!((u8, &str), b"[1, \"a\" ]");
        // A value's error at the start of a line, after the line feed serde_json peeks.
        read_alike!(&str, b"0\n");
        read_alike!(&[u32], b"[1,\n1.5\n]");
        // A literal refused after its first letter, at a line feed.
        read_alike!(crate::Value<'_>, b"[[nu\n");
        read_alike!(crate::Value<'_>, b"[truex]");
    }

    #[test]
    fn the_fuzz_targets_findings_read_in_their_chunks_as_serde_json_reads_them() {
        /// `text` as `T` with its first `whole` bytes read whole and the rest in chunks of
        /// `sizes`, against serde_json's reader.
        fn refused_alike<'a, T>(bump: &'a bumpalo::Bump, text: &[u8], sizes: &[usize], whole: usize)
        where
            T: ArenaDeserialize<'a, bumpalo::Bump> + core::fmt::Debug,
        {
            let read: Result<T, _> =
                __from_reader_seed_whole_max(ArenaSeed::new(bump), Chunks::new(text, sizes), whole);
            let theirs = read_to_end::<T, _, _>(
                ArenaSeed::new(bump).reading_from(Input::Transient),
                Deserializer::from_reader(text),
            )
            .unwrap_err();
            let read = read.unwrap_err();
            let at = |e: &Error| (e.classify(), e.line(), e.column());
            assert_eq!(at(&read), at(&theirs), "{read} / {theirs}");
        }
        let bump = bumpalo::Bump::new();
        // A syntax error after a string (`:` in an array), where the chunks end after it.
        refused_alike::<crate::Value<'_>>(
            &bump,
            b" [2, \"p{\": 0, \"target\"\"\"]&, \"act",
            &[35, 106, 101, 44, 35, 115, 104, 102, 117, 35, 59],
            7,
        );
        // A number the type refuses before reading it, a `+` after it.
        let text: &[u8] =
            b"111+\0\0\0\0\0\xc7\xc7\xc7\xc7\xc7\xc7\xc7\xc7\xc7\xc7\xc7\xc7\"a{\"id\xff\xff\":4";
        refused_alike::<&[(&str, u16)]>(&bump, text, &[124, 1, 1], 7);
        refused_alike::<&str>(&bump, text, &[124, 1, 1], 7);
    }

    #[test]
    fn an_io_error_is_an_error_of_category_io() {
        let bump = bumpalo::Bump::new();
        // A stream that fails after its last byte: serde_json's reader meets the failure where
        // it reads past that byte (inside a value, after a whole one as it looks for what
        // follows, at a number's end), and an error in the bytes before it first.
        for input in [
            &b"[1, 2, 3"[..],
            b"[1, 2, 3]",
            b"[1, 2, 3] ",
            b"123",
            b"\"abc",
            b"[1] x",
            b"[1, x",
            b"[1, 2] 3",
            b"[tru",
            b"{\"a\": 1",
        ] {
            let theirs = {
                let mut reader = Chunks::new(input, &[3]);
                reader.fails = true;
                serde_json::from_reader::<_, serde_json::Value>(reader).unwrap_err()
            };
            for size in [WINDOW_SIZE, 4, 1] {
                let mut reader = Chunks::new(input, &[3]);
                reader.fails = true;
                let window = window::Window::new(reader, size);
                let err = read_windowed::<crate::Value<'_>, _, _>(ArenaSeed::new(&bump), window)
                    .unwrap_err();
                // serde_json's own I/O error carries its position, one made from an
                // `io::Error` none.
                let at = |e: &Error| (e.classify(), (!e.is_io()).then(|| (e.line(), e.column())));
                assert_eq!(at(&err), at(&theirs), "{input:?} {size}: {err} / {theirs}");
                if theirs.is_io() {
                    assert!(err.to_string().contains("the disk went away"), "{err}");
                }
            }
        }
    }
}
