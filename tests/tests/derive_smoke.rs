//! First checks of `#[derive(ArenaDeserialize)]`: every shape reads JSON and postcard.

use arena_core::{ArenaDeserialize, ArenaSeed};
use serde::de::DeserializeSeed;

#[derive(ArenaDeserialize, Debug, PartialEq)]
struct City<'bump> {
    #[arena(alias = "n")]
    name: &'bump str,
    citizens: &'bump [Citizen<'bump>],
}

#[derive(ArenaDeserialize, Debug, PartialEq)]
struct Citizen<'bump> {
    first_name: &'bump str,
    #[arena(default)]
    age: i16,
    data: CitizenData<'bump>,
    nick: Option<&'bump str>,
}

#[derive(ArenaDeserialize, Debug, PartialEq)]
struct CitizenData<'bump>(&'bump [u8]);

#[derive(ArenaDeserialize, Debug, PartialEq)]
struct Pair(u8, i32);

#[derive(ArenaDeserialize, Debug, PartialEq)]
struct Unit;

#[derive(ArenaDeserialize, Debug, PartialEq)]
enum Shape<'bump> {
    Empty,
    Circle(f64),
    Rect(u32, u32),
    Named { name: &'bump str, sides: u8 },
}

fn json<'bump, T: ArenaDeserialize<'bump, bumpalo::Bump>>(
    bump: &'bump bumpalo::Bump,
    s: &str,
) -> Result<T, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(s);
    ArenaSeed::new(bump).deserialize(&mut de)
}

#[test]
fn nested_struct_from_json() {
    let bump = bumpalo::Bump::new();
    let city: City = json(
        &bump,
        r#"{"n": "Paris", "citizens": [{"first_name": "Ada", "data": [1, 2]}]}"#,
    )
    .unwrap();
    assert_eq!(city.name, "Paris");
    assert_eq!(
        city.citizens,
        [Citizen {
            first_name: "Ada",
            age: 0,
            data: CitizenData(&[1, 2]),
            nick: None
        }]
    );
}

#[test]
fn errors_match_serde_wording() {
    let bump = bumpalo::Bump::new();
    let err = json::<City>(&bump, r#"{"citizens": []}"#).unwrap_err();
    assert_eq!(err.to_string(), "missing field `name` at line 1 column 16");
    let err = json::<City>(&bump, r#"{"name": "a", "name": "b"}"#).unwrap_err();
    assert!(
        err.to_string().starts_with("duplicate field `name`"),
        "{err}"
    );
}

#[test]
fn shapes_from_json() {
    let bump = bumpalo::Bump::new();
    assert_eq!(json::<Pair>(&bump, "[1, -2]").unwrap(), Pair(1, -2));
    assert_eq!(json::<Unit>(&bump, "null").unwrap(), Unit);
    assert_eq!(json::<Shape>(&bump, r#""Empty""#).unwrap(), Shape::Empty);
    assert_eq!(
        json::<Shape>(&bump, r#"{"Circle": 1.5}"#).unwrap(),
        Shape::Circle(1.5)
    );
    assert_eq!(
        json::<Shape>(&bump, r#"{"Rect": [1, 2]}"#).unwrap(),
        Shape::Rect(1, 2)
    );
    assert_eq!(
        json::<Shape>(&bump, r#"{"Named": {"name": "tri", "sides": 3}}"#).unwrap(),
        Shape::Named {
            name: "tri",
            sides: 3
        }
    );
}

/// The issue's example: a bumpalo collection read by a function that takes `&bumpalo::Bump`.
#[derive(ArenaDeserialize, Debug)]
struct Tagged<'bump> {
    #[arena(deserialize_with = "map_as_pairs")]
    tags: bumpalo::collections::Vec<'bump, (u16, &'bump str)>,
}

fn map_as_pairs<'de, 'bump, D: serde::Deserializer<'de>>(
    deserializer: D,
    arena: &'bump bumpalo::Bump,
) -> Result<bumpalo::collections::Vec<'bump, (u16, &'bump str)>, D::Error> {
    let pairs: &[(u16, &str)] = ArenaSeed::new(arena).deserialize(deserializer)?;
    Ok(bumpalo::collections::Vec::from_iter_in(
        pairs.iter().copied(),
        arena,
    ))
}

/// Generic parameters, const generics and a generic `deserialize_with` function.
#[derive(ArenaDeserialize, Debug, PartialEq)]
struct Generic<'bump, T, const N: usize>
where
    T: Copy,
{
    head: [T; N],
    #[arena(deserialize_with = "upper")]
    label: &'bump str,
}

fn upper<'de, 'bump, D, A>(deserializer: D, arena: &'bump A) -> Result<&'bump str, D::Error>
where
    D: serde::Deserializer<'de>,
    A: arena_core::BumpAllocator + ?Sized,
{
    let s: &str = ArenaSeed::new(arena).deserialize(deserializer)?;
    let upper = s.to_uppercase();
    arena_core::BumpAllocator::try_alloc_str(arena, &upper).map_err(serde::de::Error::custom)
}

#[test]
fn deserialize_with_and_generics() {
    let bump = bumpalo::Bump::new();
    let t: Tagged = json(&bump, r#"{"tags": {"1": "a", "2": "b"}}"#).unwrap();
    assert_eq!(t.tags.as_slice(), [(1, "a"), (2, "b")]);
    let scope = bump_scope::Bump::<bump_scope::alloc::Global>::new();
    let mut de = serde_json::Deserializer::from_str(r#"{"head": [1, 2], "label": "x"}"#);
    let g: Generic<u8, 2> = ArenaSeed::new(&scope).deserialize(&mut de).unwrap();
    assert_eq!(
        g,
        Generic {
            head: [1, 2],
            label: "X"
        }
    );
}

/// Mutually recursive types: the per-field bounds would loop, so one side drops them with an
/// empty `bound`.
#[derive(ArenaDeserialize, Debug)]
#[arena(bound = "")]
struct Folder<'bump> {
    name: &'bump str,
    files: &'bump [File<'bump>],
}

#[derive(ArenaDeserialize, Debug)]
struct File<'bump> {
    name: &'bump str,
    link: Option<&'bump Folder<'bump>>,
}

/// A non-empty container `bound` replaces the per-field bounds (and names the allocator
/// `__Arena`): the generated ones would make the trait solver loop between these two types.
#[derive(ArenaDeserialize, Debug)]
#[arena(bound = "T: arena_core::ArenaDeserialize<'bump, __Arena>")]
struct Node<'bump, T> {
    value: T,
    branch: Option<&'bump Branch<'bump, T>>,
}

#[derive(ArenaDeserialize, Debug)]
struct Branch<'bump, T> {
    label: &'bump str,
    nodes: &'bump [Node<'bump, T>],
}

#[test]
fn container_bound() {
    use arena_tests::Format::{Json, Postcard};
    let json =
        br#"{"value": 1, "branch": {"label": "b", "nodes": [{"value": 2, "branch": null}]}}"#;
    let postcard = Postcard.to_bytes(&(1u16, Some(("b", vec![(2u16, None::<()>)]))));
    arena_tests::with_each_arena!(|arena| {
        for (format, bytes) in [(Json, &json[..]), (Postcard, &postcard)] {
            let node: Node<u16> = format.decode_in(arena, bytes).unwrap();
            let branch = node.branch.unwrap();
            assert_eq!((node.value, branch.label), (1, "b"), "{format}");
            assert_eq!(branch.nodes.len(), 1, "{format}");
            assert_eq!(branch.nodes[0].value, 2, "{format}");
            assert!(branch.nodes[0].branch.is_none(), "{format}");
        }
    });
}

/// A directly recursive type needs nothing.
#[derive(ArenaDeserialize, Debug)]
struct Tree<'bump> {
    value: u32,
    children: &'bump [Tree<'bump>],
}

#[test]
fn recursive_types() {
    arena_tests::with_each_arena!(|arena| {
        let json =
            r#"{"name": "root", "files": [{"name": "a", "link": {"name": "sub", "files": []}}]}"#;
        let folder: Folder = arena_tests::Format::Json
            .decode_in(arena, json.as_bytes())
            .unwrap();
        assert_eq!(folder.files[0].name, "a");
        assert_eq!(folder.files[0].link.unwrap().name, "sub");
        let json = r#"{"value": 1, "children": [{"value": 2, "children": [{"value": 3, "children": []}]}]}"#;
        let tree: Tree = arena_tests::Format::Json
            .decode_in(arena, json.as_bytes())
            .unwrap();
        assert_eq!(tree.children[0].children[0].value, 3);
    });
}

/// Several lifetimes: the arena's is named by `lifetime`; the others stay free.
#[derive(ArenaDeserialize, Debug)]
#[arena(lifetime = "'a")]
struct TwoLifetimes<'a, 'b> {
    text: &'a str,
    marker: core::marker::PhantomData<&'b ()>,
}

/// `arena = "Type"`: the impl is for that arena only, so the function may take it.
#[derive(ArenaDeserialize, Debug)]
#[arena(arena = "bump_scope::Bump")]
struct ScopeOnly<'bump> {
    #[arena(deserialize_with = "scope_len")]
    len: usize,
    name: &'bump str,
}

fn scope_len<'de, 'bump, D: serde::Deserializer<'de>>(
    deserializer: D,
    arena: &'bump bump_scope::Bump,
) -> Result<usize, D::Error> {
    let s: &str = ArenaSeed::new(arena).deserialize(deserializer)?;
    Ok(s.len())
}

#[test]
fn lifetimes_and_fixed_arena() {
    let bump = bumpalo::Bump::new();
    let t: TwoLifetimes = json(&bump, r#"{"text": "hi", "marker": null}"#).unwrap();
    assert_eq!(t.text, "hi");
    let scope = bump_scope::Bump::new();
    let mut de = serde_json::Deserializer::from_str(r#"{"len": "four", "name": "x"}"#);
    let s: ScopeOnly = ArenaSeed::new(&scope).deserialize(&mut de).unwrap();
    assert_eq!((s.len, s.name), (4, "x"));
}

/// bumpalo's collections are differential-tested on the bumpalo arena only (the impl is for
/// `bumpalo::Bump` alone, which the generic bounds work out).
#[derive(ArenaDeserialize, Debug)]
struct BumpaloFields<'bump> {
    names: bumpalo::collections::Vec<'bump, bumpalo::collections::String<'bump>>,
    title: bumpalo::collections::String<'bump>,
}

#[test]
fn bumpalo_collections_read_as_serde_reads_vec_and_string() {
    use arena_tests::derive_support::{SameAs, compare};
    #[derive(serde::Serialize, serde::Deserialize, Debug)]
    struct OwnedBumpaloFields {
        names: Vec<String>,
        title: String,
    }
    impl SameAs<OwnedBumpaloFields> for BumpaloFields<'_> {
        fn same_as(&self, o: &OwnedBumpaloFields) -> bool {
            self.names.same_as(&o.names) && self.title.same_as(&o.title)
        }
    }
    let value = OwnedBumpaloFields {
        names: vec!["a".into(), "bé".into()],
        title: "t".into(),
    };
    for format in arena_tests::Format::ALL {
        let bump = bumpalo::Bump::new();
        let bytes = format.to_bytes(&value);
        let owned = format.decode_owned::<OwnedBumpaloFields>(&bytes);
        let read = format.decode_in::<BumpaloFields, _>(&bump, &bytes);
        compare(&format, owned, read);
        let cut = &bytes[..bytes.len() - 1];
        let owned = format.decode_owned::<OwnedBumpaloFields>(cut);
        let read = format.decode_in::<BumpaloFields, _>(&bump, cut);
        compare(&format, owned, read);
    }
}

/// A public type with a private field type: the per-field bounds must not trip `private_bounds`.
pub mod visibility {
    #[derive(arena_core::ArenaDeserialize, Debug)]
    pub struct Public<'bump> {
        inner: Private<'bump>,
    }

    #[derive(arena_core::ArenaDeserialize, Debug)]
    struct Private<'bump>(&'bump str);

    impl Public<'_> {
        /// The private field's text.
        pub fn text(&self) -> &str {
            self.inner.0
        }
    }
}

#[test]
fn private_field_types() {
    let bump = bumpalo::Bump::new();
    let p: visibility::Public = json(&bump, r#"{"inner": "x"}"#).unwrap();
    assert_eq!(p.text(), "x");
}

/// Struct-typed fields are read in place (a slot per field, the struct built in its caller's
/// slot): every way a field's read can end reads and fails as serde_derive's `Option`s do.
mod in_place_fields {
    use super::json;
    use arena_core::ArenaDeserialize;

    #[derive(ArenaDeserialize, Debug, PartialEq)]
    struct Outer<'bump> {
        a: Inner<'bump>,
        b: Inner<'bump>,
        #[arena(default)]
        d: Inner<'bump>,
        c: u8,
    }

    #[derive(ArenaDeserialize, Debug, PartialEq, Default)]
    struct Inner<'bump> {
        x: u32,
        s: &'bump str,
    }

    /// serde_derive's twins, of the same names (its messages name the type).
    mod owned {
        #[derive(serde::Deserialize)]
        pub struct Outer {
            pub a: Inner,
            pub b: Inner,
            #[serde(default)]
            pub d: Inner,
            pub c: u8,
        }

        #[derive(serde::Deserialize, Default)]
        pub struct Inner {
            pub x: u32,
            pub s: String,
        }
    }

    fn same(input: &str) {
        let bump = bumpalo::Bump::new();
        let ours = json::<Outer<'_>>(&bump, input);
        let theirs = serde_json::from_str::<owned::Outer>(input);
        match (ours, theirs) {
            (Ok(ours), Ok(theirs)) => {
                for (o, t) in [(ours.a, theirs.a), (ours.b, theirs.b), (ours.d, theirs.d)] {
                    assert_eq!((o.x, o.s), (t.x, t.s.as_str()), "{input}");
                }
                assert_eq!(ours.c, theirs.c, "{input}");
            }
            (Err(ours), Err(theirs)) => assert_eq!(ours.to_string(), theirs.to_string(), "{input}"),
            (ours, theirs) => panic!("{input}: ours {ours:?}, serde's {:?}", theirs.err()),
        }
    }

    #[test]
    fn struct_fields_read_in_place_as_serde_reads_them() {
        // Maps: whole, in any order, a default, a duplicate, a missing field, an error after
        // fields were read.
        same(r#"{"a": {"x": 1, "s": "one"}, "b": {"x": 2, "s": "two"}, "c": 3}"#);
        same(
            r#"{"c": 3, "b": {"s": "two", "x": 2}, "d": {"x": 4, "s": ""}, "a": {"x": 1, "s": "one"}}"#,
        );
        same(
            r#"{"a": {"x": 1, "s": "one"}, "a": {"x": 2, "s": "two"}, "b": {"x": 2, "s": "two"}, "c": 3}"#,
        );
        same(r#"{"a": {"x": 1, "s": "one"}, "c": 3}"#);
        same(r#"{"a": {"x": 1, "s": "one"}, "b": {"x": 2, "s": "two"}, "c": 300}"#);
        same(r#"{"a": {"x": 1, "s": "one"}, "b": {"x": 2}, "c": 3}"#);
        // Sequences: whole, short before a field without default and before one with, an
        // error in a later field.
        same(r#"[{"x": 1, "s": "one"}, {"x": 2, "s": "two"}, {"x": 4, "s": "four"}, 3]"#);
        same(r#"[{"x": 1, "s": "one"}]"#);
        same(r#"[{"x": 1, "s": "one"}, {"x": 2, "s": "two"}]"#);
        same(r#"[{"x": 1, "s": "one"}, [2, "two"], [4, "four"], 3]"#);
        same(r#"[{"x": 1, "s": "one"}, {"x": 2, "s": "two"}, {"x": 4, "s": "four"}, -1]"#);
        same(r#"[{"x": 1, "s": "one"}, {"x": 2, "s": 2}, {"x": 4, "s": "four"}, 3]"#);
    }
}
