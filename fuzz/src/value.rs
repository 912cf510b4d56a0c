//! The property of the `value` target: any bytes read as JSON, MessagePack and CBOR into
//! [`arena_core::Value`], under the fuzz limits, on bumpalo, bump-scope and `SlabArena`.
//!
//! - it never panics, aborts or overflows the stack;
//! - the three arenas read the same value, or all three refuse;
//! - a failed read leaves a bump-scope or slab arena's used bytes as they were (JSON's trailing
//!   characters aside: serde_json finds them once the call has succeeded);
//! - it reads what serde reads into `serde_json::Value`, the dynamic value of serde's data
//!   model at hand (rmp-serde and cbor4ii have none of their own): when that reads the input,
//!   the arena reads an equal value (its limits aside), node by node ([`same`]). Where
//!   `serde_json::Value` refuses (byte strings, non-string keys, enums, newtypes, which
//!   `Value` keeps), only the rest of the property applies;
//! - a value read, written back in its format with its `Serialize`, reads again as the same
//!   value ([`same_value`]: integers by value, NaN equal to NaN).

use std::collections::HashMap;

use arena_core::{BumpAllocator, Value};

use crate::Format;

/// The formats `Value` reads: the self-describing ones.
const FORMATS: [Format; 3] = [Format::Json, Format::MsgPack, Format::Cbor];

/// The property of the `value` target; panics (a finding) when it does not hold.
pub fn check(data: &[u8]) {
    for format in FORMATS {
        let bump = bumpalo::Bump::new();
        let read = read(format, &bump, data);

        let scope: bump_scope::Bump = bump_scope::Bump::new();
        let slab = arena_core::SlabArena::new();
        for other in [
            read_rewinding(format, &scope, data),
            read_rewinding(format, &slab, data),
        ] {
            match (&read, &other) {
                (Ok(a), Ok(b)) => assert!(a == b || has_nan(a), "{format:?}: {a:?} != {b:?}"),
                (Err(_), Err(_)) => {}
                _ => panic!("{format:?}: the arenas disagree: {read:?} and {other:?}"),
            }
        }
        slab.check_invariants();

        // A limit hit or a depth error says the input is large or deep: serde_json::Value has no
        // depth limit of its own outside JSON, so it is not asked.
        if read
            .as_ref()
            .is_err_and(|e| e.contains("limit") || e.contains("depth"))
        {
            continue;
        }
        let reference = format.decode_owned::<serde_json::Value>(data);
        match (&read, &reference) {
            (Ok(value), Ok(json)) => {
                assert!(same(value, json), "{format:?}: {value:?} != {json}");
            }
            (Err(e), Ok(json)) => panic!("{format:?}: serde read {json}, the arena refused: {e}"),
            (Ok(_) | Err(_), Err(_)) => {}
        }
        // Written back in its format, a value read reads again as the same value.
        if let Ok(value) = &read {
            let written = write(format, value);
            let again_arena = bumpalo::Bump::new();
            let again = self::read(format, &again_arena, &written).unwrap_or_else(|e| {
                panic!("{format:?}: {value:?} written back does not read: {e}")
            });
            assert!(
                same_value(value, &again),
                "{format:?}: {value:?} written back reads as {again:?}"
            );
        }
    }
}

/// `value` written in `format` with its `Serialize`.
fn write(format: Format, value: &Value<'_>) -> Vec<u8> {
    match format {
        Format::Json => serde_json::to_vec(value).expect("a Value read from JSON writes as JSON"),
        Format::MsgPack => rmp_serde::to_vec(value).expect("a Value writes as MessagePack"),
        Format::Cbor => cbor4ii::serde::to_vec(Vec::new(), value).expect("a Value writes as CBOR"),
        other => unreachable!("{other:?} is not self-describing"),
    }
}

/// Whether `a` and `b` hold the same data, an integer compared by its value whatever its
/// variant (a format may write an integer read as signed in its unsigned form: JSON's `-0`,
/// MessagePack's `int 8` holding 5) and NaN equal to NaN.
fn same_value(a: &Value<'_>, b: &Value<'_>) -> bool {
    let int = |v: &Value<'_>| match *v {
        Value::I64(i) => Some(i128::from(i)),
        Value::U64(u) => Some(i128::from(u)),
        Value::I128(i) => Some(*i),
        Value::U128(u) => i128::try_from(*u).ok(),
        _ => None,
    };
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Value::F64(x), Value::F64(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Value::Some(x), Value::Some(y)) | (Value::Newtype(x), Value::Newtype(y)) => {
            same_value(x, y)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(x, y)| same_value(x, y))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((xk, xv), (yk, yv))| same_value(xk, yk) && same_value(xv, yv))
        }
        _ => match (int(a), int(b)) {
            (Some(x), Some(y)) => x == y,
            _ => a == b,
        },
    }
}

/// Reads a [`Value`] from `data` into `arena` under the fuzz limits.
fn read<'bump, A: BumpAllocator>(
    format: Format,
    arena: &'bump A,
    data: &[u8],
) -> Result<Value<'bump>, String> {
    crate::decode_in::<Value<'bump>, A>(format, arena, data)
}

/// [`read`], on an arena that can rewind: a failed read leaves its used bytes as they were.
///
/// JSON's trailing characters are the exception: serde_json finds them after the call has read
/// its value (`Deserializer::end`), so the call succeeded and keeps what it read.
fn read_rewinding<'bump, A: BumpAllocator>(
    format: Format,
    arena: &'bump A,
    data: &[u8],
) -> Result<Value<'bump>, String> {
    let before = arena.stats().used_bytes;
    let result = read(format, arena, data);
    if result
        .as_ref()
        .is_err_and(|e| !e.starts_with("trailing characters"))
    {
        assert_eq!(
            arena.stats().used_bytes,
            before,
            "{format:?}: a failed read was not rewound"
        );
    }
    result
}

/// Whether `value` holds a NaN anywhere (which makes `==` false on equal reads).
fn has_nan(value: &Value<'_>) -> bool {
    match *value {
        Value::F32(f) => f.is_nan(),
        Value::F64(f) => f.is_nan(),
        Value::Some(v) | Value::Newtype(v) => has_nan(v),
        Value::Array(items) => items.iter().any(has_nan),
        Value::Map(entries) => entries.iter().any(|(k, v)| has_nan(k) || has_nan(v)),
        Value::Enum((variant, content)) => has_nan(variant) || has_nan(content),
        _ => false,
    }
}

/// Whether `value` holds what `serde_json::Value`'s visitor made of the same visits: null for
/// unit and none (and a float that is not finite), an option's or a newtype's content as
/// itself, integers and floats as numbers, a char as a string, a map's last entry for each key.
fn same(value: &Value<'_>, json: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    let float = |f: f64| {
        if f.is_finite() {
            json.as_f64() == Some(f) && json.is_f64()
        } else {
            json.is_null()
        }
    };
    let integer = |i: i128| {
        json.as_u64().map(i128::from) == Some(i) || json.as_i64().map(i128::from) == Some(i)
    };
    match *value {
        Value::Unit | Value::None => json.is_null(),
        Value::Some(v) | Value::Newtype(v) => same(v, json),
        Value::Bool(b) => *json == J::Bool(b),
        Value::I64(i) => integer(i.into()),
        Value::U64(u) => integer(u.into()),
        Value::I128(&i) => integer(i),
        Value::U128(&u) => i128::try_from(u).is_ok_and(integer),
        Value::F32(f) => float(f.into()),
        Value::F64(f) => float(f),
        Value::Char(c) => json.as_str() == Some(c.encode_utf8(&mut [0; 4])),
        Value::Str(s) => json.as_str() == Some(s),
        Value::Array(items) => json.as_array().is_some_and(|array| {
            array.len() == items.len() && items.iter().zip(array).all(|(v, j)| same(v, j))
        }),
        Value::Map(entries) => json.as_object().is_some_and(|object| {
            // serde_json::Value keeps a key's last entry. It reads keys as strings, which a
            // format may give as UTF-8 bytes (rmp-serde's `bin`): `Value` keeps those as `Bytes`.
            let mut last = HashMap::with_capacity(entries.len());
            for (key, value) in entries {
                let key = match *key {
                    Value::Str(key) => key,
                    Value::Bytes(bytes) => match core::str::from_utf8(bytes) {
                        Ok(key) => key,
                        Err(_) => return false,
                    },
                    _ => return false,
                };
                last.insert(key, value);
            }
            last.len() == object.len()
                && object
                    .iter()
                    .all(|(key, j)| last.get(key.as_str()).is_some_and(|v| same(v, j)))
        }),
        // serde_json::Value's visitor takes neither.
        Value::Bytes(_) | Value::Enum(_) => false,
    }
}
