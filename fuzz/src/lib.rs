//! Fuzzing support: one rich document type (owned twin and arena type) and the property every
//! fuzz target checks.
//!
//! For any input bytes and any format:
//! - deserializing into the arena type never panics, aborts or overflows the stack, on bumpalo,
//!   bump-scope and `SlabArena` (whose invariants are checked after each input);
//! - it reads what serde_derive reads: when serde reads the owned twin, the arena reads an equal
//!   value; when serde refuses the input, so does the arena (limits and the documented CBOR
//!   forms aside, where the arena may refuse more);
//! - a failed call leaves a bump-scope or slab arena's used bytes as they were (rewind on error);
//! - a recursive type (arena only: serde's owned twin would overflow the stack on deep input)
//!   returns a value or an error.
//!
//! The `value` target checks its own property, in [`value`]: any bytes read into
//! `arena_core::Value`.

pub mod events;
pub mod json_differential;
pub mod json_reader;
pub mod msgpack_differential;
pub mod value;

use std::fmt;

use arena_core::{ArenaDeserialize, ArenaSeed, BStr, BumpAllocator, Limits};
use serde::Deserialize;
use serde::de::{DeserializeOwned, DeserializeSeed};

/// A format, driven exactly as its own `from_slice`-style helper drives it (MessagePack: the
/// owned twin with rmp-serde's, the arena type with `arena_core::msgpack::from_slice_seed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Postcard,
    Bincode,
    MsgPack,
    Cbor,
}

impl Format {
    fn decode<'de, S: DeserializeSeed<'de>>(
        self,
        seed: S,
        bytes: &'de [u8],
    ) -> Result<S::Value, String> {
        let text = |e: &dyn std::fmt::Display| e.to_string();
        match self {
            Format::Json => {
                let mut de = serde_json::Deserializer::from_slice(bytes);
                let v = seed.deserialize(&mut de).map_err(|e| text(&e))?;
                de.end().map_err(|e| text(&e))?;
                Ok(v)
            }
            Format::Postcard => seed
                .deserialize(&mut postcard::Deserializer::from_bytes(bytes))
                .map_err(|e| text(&e)),
            // With `config::standard()` (no limit) bincode's own `String` decode allocates the
            // length the input claims before reading it, and aborts on absurd ones (the first
            // finding of this fuzzer, in serde's owned baseline; the arena path borrows and
            // never allocates there). bincode documents `with_limit` for untrusted input.
            Format::Bincode => bincode::serde::seed_decode_from_slice(
                seed,
                bytes,
                bincode::config::standard().with_limit::<{ 16 << 20 }>(),
            )
            .map(|(v, _)| v)
            .map_err(|e| text(&e)),
            Format::MsgPack => seed
                .deserialize(&mut rmp_serde::Deserializer::from_read_ref(bytes))
                .map_err(|e| text(&e)),
            Format::Cbor => {
                let mut de = cbor4ii::serde::Deserializer::new(
                    cbor4ii::core::utils::SliceReader::new(bytes),
                );
                seed.deserialize(&mut de).map_err(|e| text(&e))
            }
        }
    }

    fn decode_owned<T: DeserializeOwned>(self, bytes: &[u8]) -> Result<T, String> {
        self.decode(std::marker::PhantomData::<T>, bytes)
    }
}

/// The owned twin, read by serde_derive.
#[derive(Debug, Deserialize)]
pub struct OwnedDoc {
    pub id: u64,
    #[serde(alias = "n")]
    pub name: String,
    #[serde(default)]
    pub score: f64,
    pub tags: Vec<String>,
    pub nick: Option<String>,
    pub grid: Vec<Vec<i32>>,
    pub kind: OwnedKind,
    #[serde(deserialize_with = "map_or_pairs")]
    pub attrs: Vec<(String, u16)>,
    pub pair: (u8, String),
    pub fixed: [u16; 3],
}

#[derive(Debug, Deserialize)]
pub enum OwnedKind {
    Empty,
    Code(u32),
    Span(u32, u32),
    Named { label: String, weight: Option<i64> },
}

/// serde's reading of what `&[(K, V)]` documents: a map in input order with duplicates, or
/// (in human-readable formats, which describe themselves) a sequence of pairs.
fn map_or_pairs<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(String, u16)>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Vec<(String, u16)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map")
        }
        fn visit_map<M: serde::de::MapAccess<'de>>(
            self,
            mut m: M,
        ) -> Result<Self::Value, M::Error> {
            let mut out = Vec::new();
            while let Some(entry) = m.next_entry()? {
                out.push(entry);
            }
            Ok(out)
        }
        fn visit_seq<S: serde::de::SeqAccess<'de>>(
            self,
            mut s: S,
        ) -> Result<Self::Value, S::Error> {
            let mut out = Vec::new();
            while let Some(pair) = s.next_element()? {
                out.push(pair);
            }
            Ok(out)
        }
    }
    if d.is_human_readable() {
        d.deserialize_any(V)
    } else {
        d.deserialize_map(V)
    }
}

/// The arena type, read by `#[derive(ArenaDeserialize)]`.
#[derive(Debug, arena_core::ArenaDeserialize)]
pub struct Doc<'bump> {
    pub id: u64,
    #[arena(alias = "n")]
    pub name: &'bump str,
    #[arena(default)]
    pub score: f64,
    pub tags: &'bump [&'bump str],
    pub nick: Option<&'bump str>,
    pub grid: &'bump [&'bump [i32]],
    pub kind: Kind<'bump>,
    pub attrs: &'bump [(&'bump str, u16)],
    pub pair: (u8, &'bump str),
    pub fixed: [u16; 3],
}

#[derive(Debug, arena_core::ArenaDeserialize)]
pub enum Kind<'bump> {
    Empty,
    Code(u32),
    Span(u32, u32),
    Named {
        label: &'bump str,
        weight: Option<i64>,
    },
}

/// A recursive type, arena only.
#[derive(Debug, arena_core::ArenaDeserialize)]
pub struct Node<'bump> {
    pub label: BStr<'bump>,
    pub children: &'bump [Node<'bump>],
    pub next: Option<&'bump Node<'bump>>,
}

/// Field-by-field equality of the arena value with serde's.
fn same(doc: &Doc<'_>, owned: &OwnedDoc) -> bool {
    let floats = doc.score == owned.score || (doc.score.is_nan() && owned.score.is_nan());
    let kind = match (&doc.kind, &owned.kind) {
        (Kind::Empty, OwnedKind::Empty) => true,
        (Kind::Code(a), OwnedKind::Code(b)) => a == b,
        (Kind::Span(a, b), OwnedKind::Span(c, d)) => (a, b) == (c, d),
        (
            Kind::Named { label, weight },
            OwnedKind::Named {
                label: l,
                weight: w,
            },
        ) => label == l && weight == w,
        _ => false,
    };
    let attrs = doc.attrs.len() == owned.attrs.len()
        && doc
            .attrs
            .iter()
            .zip(&owned.attrs)
            .all(|((k, v), (l, w))| k == l && v == w);
    doc.id == owned.id
        && doc.name == owned.name
        && floats
        && doc.tags == owned.tags.as_slice()
        && doc.nick == owned.nick.as_deref()
        && doc.grid.len() == owned.grid.len()
        && doc
            .grid
            .iter()
            .zip(&owned.grid)
            .all(|(a, b)| *a == b.as_slice())
        && kind
        && attrs
        && doc.pair.0 == owned.pair.0
        && doc.pair.1 == owned.pair.1
        && doc.fixed == owned.fixed
}

/// Limits that keep a fuzz iteration small without changing what valid small inputs read.
/// The seed every check reads with: bounded, as for any input one did not write.
fn seed<T, A: ?Sized>(arena: &A) -> ArenaSeed<'_, T, A> {
    ArenaSeed::new(arena).with_limits(Limits::default().max_bytes(16 << 20).max_len(1 << 16))
}

pub(crate) fn decode_in<'bump, T, A>(
    format: Format,
    arena: &'bump A,
    data: &[u8],
) -> Result<T, String>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    match format {
        // The arena reads MessagePack through its own entry point (arena_core's reader), the
        // owned twin through rmp-serde's: every check is also a differential of the two.
        Format::MsgPack => arena_core::msgpack::from_slice_seed(seed::<T, A>(arena), data)
            .map_err(|e| e.to_string()),
        _ => format.decode(seed::<T, A>(arena), data),
    }
}

/// The property of every fuzz target; panics (a finding) when it does not hold.
pub fn check(format: Format, data: &[u8]) {
    let owned = format.decode_owned::<OwnedDoc>(data);

    let bump = bumpalo::Bump::new();
    let arena = decode_in::<Doc, _>(format, &bump, data);
    compare(format, &arena, &owned);

    let scope: bump_scope::Bump = bump_scope::Bump::new();
    check_rewinding(format, &scope, data, &owned);
    let slab = arena_core::SlabArena::new();
    check_rewinding(format, &slab, data, &owned);
    slab.check_invariants();

    // postcard and bincode write a string as a byte string: read that way, the same holds.
    if matches!(format, Format::Postcard | Format::Bincode) {
        let as_bytes = format.decode(seed::<Doc, _>(&bump).str_as_bytes(true), data);
        compare(format, &as_bytes, &owned);
    }

    // The buffered representations: `flatten`, untagged and tagged enums.
    events::check(format, data);

    // Recursion: a value or an error, never a stack overflow.
    let _ = decode_in::<Node, _>(format, &bump, data);
    let _ = decode_in::<Node, _>(format, &scope, data);
    let _ = decode_in::<Node, _>(format, &slab, data);
}

/// On an arena that can rewind, a failed call leaves the used bytes as they were.
fn check_rewinding<A: BumpAllocator>(
    format: Format,
    arena: &A,
    data: &[u8],
    owned: &Result<OwnedDoc, String>,
) {
    compare(
        format,
        &decode_rewinding::<Doc, _>(format, arena, data),
        owned,
    );
}

/// `data` read into a `T` in `arena`, an arena that can rewind, asserting that a failed call
/// leaves the arena's used bytes as they were.
///
/// JSON's trailing characters are the exception: they are found after the call has read its
/// value (`Deserializer::end`), so the call succeeded and keeps what it read.
pub(crate) fn decode_rewinding<'bump, T, A>(
    format: Format,
    arena: &'bump A,
    data: &[u8],
) -> Result<T, String>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator,
{
    let before = arena.stats().used_bytes;
    let result = decode_in::<T, A>(format, arena, data);
    if result
        .as_ref()
        .is_err_and(|e| !e.starts_with("trailing characters"))
    {
        assert_eq!(
            arena.stats().used_bytes,
            before,
            "a failed call was not rewound"
        );
    }
    result
}

fn compare(format: Format, arena: &Result<Doc<'_>, String>, owned: &Result<OwnedDoc, String>) {
    match (arena, owned) {
        (Ok(doc), Ok(owned)) => assert!(same(doc, owned), "{format:?}: {doc:?} != {owned:?}"),
        (Ok(doc), Err(e)) => panic!("{format:?}: serde refused ({e}) but the arena read {doc:?}"),
        (Err(e), Ok(owned)) => {
            // The arena may refuse more: its limits (postcard keeps no custom message, so a
            // limit hit there reads as its generic custom error).
            let documented = e.contains("limit")
                || format == Format::Postcard && e.contains("Serde Deserialization Error");
            assert!(
                documented,
                "{format:?}: serde read {owned:?}, the arena refused: {e}"
            );
        }
        (Err(_), Err(_)) => {}
    }
}
