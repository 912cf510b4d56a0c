//! What the four generated binaries share: the documents they read and one generic reader per
//! derive. The readers are generic, so each binary instantiates them for its own types: that
//! code counts towards the types, as `serde_json::from_str::<T>` would in a real program.

use std::hint::black_box;
use std::io::Read;

use arena_core::{ArenaDeserialize, ArenaSeed};
use bumpalo::Bump;
use serde::de::{DeserializeOwned, DeserializeSeed};

/// The JSON documents, one per line of standard input: document `i` is read as type `i`.
///
/// # Panics
///
/// If standard input is not UTF-8.
#[must_use]
pub fn documents() -> Vec<String> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .expect("standard input is UTF-8");
    input.lines().map(str::to_owned).collect()
}

/// Document `i`, or an empty one (an error for every type) past the last line.
fn document(docs: &[String], i: usize) -> &str {
    docs.get(i).map_or("", String::as_str)
}

/// Reads document `i` as `T` with serde's `Deserialize`; whether it was valid.
///
/// The value is forgotten, not dropped: drop glue is the owned types' cost, not the derive's,
/// and the arena types have none, so neither side counts it.
#[inline(never)]
pub fn read_serde<T: DeserializeOwned>(docs: &[String], i: usize) -> bool {
    let mut de = serde_json::Deserializer::from_str(document(docs, i));
    match T::deserialize(&mut de) {
        Ok(value) => {
            std::mem::forget(black_box(value));
            de.end().is_ok()
        }
        Err(_) => false,
    }
}

/// Reads document `i` as `T` into `arena` with `ArenaSeed`; whether it was valid.
#[inline(never)]
pub fn read_arena<'bump, T: ArenaDeserialize<'bump, Bump>>(
    arena: &'bump Bump,
    docs: &[String],
    i: usize,
) -> bool {
    let mut de = serde_json::Deserializer::from_str(document(docs, i));
    match ArenaSeed::<T, Bump>::new(arena).deserialize(&mut de) {
        Ok(value) => {
            std::mem::forget(black_box(value));
            de.end().is_ok()
        }
        Err(_) => false,
    }
}
