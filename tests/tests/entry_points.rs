//! The one-call entry points (`arena_core::{json, postcard, bincode, msgpack, cbor}`, feature
//! `formats`): on every arena they read what `ArenaSeed` driven by the format's deserializer
//! reads, treat trailing input as the format's own helper does, return the format's own error
//! type, and their seed forms keep the seed's limits and an explicit `str_as_bytes`.
//!
//! Their `from_reader` forms read what the slice forms read (with the same arena bytes: each
//! string copied once), also from a reader handing over one byte per call; leave trailing
//! input as the format's own reader helper does; apply the seed's limits with the slice forms'
//! errors; and turn a reader that fails, an input that ends early and a length claimed far
//! beyond the input into the format's error, with nothing of the claim allocated.

use std::collections::BTreeMap;
use std::io::{self, BufReader, Read};

use arena_core::__private::check_call_invariants;
use arena_core::{ArenaDeserialize, ArenaSeed, BStr, BumpAllocator, Limits};
use arena_tests::{Format, with_each_arena};
use serde::Serialize;

/// A document with strings, nested slices, a map and an option.
#[derive(ArenaDeserialize, Debug, PartialEq)]
struct Entry<'bump> {
    name: &'bump str,
    tags: &'bump [&'bump str],
    scores: &'bump [(&'bump str, &'bump [u32])],
    note: Option<&'bump str>,
}

/// The owned twin of [`Entry`], to write the documents.
#[derive(Serialize)]
struct OwnedEntry {
    name: String,
    tags: Vec<String>,
    scores: BTreeMap<String, Vec<u32>>,
    note: Option<String>,
}

fn owned_entry() -> OwnedEntry {
    OwnedEntry {
        name: "Ada Lovelace, née Byron".to_owned(),
        tags: vec!["math".to_owned(), String::new(), "engine ⚙".to_owned()],
        scores: BTreeMap::from([
            ("bernoulli".to_owned(), vec![1, 1, 5, 691]),
            ("empty".to_owned(), vec![]),
        ]),
        note: Some("notes".to_owned()),
    }
}

fn assert_is_owned_entry(read: &Entry<'_>) {
    let owned = owned_entry();
    assert_eq!(read.name, owned.name);
    assert_eq!(read.tags, owned.tags);
    assert_eq!(read.scores.len(), owned.scores.len());
    for ((k, v), (ok, ov)) in read.scores.iter().zip(&owned.scores) {
        assert_eq!((k, v), (&ok.as_str(), &ov.as_slice()));
    }
    assert_eq!(read.note, owned.note.as_deref());
}

/// The formats as they are written (the `*StrAsBytes` variants read the same bytes).
fn wires() -> impl Iterator<Item = Format> {
    Format::ALL
        .into_iter()
        .filter(|format| format.wire() == *format)
}

/// `bytes` read with the format's entry point (`from_slice`, or postcard's `from_bytes`); the
/// error as its message.
fn entry_point<'bump, T, A>(format: Format, arena: &'bump A, bytes: &[u8]) -> Result<T, String>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    match format.wire() {
        Format::Json => arena_core::json::from_slice(arena, bytes).map_err(|e| e.to_string()),
        Format::Postcard => {
            arena_core::postcard::from_bytes(arena, bytes).map_err(|e| e.to_string())
        }
        Format::Bincode => arena_core::bincode::from_slice(arena, bytes).map_err(|e| e.to_string()),
        Format::MsgPack | Format::MsgPackNamed => {
            arena_core::msgpack::from_slice(arena, bytes).map_err(|e| e.to_string())
        }
        Format::Cbor | Format::CborIndefinite => {
            arena_core::cbor::from_slice(arena, bytes).map_err(|e| e.to_string())
        }
        Format::PostcardStrAsBytes | Format::BincodeStrAsBytes => unreachable!("wire() maps them"),
    }
}

/// `bytes` read with the format's seed form and `seed`; the error as its message.
fn seed_form<'bump, T, A>(
    format: Format,
    seed: ArenaSeed<'bump, T, A>,
    bytes: &[u8],
) -> Result<T, String>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    match format.wire() {
        Format::Json => arena_core::json::from_slice_seed(seed, bytes).map_err(|e| e.to_string()),
        Format::Postcard => {
            arena_core::postcard::from_bytes_seed(seed, bytes).map_err(|e| e.to_string())
        }
        Format::Bincode => {
            arena_core::bincode::from_slice_seed(seed, bytes).map_err(|e| e.to_string())
        }
        Format::MsgPack | Format::MsgPackNamed => {
            arena_core::msgpack::from_slice_seed(seed, bytes).map_err(|e| e.to_string())
        }
        Format::Cbor | Format::CborIndefinite => {
            arena_core::cbor::from_slice_seed(seed, bytes).map_err(|e| e.to_string())
        }
        Format::PostcardStrAsBytes | Format::BincodeStrAsBytes => unreachable!("wire() maps them"),
    }
}

/// Whether the format's own helper (serde_json::from_slice, postcard::from_bytes,
/// bincode::serde::decode_from_slice, rmp_serde::from_slice, cbor4ii::serde::from_slice)
/// accepts `bytes` as an `OwnedEntry`'s shape (read here as `serde::de::IgnoredAny` where the
/// format describes itself, and as `(String, Vec<String>, ..)` where it does not).
fn helper_accepts(format: Format, bytes: &[u8]) -> bool {
    type Fields = (
        String,
        Vec<String>,
        BTreeMap<String, Vec<u32>>,
        Option<String>,
    );
    match format.wire() {
        Format::Json => serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok(),
        Format::Postcard => postcard::from_bytes::<Fields>(bytes).is_ok(),
        Format::Bincode => {
            bincode::serde::decode_from_slice::<Fields, _>(bytes, bincode::config::standard())
                .is_ok()
        }
        Format::MsgPack | Format::MsgPackNamed => {
            rmp_serde::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
        }
        Format::Cbor | Format::CborIndefinite => {
            cbor4ii::serde::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
        }
        Format::PostcardStrAsBytes | Format::BincodeStrAsBytes => unreachable!("wire() maps them"),
    }
}

#[test]
fn every_entry_point_reads_what_the_seed_reads() {
    let owned = owned_entry();
    for format in wires() {
        let bytes = format.to_bytes(&owned);
        with_each_arena!(|arena| {
            let read: Entry<'_> = entry_point(format, arena, &bytes).unwrap();
            let by_seed: Entry<'_> = format.decode_in(arena, &bytes).unwrap();
            assert_eq!(read, by_seed, "{format}");
            assert_is_owned_entry(&read);
            if !format.is_self_describing() {
                // The entry point reads strings as bytes: the same values.
                let fast = match format {
                    Format::Postcard => Format::PostcardStrAsBytes,
                    _ => Format::BincodeStrAsBytes,
                };
                let by_fast_seed: Entry<'_> = fast.decode_in(arena, &bytes).unwrap();
                assert_eq!(read, by_fast_seed, "{format}");
            }
        });
    }
}

#[test]
fn json_from_str_reads_what_from_slice_reads() {
    let text = serde_json::to_string(&owned_entry()).unwrap();
    with_each_arena!(|arena| {
        let from_str: Entry<'_> = arena_core::json::from_str(arena, &text).unwrap();
        let from_slice: Entry<'_> = arena_core::json::from_slice(arena, text.as_bytes()).unwrap();
        assert_eq!(from_str, from_slice);
        assert_is_owned_entry(&from_str);
        let seed = ArenaSeed::new(arena).with_limits(Limits::default());
        let from_str_seed: Entry<'_> = arena_core::json::from_str_seed(seed, &text).unwrap();
        assert_eq!(from_str_seed, from_str);
    });
}

#[test]
fn bincode_with_config_reads_other_configurations() {
    let config = bincode::config::legacy();
    let bytes = bincode::serde::encode_to_vec(owned_entry(), config).unwrap();
    with_each_arena!(|arena| {
        let read: Entry<'_> =
            arena_core::bincode::from_slice_with_config(arena, &bytes, config).unwrap();
        assert_is_owned_entry(&read);
        let seed = ArenaSeed::new(arena).with_limits(Limits::default());
        let by_seed: Entry<'_> =
            arena_core::bincode::from_slice_seed_with_config(seed, &bytes, config).unwrap();
        assert_eq!(read, by_seed);
    });
}

#[test]
fn trailing_input_is_handled_as_the_formats_helper_handles_it() {
    let owned = owned_entry();
    // Whitespace (accepted by every JSON reader), a byte no format starts a value with
    // (0xFF: break in CBOR, negative fixint in MessagePack), and a second document.
    let tails: [&[u8]; 3] = [b" \n\t", &[0xFF], &[0xC1, 0x00, b'x']];
    for format in wires() {
        let bytes = format.to_bytes(&owned);
        for tail in tails {
            let longer = [&bytes[..], tail].concat();
            let helper = helper_accepts(format, &longer);
            // Only JSON looks past the value, and only whitespace may follow it there.
            let expected = format != Format::Json || tail == b" \n\t";
            assert_eq!(helper, expected, "{format}, tail {tail:?}: the helper");
            with_each_arena!(|arena| {
                let read = entry_point::<Entry<'_>, _>(format, arena, &longer);
                assert_eq!(read.is_ok(), helper, "{format}, tail {tail:?}: {read:?}");
                if let Ok(read) = read {
                    assert_is_owned_entry(&read);
                }
                let seed = ArenaSeed::new(arena).with_limits(Limits::default());
                let read = seed_form::<Entry<'_>, _>(format, seed, &longer);
                assert_eq!(read.is_ok(), helper, "{format}, tail {tail:?}: seed form");
            });
        }
    }
    with_each_arena!(|arena| {
        assert!(arena_core::json::from_str::<&str, _>(arena, "\"a\" ").is_ok());
        let err = arena_core::json::from_str::<&str, _>(arena, "\"a\" b").unwrap_err();
        assert!(err.is_syntax(), "{err}");
    });
}

#[test]
fn the_seed_form_applies_the_seeds_limits() {
    let words = vec!["a", "bc", "def"];
    for format in wires() {
        let bytes = format.to_bytes(&words);
        with_each_arena!(|arena| {
            let tight =
                ArenaSeed::<&[&str], _>::new(arena).with_limits(Limits::default().max_len(2));
            let err = seed_form(format, tight, &bytes).unwrap_err();
            // postcard keeps no message for errors raised outside it.
            if format != Format::Postcard {
                assert!(
                    err.contains("sequence length limit of 2 elements"),
                    "{format}: {err}"
                );
            }
            let enough =
                ArenaSeed::<&[&str], _>::new(arena).with_limits(Limits::default().max_len(3));
            assert_eq!(
                seed_form(format, enough, &bytes).unwrap(),
                words,
                "{format}"
            );
        });
    }
    with_each_arena!(|arena| {
        let bytes = Format::Postcard.to_bytes(&words);
        let tight = ArenaSeed::<&[&str], _>::new(arena).with_limits(Limits::default().max_len(2));
        let err = arena_core::postcard::from_bytes_seed(tight, &bytes).unwrap_err();
        assert_eq!(err, postcard::Error::SerdeDeCustom);
    });
}

#[test]
fn the_seed_form_keeps_an_explicit_str_as_bytes() {
    // A string of invalid UTF-8: read as bytes, the arena's check rejects it (serde's
    // `invalid_value`, a custom error of the format); read as a string, the format does.
    let postcard_bad = [1u8, 0xFF];
    let bincode_bad = [1u8, 0xFF];
    with_each_arena!(|arena| {
        // The plain form and a seed that leaves the setting unset read strings as bytes.
        let err = arena_core::postcard::from_bytes::<&str, _>(arena, &postcard_bad).unwrap_err();
        assert_eq!(err, postcard::Error::SerdeDeCustom);
        let unset = ArenaSeed::<&str, _>::new(arena).with_limits(Limits::default());
        let err = arena_core::postcard::from_bytes_seed(unset, &postcard_bad).unwrap_err();
        assert_eq!(err, postcard::Error::SerdeDeCustom);
        // An explicit `false` stays: postcard's own UTF-8 error.
        let off = ArenaSeed::<&str, _>::new(arena).str_as_bytes(false);
        let err = arena_core::postcard::from_bytes_seed(off, &postcard_bad).unwrap_err();
        assert_eq!(err, postcard::Error::DeserializeBadUtf8);

        let err = arena_core::bincode::from_slice::<&str, _>(arena, &bincode_bad).unwrap_err();
        assert!(
            matches!(err, bincode::error::DecodeError::OtherString(_)),
            "{err:?}"
        );
        let off = ArenaSeed::<&str, _>::new(arena).str_as_bytes(false);
        let err = arena_core::bincode::from_slice_seed(off, &bincode_bad).unwrap_err();
        assert!(
            matches!(err, bincode::error::DecodeError::Utf8 { .. }),
            "{err:?}"
        );

        // CBOR's entry point leaves the setting off; a seed that turns it on is obeyed (and
        // fails, as CBOR text strings are not byte strings).
        let cbor = Format::Cbor.to_bytes(&"text");
        assert_eq!(
            arena_core::cbor::from_slice::<&str, _>(arena, &cbor).unwrap(),
            "text"
        );
        let on = ArenaSeed::<&str, _>::new(arena).str_as_bytes(true);
        assert!(arena_core::cbor::from_slice_seed(on, &cbor).is_err());
    });
}

#[test]
fn errors_are_the_formats_own() {
    let owned = owned_entry();
    for format in wires() {
        let bytes = format.to_bytes(&owned);
        let cut = &bytes[..bytes.len() - 1];
        with_each_arena!(|arena| {
            match format {
                Format::Json => {
                    let err: serde_json::Error =
                        arena_core::json::from_slice::<Entry<'_>, _>(arena, cut).unwrap_err();
                    assert!(err.is_eof(), "{err}");
                }
                Format::Postcard => {
                    let err: postcard::Error =
                        arena_core::postcard::from_bytes::<Entry<'_>, _>(arena, cut).unwrap_err();
                    assert_eq!(err, postcard::Error::DeserializeUnexpectedEnd);
                }
                Format::Bincode => {
                    let err: bincode::error::DecodeError =
                        arena_core::bincode::from_slice::<Entry<'_>, _>(arena, cut).unwrap_err();
                    assert!(
                        matches!(err, bincode::error::DecodeError::UnexpectedEnd { .. }),
                        "{err:?}"
                    );
                }
                Format::MsgPack | Format::MsgPackNamed => {
                    let err: rmp_serde::decode::Error =
                        arena_core::msgpack::from_slice::<Entry<'_>, _>(arena, cut).unwrap_err();
                    assert!(
                        matches!(
                            err,
                            rmp_serde::decode::Error::InvalidMarkerRead(_)
                                | rmp_serde::decode::Error::InvalidDataRead(_)
                        ),
                        "{err:?}"
                    );
                }
                Format::Cbor | Format::CborIndefinite => {
                    let err: cbor4ii::serde::DecodeError<std::convert::Infallible> =
                        arena_core::cbor::from_slice::<Entry<'_>, _>(arena, cut).unwrap_err();
                    assert!(
                        matches!(
                            err,
                            cbor4ii::serde::DecodeError::Core(
                                cbor4ii::core::error::DecodeError::Eof { .. }
                            )
                        ),
                        "{err:?}"
                    );
                }
                other => unreachable!("{other} is not a wire format"),
            }
        });
    }
}

// ---------------------------------------------------------------------------------------------
// from_reader

/// A document with every kind of string the arena reads: escapes (in JSON), a string longer
/// than the postcard reader's one-piece read (64 KiB), nested slices, a map of options, bytes
/// written as bytes and as a sequence, `BStr`s, and values postcard reads through its
/// temporary buffer (a float, a char).
#[derive(ArenaDeserialize, Debug, PartialEq)]
struct Rich<'bump> {
    escaped: &'bump str,
    long: &'bump str,
    nested: &'bump [&'bump [&'bump str]],
    map: &'bump [(&'bump str, Option<&'bump [u32]>)],
    blob: &'bump [u8],
    byte_seq: &'bump [u8],
    text: BStr<'bump>,
    maybe_blob: Option<BStr<'bump>>,
    none: Option<&'bump str>,
    float: f64,
    letter: char,
}

/// Bytes written with `serialize_bytes`, or, with `as_seq`, as a sequence of `u8` (as serde
/// writes a `Vec<u8>`).
struct ByteBuf {
    bytes: Vec<u8>,
    as_seq: bool,
}

impl ByteBuf {
    fn bytes(bytes: &[u8]) -> Self {
        Self {
            bytes: bytes.to_vec(),
            as_seq: false,
        }
    }
}

impl Serialize for ByteBuf {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.as_seq {
            self.bytes.serialize(serializer)
        } else {
            serializer.serialize_bytes(&self.bytes)
        }
    }
}

/// A string, or its bytes (for a `BStr` in CBOR, whose text strings cbor4ii does not read as
/// bytes, from a slice or from a reader).
#[derive(Serialize)]
#[serde(untagged)]
enum Text {
    Str(String),
    Bytes(ByteBuf),
}

/// The owned twin of [`Rich`].
#[derive(Serialize)]
struct OwnedRich {
    escaped: String,
    long: String,
    nested: Vec<Vec<String>>,
    map: BTreeMap<String, Option<Vec<u32>>>,
    blob: ByteBuf,
    byte_seq: ByteBuf,
    text: Text,
    maybe_blob: Option<ByteBuf>,
    none: Option<String>,
    float: f64,
    letter: char,
}

/// The [`Rich`] document; in CBOR, `byte_seq` is bytes rather than a sequence of `u8` and
/// `text` bytes rather than a string (cbor4ii reads neither as bytes).
fn owned_rich(format: Format) -> OwnedRich {
    OwnedRich {
        escaped: "quote \" backslash \\ slash / newline \n tab \t nul \u{0} é 😀".to_owned(),
        long: "ab€😀".repeat(10_000),
        nested: vec![
            vec!["a".to_owned(), String::new()],
            vec![],
            vec!["nested ✓".to_owned(); 3],
        ],
        map: BTreeMap::from([
            ("none".to_owned(), None),
            ("some".to_owned(), Some(vec![1, u32::MAX, 0])),
            ("empty".to_owned(), Some(vec![])),
        ]),
        blob: ByteBuf::bytes(&(0..=255).collect::<Vec<u8>>()),
        byte_seq: ByteBuf {
            bytes: vec![0, 1, 0xFF, b'x'],
            as_seq: !format.is_cbor(),
        },
        text: if format.is_cbor() {
            Text::Bytes(ByteBuf::bytes(b"text as BStr"))
        } else {
            Text::Str("text as BStr".to_owned())
        },
        maybe_blob: Some(ByteBuf::bytes(&[0xC3, 0x28])),
        none: None,
        float: -1.5e300,
        letter: 'ß',
    }
}

fn assert_is_owned_rich(read: &Rich<'_>) {
    let owned = owned_rich(Format::Json);
    assert_eq!(read.escaped, owned.escaped);
    assert_eq!(read.long, owned.long);
    assert_eq!(read.nested, owned.nested);
    let map: Vec<_> = owned
        .map
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_deref()))
        .collect();
    assert_eq!(read.map, map);
    assert_eq!(read.blob, owned.blob.bytes);
    assert_eq!(read.byte_seq, owned.byte_seq.bytes);
    assert_eq!(read.text, "text as BStr");
    assert_eq!(
        read.maybe_blob.map(|b| b.as_bytes()),
        Some(&[0xC3, 0x28][..])
    );
    assert_eq!(read.none, None);
    assert_eq!((read.float, read.letter), (owned.float, owned.letter));
}

/// A reader handing over at most one byte per `read` call.
struct OneByte<R>(R);

impl<R: Read> Read for OneByte<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(1);
        self.0.read(&mut buf[..n])
    }
}

/// A reader over `bytes` that fails once `left` of them have been read.
struct FailsAfter<'a> {
    bytes: &'a [u8],
    left: usize,
}

const FIRE: &str = "the disk caught fire";

impl Read for FailsAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Err(io::Error::other(FIRE));
        }
        let n = buf.len().min(self.left).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        self.left -= n;
        Ok(n)
    }
}

/// `reader` read with the format's `from_reader` (CBOR's through a `BufReader`, as it takes a
/// `BufRead`); the error as its message.
fn reader_entry_point<'bump, T, A, R>(
    format: Format,
    arena: &'bump A,
    reader: R,
) -> Result<T, String>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read,
{
    reader_seed_form(format, ArenaSeed::new(arena), reader)
}

/// `reader` read with the format's `from_reader_seed` and `seed`; the error as its message.
fn reader_seed_form<'bump, T, A, R>(
    format: Format,
    seed: ArenaSeed<'bump, T, A>,
    reader: R,
) -> Result<T, String>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    R: Read,
{
    match format.wire() {
        // Through a window from the first byte on, as an input longer than
        // `json::WHOLE_INPUT_MAX` is read.
        Format::Json => arena_core::json::__from_reader_seed_whole_max(seed, reader, 0)
            .map_err(|e| e.to_string()),
        Format::Postcard => {
            arena_core::postcard::from_reader_seed(seed, reader).map_err(|e| e.to_string())
        }
        Format::Bincode => {
            arena_core::bincode::from_reader_seed(seed, reader).map_err(|e| e.to_string())
        }
        Format::MsgPack | Format::MsgPackNamed => {
            arena_core::msgpack::from_reader_seed(seed, reader).map_err(|e| e.to_string())
        }
        Format::Cbor | Format::CborIndefinite => {
            arena_core::cbor::from_reader_seed(seed, BufReader::new(reader))
                .map_err(|e| e.to_string())
        }
        Format::PostcardStrAsBytes | Format::BincodeStrAsBytes => unreachable!("wire() maps them"),
    }
}

/// The arena bytes `read` uses on `arena`, and what it returns.
fn measured<A: BumpAllocator + ?Sized, R>(arena: &A, read: impl FnOnce() -> R) -> (R, usize) {
    let before = arena.stats().used_bytes;
    let value = read();
    (value, arena.stats().used_bytes - before)
}

/// A new, empty arena of the kind of another: reads compared byte for byte start from the
/// same place, with the same alignment padding.
trait Fresh {
    fn fresh(&self) -> Self;
}

impl Fresh for bumpalo::Bump {
    fn fresh(&self) -> Self {
        Self::new()
    }
}

impl Fresh for bump_scope::Bump {
    fn fresh(&self) -> Self {
        Self::new()
    }
}

impl Fresh for arena_core::SlabArena {
    fn fresh(&self) -> Self {
        Self::new()
    }
}

/// `message` without serde_json's " at line L column C": serde_json's reader and slice
/// deserializers place the same error one column apart.
fn without_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

#[test]
fn from_reader_reads_what_from_slice_reads_with_the_same_arena_bytes() {
    for format in wires() {
        let bytes = format.to_bytes(&owned_rich(format));
        with_each_arena!(|arena| {
            let from_slice: Rich<'_> = entry_point(format, arena, &bytes).unwrap();
            assert_is_owned_rich(&from_slice);
            let read: Rich<'_> = reader_entry_point(format, arena, &bytes[..]).unwrap();
            assert_eq!(read, from_slice, "{format}");
            // Each string copied into the arena once, as from a slice (postcard's borrowed
            // takes would copy it twice): the same bytes, each read on an arena of its own.
            let (slice_arena, reader_arena) = (arena.fresh(), arena.fresh());
            let (_, slice_bytes) = measured(&slice_arena, || {
                entry_point::<Rich<'_>, _>(format, &slice_arena, &bytes).unwrap()
            });
            let (_, reader_bytes) = measured(&reader_arena, || {
                reader_entry_point::<Rich<'_>, _, _>(format, &reader_arena, &bytes[..]).unwrap()
            });
            assert_eq!(reader_bytes, slice_bytes, "{format}");
            let one_by_one: Rich<'_> =
                reader_entry_point(format, arena, OneByte(&bytes[..])).unwrap();
            assert_eq!(one_by_one, from_slice, "{format}: one byte per read");
            if matches!(format.wire(), Format::Json) {
                // The public form, which reads an input this short whole, then as a slice
                // (the reads above go through the window from the first byte on).
                let whole: Rich<'_> =
                    arena_core::json::from_reader(arena, OneByte(&bytes[..])).unwrap();
                assert_eq!(whole, from_slice, "{format}: read whole");
                let whole_arena = arena.fresh();
                let (_, whole_bytes) = measured(&whole_arena, || {
                    arena_core::json::from_reader::<Rich<'_>, _, _>(&whole_arena, &bytes[..])
                        .unwrap()
                });
                assert_eq!(whole_bytes, slice_bytes, "{format}: read whole");
            }
            check_call_invariants();
        });
    }
}

#[test]
fn json_from_reader_reads_escapes_split_across_reads() {
    let text = r#"{"a\u00e9\ud83d\ude00": ["\"\\\/\b\f\n\r\t", "plain"], "": []}"#;
    with_each_arena!(|arena| {
        type Doc<'a> = &'a [(&'a str, &'a [&'a str])];
        let from_slice: Doc<'_> = arena_core::json::from_str(arena, text).unwrap();
        assert_eq!(from_slice[0].0, "aé😀");
        assert_eq!(from_slice[0].1[0], "\"\\/\u{8}\u{c}\n\r\t");
        let read: Doc<'_> = arena_core::json::from_reader(arena, OneByte(text.as_bytes())).unwrap();
        assert_eq!(read, from_slice);
        check_call_invariants();
    });
}

#[test]
fn bincode_from_reader_with_config_reads_other_configurations() {
    let config = bincode::config::legacy();
    let bytes = bincode::serde::encode_to_vec(owned_rich(Format::Bincode), config).unwrap();
    with_each_arena!(|arena| {
        let from_slice: Rich<'_> =
            arena_core::bincode::from_slice_with_config(arena, &bytes, config).unwrap();
        let read: Rich<'_> =
            arena_core::bincode::from_reader_with_config(arena, OneByte(&bytes[..]), config)
                .unwrap();
        assert_eq!(read, from_slice);
        let seed = ArenaSeed::new(arena).with_limits(Limits::default());
        let by_seed: Rich<'_> =
            arena_core::bincode::from_reader_seed_with_config(seed, &bytes[..], config).unwrap();
        assert_eq!(by_seed, from_slice);
        check_call_invariants();
    });
}

/// Reads one `OwnedEntry`'s shape from `reader` with the format's own reader helper
/// (serde_json::from_reader, postcard::from_io, bincode::serde::decode_from_std_read,
/// rmp_serde::from_read, cbor4ii::serde::from_reader); whether it succeeded.
fn reader_helper_accepts(format: Format, reader: &mut &[u8]) -> bool {
    type Fields = (
        String,
        Vec<String>,
        BTreeMap<String, Vec<u32>>,
        Option<String>,
    );
    match format.wire() {
        Format::Json => serde_json::from_reader::<_, serde::de::IgnoredAny>(reader).is_ok(),
        Format::Postcard => postcard::from_io::<Fields, _>((reader, &mut [0; 1024])).is_ok(),
        Format::Bincode => bincode::serde::decode_from_std_read::<Fields, _, _>(
            reader,
            bincode::config::standard(),
        )
        .is_ok(),
        Format::MsgPack | Format::MsgPackNamed => {
            rmp_serde::from_read::<_, serde::de::IgnoredAny>(reader).is_ok()
        }
        Format::Cbor | Format::CborIndefinite => {
            cbor4ii::serde::from_reader::<serde::de::IgnoredAny, _>(reader).is_ok()
        }
        Format::PostcardStrAsBytes | Format::BincodeStrAsBytes => unreachable!("wire() maps them"),
    }
}

#[test]
fn from_reader_treats_trailing_input_as_the_formats_reader_helper() {
    let owned = owned_entry();
    let tails: [&[u8]; 3] = [b" \n\t", &[0xFF], &[0xC1, 0x00, b'x']];
    for format in wires() {
        let bytes = format.to_bytes(&owned);
        for tail in tails {
            let longer = [&bytes[..], tail].concat();
            let mut helper_rest = &longer[..];
            let helper = reader_helper_accepts(format, &mut helper_rest);
            // serde_json::from_reader reads to the end; the others stop after the value.
            let expected = format != Format::Json || tail == b" \n\t";
            assert_eq!(helper, expected, "{format}, tail {tail:?}: the helper");
            with_each_arena!(|arena| {
                let mut rest = &longer[..];
                // `&mut &[u8]` is a `BufRead`: CBOR reads it without a buffer of the test's.
                let read = match format {
                    Format::Cbor | Format::CborIndefinite => {
                        arena_core::cbor::from_reader::<Entry<'_>, _, _>(arena, &mut rest)
                            .map_err(|e| e.to_string())
                    }
                    _ => reader_entry_point::<Entry<'_>, _, _>(format, arena, &mut rest),
                };
                assert_eq!(read.is_ok(), helper, "{format}, tail {tail:?}: {read:?}");
                if let Ok(read) = read {
                    assert_is_owned_entry(&read);
                    if format != Format::Json {
                        assert_eq!(rest, tail, "{format}: the reader stops after the value");
                        assert_eq!(rest, helper_rest, "{format}: where the helper stops");
                    }
                }
                let seed = ArenaSeed::new(arena).with_limits(Limits::default());
                let read = reader_seed_form::<Entry<'_>, _, _>(format, seed, OneByte(&longer[..]));
                assert_eq!(read.is_ok(), helper, "{format}, tail {tail:?}: seed form");
                check_call_invariants();
            });
        }
    }
}

#[test]
fn from_reader_reads_a_stream_of_messages_one_call_each() {
    let words = [vec!["a", "b"], vec![], vec!["c"]];
    for format in wires().filter(|format| *format != Format::Json) {
        let stream: Vec<u8> = words.iter().flat_map(|w| format.to_bytes(w)).collect();
        with_each_arena!(|arena| {
            // CBOR takes a `BufRead`: one buffer for the whole stream.
            let mut reader = BufReader::new(&stream[..]);
            for expected in &words {
                let read: &[&str] = match format {
                    Format::Cbor | Format::CborIndefinite => {
                        arena_core::cbor::from_reader(arena, &mut reader).unwrap()
                    }
                    _ => reader_entry_point(format, arena, &mut reader).unwrap(),
                };
                assert_eq!(read, expected.as_slice(), "{format}");
            }
            assert_eq!(reader.bytes().count(), 0, "{format}: all read");
            check_call_invariants();
        });
    }
}

#[test]
fn from_reader_seed_applies_each_limit_as_the_slice_form_does() {
    let limits = [
        Limits::default().max_len(2),
        Limits::default().max_str_len(100),
        Limits::default().max_bytes(1000),
        Limits::default().max_depth(2),
    ];
    for format in wires() {
        let bytes = format.to_bytes(&owned_rich(format));
        for limit in limits {
            with_each_arena!(|arena| {
                let from_slice = seed_form::<Rich<'_>, _>(
                    format,
                    ArenaSeed::new(arena).with_limits(limit),
                    &bytes,
                );
                let err = from_slice.expect_err("the limit is hit");
                let (read, used) = measured(arena, || {
                    reader_seed_form::<Rich<'_>, _, _>(
                        format,
                        ArenaSeed::new(arena).with_limits(limit),
                        OneByte(&bytes[..]),
                    )
                });
                assert_eq!(
                    without_position(&read.unwrap_err()),
                    without_position(&err),
                    "{format}, {limit:?}"
                );
                if BumpAllocator::checkpoint(arena).is_some() {
                    assert_eq!(used, 0, "{format}: the failed call rewinds");
                }
                check_call_invariants();
            });
        }
    }
}

#[test]
fn invalid_utf8_from_a_reader_is_the_slice_forms_error() {
    // A string holding 0xFF, in each format.
    let inputs: [(Format, &[u8]); 5] = [
        (Format::Json, b"\"\xFF\""),
        (Format::Postcard, &[1, 0xFF]),
        (Format::Bincode, &[1, 0xFF]),
        (Format::MsgPack, &[0xA1, 0xFF]),
        (Format::Cbor, &[0x61, 0xFF]),
    ];
    for (format, bytes) in inputs {
        with_each_arena!(|arena| {
            let from_slice = entry_point::<&str, _>(format, arena, bytes).unwrap_err();
            let read = reader_entry_point::<&str, _, _>(format, arena, bytes).unwrap_err();
            assert_eq!(read, from_slice, "{format}");
            check_call_invariants();
        });
    }
}

/// How a read from a reader ended.
#[derive(Clone, Copy, Debug)]
enum Broken {
    /// The input ended early.
    Ended,
    /// The reader failed with [`FIRE`].
    Failed,
}

/// Reads an `Entry` from `reader` with the format's `from_reader` and checks that it fails
/// with the format's own error for `how`.
fn assert_broken_read<A: BumpAllocator + ?Sized>(
    format: Format,
    arena: &A,
    reader: impl Read,
    how: Broken,
) {
    let fired = |e: &io::Error| e.to_string() == FIRE;
    let ended = |e: &io::Error| e.kind() == io::ErrorKind::UnexpectedEof;
    let io_ok = |e: &io::Error| match how {
        Broken::Ended => ended(e),
        Broken::Failed => fired(e),
    };
    match format {
        Format::Json => {
            let err = arena_core::json::from_reader::<Entry<'_>, _, _>(arena, reader).unwrap_err();
            match how {
                Broken::Ended => assert!(err.is_eof(), "{format}: {err}"),
                Broken::Failed => assert!(err.is_io() && err.to_string().contains(FIRE), "{err}"),
            }
        }
        Format::Postcard => {
            let err =
                arena_core::postcard::from_reader::<Entry<'_>, _, _>(arena, reader).unwrap_err();
            assert_eq!(err, postcard::Error::DeserializeUnexpectedEnd, "{how:?}");
        }
        Format::Bincode => {
            let err =
                arena_core::bincode::from_reader::<Entry<'_>, _, _>(arena, reader).unwrap_err();
            assert!(
                matches!(&err, bincode::error::DecodeError::Io { inner, .. } if io_ok(inner)),
                "{how:?}: {err:?}"
            );
        }
        Format::MsgPack | Format::MsgPackNamed => {
            let err =
                arena_core::msgpack::from_reader::<Entry<'_>, _, _>(arena, reader).unwrap_err();
            assert!(
                matches!(
                    &err,
                    rmp_serde::decode::Error::InvalidMarkerRead(e)
                        | rmp_serde::decode::Error::InvalidDataRead(e) if io_ok(e)
                ),
                "{how:?}: {err:?}"
            );
        }
        Format::Cbor | Format::CborIndefinite => {
            use cbor4ii::core::error::DecodeError as Core;
            let err =
                arena_core::cbor::from_reader::<Entry<'_>, _, _>(arena, BufReader::new(reader))
                    .unwrap_err();
            let ok = match (&err, how) {
                (cbor4ii::serde::DecodeError::Core(Core::Eof { .. }), Broken::Ended) => true,
                (cbor4ii::serde::DecodeError::Core(Core::Read(e)), _) => io_ok(e),
                _ => false,
            };
            assert!(ok, "{how:?}: {err:?}");
        }
        other => unreachable!("{other} is not a wire format"),
    }
}

#[test]
fn a_reader_that_fails_or_ends_early_is_the_formats_error_and_rewinds() {
    let owned = owned_entry();
    for format in wires() {
        let bytes = format.to_bytes(&owned);
        for cut in 0..bytes.len() {
            with_each_arena!(|arena| {
                let (_, used) = measured(arena, || {
                    assert_broken_read(format, arena, &bytes[..cut], Broken::Ended);
                    let failing = FailsAfter {
                        bytes: &bytes,
                        left: cut,
                    };
                    assert_broken_read(format, arena, OneByte(failing), Broken::Failed);
                });
                if BumpAllocator::checkpoint(arena).is_some() {
                    assert_eq!(used, 0, "{format}, cut at {cut}: the failed calls rewind");
                }
                check_call_invariants();
            });
        }
    }
}

/// Inputs that claim a length far beyond their few bytes, with what they are read as.
fn huge_claims() -> Vec<(Format, &'static str, Vec<u8>)> {
    let tb = 1u64 << 40;
    let varint_tb = vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x20];
    let varint_2_62 = vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40];
    let bincode_tb = [&[0xFD][..], &tb.to_le_bytes()].concat();
    let bincode_max = [&[0xFD][..], &u64::MAX.to_le_bytes()].concat();
    // Within what the bincode reader allocates for a claim before reading it (64 KiB).
    let bincode_60k = [&[0xFB][..], &60_000u16.to_le_bytes()].concat();
    let abc = |head: Vec<u8>| [head, b"abc".to_vec()].concat();
    let mut claims = Vec::new();
    for kind in ["str", "bytes", "bstr", "u32s"] {
        claims.push((Format::Postcard, kind, abc(varint_tb.clone())));
        claims.push((Format::Postcard, kind, abc(varint_2_62.clone())));
        // Not on 32-bit targets: bincode 2.0.1 decodes a varint length as `u64 as usize`, so
        // there 2^40 reads as 0 and the input as an empty value, no error (bincode's own
        // `String` decoding checks the conversion; its sequences, which these are read as, do
        // not). `bincode_max` truncates to `u32::MAX` there, still a claim past the input.
        if cfg!(target_pointer_width = "64") {
            claims.push((Format::Bincode, kind, abc(bincode_tb.clone())));
        }
        claims.push((Format::Bincode, kind, abc(bincode_max.clone())));
        claims.push((Format::Bincode, kind, abc(bincode_60k.clone())));
    }
    let u32_max = u32::MAX.to_be_bytes();
    claims.push((
        Format::MsgPack,
        "str",
        abc([&[0xDB][..], &u32_max].concat()),
    ));
    claims.push((
        Format::MsgPack,
        "bytes",
        abc([&[0xC6][..], &u32_max].concat()),
    ));
    claims.push((
        Format::MsgPack,
        "bstr",
        abc([&[0xC6][..], &u32_max].concat()),
    ));
    claims.push((
        Format::MsgPack,
        "u32s",
        abc([&[0xDD][..], &u32_max].concat()),
    ));
    let cbor_tb = tb.to_be_bytes();
    claims.push((Format::Cbor, "str", abc([&[0x7B][..], &cbor_tb].concat())));
    claims.push((Format::Cbor, "bytes", abc([&[0x5B][..], &cbor_tb].concat())));
    claims.push((Format::Cbor, "bstr", abc([&[0x5B][..], &cbor_tb].concat())));
    claims.push((Format::Cbor, "u32s", abc([&[0x9B][..], &cbor_tb].concat())));
    claims.push((Format::Json, "str", b"\"abc".to_vec()));
    claims.push((Format::Json, "u32s", b"[1, 2".to_vec()));
    claims
}

/// Reads `bytes` as `kind` from a reader with `seed`'s limits.
fn read_kind<A: BumpAllocator + ?Sized>(
    format: Format,
    arena: &A,
    kind: &str,
    bytes: &[u8],
    limits: Limits,
) -> Result<(), String> {
    fn read<'bump, T: ArenaDeserialize<'bump, A>, A: BumpAllocator + ?Sized>(
        format: Format,
        arena: &'bump A,
        bytes: &[u8],
        limits: Limits,
    ) -> Result<(), String> {
        let seed = ArenaSeed::<T, A>::new(arena).with_limits(limits);
        reader_seed_form(format, seed, bytes).map(|_| ())
    }
    match kind {
        "str" => read::<&str, A>(format, arena, bytes, limits),
        "bytes" => read::<&[u8], A>(format, arena, bytes, limits),
        "bstr" => read::<BStr<'_>, A>(format, arena, bytes, limits),
        _ => read::<&[u32], A>(format, arena, bytes, limits),
    }
}

#[test]
fn a_length_claimed_far_beyond_the_input_fails_without_being_allocated() {
    // Without limits: the claim is read as far as the input goes (an allocation of the claim
    // would abort the test: 2^40 bytes and more), then fails at its end.
    for (format, kind, bytes) in huge_claims() {
        with_each_arena!(|arena| {
            let (read, used) = measured(arena, || {
                read_kind(format, arena, kind, &bytes, Limits::default())
            });
            let err = read.expect_err("the input ends first");
            assert!(!err.is_empty(), "{format} {kind}");
            if BumpAllocator::checkpoint(arena).is_some() {
                assert_eq!(used, 0, "{format} {kind}: rewound");
            }
            assert!(
                BumpAllocator::stats(arena).reserved_bytes < 1 << 30,
                "{format} {kind}: {:?}",
                BumpAllocator::stats(arena)
            );
            check_call_invariants();
        });
    }
}

/// postcard and bincode: a claimed string length is checked against the string length limit
/// before the bytes are read (MessagePack and CBOR read the string before the arena sees it,
/// and grow their buffers only with the bytes that arrive).
#[test]
fn a_claimed_length_past_the_string_limit_fails_before_it_is_read() {
    for (format, kind, bytes) in huge_claims() {
        if !matches!(format, Format::Postcard | Format::Bincode) || kind == "u32s" {
            continue;
        }
        with_each_arena!(|arena| {
            let limits = Limits::default().max_str_len(100);
            let err = read_kind(format, arena, kind, &bytes, limits).unwrap_err();
            // postcard keeps no message for errors raised outside it.
            if format != Format::Postcard {
                assert!(
                    err.contains("string length limit of 100 bytes"),
                    "{format} {kind}: {err}"
                );
            }
            check_call_invariants();
        });
    }
}

/// Byte strings and maps in both of serde's forms, for the CBOR entry points.
#[derive(ArenaDeserialize, Debug)]
struct Forms<'bump> {
    bytes: &'bump [u8],
    bstr: BStr<'bump>,
    pairs: &'bump [(&'bump str, u32)],
}

/// The owned twin of [`Forms`] as serde writes it: `Vec<u8>` and `Vec<(K, V)>` are arrays.
#[derive(Serialize)]
struct OwnedArrayForms {
    bytes: Vec<u8>,
    bstr: Vec<u8>,
    pairs: Vec<(String, u32)>,
}

/// The same data in the other forms: byte strings and a map.
#[derive(Serialize)]
struct OwnedStringForms {
    bytes: ByteBuf,
    bstr: ByteBuf,
    pairs: BTreeMap<String, u32>,
}

fn assert_forms(read: &Forms<'_>) {
    assert_eq!(read.bytes, [0, 1, 0xFF]);
    assert_eq!(read.bstr.as_bytes(), b"bs");
    assert_eq!(read.pairs, [("a", 1), ("b", 2)]);
}

/// cbor4ii's deserializer reads only the form it is asked for; the CBOR entry points ask for
/// either, so what serde writes for the owned twin (arrays) reads back as well as byte strings
/// and maps, from a slice and from a reader.
#[test]
fn cbor_entry_points_read_both_forms_of_bytes_and_maps() {
    let arrays = Format::Cbor.to_bytes(&OwnedArrayForms {
        bytes: vec![0, 1, 0xFF],
        bstr: b"bs".to_vec(),
        pairs: vec![("a".to_owned(), 1), ("b".to_owned(), 2)],
    });
    let strings = Format::Cbor.to_bytes(&OwnedStringForms {
        bytes: ByteBuf::bytes(&[0, 1, 0xFF]),
        bstr: ByteBuf::bytes(b"bs"),
        pairs: BTreeMap::from([("a".to_owned(), 1), ("b".to_owned(), 2)]),
    });
    with_each_arena!(|arena| {
        // A plain seed over cbor4ii reads the byte string and map forms only.
        let direct: Result<Forms, String> = Format::Cbor.decode_in(arena, &arrays);
        assert!(direct.is_err(), "{direct:?}");
        let direct: Forms = Format::Cbor.decode_in(arena, &strings).unwrap();
        assert_forms(&direct);
        for bytes in [&arrays, &strings] {
            let read: Forms = arena_core::cbor::from_slice(arena, bytes).unwrap();
            assert_forms(&read);
            let read: Forms = arena_core::cbor::from_reader(arena, &bytes[..]).unwrap();
            assert_forms(&read);
            check_call_invariants();
        }
    });
}

/// The formats that announce lengths: the slice entry points know the input's size, so a
/// length up to it goes straight into the arena, with no trust earned first.
fn announcing() -> impl Iterator<Item = Format> {
    wires().filter(|format| *format != Format::Json)
}

#[test]
fn a_large_sequence_the_input_bounds_goes_straight_into_the_arena() {
    // 400 KB of u64s: far past the 16 KiB a call trusts at first.
    let owned: Vec<u64> = (0..50_000u64).map(|i| i * 7919).collect();
    for format in announcing() {
        let bytes = format.to_bytes(&owned);
        with_each_arena!(|arena| {
            arena_core::release_thread_scratch();
            let read: &[u64] = entry_point(format, arena, &bytes).unwrap();
            assert_eq!(read, owned, "{format}");
            assert_eq!(
                arena_core::thread_memory_stats().scratch_capacity,
                0,
                "{format}: staged, not read in place"
            );
            // The same bytes through a plain seed, whose input has no known size: staged.
            let read: &[u64] = format.decode_in(arena, &bytes).unwrap();
            assert_eq!(read.len(), owned.len());
            assert!(
                arena_core::thread_memory_stats().scratch_capacity > 0,
                "{format}"
            );
            check_call_invariants();
        });
    }
}

#[test]
fn a_lie_the_input_bounds_costs_at_most_the_input_in_elements_and_is_rewound() {
    // A sequence of 20,000 `[u8; 8]`, cut after half its bytes: a claim of 160 KB (past the
    // trust) that the input's size allows, and that the input cannot fill.
    let owned = vec![[7u8; 8]; 20_000];
    for format in announcing() {
        let whole = format.to_bytes(&owned);
        let cut = &whole[..whole.len() / 2];
        with_each_arena!(|arena| {
            let before = BumpAllocator::stats(arena).used_bytes;
            assert!(entry_point::<&[[u8; 8]], _>(format, arena, cut).is_err());
            let held = BumpAllocator::stats(arena).used_bytes - before;
            if BumpAllocator::checkpoint(arena).is_some() {
                assert_eq!(held, 0, "{format}: a rewinding arena is back where it was");
            } else {
                // The claim was taken (its whole block), and no more than the input allows.
                assert!(held >= 160_000, "{format}: {held} bytes held");
                assert!(held <= cut.len() * 8, "{format}: {held} bytes held");
            }
            // Under a byte budget smaller than the claim, nothing of it is reserved.
            let before = BumpAllocator::stats(arena).used_bytes;
            let seed = ArenaSeed::<&[[u8; 8]], _>::new(arena)
                .with_limits(Limits::default().max_bytes(64 * 1024));
            assert!(seed_form(format, seed, cut).is_err());
            let held = BumpAllocator::stats(arena).used_bytes - before;
            assert!(
                held <= 64 * 1024,
                "{format}: {held} bytes held under the budget"
            );
            check_call_invariants();
        });
    }
}
