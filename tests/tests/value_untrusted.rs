//! `arena_core::Value` under hostile input: deep nesting is a depth error (not a stack
//! overflow), absurd announced lengths reserve nothing, every truncation and invalid UTF-8 is an
//! error, formats that cannot describe themselves say so, `Limits` apply, and a failed read
//! rewinds the arenas that can.

use arena_core::{BumpAllocator, Limits, Value};
use arena_tests::hostile::{failing_at_the_end, on_small_stack};
use arena_tests::{Format, with_each_arena};

/// The self-describing encodings `Value` reads.
const SELF_DESCRIBING: [Format; 3] = [Format::Json, Format::MsgPack, Format::Cbor];

/// Reads a `Value` from `bytes` in `fmt` into `arena` under `limits`.
fn read_limited<'bump, A: BumpAllocator + ?Sized>(
    fmt: Format,
    arena: &'bump A,
    limits: Limits,
    bytes: &[u8],
) -> Result<Value<'bump>, String> {
    fmt.decode_seed(
        fmt.arena_seed::<Value<'bump>, A>(arena).with_limits(limits),
        bytes,
    )
}

/// One million levels of nesting.
const DEEP: usize = 1_000_000;

#[test]
fn a_million_levels_of_nesting_is_a_depth_error_not_a_stack_overflow() {
    on_small_stack(|| {
        with_each_arena!(|arena| {
            // JSON: serde_json's own recursion limit (128) answers first; either is fine.
            for json in ["[".repeat(DEEP), r#"{"a":"#.repeat(DEEP)] {
                let e = Format::Json
                    .decode_in::<Value, _>(arena, json.as_bytes())
                    .unwrap_err();
                assert!(e.contains("depth") || e.contains("recursion limit"), "{e}");
            }
            // MessagePack fixarray of 1, and fixmap of 1 whose value nests: our limit answers.
            let arrays = vec![0x91u8; DEEP];
            let maps = [0x81u8, 0xa1, b'a'].repeat(DEEP);
            // CBOR array of 1, and map of 1 whose value nests.
            let cbor_arrays = vec![0x81u8; DEEP];
            let cbor_maps = [0xa1u8, 0x61, b'a'].repeat(DEEP);
            for (fmt, input) in [
                (Format::MsgPack, arrays),
                (Format::MsgPack, maps),
                (Format::Cbor, cbor_arrays),
                (Format::Cbor, cbor_maps),
            ] {
                let e = fmt.decode_in::<Value, _>(arena, &input).unwrap_err();
                assert!(
                    e.contains("nesting depth limit of 128 exceeded"),
                    "{fmt}: {e}"
                );
            }
        });
    });
}

#[test]
fn the_depth_limit_is_ours_below_the_formats() {
    on_small_stack(|| {
        with_each_arena!(|arena| {
            // 100 levels: within serde_json's 128, past a limit of 50.
            let json = format!("{}{}", "[".repeat(100), "]".repeat(100));
            let e = read_limited(
                Format::Json,
                arena,
                Limits::default().max_depth(50),
                json.as_bytes(),
            )
            .unwrap_err();
            assert!(e.contains("nesting depth limit of 50 exceeded"), "{e}");
            assert!(read_limited(Format::Json, arena, Limits::default(), json.as_bytes()).is_ok());
        });
    });
}

/// Inputs announcing about 2^32 or 2^64 elements or bytes, then ending.
fn absurd_lengths() -> Vec<(Format, Vec<u8>)> {
    let ff4 = [0xffu8; 4];
    let ff8 = [0xffu8; 8];
    let with = |head: u8, len: &[u8]| [&[head][..], len, b"abc"].concat();
    vec![
        // MessagePack array32, map32, str32, bin32.
        (Format::MsgPack, with(0xdd, &ff4)),
        (Format::MsgPack, with(0xdf, &ff4)),
        (Format::MsgPack, with(0xdb, &ff4)),
        (Format::MsgPack, with(0xc6, &ff4)),
        // CBOR array, map, text and byte string with 64-bit lengths.
        (Format::Cbor, with(0x9b, &ff8)),
        (Format::Cbor, with(0xbb, &ff8)),
        (Format::Cbor, with(0x7b, &ff8)),
        (Format::Cbor, with(0x5b, &ff8)),
        // The same nested 100 deep under 65,535-element array16 headers.
        (Format::MsgPack, [0xdc, 0xff, 0xff].repeat(100)),
    ]
}

#[test]
fn absurd_announced_lengths_are_errors_that_reserve_nothing() {
    for (fmt, input) in absurd_lengths() {
        with_each_arena!(|arena| {
            arena_core::release_thread_scratch();
            assert!(
                fmt.decode_in::<Value, _>(arena, &input).is_err(),
                "{fmt}: {input:x?}"
            );
            let stats = BumpAllocator::stats(arena);
            assert!(stats.used_bytes < 4096, "{fmt}: the arena holds {stats:?}");
            assert!(
                stats.reserved_bytes <= 1 << 20,
                "{fmt}: the arena reserved {stats:?}"
            );
            let scratch = arena_core::__private::thread_scratch_capacity();
            assert!(
                scratch <= (1 << 20) + 4096,
                "{fmt}: scratch grew to {scratch} bytes"
            );
        });
    }
}

/// A small document with every kind of JSON node, as `serde_json::Value`.
fn small_document() -> serde_json::Value {
    serde_json::json!({
        "name": "Lyon",
        "numbers": [0, 1, -2, 300, 70000, -5000000000i64, 3.5, u64::MAX],
        "nested": {"empty": [], "nothing": null, "yes": true, "text": "é\"\\"},
        "list": [{"a": "b"}, [], {}],
    })
}

#[test]
fn every_truncation_is_an_error_and_rewinds() {
    let document = small_document();
    for fmt in SELF_DESCRIBING {
        let bytes = fmt.to_bytes(&document);
        with_each_arena!(|arena| {
            let whole = fmt.decode_in::<Value, _>(arena, &bytes).unwrap();
            let Value::Map(entries) = whole else {
                panic!("{fmt}: {whole:?}")
            };
            assert_eq!(entries.len(), 4, "{fmt}");
            for end in 0..bytes.len() {
                let before = BumpAllocator::stats(arena).used_bytes;
                let read = fmt.decode_in::<Value, _>(arena, &bytes[..end]);
                assert!(read.is_err(), "{fmt}: {end} bytes read as {read:?}");
                // Only bumpalo keeps a failed call's bytes.
                if BumpAllocator::checkpoint(arena).is_some() {
                    assert_eq!(
                        BumpAllocator::stats(arena).used_bytes,
                        before,
                        "{fmt}: {end} bytes"
                    );
                }
            }
        });
    }
}

#[test]
fn invalid_utf8_in_strings_is_an_error() {
    with_each_arena!(|arena| {
        for json in [
            &b"\"a\xffb\""[..],
            b"{\"\xfe\": 1}",
            br#""\ud800""#,
            br#"{"\udc00": 1}"#,
        ] {
            let e = Format::Json.decode_in::<Value, _>(arena, json).unwrap_err();
            assert!(
                e.contains("invalid unicode code point")
                    || e.contains("surrogate")
                    || e.contains("hex escape"),
                "{json:x?}: {e}"
            );
        }
        // CBOR text strings, as a value and as a map key.
        for cbor in [&[0x62u8, 0xff, 0xfe][..], &[0xa1, 0x62, 0xff, 0xfe, 0x01]] {
            assert!(Format::Cbor.decode_in::<Value, _>(arena, cbor).is_err());
        }
    });
}

#[test]
fn invalid_utf8_in_a_messagepack_string_reads_as_bytes() {
    // rmp-serde hands a `str` that is not UTF-8 to `visit_bytes` when the visitor takes bytes,
    // as `Value`'s does: the bytes are kept, as a byte string, never as a `Str`.
    with_each_arena!(|arena| {
        let value = Format::MsgPack
            .decode_in::<Value, _>(arena, &[0xa2, 0xff, 0xfe])
            .unwrap();
        assert_eq!(value, Value::Bytes(&[0xff, 0xfe]));
        let map = Format::MsgPack
            .decode_in::<Value, _>(arena, &[0x81, 0xa2, 0xff, 0xfe, 0x01])
            .unwrap();
        assert_eq!(
            map,
            Value::Map(&[(Value::Bytes(&[0xff, 0xfe]), Value::U64(1))])
        );
    });
}

#[test]
fn formats_that_cannot_describe_themselves_say_so() {
    let bytes = postcard::to_allocvec(&(1u8, "a")).unwrap();
    with_each_arena!(|arena| {
        // postcard's `WontImplement` error.
        let e = Format::Postcard
            .decode_in::<Value, _>(arena, &bytes)
            .unwrap_err();
        assert!(e.contains("will never implement"), "{e}");
        let e = Format::Bincode
            .decode_in::<Value, _>(arena, &bytes)
            .unwrap_err();
        assert!(e.contains("AnyNotSupported"), "{e}");
    });
}

#[test]
fn each_limit_applies_to_a_value() {
    with_each_arena!(|arena| {
        let cases: [(Limits, Format, &[u8], &str); 8] = [
            (
                Limits::default().max_len(3),
                Format::Json,
                b"[1,2,3,4]",
                "sequence length limit of 3 elements exceeded",
            ),
            (
                Limits::default().max_len(1),
                Format::Json,
                br#"{"a":1,"b":2}"#,
                "sequence length limit of 1 elements exceeded",
            ),
            (
                Limits::default().max_str_len(4),
                Format::Json,
                br#"["hello"]"#,
                "string length limit of 4 bytes exceeded",
            ),
            (
                Limits::default().max_str_len(4),
                Format::Json,
                br#"{"hello": 1}"#,
                "string length limit of 4 bytes exceeded",
            ),
            // MessagePack bin8 of 5 bytes.
            (
                Limits::default().max_str_len(4),
                Format::MsgPack,
                &[0xc4, 5, 1, 2, 3, 4, 5],
                "string length limit of 4 bytes exceeded",
            ),
            (
                Limits::default().max_bytes(10),
                Format::Json,
                br#"["12345", "67890", "x"]"#,
                "arena byte limit of 10 bytes exceeded",
            ),
            // Three levels: two arrays and the number in them.
            (
                Limits::default().max_depth(2),
                Format::Json,
                b"[[1]]",
                "nesting depth limit of 2 exceeded",
            ),
            (
                Limits::default().max_depth(2),
                Format::Json,
                br#"{"a": {"b": 1}}"#,
                "nesting depth limit of 2 exceeded",
            ),
        ];
        for (limits, fmt, input, message) in cases {
            let e = read_limited(fmt, arena, limits, input).unwrap_err();
            assert!(e.contains(message), "{fmt} {input:x?}: {e}");
        }
        // Exactly at the limits is fine.
        let limits = Limits::default().max_len(2).max_str_len(5).max_depth(3);
        let ok = read_limited(Format::Json, arena, limits, br#"[["12345"], "x"]"#).unwrap();
        assert_eq!(
            ok,
            Value::Array(&[Value::Array(&[Value::Str("12345")]), Value::Str("x")])
        );
        let ok = read_limited(Format::Json, arena, limits, br#"{"a": {"b": 1}}"#).unwrap();
        assert_eq!(
            ok,
            Value::Map(&[(
                Value::Str("a"),
                Value::Map(&[(Value::Str("b"), Value::U64(1))])
            )])
        );
    });
}

/// A hundred failed reads on one arena leave its used bytes where they were.
fn check_rewinds<A: BumpAllocator>(arena: &A) {
    let kept = Format::Json
        .decode_in::<Value, _>(arena, br#"["kept"]"#)
        .unwrap();
    let after_good = arena.stats().used_bytes;
    let bad = failing_at_the_end();
    for _ in 0..100 {
        assert!(
            Format::Json
                .decode_in::<Value, _>(arena, bad.as_bytes())
                .is_err()
        );
        assert_eq!(arena.stats().used_bytes, after_good);
    }
    assert_eq!(kept, Value::Array(&[Value::Str("kept")]));
}

#[test]
fn a_failed_read_rewinds_bump_scope_and_slab_arenas() {
    check_rewinds(&bump_scope::Bump::<bump_scope::alloc::Global>::new());
    check_rewinds(&arena_core::SlabArena::new());
    // bumpalo cannot rewind (documented): the failed read's bytes stay until reset.
    let bumpalo = bumpalo::Bump::new();
    assert!(
        Format::Json
            .decode_in::<Value, _>(&bumpalo, failing_at_the_end().as_bytes())
            .is_err()
    );
    assert!(BumpAllocator::stats(&bumpalo).used_bytes > 0);
}
