//! `Limits` and rewind on error: every limit is a clear error naming itself, nesting cannot
//! overflow the stack, and a failed call leaves the arena as it was where the backend can rewind.

use arena_core::{ArenaDeserialize, ArenaSeed, BStr, BumpAllocator, Limits};
use arena_tests::hostile::{failing_at_the_end, on_small_stack};
use arena_tests::recursive::{Chain, Tree};
use arena_tests::{Format, with_each_arena};
use serde::de::DeserializeSeed;

/// Decodes with `limits` through `fmt`.
fn decode_limited<'bump, T, A>(
    fmt: Format,
    arena: &'bump A,
    limits: Limits,
    bytes: &[u8],
) -> Result<T, String>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    fmt.decode_seed(fmt.arena_seed::<T, A>(arena).with_limits(limits), bytes)
}

#[test]
fn each_limit_names_itself() {
    with_each_arena!(|arena| {
        let json = Format::Json;
        let e = decode_limited::<&[u8], _>(json, arena, Limits::default().max_len(3), b"[1,2,3,4]")
            .unwrap_err();
        assert!(
            e.contains("sequence length limit of 3 elements exceeded"),
            "{e}"
        );
        let e = decode_limited::<&[(&str, u8)], _>(
            json,
            arena,
            Limits::default().max_len(1),
            br#"{"a":1,"b":2}"#,
        )
        .unwrap_err();
        assert!(
            e.contains("sequence length limit of 1 elements exceeded"),
            "{e}"
        );
        let e =
            decode_limited::<&str, _>(json, arena, Limits::default().max_str_len(4), br#""hello""#)
                .unwrap_err();
        assert!(e.contains("string length limit of 4 bytes exceeded"), "{e}");
        let e =
            decode_limited::<BStr, _>(json, arena, Limits::default().max_str_len(4), br#""hello""#)
                .unwrap_err();
        assert!(e.contains("string length limit of 4 bytes exceeded"), "{e}");
        let e = decode_limited::<&[&str], _>(
            json,
            arena,
            Limits::default().max_bytes(10),
            br#"["12345", "67890", "x"]"#,
        )
        .unwrap_err();
        assert!(e.contains("arena byte limit of 10 bytes exceeded"), "{e}");
        let e =
            decode_limited::<&[&[u8]], _>(json, arena, Limits::default().max_depth(2), b"[[1]]")
                .unwrap_err();
        assert!(e.contains("nesting depth limit of 2 exceeded"), "{e}");
        // Exactly at the limits is fine.
        let ok: &[&str] = decode_limited(
            json,
            arena,
            Limits::default().max_len(2).max_str_len(5).max_depth(2),
            br#"["12345", "x"]"#,
        )
        .unwrap();
        assert_eq!(ok, ["12345", "x"]);
    });
}

#[test]
fn limits_apply_only_to_their_call() {
    with_each_arena!(|arena| {
        let limited =
            decode_limited::<&[u8], _>(Format::Json, arena, Limits::default().max_len(1), b"[1,2]");
        assert!(limited.is_err());
        // The next call, with the defaults, is not limited.
        let v: &[u8] = Format::Json.decode_in(arena, b"[1,2]").unwrap();
        assert_eq!(v, [1, 2]);
    });
}

#[test]
fn the_byte_budget_counts_everything_the_call_allocates() {
    let owned: Vec<Vec<String>> = (0..50)
        .map(|i| (0..i % 7).map(|j| format!("{i}/{j}")).collect())
        .collect();
    for fmt in Format::ALL {
        let bytes = fmt.to_bytes(&owned);
        with_each_arena!(|arena| {
            let before = BumpAllocator::stats(arena).used_bytes;
            let _: &[&[&str]] = fmt.decode_in(arena, &bytes).unwrap();
            let used = BumpAllocator::stats(arena).used_bytes - before;
            // A budget of what the call needs, minus alignment padding, is enough...
            let ok: Result<&[&[&str]], _> =
                decode_limited(fmt, arena, Limits::default().max_bytes(used), &bytes);
            assert!(ok.is_ok(), "{fmt}: {ok:?}");
            // ...and well below it is not.
            let e = decode_limited::<&[&[&str]], _>(
                fmt,
                arena,
                Limits::default().max_bytes(used / 2),
                &bytes,
            )
            .unwrap_err();
            // postcard's `Error::custom` drops every message.
            assert!(
                fmt.wire() == Format::Postcard || e.contains("arena byte limit"),
                "{fmt}: {e}"
            );
        });
    }
}

#[test]
fn deep_nesting_is_a_depth_error_not_a_stack_overflow() {
    on_small_stack(|| {
        with_each_arena!(|arena| {
            // JSON `[` x 100,000 (serde_json has its own limit at 128; either error is fine).
            let json = "[".repeat(100_000);
            let e = Format::Json
                .decode_in::<Tree, _>(arena, json.as_bytes())
                .err()
                .unwrap();
            assert!(e.contains("depth") || e.contains("recursion limit"), "{e}");
            // MessagePack fixarray-of-1 x 100,000: our limit answers.
            let msgpack = vec![0x91u8; 100_000];
            let e = Format::MsgPack
                .decode_in::<Tree, _>(arena, &msgpack)
                .err()
                .unwrap();
            assert!(e.contains("nesting depth limit of 128 exceeded"), "{e}");
            // postcard `Some(Some(Some(...)))` through `Option<&Chain>`: postcard has no limit of
            // its own, and its `Error::custom` drops the message, so only the error is visible;
            // the same bytes read by bincode name the limit.
            let postcard = vec![0x01u8; 100_000];
            assert!(
                Format::Postcard
                    .decode_in::<Chain, _>(arena, &postcard)
                    .is_err()
            );
            let e = Format::Bincode
                .decode_in::<Chain, _>(arena, &postcard)
                .err()
                .unwrap();
            assert!(e.contains("nesting depth limit of 128 exceeded"), "{e}");
            // Within the limit, recursion works.
            let mut ok = vec![0x01u8; 100];
            ok.push(0x00);
            let mut chain: Chain = Format::Postcard.decode_in(arena, &ok).unwrap();
            let mut len = 0;
            while let Some(next) = chain.next {
                chain = Chain { next: next.next };
                len += 1;
            }
            assert_eq!(len, 100);
        });
    });
}

#[test]
fn zero_sized_elements_are_bounded_without_an_explicit_limit() {
    // 2^64-1 elements of `()`, which take no bytes each (bincode 2: 0xfd + u64; postcard's
    // varint would do the same, but postcard drops custom error messages).
    let mut input = vec![0xfd];
    input.extend_from_slice(&u64::MAX.to_le_bytes());
    with_each_arena!(|arena| {
        let e = Format::Bincode
            .decode_in::<&[()], _>(arena, &input)
            .unwrap_err();
        assert!(
            e.contains("sequence length limit of 1048576 elements exceeded"),
            "{e}"
        );
        let varint = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert!(
            Format::Postcard
                .decode_in::<&[()], _>(arena, &varint)
                .is_err()
        );
        let e = decode_limited::<&[()], _>(
            Format::Bincode,
            arena,
            Limits::default().max_len(1000),
            &input,
        )
        .unwrap_err();
        assert!(
            e.contains("sequence length limit of 1000 elements exceeded"),
            "{e}"
        );
    });
}

#[test]
fn ten_megabytes_of_tiny_arrays_hit_the_budget() {
    // `[[],[],...]` as JSON: 10 MB of input, each element a slice header in the arena.
    let mut json = String::with_capacity(10 << 20);
    json.push('[');
    while json.len() < 10 << 20 {
        json.push_str("[],");
    }
    json.push_str("[]]");
    with_each_arena!(|arena| {
        let e = decode_limited::<&[&[u8]], _>(
            Format::Json,
            arena,
            Limits::default().max_bytes(1 << 20),
            json.as_bytes(),
        )
        .unwrap_err();
        assert!(
            e.contains("arena byte limit of 1048576 bytes exceeded"),
            "{e}"
        );
        assert!(BumpAllocator::stats(arena).reserved_bytes < 4 << 20);
    });
}

/// A thousand failed calls on one arena leave its used bytes where they were.
fn check_rewinds<A: BumpAllocator>(arena: &A) {
    let good = Format::Json.to_bytes(&vec!["kept".to_owned()]);
    let kept: &[&str] = Format::Json.decode_in(arena, &good).unwrap();
    let after_good = arena.stats().used_bytes;
    let bad = failing_at_the_end();
    for _ in 0..1000 {
        assert!(
            Format::Json
                .decode_in::<&[&str], _>(arena, bad.as_bytes())
                .is_err()
        );
        assert_eq!(arena.stats().used_bytes, after_good);
    }
    assert_eq!(kept, ["kept"]);
}

#[test]
fn failed_calls_rewind_bump_scope_and_slab_arenas() {
    check_rewinds(&bump_scope::Bump::<bump_scope::alloc::Global>::new());
    check_rewinds(&arena_core::SlabArena::new());
    // bumpalo cannot rewind (documented): the failed call's bytes stay until reset.
    let bumpalo = bumpalo::Bump::new();
    assert!(
        Format::Json
            .decode_in::<&[&str], _>(&bumpalo, failing_at_the_end().as_bytes())
            .is_err()
    );
    assert!(BumpAllocator::stats(&bumpalo).used_bytes > 0);
}

#[test]
fn with_limits_composes_inside_a_hand_written_visitor() {
    let bump = bumpalo::Bump::new();
    let seed = ArenaSeed::<(&str, &[u8]), _>::new(&bump).with_limits(Limits::default().max_len(2));
    let mut de = serde_json::Deserializer::from_str(r#"["ok", [1, 2, 3]]"#);
    let e = seed.deserialize(&mut de).unwrap_err().to_string();
    assert!(e.contains("sequence length limit of 2"), "{e}");
}
