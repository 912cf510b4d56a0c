//! Malformed input: wrong types, truncated data and absurd lengths are errors, never panics or
//! aborts, and never reserve memory because the input asked for it.

use arena_core::{BStr, BumpAllocator};
use arena_tests::{Format, with_each_arena};

/// Far below what any absurd length would reserve, far above what the inputs here need.
const SMALL_ARENA: usize = 4 * 1024 * 1024;

#[test]
fn wrong_types_are_errors_with_serde_wording() {
    with_each_arena!(|arena| {
        let e = Format::Json
            .decode_in::<u32, _>(arena, br#""abc""#)
            .unwrap_err();
        assert!(
            e.contains("invalid type: string \"abc\", expected u32"),
            "{e}"
        );
        let e = Format::Json
            .decode_in::<&str, _>(arena, b"123")
            .unwrap_err();
        assert!(
            e.contains("invalid type: integer `123`, expected a string"),
            "{e}"
        );
        let e = Format::Json
            .decode_in::<&[u8], _>(arena, b"{}")
            .unwrap_err();
        assert!(e.contains("expected a byte array"), "{e}");
        let e = Format::Json
            .decode_in::<&[u16], _>(arena, b"[1, -1]")
            .unwrap_err();
        assert!(
            e.contains("invalid value: integer `-1`, expected u16"),
            "{e}"
        );
        let e = Format::Json
            .decode_in::<[u8; 3], _>(arena, b"[1, 2]")
            .unwrap_err();
        assert!(
            e.contains("invalid length 2, expected an array of length 3"),
            "{e}"
        );
        let e = Format::Json
            .decode_in::<(u8, bool), _>(arena, b"[1]")
            .unwrap_err();
        assert!(
            e.contains("invalid length 1, expected a tuple of size 2"),
            "{e}"
        );
        let e = Format::Json.decode_in::<u8, _>(arena, b"1.5").unwrap_err();
        assert!(e.contains("invalid type: floating point"), "{e}");
        // Invalid UTF-8 where a string is expected: postcard writes strings as length + bytes.
        let e = Format::Postcard
            .decode_in::<&str, _>(arena, &[2, 0xff, 0xfe])
            .unwrap_err();
        assert!(!e.is_empty());
        let bstr: BStr = Format::Postcard.decode_in(arena, &[2, 0xff, 0xfe]).unwrap();
        assert_eq!(bstr.as_bytes(), [0xff, 0xfe]);
    });
}

/// Every strict prefix of a valid encoding fails for serde's owned type, and fails for the
/// arena type too.
#[test]
fn every_truncation_is_an_error() {
    let owned: Vec<(String, Vec<u32>, Option<u64>)> = (0..6u32)
        .map(|i| {
            (
                format!("name {i}"),
                (0..i).collect(),
                (i % 2 == 0).then_some(u64::MAX - u64::from(i)),
            )
        })
        .collect();
    for fmt in Format::ALL {
        let bytes = fmt.to_bytes(&owned);
        for cut in 0..bytes.len() {
            let prefix = &bytes[..cut];
            if fmt
                .decode_owned::<Vec<(String, Vec<u32>, Option<u64>)>>(prefix)
                .is_ok()
            {
                continue;
            }
            with_each_arena!(|arena| {
                let r = fmt.decode_in::<&[(&str, &[u32], Option<u64>)], _>(arena, prefix);
                assert!(r.is_err(), "{fmt}: prefix of {cut} bytes was accepted");
            });
        }
    }
}

/// Inputs of a few bytes that announce 2^32-1 or 2^64-1 elements or bytes.
fn absurd_lengths() -> Vec<(&'static str, Format, Vec<u8>)> {
    let varint_u64_max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    let mut cases = vec![
        (
            "postcard varint 2^64-1",
            Format::Postcard,
            varint_u64_max.to_vec(),
        ),
        (
            "postcard varint 2^32-1",
            Format::Postcard,
            vec![0xff, 0xff, 0xff, 0xff, 0x0f],
        ),
    ];
    // bincode 2 standard config: 0xfd announces a little-endian u64.
    let mut bincode = vec![0xfd];
    bincode.extend_from_slice(&u64::MAX.to_le_bytes());
    cases.push(("bincode u64::MAX", Format::Bincode, bincode));
    cases.push((
        "bincode u32::MAX",
        Format::Bincode,
        vec![0xfc, 0xff, 0xff, 0xff, 0xff],
    ));
    for (name, marker) in [
        ("array32", 0xdd),
        ("map32", 0xdf),
        ("str32", 0xdb),
        ("bin32", 0xc6),
    ] {
        cases.push((name, Format::MsgPack, vec![marker, 0xff, 0xff, 0xff, 0xff]));
    }
    for (name, major) in [
        ("array", 0x9b),
        ("map", 0xbb),
        ("text", 0x7b),
        ("bytes", 0x5b),
    ] {
        let mut v = vec![major];
        v.extend_from_slice(&u64::MAX.to_be_bytes());
        cases.push((name, Format::Cbor, v));
    }
    cases
}

#[test]
fn absurd_lengths_are_errors_without_reserving() {
    for (name, fmt, input) in absurd_lengths() {
        with_each_arena!(|arena| {
            assert!(
                fmt.decode_in::<&[u64], _>(arena, &input).is_err(),
                "{name}: &[u64]"
            );
            assert!(
                fmt.decode_in::<&[&str], _>(arena, &input).is_err(),
                "{name}: &[&str]"
            );
            assert!(
                fmt.decode_in::<&str, _>(arena, &input).is_err(),
                "{name}: &str"
            );
            assert!(
                fmt.decode_in::<&[u8], _>(arena, &input).is_err(),
                "{name}: &[u8]"
            );
            assert!(
                fmt.decode_in::<BStr, _>(arena, &input).is_err(),
                "{name}: BStr"
            );
            assert!(
                fmt.decode_in::<&[(u8, u8)], _>(arena, &input).is_err(),
                "{name}: pairs"
            );
            assert!(
                fmt.decode_in::<&[[u64; 4]], _>(arena, &input).is_err(),
                "{name}: arrays"
            );
            let stats = BumpAllocator::stats(arena);
            assert!(
                stats.reserved_bytes < SMALL_ARENA,
                "{name}: arena grew to {stats}"
            );
        });
        // The typed hashbrown map reserves from the collected entries only.
        let bump = bumpalo::Bump::new();
        let r = fmt.decode_in::<hashbrown::HashMap<u8, u8, hashbrown::DefaultHashBuilder, &bumpalo::Bump>, _>(
            &bump, &input,
        );
        assert!(r.is_err(), "{name}: hashbrown");
        assert!(bump.stats().reserved_bytes < SMALL_ARENA);
    }
}

/// The bytes that announce a sequence (`seq`) or a string of 10^6 elements or bytes in `fmt`.
fn million_prefix(fmt: Format, seq: bool) -> Vec<u8> {
    const MILLION: u32 = 1_000_000;
    match fmt {
        // Both write a length as they write an integer: a varint (postcard), or 0xfc and a
        // little-endian u32 (bincode 2's standard configuration).
        Format::Postcard | Format::Bincode => fmt.to_bytes(&MILLION),
        // array32 / str32 and a big-endian u32.
        Format::MsgPack => {
            let mut v = vec![if seq { 0xdd } else { 0xdb }];
            v.extend_from_slice(&MILLION.to_be_bytes());
            v
        }
        _ => unreachable!("{fmt} is not a length-prefixed binary format"),
    }
}

/// How postcard, bincode 2 and rmp-serde say the input ended early.
const END_OF_INPUT: [&str; 4] = [
    "Hit the end of buffer",
    "UnexpectedEnd",
    "failed to fill whole buffer",
    "unexpected end of file",
];

/// 10^6 elements or bytes announced, a few present, then the input ends: the format's own
/// error, and the arena back to the bytes it used before the call where it can rewind.
#[test]
fn a_plausible_length_then_truncated_data_is_an_error() {
    let words = ["x".repeat(100), "y".repeat(200), "z".repeat(300)];
    for fmt in [Format::Postcard, Format::Bincode, Format::MsgPack] {
        // Each element encodes as it would inside a sequence, so three of them are its start.
        let strs = [
            million_prefix(fmt, true),
            words.each_ref().map(|w| fmt.to_bytes(w)).concat(),
        ]
        .concat();
        let ints = [
            million_prefix(fmt, true),
            [1u64, 2, 3].map(|n| fmt.to_bytes(&n)).concat(),
        ]
        .concat();
        let text = [million_prefix(fmt, false), b"abc".to_vec()].concat();
        let serde_errors = [
            fmt.decode_owned::<Vec<String>>(&strs).unwrap_err(),
            fmt.decode_owned::<Vec<u64>>(&ints).unwrap_err(),
            fmt.decode_owned::<String>(&text).unwrap_err(),
        ];
        for e in &serde_errors {
            assert!(
                END_OF_INPUT.iter().any(|end| e.contains(end)),
                "{fmt}: not an end of input: {e}"
            );
        }
        with_each_arena!(|arena| {
            // Something already in the arena: a rewind must stop there, not at empty.
            BumpAllocator::try_alloc_str(arena, "allocated before").unwrap();
            let rewinds = BumpAllocator::checkpoint(arena).is_some();
            let before = BumpAllocator::stats(arena).used_bytes;
            let errors = [
                fmt.decode_in::<&[&str], _>(arena, &strs).unwrap_err(),
                fmt.decode_in::<&[u64], _>(arena, &ints).unwrap_err(),
                fmt.decode_in::<&str, _>(arena, &text).unwrap_err(),
            ];
            assert_eq!(errors, serde_errors, "{fmt}");
            let stats = BumpAllocator::stats(arena);
            let held = stats.used_bytes - before;
            if rewinds {
                assert_eq!(held, 0, "{fmt}: the arena was not rewound ({stats})");
            } else {
                // bumpalo keeps the strings read before the end, and at most the 64 KiB of
                // short-sequence blocks a failed call can leave.
                assert!(held >= 600, "{fmt}: the strings were never allocated");
                assert!(held <= 64 * 1024 + strs.len(), "{fmt}: {held} bytes left");
            }
            assert!(stats.reserved_bytes < SMALL_ARENA, "{fmt}: {stats}");
        });
    }
}

#[test]
fn failed_calls_leave_the_thread_scratch_usable() {
    let good = Format::Json.to_bytes(&vec![vec![1u8, 2], vec![3]]);
    with_each_arena!(|arena| {
        for _ in 0..100 {
            assert!(
                Format::Json
                    .decode_in::<&[&[u8]], _>(arena, b"[[1, 2], [3, \"x\"]]")
                    .is_err()
            );
            let ok: &[&[u8]] = Format::Json.decode_in(arena, &good).unwrap();
            assert_eq!(ok, [&[1u8, 2][..], &[3]]);
        }
    });
}
