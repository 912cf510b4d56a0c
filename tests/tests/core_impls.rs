//! Every `ArenaDeserialize` impl of arena-core, on bumpalo and bump-scope, through every format,
//! compared with what serde reads for the owned type.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::num::{NonZeroI64, NonZeroU8, NonZeroU32, Wrapping};
use std::time::Duration;

use arena_core::{ArenaDeserialize, ArenaSeed, BStr, BumpAllocator};
use arena_tests::{Format, with_each_arena};
use serde::de::{DeserializeOwned, DeserializeSeed};
use serde::{Serialize, Serializer};

/// Serializes `$owned` in every format, reads it back with serde as `$owned`'s type and with
/// `ArenaSeed` as `$ty` on every arena, and checks they agree: both fail, or both succeed and
/// `$check` holds with `$v` the arena value and `$o` the owned one.
macro_rules! roundtrip {
    ($owned:expr, $ty:ty, |$v:ident, $o:ident| $check:block) => {{
        let owned = $owned;
        for fmt in Format::ALL {
            let bytes = fmt.to_bytes(&owned);
            let serde_result = decode_owned_like(&owned, fmt, &bytes);
            with_each_arena!(|arena| {
                let arena_result: Result<$ty, String> = fmt.decode_in(arena, &bytes);
                match (&serde_result, arena_result) {
                    (Ok($o), Ok($v)) => $check,
                    (Err(_), Err(_)) => {}
                    (Ok(_), Err(e)) => panic!("{fmt}: serde reads it, the arena fails: {e}"),
                    (Err(e), Ok(_)) => panic!("{fmt}: serde fails ({e}), the arena reads it"),
                }
            });
        }
    }};
}

/// Like `roundtrip!`, but in the formats listed after `except` the arena must refuse the input
/// with an error (a documented limitation), whatever serde does.
macro_rules! roundtrip_except {
    ([$($except:ident),*], $owned:expr, $ty:ty, |$v:ident, $o:ident| $check:block) => {{
        let owned = $owned;
        for fmt in Format::ALL {
            let bytes = fmt.to_bytes(&owned);
            if [$(Format::$except),*].contains(&fmt) {
                with_each_arena!(|arena| {
                    let r: Result<$ty, String> = fmt.decode_in(arena, &bytes);
                    assert!(r.is_err(), "{fmt}: expected the documented refusal");
                });
                continue;
            }
            let $o = decode_owned_like(&owned, fmt, &bytes).unwrap_or_else(|e| panic!("{fmt}: {e}"));
            let $o = &$o;
            with_each_arena!(|arena| {
                let $v: $ty = fmt.decode_in(arena, &bytes).unwrap_or_else(|e| panic!("{fmt}: {e}"));
                $check
            });
        }
    }};
}

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
    roundtrip!(
        owned,
        (
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
            isize
        ),
        |v, o| {
            // std implements `PartialEq` for tuples of at most 12: compare in two halves.
            assert_eq!(
                (v.0, v.1, v.2, v.3, v.4, v.5, v.6, v.7, v.8, v.9, v.10, v.11),
                (o.0, o.1, o.2, o.3, o.4, o.5, o.6, o.7, o.8, o.9, o.10, o.11)
            );
            assert_eq!((v.12, v.13, v.14, v.15), (o.12, o.13, o.14, o.15));
        }
    );
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
    // bytes that `&[u8]` asks for are never an array there (see the README).
    roundtrip_except!([Cbor], data.clone(), &[u8], |v, o| {
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
    roundtrip!(NonZeroU8::new(9).unwrap(), NonZeroU8, |v, o| {
        assert_eq!(&v, o)
    });
    roundtrip!(NonZeroU32::new(1 << 20).unwrap(), NonZeroU32, |v, o| {
        assert_eq!(&v, o)
    });
    roundtrip!(NonZeroI64::new(-3).unwrap(), NonZeroI64, |v, o| {
        assert_eq!(&v, o)
    });
    roundtrip!(Wrapping(250u8), Wrapping<u8>, |v, o| { assert_eq!(&v, o) });
    roundtrip!(Duration::new(5, 999_999_999), Duration, |v, o| {
        assert_eq!(&v, o)
    });
    // Zero is not a NonZero: serde and the arena both refuse it, with serde's message.
    for fmt in Format::ALL {
        let bytes = fmt.to_bytes(&0u8);
        let serde_err = fmt.decode_owned::<NonZeroU8>(&bytes).unwrap_err();
        with_each_arena!(|arena| {
            let err = fmt.decode_in::<NonZeroU8, _>(arena, &bytes).unwrap_err();
            assert_eq!(err, serde_err, "{fmt}");
        });
    }
}

#[test]
fn bstr_reads_strings_and_bytes_without_validating() {
    // CBOR keeps text and byte strings apart, and `BStr` asks for bytes.
    roundtrip_except!([Cbor], "café".to_owned(), BStr, |v, o| {
        assert_eq!(v.to_str().unwrap(), o)
    });
    roundtrip_except!([Cbor], vec![104u8, 105], BStr, |v, o| {
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
    roundtrip_except!([Cbor], pairs, &[(&str, i32)], |v, o| {
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

/// A type written by hand, as the README shows: its own visitor, `ArenaSeed` for its fields.
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
