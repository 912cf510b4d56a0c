//! Every `ArenaDeserialize` impl of arena-core, on every arena, through every format, compared
//! with what serde reads for the owned type; and malformed input that serde refuses, which every
//! impl refuses too.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::num::{NonZero, Wrapping};
use std::time::Duration;

use arena_core::{ArenaDeserialize, ArenaSeed, BStr, BumpAllocator};
use arena_tests::derive_support::Pairs;
use arena_tests::{Format, with_each_arena};
use serde::de::{DeserializeOwned, DeserializeSeed};
use serde::{Serialize, Serializer};

/// Serializes `$owned` in every format and reads it back with serde as `$owned`'s type and with
/// `ArenaSeed` as `$ty` on every arena: both must read it, and `$check` must hold with `$v` the
/// arena value and `$o` the owned one.
macro_rules! roundtrip {
    ($owned:expr, $ty:ty, |$v:ident, $o:ident| $check:block) => {
        roundtrip_except!([], $owned, $ty, |$v, $o| $check)
    };
}

/// Like `roundtrip!`, but each format listed (`Cbor refusing "message"`) has a documented
/// limitation (the CBOR caveat in `arena-core/docs/types.md`): there serde still reads the owned value, and the arena
/// must refuse it with an error containing the message.
macro_rules! roundtrip_except {
    (
        [$($except:ident refusing $refusal:expr),*],
        $owned:expr, $ty:ty, |$v:ident, $o:ident| $check:block
    ) => {{
        let exceptions: &[(Format, &str)] = &[$((Format::$except, $refusal)),*];
        let owned = $owned;
        for fmt in Format::ALL {
            let bytes = fmt.to_bytes(&owned);
            let $o = decode_owned_like(&owned, fmt, &bytes)
                .unwrap_or_else(|e| panic!("{fmt}: serde cannot read it back: {e}"));
            let $o = &$o;
            if let Some(&(_, refusal)) = exceptions.iter().find(|(f, _)| *f == fmt) {
                with_each_arena!(|arena| {
                    let error = fmt
                        .decode_in::<$ty, _>(arena, &bytes)
                        .err()
                        .unwrap_or_else(|| panic!("{fmt}: expected the documented refusal"));
                    assert!(error.contains(refusal), "{fmt}: not the refusal expected: {error}");
                });
                continue;
            }
            with_each_arena!(|arena| {
                let $v: $ty = fmt
                    .decode_in(arena, &bytes)
                    .unwrap_or_else(|e| panic!("{fmt}: serde reads it, the arena fails: {e}"));
                $check
            });
        }
    }};
}

/// cbor4ii's refusal when asked for bytes and the input holds something else.
const CBOR_NOT_BYTES: &str = "Mismatch { name: \"bytes\"";
/// cbor4ii's refusal when asked for a map and the input holds something else.
const CBOR_NOT_MAP: &str = "Mismatch { name: \"map\"";

/// Decodes `bytes` as the type of `_like` with serde.
fn decode_owned_like<T: DeserializeOwned>(
    _like: &T,
    fmt: Format,
    bytes: &[u8],
) -> Result<T, String> {
    fmt.decode_owned(bytes)
}

/// Bytes serialized as serde bytes (what `serde_bytes` does), not as a sequence of `u8`.
#[derive(Debug, PartialEq)]
struct Bytes(Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
            fn visit_seq<S: serde::de::SeqAccess<'de>>(self, mut s: S) -> Result<Bytes, S::Error> {
                let mut out = Vec::new();
                while let Some(b) = s.next_element()? {
                    out.push(b);
                }
                Ok(Bytes(out))
            }
        }
        d.deserialize_bytes(V)
    }
}

#[test]
fn primitives_in_a_sixteen_tuple() {
    type Sixteen = (
        bool,
        char,
        i8,
        i16,
        i32,
        i64,
        i128,
        u8,
        u16,
        u32,
        u64,
        u128,
        f32,
        f64,
        (),
        isize,
    );
    let owned = (
        true,
        'é',
        -8i8,
        -1600i16,
        -320_000i32,
        i64::MIN,
        i128::MAX,
        u8::MAX,
        u16::MAX,
        u32::MAX,
        u64::MAX,
        u128::MAX,
        1.5f32,
        -2.25e300f64,
        (),
        isize::MIN,
    );
    roundtrip!(owned, Sixteen, |v, o| {
        // std implements `PartialEq` for tuples of at most 12: compare in two halves.
        assert_eq!(
            (v.0, v.1, v.2, v.3, v.4, v.5, v.6, v.7, v.8, v.9, v.10, v.11),
            (o.0, o.1, o.2, o.3, o.4, o.5, o.6, o.7, o.8, o.9, o.10, o.11)
        );
        assert_eq!((v.12, v.13, v.14, v.15), (o.12, o.13, o.14, o.15));
    });
}

#[test]
fn small_tuples_and_usize() {
    roundtrip!((7usize,), (usize,), |v, o| { assert_eq!(&v, o) });
    roundtrip!((1u8, "x".to_owned(), 3.0f64), (u8, &str, f64), |v, o| {
        assert_eq!((v.0, v.1.to_owned(), v.2), *o);
    });
}

#[test]
fn strings() {
    for s in [
        "",
        "plain",
        "unicode: Ωμέγα ✓ 🦀",
        "escapes: \" \\ \n \t \u{1}",
    ] {
        roundtrip!(s.to_owned(), &str, |v, o| { assert_eq!(v, o) });
    }
    roundtrip!(
        vec!["a".to_owned(), String::new(), "ccc".to_owned()],
        &[&str],
        |v, o| {
            assert_eq!(v, o.as_slice());
        }
    );
}

#[test]
fn byte_slices_read_sequences_and_serde_bytes() {
    let data: Vec<u8> = (0..=255).collect();
    // Written as a sequence of u8, as serde writes Vec<u8>. CBOR's deserializer is strict: the
    // bytes that `&[u8]` asks for are never an array there (see `arena-core/docs/types.md`).
    roundtrip_except!([Cbor refusing CBOR_NOT_BYTES, CborIndefinite refusing CBOR_NOT_BYTES], data.clone(), &[u8], |v, o| {
        assert_eq!(v, o.as_slice())
    });
    // Written as serde bytes, as serde_bytes writes them.
    roundtrip!(Bytes(data.clone()), &[u8], |v, o| {
        assert_eq!(v, o.0.as_slice())
    });
    roundtrip!(Bytes(Vec::new()), &[u8], |v, o| {
        assert_eq!(v, o.0.as_slice())
    });
}

#[test]
fn nested_slices() {
    let owned: Vec<Vec<String>> = vec![
        vec!["a".into(), "b".into()],
        vec![],
        (0..300).map(|i| i.to_string()).collect(),
    ];
    roundtrip!(owned, &[&[&str]], |v, o| {
        assert_eq!(v.len(), o.len());
        for (a, b) in v.iter().zip(o) {
            assert_eq!(*a, b.as_slice());
        }
    });
    let numbers: Vec<Vec<u64>> = (0..50).map(|i| (0..i).collect()).collect();
    roundtrip!(numbers, &[&[u64]], |v, o| {
        assert!(v.iter().map(|s| s.to_vec()).eq(o.iter().cloned()));
    });
    roundtrip!(vec![(); 5], &mut [()], |v, o| {
        assert_eq!(v.len(), o.len())
    });
}

#[test]
fn references_move_values_into_the_arena() {
    roundtrip!(42u64, &u64, |v, o| { assert_eq!(v, o) });
    roundtrip!(("name".to_owned(), 3u8), &(&str, u8), |v, o| {
        assert_eq!((v.0.to_owned(), v.1), *o);
    });
    roundtrip!(vec![1u16, 2, 3], &mut &[u16], |v, o| {
        assert_eq!(*v, o.as_slice())
    });
}

#[test]
fn arrays_of_any_length() {
    roundtrip!([1u32, 2, 3], [u32; 3], |v, o| { assert_eq!(&v, o) });
    roundtrip!(["x".to_owned(), "yz".to_owned()], [&str; 2], |v, o| {
        assert_eq!(v, [o[0].as_str(), o[1].as_str()]);
    });
    roundtrip!([0u8; 0], [u8; 0], |v, o| { assert_eq!(&v, o) });
    let big: [u16; 40] = core::array::from_fn(|i| i as u16 * 3);
    // serde stops at 32 for arrays, so compare with a tuple-free owned form: a slice.
    for fmt in Format::ALL {
        let bytes = fmt.to_bytes(&big.to_vec());
        with_each_arena!(|arena| {
            // A sequence of 40 reads as [u16; 40] in formats that write no length for tuples
            // only when the length matches; compare against the slice form instead.
            let slice: &[u16] = fmt.decode_in(arena, &bytes).unwrap();
            assert_eq!(slice, big);
        });
    }
}

#[test]
fn options() {
    roundtrip!(Some("here".to_owned()), Option<&str>, |v, o| {
        assert_eq!(v, o.as_deref())
    });
    roundtrip!(None::<String>, Option<&str>, |v, o| {
        assert_eq!(v, o.as_deref())
    });
    roundtrip!(vec![Some(1u8), None, Some(3)], &[Option<u8>], |v, o| {
        assert_eq!(v, o.as_slice());
    });
    roundtrip!(Some(Some(5i32)), Option<Option<i32>>, |v, o| {
        assert_eq!(&v, o)
    });
}

#[test]
fn allocation_free_std_types() {
    roundtrip!(PhantomData::<String>, PhantomData<&str>, |_v, _o| {});
    roundtrip!(Wrapping(250u8), Wrapping<u8>, |v, o| { assert_eq!(&v, o) });
    roundtrip!(Duration::new(5, 999_999_999), Duration, |v, o| {
        assert_eq!(&v, o)
    });
}

/// The twelve `NonZero` types read their extreme values and refuse zero with serde's message.
#[test]
fn every_nonzero_type() {
    macro_rules! nonzero {
        ($($prim:ty),*) => {$(
            for value in [NonZero::<$prim>::MIN, NonZero::<$prim>::MAX] {
                roundtrip!(value, NonZero<$prim>, |v, o| { assert_eq!(&v, o) });
            }
            for fmt in Format::ALL {
                let zero = fmt.to_bytes(&<$prim>::default());
                let serde_err = fmt.decode_owned::<NonZero<$prim>>(&zero).unwrap_err();
                with_each_arena!(|arena| {
                    let err = fmt.decode_in::<NonZero<$prim>, _>(arena, &zero).unwrap_err();
                    assert_eq!(err, serde_err, "{fmt} {}", stringify!($prim));
                });
            }
        )*};
    }
    nonzero!(
        u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
    );
}

#[test]
fn bstr_reads_strings_and_bytes_without_validating() {
    // CBOR keeps text and byte strings apart, and `BStr` asks for bytes.
    roundtrip_except!([Cbor refusing CBOR_NOT_BYTES, CborIndefinite refusing CBOR_NOT_BYTES], "café".to_owned(), BStr, |v, o| {
        assert_eq!(v.to_str().unwrap(), o)
    });
    roundtrip_except!([Cbor refusing CBOR_NOT_BYTES, CborIndefinite refusing CBOR_NOT_BYTES], vec![104u8, 105], BStr, |v, o| {
        assert_eq!(v.as_bytes(), o.as_slice())
    });
    roundtrip!(Bytes(b"raw".to_vec()), BStr, |v, o| {
        assert_eq!(v.as_bytes(), o.0.as_slice())
    });
    // Invalid UTF-8 written as bytes: kept as is, and `to_str` reports it.
    let raw = Bytes(vec![0x66, 0xff, 0xfe, 0x6f]);
    for fmt in Format::ALL {
        let bytes = fmt.to_bytes(&raw);
        with_each_arena!(|arena| {
            let v: BStr = fmt.decode_in(arena, &bytes).unwrap();
            assert_eq!(v.as_bytes(), raw.0.as_slice(), "{fmt}");
            assert!(v.to_str().is_err());
            // A `&str` refuses the same bytes.
            assert!(fmt.decode_in::<&str, _>(arena, &bytes).is_err(), "{fmt}");
        });
    }
}

#[test]
fn slices_of_pairs_read_maps_and_sequences_of_pairs() {
    let map: BTreeMap<u16, String> = [(3, "c".into()), (1, "a".into()), (2, "b".into())].into();
    roundtrip!(map, &[(u16, &str)], |v, o| {
        let expected: Vec<(u16, &str)> = o.iter().map(|(k, s)| (*k, s.as_str())).collect();
        assert_eq!(v, expected.as_slice());
    });
    let pairs: Vec<(String, i32)> = vec![("z".into(), 1), ("a".into(), 2), ("z".into(), 3)];
    // In CBOR a slice of pairs reads a map only: its deserializer will not read an array there.
    roundtrip_except!([Cbor refusing CBOR_NOT_MAP, CborIndefinite refusing CBOR_NOT_MAP], pairs, &[(&str, i32)], |v, o| {
        let expected: Vec<(&str, i32)> = o.iter().map(|(k, n)| (k.as_str(), *n)).collect();
        assert_eq!(v, expected.as_slice());
    });
    // Order and duplicate keys are kept (JSON can spell duplicates).
    with_each_arena!(|arena| {
        let v: &[(&str, u8)] = Format::Json
            .decode_in(arena, br#"{"b": 1, "a": 2, "b": 3}"#)
            .unwrap();
        assert_eq!(v, [("b", 1), ("a", 2), ("b", 3)]);
    });
}

#[test]
fn hashbrown_maps_live_in_the_arena() {
    type Map<'b, A> = hashbrown::HashMap<&'b str, u32, hashbrown::DefaultHashBuilder, &'b A>;
    let owned: BTreeMap<String, u32> = (0..100).map(|i| (format!("key{i}"), i)).collect();
    for fmt in Format::ALL {
        let bytes = fmt.to_bytes(&owned);
        let bump = bumpalo::Bump::new();
        let before = bump.stats().used_bytes;
        let map: Map<bumpalo::Bump> = fmt.decode_in(&bump, &bytes).unwrap();
        assert_eq!(map.len(), 100, "{fmt}");
        assert!(
            owned.iter().all(|(k, v)| map.get(k.as_str()) == Some(v)),
            "{fmt}"
        );
        // The table itself is in the arena, not only the keys.
        let table = map.allocation_size();
        assert!(bump.stats().used_bytes - before >= table, "{fmt}");

        let scope: bump_scope::Bump = bump_scope::Bump::new();
        let map: Map<bump_scope::Bump> = fmt.decode_in(&scope, &bytes).unwrap();
        assert_eq!(map.len(), 100, "{fmt}");
        assert_eq!(map["key42"], 42);
    }
    // Duplicate keys: the last one wins, as with serde's HashMap.
    let bump = bumpalo::Bump::new();
    let map: Map<bumpalo::Bump> = Format::Json
        .decode_in(&bump, br#"{"k": 1, "k": 2}"#)
        .unwrap();
    assert_eq!(map["k"], 2);
    let set: hashbrown::HashSet<u8, hashbrown::DefaultHashBuilder, &bumpalo::Bump> =
        Format::Postcard
            .decode_in(&bump, &Format::Postcard.to_bytes(&vec![1u8, 2, 2, 3]))
            .unwrap();
    assert_eq!(set.len(), 3);
}

#[test]
fn bumpalo_collections() {
    use bumpalo::collections::{String as BString, Vec as BVec};
    let owned = vec![vec!["a".to_owned(), "bb".to_owned()], vec![]];
    for fmt in Format::ALL {
        let bytes = fmt.to_bytes(&owned);
        let bump = bumpalo::Bump::new();
        let mut v: BVec<BVec<BString>> = fmt.decode_in(&bump, &bytes).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(
            v[0].iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            ["a", "bb"]
        );
        assert!(v[1].is_empty());
        // They are real collections: they grow.
        v[1].push(BString::from_str_in("grown", &bump));
        v[0][0].push_str("ppend");
        assert_eq!(v[0][0], "append");
        let zst: BVec<()> = fmt.decode_in(&bump, &fmt.to_bytes(&vec![(); 3])).unwrap();
        assert_eq!(zst.len(), 3);
    }
}

#[test]
fn bump_scope_collections() {
    use bump_scope::{Bump, BumpString, BumpVec};
    let owned = vec![vec!["a".to_owned(), "bb".to_owned()], vec![]];
    for fmt in Format::ALL {
        let bytes = fmt.to_bytes(&owned);
        let bump: Bump = Bump::new();
        let mut v: BumpVec<BumpVec<BumpString<&Bump>, &Bump>, &Bump> =
            fmt.decode_in(&bump, &bytes).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(
            v[0].iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            ["a", "bb"]
        );
        v[0][1].push_str("b");
        assert_eq!(v[0][1], "bbb");
        v[1].push(BumpString::from_str_in("grown", &bump));
        assert_eq!(v[1][0], "grown");
    }
}

#[test]
fn dyn_arenas_work_too() {
    let bump = bumpalo::Bump::new();
    let arena: &dyn BumpAllocator = &bump;
    let bytes = Format::Postcard.to_bytes(&vec!["x".to_owned(), "y".to_owned()]);
    let mut de = postcard::Deserializer::from_bytes(&bytes);
    let v: &[&str] = ArenaSeed::new(arena).deserialize(&mut de).unwrap();
    assert_eq!(v, ["x", "y"]);
}

#[test]
fn threads_each_use_their_own_scratch() {
    let owned: Vec<Vec<String>> = (0..200)
        .map(|i| (0..i % 17).map(|j| format!("{i}-{j}")).collect())
        .collect();
    let bytes = Format::Json.to_bytes(&owned);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..20 {
                    let bump = bumpalo::Bump::new();
                    let v: &[&[&str]] = Format::Json.decode_in(&bump, &bytes).unwrap();
                    assert!(v.iter().zip(&owned).all(|(a, b)| *a == b.as_slice()));
                }
            });
        }
    });
}

/// A type written by hand, as `arena-core/docs/types.md` shows: its own visitor, `ArenaSeed` for its fields.
struct Point<'bump> {
    label: &'bump str,
    xy: [f64; 2],
}

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for Point<'bump> {
    fn deserialize_in<'de, D: serde::Deserializer<'de>>(
        arena: &'bump A,
        d: D,
    ) -> Result<Self, D::Error> {
        let (label, xy) = <(&'bump str, [f64; 2])>::deserialize_in(arena, d)?;
        Ok(Point { label, xy })
    }
}

#[test]
fn hand_written_impls_compose() {
    roundtrip!(
        vec![("a".to_owned(), [1.0, 2.0]), ("b".to_owned(), [3.5, -4.0])],
        &[Point],
        |v, o| {
            assert_eq!(v.len(), o.len());
            for (p, (label, xy)) in v.iter().zip(o) {
                assert_eq!((p.label, p.xy), (label.as_str(), *xy));
            }
        }
    );
}

/// A hand-written type that reads its string through a seed of its own: a nested call.
struct Label<'bump>(&'bump str);

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for Label<'bump> {
    fn deserialize_in<'de, D: serde::Deserializer<'de>>(
        arena: &'bump A,
        d: D,
    ) -> Result<Self, D::Error> {
        ArenaSeed::new(arena).deserialize(d).map(Label)
    }
}

/// `ArenaSeed::str_as_bytes` (the `*StrAsBytes` formats run every test here with it): JSON
/// ignores it, CBOR refuses strings read that way (they are not byte strings there), and it
/// holds for nested seeds and ends with its call.
#[test]
fn str_as_bytes_is_for_binary_formats_and_lasts_one_call() {
    let bump = bumpalo::Bump::new();
    let json = |as_bytes: bool, input: &[u8]| -> Result<String, String> {
        let mut de = serde_json::Deserializer::from_slice(input);
        let read: Result<&str, _> = ArenaSeed::new(&bump)
            .str_as_bytes(as_bytes)
            .deserialize(&mut de);
        read.map(str::to_owned).map_err(|e| e.to_string())
    };
    // JSON: a raw control character is refused, as serde refuses it; escaped, it reads.
    let raw = b"\"a\x01b\"";
    assert!(Format::Json.decode_owned::<String>(raw).is_err());
    assert!(json(true, raw).is_err());
    assert_eq!(json(true, br#""a\u0001b""#).unwrap(), "a\u{1}b");

    let cbor = Format::Cbor.to_bytes(&vec!["p".to_owned(), "q".to_owned()]);
    let labels = |as_bytes: bool| -> Result<Vec<String>, String> {
        let read: &[Label<'_>] =
            Format::Cbor.decode_seed(ArenaSeed::new(&bump).str_as_bytes(as_bytes), &cbor)?;
        Ok(read.iter().map(|l| l.0.to_owned()).collect())
    };
    assert_eq!(labels(false).unwrap(), ["p", "q"]);
    // The nested seeds of `Label` read as bytes too...
    let e = labels(true).unwrap_err();
    assert!(e.contains("bytes"), "{e}");
    // ...and the next call on this thread reads strings as strings again.
    assert_eq!(labels(false).unwrap(), ["p", "q"]);

    // postcard: not UTF-8 is refused, short or long; valid UTF-8 of any length reads.
    for len in [1, 7, 8, 15, 64, 65, 200] {
        let text = "é".repeat(len);
        let mut bytes = Format::Postcard.to_bytes(&text);
        let read: &str = Format::PostcardStrAsBytes.decode_in(&bump, &bytes).unwrap();
        assert_eq!(read, text);
        let last = bytes.len() - 1;
        bytes[last] = 0xFF;
        let read = Format::PostcardStrAsBytes.decode_in::<&str, _>(&bump, &bytes);
        assert!(read.is_err(), "{len}: {read:?}");
    }
}

/// A hand-written type whose string is read as a string even in a call that reads strings as
/// bytes: a nested seed that says `str_as_bytes(false)`.
struct AsString<'bump>(&'bump str);

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for AsString<'bump> {
    fn deserialize_in<'de, D: serde::Deserializer<'de>>(
        arena: &'bump A,
        d: D,
    ) -> Result<Self, D::Error> {
        ArenaSeed::new(arena)
            .str_as_bytes(false)
            .deserialize(d)
            .map(AsString)
    }
}

/// A nested seed can switch `str_as_bytes` off for its own value, and the enclosing call's
/// setting comes back after it. Which path read a string shows in the error for invalid UTF-8:
/// serde's `invalid_value` from the arena's check, or the format's own.
#[test]
fn a_nested_seed_can_switch_str_as_bytes_off() {
    let bump = bumpalo::Bump::new();
    let input = |bad: usize| {
        let mut bytes = Format::Postcard.to_bytes(&("a", "b", "c"));
        // Each string is a length byte and one byte.
        bytes[1 + 2 * bad] = 0xFF;
        bytes
    };
    let read = |bad: usize| -> String {
        let seed = ArenaSeed::<(&str, AsString<'_>, &str), _>::new(&bump).str_as_bytes(true);
        let bytes = input(bad);
        match Format::Postcard.decode_seed(seed, &bytes) {
            Ok(_) => panic!("string {bad} is not UTF-8"),
            Err(e) => e,
        }
    };
    let by_the_format = Format::Postcard.decode_owned::<(String, String, String)>(&input(1));
    let by_the_format = by_the_format.unwrap_err();
    assert_eq!(read(1), by_the_format, "read as a string");
    // postcard words every error raised through serde alike, so only the format's own differs.
    assert_ne!(read(0), by_the_format, "read as bytes");
    assert_eq!(
        read(2),
        read(0),
        "read as bytes again after the nested seed"
    );
    let (a, b, c) = Format::Postcard
        .decode_seed(
            ArenaSeed::<(&str, AsString<'_>, &str), _>::new(&bump).str_as_bytes(true),
            &Format::Postcard.to_bytes(&("a", "b", "c")),
        )
        .unwrap();
    assert_eq!((a, b.0, c), ("a", "b", "c"));
}

/// Every strict prefix of `valid`'s JSON and postcard encodings that serde refuses for its type
/// (a JSON prefix may be a value of its own: "30" of "300"); each format must give some.
fn truncated<O: Serialize + DeserializeOwned>(valid: &O) -> Vec<(Format, Vec<u8>)> {
    let mut inputs = Vec::new();
    for fmt in [Format::Json, Format::Postcard] {
        let bytes = fmt.to_bytes(valid);
        let before = inputs.len();
        inputs.extend(
            (0..bytes.len())
                .map(|cut| bytes[..cut].to_vec())
                .filter(|prefix| fmt.decode_owned::<O>(prefix).is_err())
                .map(|prefix| (fmt, prefix)),
        );
        assert!(inputs.len() > before, "{fmt}: no truncation serde refuses");
    }
    inputs
}

/// `wrong`, a value of another type than `O`, in each of `formats`: checked to be refused by
/// serde as an `O`.
fn wrong_type<O: DeserializeOwned>(
    formats: &[Format],
    wrong: &impl Serialize,
) -> Vec<(Format, Vec<u8>)> {
    formats
        .iter()
        .map(|&fmt| {
            let bytes = fmt.to_bytes(wrong);
            let read = fmt.decode_owned::<O>(&bytes);
            assert!(read.is_err(), "{fmt}: serde reads {bytes:02x?}");
            (fmt, bytes)
        })
        .collect()
}

/// Asserts that `T` refuses every input in `arena`.
fn refuses<'bump, T, A>(arena: &'bump A, inputs: &[(Format, Vec<u8>)])
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    for (fmt, input) in inputs {
        assert!(
            fmt.decode_in::<T, A>(arena, input).is_err(),
            "{fmt}: {} read the malformed {input:02x?}",
            std::any::type_name::<T>()
        );
    }
}

/// Every row of the types table (`arena-core/docs/types.md`) gets a value of the wrong type and truncated input, in JSON
/// and postcard, which serde refuses for the owned twin and the arena type must refuse too.
/// postcard does not describe its types, so its wrong values are bytes that cannot be the type:
/// a varint too long for a `u16`, bytes that are not UTF-8, an overflowing `Duration`, a `bool`
/// of 2. Where every byte string is a value (`&[u8]`, `BStr` read raw bytes), postcard has only
/// truncations.
#[test]
fn malformed_input_is_refused_by_every_impl() {
    use bump_scope::{BumpString, BumpVec};
    use bumpalo::collections::{String as BString, Vec as BVec};
    use hashbrown::DefaultHashBuilder as Hasher;
    use std::collections::HashSet;
    const BOTH: &[Format] = &[Format::Json, Format::Postcard, Format::PostcardStrAsBytes];

    let too_big = vec![u32::MAX];
    let not_utf8 = Bytes(vec![b'h', 0xff]);
    let boolean = [truncated(&true), wrong_type::<bool>(BOTH, &2u8)].concat();
    let char_ = [truncated(&'é'), wrong_type::<char>(BOTH, &not_utf8)].concat();
    let duration = [
        truncated(&Duration::new(5, 7)),
        wrong_type::<Duration>(BOTH, &(u64::MAX, 1_000_000_000u32)),
    ]
    .concat();
    let nonzero = [
        truncated(&NonZero::new(300u16).unwrap()),
        wrong_type::<NonZero<u16>>(BOTH, &u32::MAX),
    ]
    .concat();
    let number = [truncated(&300u16), wrong_type::<u16>(BOTH, &u32::MAX)].concat();
    let option = [
        truncated(&Some(300u16)),
        wrong_type::<Option<u16>>(BOTH, &too_big),
    ]
    .concat();
    let array = [
        truncated(&[1u16, 300]),
        wrong_type::<[u16; 2]>(BOTH, &too_big),
    ]
    .concat();
    let tuple = [
        truncated(&(300u16, true)),
        wrong_type::<(u16, bool)>(BOTH, &(1u16, 2u8)),
    ]
    .concat();
    let text = [
        truncated(&"héllo".to_owned()),
        wrong_type::<String>(BOTH, &not_utf8),
    ]
    .concat();
    let seq = [
        truncated(&vec![1u16, 300, 7]),
        wrong_type::<Vec<u16>>(BOTH, &too_big),
    ]
    .concat();
    let bytes = [
        truncated(&Bytes(b"bytes".to_vec())),
        wrong_type::<Bytes>(&[Format::Json], &vec![300u16]),
    ]
    .concat();
    let pairs = [
        truncated(&Pairs(vec![(1u16, "a".to_owned()), (2, "b".to_owned())])),
        wrong_type::<Pairs<u16, String>>(BOTH, &vec![(1u16, &not_utf8)]),
    ]
    .concat();
    let set = [
        truncated(&HashSet::from([1u16, 300])),
        wrong_type::<HashSet<u16>>(BOTH, &too_big),
    ]
    .concat();
    let map = [
        truncated(&BTreeMap::from([
            ("k".to_owned(), 1u32),
            ("l".to_owned(), 2),
        ])),
        wrong_type::<BTreeMap<String, u32>>(BOTH, &vec![("k", u64::MAX)]),
    ]
    .concat();

    with_each_arena!(|arena| {
        refuses::<bool, _>(arena, &boolean);
        refuses::<char, _>(arena, &char_);
        refuses::<Duration, _>(arena, &duration);
        refuses::<NonZero<u16>, _>(arena, &nonzero);
        refuses::<Wrapping<u16>, _>(arena, &number);
        refuses::<Option<u16>, _>(arena, &option);
        refuses::<[u16; 2], _>(arena, &array);
        refuses::<(u16, bool), _>(arena, &tuple);
        refuses::<&str, _>(arena, &text);
        refuses::<&[u16], _>(arena, &seq);
        refuses::<&mut [u16], _>(arena, &seq);
        refuses::<&[u8], _>(arena, &bytes);
        refuses::<BStr, _>(arena, &bytes);
        refuses::<&[(u16, &str)], _>(arena, &pairs);
        refuses::<&u16, _>(arena, &number);
        refuses::<&mut u16, _>(arena, &number);
        refuses::<hashbrown::HashSet<u16, Hasher, _>, _>(arena, &set);
        refuses::<hashbrown::HashMap<&str, u32, Hasher, _>, _>(arena, &map);
    });
    let bump = bumpalo::Bump::new();
    refuses::<BVec<u16>, _>(&bump, &seq);
    refuses::<BString, _>(&bump, &text);
    let scope: bump_scope::Bump = bump_scope::Bump::new();
    refuses::<BumpVec<u16, &bump_scope::Bump>, _>(&scope, &seq);
    refuses::<BumpString<&bump_scope::Bump>, _>(&scope, &text);
}
