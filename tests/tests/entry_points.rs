//! The one-call entry points (`arena_core::{json, postcard, bincode, msgpack, cbor}`, feature
//! `formats`): on every arena they read what `ArenaSeed` driven by the format's deserializer
//! reads, treat trailing input as the format's own helper does, return the format's own error
//! type, and their seed forms keep the seed's limits and an explicit `str_as_bytes`.

use std::collections::BTreeMap;

use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator, Limits};
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
        Format::Cbor => arena_core::cbor::from_slice(arena, bytes).map_err(|e| e.to_string()),
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
        Format::Cbor => arena_core::cbor::from_slice_seed(seed, bytes).map_err(|e| e.to_string()),
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
        Format::Cbor => cbor4ii::serde::from_slice::<serde::de::IgnoredAny>(bytes).is_ok(),
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
                Format::Cbor => {
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
