//! `json::SliceStream` and `json::ReaderStream` against serde_json's `StreamDeserializer`: the
//! same items (values, error messages with their lines and columns), the same `byte_offset`
//! after every step, the same end after an error; the reader stream over readers that hand out
//! 1, 3 or 7 bytes a call and windows down to one byte; limits and rewind per document.

use std::io;

use arena_core::json::{ReaderStream, SliceStream};
use arena_core::{ArenaSeed, BumpAllocator, DocumentStream, LengthTrust, Limits, SlabArena, Value};
use proptest::prelude::*;

/// A reader that hands out at most `chunk` bytes a call.
struct Chunked<'a> {
    input: &'a [u8],
    chunk: usize,
}

impl io::Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.chunk).min(self.input.len());
        buf[..n].copy_from_slice(&self.input[..n]);
        self.input = &self.input[n..];
        Ok(n)
    }
}

/// An item as text: the value as serde_json writes it, or the error's message and position.
type Item = Result<String, String>;

/// What the stream `next` reads, item by item with the byte offset after each, up to two
/// steps past its end.
fn steps(
    mut next: impl FnMut() -> Option<Item>,
    offset: impl Fn() -> usize,
) -> Vec<(Option<Item>, usize)> {
    let mut out = Vec::new();
    let mut ends = 0;
    while ends < 2 && out.len() < 64 {
        let item = next();
        ends += usize::from(item.is_none());
        out.push((item, offset()));
    }
    out
}

/// serde_json's stream of `serde_json::Value`s over `input`, as a slice and as a reader.
fn theirs(input: &[u8], reader: bool) -> Vec<(Option<Item>, usize)> {
    let text = |r: Result<serde_json::Value, serde_json::Error>| {
        r.map(|v| v.to_string()).map_err(|e| e.to_string())
    };
    if reader {
        let mut stream = serde_json::Deserializer::from_reader(input).into_iter();
        let stream = std::cell::RefCell::new(&mut stream);
        steps(
            || stream.borrow_mut().next().map(text),
            || stream.borrow().byte_offset(),
        )
    } else {
        let mut stream = serde_json::Deserializer::from_slice(input).into_iter();
        let stream = std::cell::RefCell::new(&mut stream);
        steps(
            || stream.borrow_mut().next().map(text),
            || stream.borrow().byte_offset(),
        )
    }
}

/// Our stream's items as `Value`s, one arena reset per document.
fn ours<S: DocumentStream<Error = serde_json::Error>>(
    stream: S,
    offset: impl Fn(&S) -> usize,
) -> Vec<(Option<Item>, usize)> {
    let stream = std::cell::RefCell::new(stream);
    let mut arena = SlabArena::new();
    let arena = std::cell::RefCell::new(&mut arena);
    steps(
        || {
            arena.borrow_mut().reset();
            let arena = arena.borrow();
            stream
                .borrow_mut()
                .next_in::<Value<'_>, _>(&**arena)
                .map(|r| {
                    r.map(|v| serde_json::to_string(&v).unwrap())
                        .map_err(|e| e.to_string())
                })
        },
        || offset(&stream.borrow()),
    )
}

/// Checks both streams of `input` against serde_json's, the reader stream with several chunk
/// and window sizes.
fn check(input: &[u8]) {
    let slice = ours(SliceStream::new(input), SliceStream::byte_offset);
    assert_eq!(
        slice,
        theirs(input, false),
        "slice: {:?}",
        String::from_utf8_lossy(input)
    );
    let expected = theirs(input, true);
    for chunk in [1, 3, 7, usize::MAX] {
        for window in [1, 4, 16, 1 << 20] {
            let reader = Chunked { input, chunk };
            let read = ours(
                ReaderStream::with_window(reader, window),
                ReaderStream::byte_offset,
            );
            assert_eq!(
                read,
                expected,
                "reader (chunk {chunk}, window {window}): {:?}",
                String::from_utf8_lossy(input)
            );
        }
    }
}

#[test]
fn streams_read_what_serde_json_streams_read() {
    for input in [
        "",
        " ",
        "  \n\t\r ",
        "1 2",
        "12a",
        r#""a""b""#,
        "[1][2]",
        "1[2]",
        "1]",
        "{}x 3",
        "[1] [",
        "[0] [1] [",
        "1 tru",
        "{\"a\":1}\n{\"a\":\n2}\n{\"b\"\n:x}\n4",
        "1 -",
        "nul",
        "1e999 2",
        "\"\\u12\" 3",
        "[1,]",
        "1\n\"\u{1}\"",
        "1 2x 3",
        "[1]\n  [2, 3 4]",
        "{\"id\": 1, \"name\": \"a\\\"b\", \"tags\": [\"x\", \"\u{e9}\"]}\n{\"id\": 2.5e3}\n",
        "true false null\n-0 1.5e-3 18446744073709551616",
        "\u{feff}1",
        "1,2",
        "1:2",
        "\"abc",
        "[1, 2]\n\n\n[3, {\"k\": [true]}]  \n",
        "{\"a\": 1} {\"a\": 2}{\"b\": [1, [2, [3]]]}",
        "123456789012345678901234567890 1",
        "[\"\\ud800\"]",
        "\"\\uD83D\\uDE00\" 7",
    ] {
        check(input.as_bytes());
    }
    check(b"\xff");
    check(b"\"\xff\"");
    check(b"1\n\"ok\"\n\"\xc3\"");
}

/// Fragments random streams are made of: values, broken values, separators.
const FRAGMENTS: &[&str] = &[
    "1",
    "-2.5",
    "1e3",
    "0",
    "true",
    "null",
    "\"s\"",
    "\"e\\n\"",
    "[]",
    "[1,2]",
    "{}",
    "{\"k\":[1,{\"j\":null}]}",
    " ",
    "\n",
    "\t",
    "\r\n",
    "x",
    ",",
    "]",
    "}",
    "[",
    "{",
    "\"",
    ":",
    "tr",
    "1e",
    "-",
    "\"\\u00",
    "[1,",
    "{\"a\"",
];

proptest! {
    #[test]
    fn random_streams_read_as_serde_json_reads_them(
        parts in prop::collection::vec(0..FRAGMENTS.len(), 0..12),
    ) {
        let input: String = parts.iter().map(|&i| FRAGMENTS[i]).collect();
        check(input.as_bytes());
    }
}

/// Reads every document of `$stream` as `$t`, one arena reset per document, as text.
macro_rules! typed {
    ($t:ty, $stream:expr) => {{
        let stream = $stream;
        let mut arena = SlabArena::new();
        let mut out: Vec<Result<String, String>> = Vec::new();
        while let Some(item) = stream.next_in::<$t, _>(&arena) {
            out.push(item.map(|v| format!("{v:?}")).map_err(|e| e.to_string()));
            arena.reset();
        }
        out
    }};
}

#[test]
fn type_errors_are_serde_json_errors_and_end_the_stream() {
    let input = b"[1, 2]\n[3, \"x\"]\n[4]\n";
    let theirs: Vec<_> = serde_json::Deserializer::from_slice(input)
        .into_iter::<Vec<u32>>()
        .map(|r| r.map(|v| format!("{v:?}")).map_err(|e| e.to_string()))
        .collect();
    assert_eq!(theirs.len(), 2, "{theirs:?}");
    assert_eq!(typed!(&[u32], &mut SliceStream::new(input)), theirs);
    let reader = Chunked { input, chunk: 3 };
    assert_eq!(
        typed!(&[u32], &mut ReaderStream::with_window(reader, 2)),
        theirs
    );
    // A number out of a type's range, on the second line.
    let theirs: Vec<_> = serde_json::Deserializer::from_slice(b"1\n300\n2")
        .into_iter::<u8>()
        .map(|r| r.map(|v| format!("{v:?}")).map_err(|e| e.to_string()))
        .collect();
    assert_eq!(typed!(u8, &mut SliceStream::new(b"1\n300\n2")), theirs);
    assert_eq!(
        theirs[1].as_ref().unwrap_err(),
        "invalid value: integer `300`, expected u8 at line 2 column 3"
    );
}

#[test]
fn a_truncated_last_document_is_an_eof_error() {
    for stream in [&b"[1]\n[2, 3"[..], b"{\"a\": 1}\n{\"a\":", b"1\n\"abc"] {
        let items = typed!(Value<'_>, &mut SliceStream::new(stream));
        assert_eq!(items.len(), 2, "{items:?}");
        assert!(items[0].is_ok());
        assert!(
            items[1].as_ref().unwrap_err().contains("EOF while parsing"),
            "{items:?}"
        );
        let mut reader = ReaderStream::with_window(
            Chunked {
                input: stream,
                chunk: 1,
            },
            1,
        );
        let read = typed!(Value<'_>, &mut reader);
        assert_eq!(read.len(), 2);
        assert!(
            read[1].as_ref().unwrap_err().contains("EOF while parsing"),
            "{read:?}"
        );
    }
}

/// A reader that hands out `input`, then fails.
struct FailsAfter<'a>(&'a [u8]);

impl io::Read for FailsAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.is_empty() {
            return Err(io::Error::other("the disk went away"));
        }
        io::Read::read(&mut self.0, buf)
    }
}

#[test]
fn an_io_error_is_an_item_that_ends_the_stream() {
    let mut stream = ReaderStream::with_window(FailsAfter(b"[1]\n[2, "), 4);
    let items = typed!(&[u32], &mut stream);
    assert_eq!(items[0].as_deref(), Ok("[1]"));
    assert!(
        items[1]
            .as_ref()
            .unwrap_err()
            .contains("the disk went away"),
        "{items:?}"
    );
    assert_eq!(items.len(), 2);
    let arena = SlabArena::new();
    assert!(stream.next_in::<&[u32], _>(&arena).is_none());
}

#[test]
fn limits_and_trust_apply_per_document_and_a_failed_document_rewinds() {
    let input = b"[1, 2]\n[3, 4]\n[5, 6, 7]\n[8]\n";
    limits_per_document(&mut SliceStream::new(input));
    limits_per_document(&mut ReaderStream::with_window(
        Chunked { input, chunk: 3 },
        2,
    ));
}

/// Reads `[1, 2]`, `[3, 4]`, then `[5, 6, 7]` over a length limit of 2, from `stream`.
fn limits_per_document<S: DocumentStream<Error = serde_json::Error>>(stream: &mut S) {
    let limits = Limits::default().max_len(2);
    let trust = LengthTrust::new();
    let arena = SlabArena::new();
    let seed = ArenaSeed::<&[u32], _>::new(&arena)
        .with_limits(limits)
        .with_trust(&trust);
    // Each document gets the limit alone: two of two elements each, in one arena.
    assert_eq!(stream.next_seed(seed).unwrap().unwrap(), [1, 2]);
    assert_eq!(stream.next_seed(seed).unwrap().unwrap(), [3, 4]);
    let used = BumpAllocator::stats(&arena).used_bytes;
    let err = stream.next_seed(seed).unwrap().unwrap_err();
    assert!(
        err.to_string()
            .contains("sequence length limit of 2 elements"),
        "{err}"
    );
    assert!(err.to_string().contains("line 3"), "{err}");
    assert_eq!(
        BumpAllocator::stats(&arena).used_bytes,
        used,
        "the failed document is rewound"
    );
    assert!(stream.next_seed(seed).is_none());
}

#[test]
fn trailing_characters_rewind_the_value_read_before_them() {
    let arena = SlabArena::new();
    let mut stream = SliceStream::new(b"\"long enough to allocate\" 12a");
    let first = stream.next_in::<&str, _>(&arena).unwrap().unwrap();
    assert_eq!(first, "long enough to allocate");
    let used = BumpAllocator::stats(&arena).used_bytes;
    let err = stream.next_in::<u64, _>(&arena).unwrap().unwrap_err();
    assert_eq!(err.to_string(), "trailing characters at line 1 column 29");
    assert_eq!(BumpAllocator::stats(&arena).used_bytes, used);
    assert_eq!(stream.byte_offset(), 28);
    let err = stream.next_in::<u64, _>(&arena).unwrap().unwrap_err();
    assert_eq!(err.to_string(), "expected value at line 1 column 29");
    assert!(stream.next_in::<u64, _>(&arena).is_none());
}

#[test]
fn a_batch_per_arena_reads_every_document() {
    let mut text = String::new();
    for i in 0..1000 {
        text.push_str(&format!("{{\"id\": {i}, \"name\": \"n{i}\"}}\n"));
    }
    for chunk in [1, 3, 4096] {
        let mut stream = ReaderStream::with_window(
            Chunked {
                input: text.as_bytes(),
                chunk,
            },
            64,
        );
        let mut arena = SlabArena::new();
        let (mut sum, mut batches) = (0, 0);
        loop {
            let mut n = 0;
            for row in stream.iter_in::<&[(&str, Value<'_>)], _>(&arena).take(100) {
                sum += row.unwrap()[0].1.as_u64().unwrap();
                n += 1;
            }
            if n == 0 {
                break;
            }
            batches += 1;
            arena.reset();
        }
        assert_eq!((sum, batches), ((0..1000).sum(), 10), "{chunk}");
        assert_eq!(stream.byte_offset(), text.len());
    }
}
