//! The value table: a JSON document parsed into a dynamic value, with no data model.
//!
//! [`arena_core::Value`] in a fresh arena per document against `serde_json::Value` (under the
//! system allocator, the baseline, and under mimalloc), simd-json's borrowed value and
//! sonic-rs's `Value`. Each is a [`ValueParser`], made a [`Strategy`] of any dataset by
//! [`ValueStrategy`] (a dynamic value needs no model), reading JSON only: the parent makes
//! value cells for the JSON documents alone.
//!
//! Every result is checked before it is timed: turned into a `serde_json::Value`, it must equal
//! the document as serde_json reads it, floats within one unit in the last place ([`check`]).
//! What a value holds ([`Observed::held_bytes`]) is the arena's reserved bytes for the arena,
//! and for the others the heap bytes a separate, untimed parse leaves allocated (the
//! [`counting`] allocator's net bytes).

use core::marker::PhantomData;
use std::hint::black_box;
use std::time::Instant;

use arena_core::{ArenaSeed, Value};

use crate::counting;
use crate::datasets::Dataset;
use crate::format::{Format, Json};
use crate::model::digest_of;
use crate::strategy::{ArenaKind, Observed, OsCalls, Sample, Strategy, arena_bytes};

/// The digest every value strategy must reproduce: that of the document read into a
/// `serde_json::Value`.
///
/// # Errors
///
/// When serde_json cannot read the document.
pub fn document_digest(json: &[u8]) -> Result<u64, String> {
    let value: serde_json::Value = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    Ok(digest_of(&value))
}

/// `value` as a `serde_json::Value`, through its `Serialize`, for the check.
///
/// simd-json's value, sonic-rs's and `arena_core::Value` each write a node read from JSON as
/// that node. The nodes `arena_core::Value` holds beyond JSON (byte strings, enums, non-string
/// map keys, non-finite floats) are written as other JSON (an array of numbers, a string or a
/// map of one entry, a string key, `null`) or fail, but reading JSON never makes one.
///
/// # Errors
///
/// serde_json's, for a node it cannot hold (a 128-bit integer out of JSON's range).
pub fn to_json_value<T: serde::Serialize + ?Sized>(value: &T) -> Result<serde_json::Value, String> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

/// Checks `value` against `json` as serde_json reads it, node by node, and returns the digest
/// the check pass records: the reference's ([`document_digest`]) when they agree.
///
/// Floats agree when they are equal or adjacent: serde_json's float parsing without its
/// `float_roundtrip` feature is not always correctly rounded (it reads a few of canada.json's
/// numbers one unit in the last place away), simd-json's and sonic-rs's are. arena-bench builds
/// serde_json with the feature, so they agree exactly here.
///
/// # Errors
///
/// Where they differ, by JSON pointer, or serde_json's error on `json`.
pub fn check(value: &serde_json::Value, json: &[u8]) -> Result<u64, String> {
    let reference: serde_json::Value = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    agree(value, &reference)?;
    Ok(digest_of(&reference))
}

/// Checks that `got` is `expected`, node by node, floats equal or adjacent (see [`check`]).
///
/// # Errors
///
/// Where they differ, by JSON pointer.
pub fn agree(got: &serde_json::Value, expected: &serde_json::Value) -> Result<(), String> {
    same(&mut String::new(), got, expected)
}

/// Whether `a` and `b` are equal or adjacent floats.
fn adjacent(a: f64, b: f64) -> bool {
    a == b
        || (a.is_sign_negative() == b.is_sign_negative() && a.to_bits().abs_diff(b.to_bits()) <= 1)
}

/// Compares `got` with `expected` below the JSON pointer `path`.
fn same(
    path: &mut String,
    got: &serde_json::Value,
    expected: &serde_json::Value,
) -> Result<(), String> {
    use serde_json::Value as J;
    let agree = match (got, expected) {
        (J::Number(a), J::Number(b)) if a.is_f64() && b.is_f64() => a
            .as_f64()
            .zip(b.as_f64())
            .is_some_and(|(a, b)| adjacent(a, b)),
        (J::Array(a), J::Array(b)) if a.len() == b.len() => {
            for (i, (a, b)) in a.iter().zip(b).enumerate() {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                same(path, a, b)?;
                path.truncate(len);
            }
            true
        }
        (J::Object(a), J::Object(b)) if a.len() == b.len() => {
            for (key, b) in b {
                let len = path.len();
                path.push('/');
                path.push_str(key);
                same(path, a.get(key).unwrap_or(&J::Null), b)?;
                path.truncate(len);
            }
            a.keys().all(|key| b.contains_key(key))
        }
        _ => got == expected,
    };
    if agree {
        Ok(())
    } else {
        Err(format!(
            "the value differs from serde_json's at `{path}`: {got} instead of {expected}"
        ))
    }
}

/// One way of parsing a JSON document into a dynamic value, timed as a [`Strategy`] is.
pub trait ValueParser {
    /// OS calls made so far outside the global allocator (see [`Strategy::os_calls`]).
    fn os_calls() -> Option<OsCalls> {
        None
    }

    /// Parses `input` and drops the value, timing both apart; the check pass (`observe`)
    /// [`check`]s the value and records what it holds.
    ///
    /// # Errors
    ///
    /// The parser's error, or a value that differs from serde_json's, as text.
    fn once(input: &[u8], observe: Option<&mut Observed>) -> Result<Sample, String>;
}

/// A [`ValueParser`] as a strategy of any dataset: it needs no model, and reads JSON only.
#[derive(Debug)]
pub struct ValueStrategy<P>(PhantomData<P>);

impl<D: Dataset, P: ValueParser> Strategy<D> for ValueStrategy<P> {
    type State = ();

    fn new_state() {}

    fn os_calls() -> Option<OsCalls> {
        P::os_calls()
    }

    #[inline(never)]
    fn once<F: Format>(
        (): &mut (),
        input: &[u8],
        observe: Option<&mut Observed>,
    ) -> Result<Sample, String> {
        if F::NAME != Json::NAME {
            return Err(format!("the value table reads JSON, not {}", F::NAME));
        }
        P::once(input, observe)
    }
}

/// The heap bytes `parse` leaves allocated: what the value it returns holds, its own input
/// buffers and scratch freed by then excluded. Run once, untimed, with nothing else allocating.
fn heap_held<T>(parse: impl FnOnce() -> Result<T, String>) -> Result<u64, String> {
    let (value, calls) = counting::count(parse);
    drop(value?);
    Ok(u64::try_from(calls.net_bytes).unwrap_or(0))
}

/// Times `parse` and the drop of what it returns; the check pass [`check`]s the value `convert`
/// turns it into and records the heap bytes one more parse holds.
#[inline]
fn heap_value<T>(
    input: &[u8],
    parse: impl Fn() -> Result<T, String>,
    convert: impl FnOnce(&T) -> Result<serde_json::Value, String>,
    observe: Option<&mut Observed>,
) -> Result<Sample, String> {
    let t0 = Instant::now();
    let value = parse()?;
    let decode = t0.elapsed();
    black_box(&value);
    if let Some(o) = observe {
        o.digest = check(&convert(&value)?, input)?;
        o.held_bytes = Some(heap_held(&parse)?);
    }
    let t1 = Instant::now();
    drop(value);
    Ok(Sample {
        decode,
        drop: t1.elapsed(),
        replay: None,
    })
}

/// `serde_json::Value`, with whatever global allocator the binary has (`value-serde-system`,
/// the value table's baseline, and `value-serde-mimalloc`).
#[derive(Debug)]
pub struct SerdeValue;

impl ValueParser for SerdeValue {
    fn once(input: &[u8], observe: Option<&mut Observed>) -> Result<Sample, String> {
        heap_value(
            input,
            || Json::decode_seed(input, PhantomData::<serde_json::Value>),
            |v| Ok(v.clone()),
            observe,
        )
    }
}

/// simd-json's borrowed value (`simd_json::to_borrowed_value`). It parses a mutable buffer and
/// borrows its strings from it, so each document copies the input first, inside the timed
/// part, and the copy is part of what the value holds.
#[derive(Debug)]
pub struct SimdJsonValue;

impl ValueParser for SimdJsonValue {
    fn once(input: &[u8], observe: Option<&mut Observed>) -> Result<Sample, String> {
        let t0 = Instant::now();
        let mut copy = input.to_vec();
        let value = simd_json::to_borrowed_value(&mut copy).map_err(|e| e.to_string())?;
        let decode = t0.elapsed();
        black_box(&value);
        if let Some(o) = observe {
            o.digest = check(&to_json_value(&value)?, input)?;
            // The copy (exactly the input's length) and what the parse leaves on the heap.
            let mut copy = input.to_vec();
            let copy = &mut copy;
            let parsed =
                heap_held(move || simd_json::to_borrowed_value(copy).map_err(|e| e.to_string()));
            o.held_bytes = Some(input.len() as u64 + parsed?);
        }
        let t1 = Instant::now();
        drop(value);
        drop(copy);
        Ok(Sample {
            decode,
            drop: t1.elapsed(),
            replay: None,
        })
    }
}

/// sonic-rs's `Value` (`sonic_rs::from_slice`).
#[derive(Debug)]
pub struct SonicValue;

impl ValueParser for SonicValue {
    fn once(input: &[u8], observe: Option<&mut Observed>) -> Result<Sample, String> {
        heap_value(
            input,
            || sonic_rs::from_slice::<sonic_rs::Value>(input).map_err(|e| e.to_string()),
            to_json_value,
            observe,
        )
    }
}

/// [`arena_core::Value`] in a new arena `K` per document, created inside the timed part and
/// dropped inside the drop part, under the default limits.
#[derive(Debug)]
pub struct ArenaValueFresh<K>(PhantomData<K>);

impl<K: ArenaKind> ValueParser for ArenaValueFresh<K> {
    fn os_calls() -> Option<OsCalls> {
        Some(K::os_calls())
    }

    fn once(input: &[u8], observe: Option<&mut Observed>) -> Result<Sample, String> {
        let t0 = Instant::now();
        let arena = K::create();
        let value = Json::decode_arena(input, ArenaSeed::<Value<'_>, K>::new(&arena))?;
        let decode = t0.elapsed();
        black_box(&value);
        if let Some(o) = observe {
            o.digest = check(&to_json_value(&value)?, input)?;
            let bytes = arena_bytes(&arena);
            o.arena = Some(bytes);
            o.held_bytes = Some(bytes.reserved);
        }
        let t1 = Instant::now();
        drop(arena);
        Ok(Sample {
            decode,
            drop: t1.elapsed(),
            replay: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arena_value_converts_to_what_serde_json_reads() {
        let json =
            br#"{"a": [1, -2, 3.5, "x\u00e9", null, true], "b": {"c": 18446744073709551615}}"#;
        let bump = bumpalo::Bump::new();
        let value = Json::decode_seed(json, ArenaSeed::<Value<'_>, _>::new(&bump)).unwrap();
        let expected: serde_json::Value = serde_json::from_slice(json).unwrap();
        assert_eq!(to_json_value(&value).unwrap(), expected);
        assert_eq!(
            digest_of(&to_json_value(&value).unwrap()),
            document_digest(json).unwrap()
        );
    }

    #[test]
    fn the_check_allows_adjacent_floats_and_nothing_else() {
        let json = b"[0.1, 1, \"a\"]";
        let next = f64::from_bits(0.1_f64.to_bits() + 1);
        let near = serde_json::json!([next, 1, "a"]);
        assert_eq!(check(&near, json), Ok(document_digest(json).unwrap()));
        let far = serde_json::json!([f64::from_bits(0.1_f64.to_bits() + 2), 1, "a"]);
        assert!(check(&far, json).unwrap_err().contains("at `/0`"));
        let float = serde_json::json!([0.1, 1.0, "a"]);
        assert!(check(&float, json).unwrap_err().contains("at `/1`"));
        let key = serde_json::json!({"b": 1});
        assert!(check(&key, br#"{"a": 1}"#).unwrap_err().contains("at `/a`"));
    }

    #[test]
    fn a_float_and_an_integer_digest_apart() {
        assert_ne!(
            document_digest(b"[1]").unwrap(),
            document_digest(b"[1.0]").unwrap()
        );
        assert_ne!(
            document_digest(b"{\"a\": 1}").unwrap(),
            document_digest(b"{\"a\": \"1\"}").unwrap()
        );
    }
}
