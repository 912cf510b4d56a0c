//! [`Value`]: a dynamic document in the arena, for data without a typed model.
//!
//! The arena twin of `serde_json::Value`: every string, byte string, array and map of it is
//! arena memory, so a document costs a few bumps per node and nothing to drop. It holds
//! everything serde's data model can hand a visitor, so a document buffered in it loses
//! nothing: 128-bit integers, `f32` apart from `f64`, byte strings apart from arrays, `None`
//! apart from unit, maps with any keys in input order.
//!
//! - [`read`]: `ArenaDeserialize` for every arena, from any self-describing format;
//! - [`ser`]: `Serialize`, writing back each node as it was read;
//! - [`display`]: `Display` as JSON text, compact or pretty;
//! - [`access`]: the views of `serde_json::Value` (`get`, indexing, `pointer`, `as_*`, `is_*`,
//!   comparison with primitives), through [`ValueIndex`];
//! - [`build`]: constructors in an arena, and converting a `serde_json::Value`;
//! - [`replay`]: [`ValueDeserializer`], a `Deserializer` that replays a value into any serde
//!   type with the rules of serde's own buffer, and `&Value`'s `Deserializer`, which replays
//!   with [`ValueError`] ([`error`]).

use core::fmt;
use core::hash::{Hash, Hasher};

mod access;
mod build;
mod display;
mod error;
mod read;
mod replay;
mod ser;

pub use access::ValueIndex;
pub use error::ValueError;
pub(crate) use read::ValueVisitor;
pub use replay::ValueDeserializer;

/// A value of serde's data model, in the arena: what a self-describing format (JSON,
/// MessagePack, CBOR) can hand a visitor.
///
/// A `Value` is a tag and a slice, or a scalar, or a reference to the rare node that needs
/// more: 24 bytes with 64-bit pointers, 16 on wasm32 and 12 on i686 (whose `u64` and `f64` are
/// 4-byte aligned), asserted at compile time for each. It is `Copy`: it only borrows the arena. Arrays and maps are arena slices of
/// exactly their length; maps keep their entries in input order, duplicate and non-string keys
/// included, as the input had them.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, Value};
/// use serde::de::DeserializeSeed;
///
/// let bump = bumpalo::Bump::new();
/// let json = r#"{"name": "Lyon", "population": 522000, "tags": ["city", null]}"#;
/// let mut de = serde_json::Deserializer::from_str(json);
/// let doc: Value = ArenaSeed::new(&bump).deserialize(&mut de)?;
/// let Value::Map(entries) = doc else { panic!("an object") };
/// assert_eq!(entries[0], (Value::Str("name"), Value::Str("Lyon")));
/// assert_eq!(entries[1].1, Value::U64(522000));
/// assert_eq!(entries[2].1, Value::Array(&[Value::Str("city"), Value::Unit]));
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # Equality and hashing
///
/// `==` is structural: the same variant with equal contents, entries and elements in order;
/// floats compare as floats, so `F64(0.0) == F64(-0.0)`, `F32(1.0) != F64(1.0)`, and a NaN
/// equals nothing, itself included. `Value` is `Eq` and `Hash` (as `serde_json::Value` is)
/// so documents can be map keys and set members; the one exception to `Eq`'s reflexivity is
/// a value holding a NaN, which `serde_json::Value` cannot hold and MessagePack or CBOR can
/// hand over: such a value is never equal to itself, so as a key it is never found again.
/// `0.0` and `-0.0` hash alike, as they are equal.
///
/// The default is [`Value::Unit`], what JSON's `null` reads as, so a `#[serde(default)]`
/// field of type `Value` is null when missing, as `serde_json::Value`'s is.
#[derive(Clone, Copy, PartialEq, Default)]
pub enum Value<'bump> {
    /// Unit, `()`: what JSON's `null` and MessagePack's `nil` read as; the default.
    #[default]
    Unit,
    /// An absent option (`visit_none`): what CBOR's `null` and `undefined` read as.
    None,
    /// A present option (`visit_some`).
    Some(&'bump Value<'bump>),
    /// A boolean.
    Bool(bool),
    /// A signed integer that fits in an `i64`.
    I64(i64),
    /// An unsigned integer that fits in a `u64`.
    U64(u64),
    /// A signed integer a format handed over as `i128` (kept exactly; in the arena, as it is
    /// rare and twice a word wide).
    I128(&'bump i128),
    /// An unsigned integer a format handed over as `u128`.
    U128(&'bump u128),
    /// A 32-bit float (kept apart from `f64`: reading it back as `f32` is exact).
    F32(f32),
    /// A 64-bit float.
    F64(f64),
    /// A character.
    Char(char),
    /// A string.
    Str(&'bump str),
    /// A byte string (distinct from an array of integers).
    Bytes(&'bump [u8]),
    /// A newtype struct's content (`visit_newtype_struct`).
    Newtype(&'bump Value<'bump>),
    /// A sequence.
    Array(&'bump [Value<'bump>]),
    /// A map: its entries in input order, keys of any kind, duplicates kept.
    Map(&'bump [(Value<'bump>, Value<'bump>)]),
    /// An enum a format handed over with `visit_enum`: the variant (a string or an index) and
    /// its content (`Unit` for a unit variant).
    Enum(&'bump (Value<'bump>, Value<'bump>)),
}

/// A node's size per pointer width: a slice (two pointers) after the tag, or a 64-bit scalar
/// after it where that is wider (32-bit: 8-byte aligned on wasm32, 4-byte on x86).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(size_of::<Value<'_>>() == 24);
#[cfg(all(target_pointer_width = "32", target_arch = "wasm32"))]
const _: () = assert!(size_of::<Value<'_>>() == 16);
#[cfg(all(target_pointer_width = "32", target_arch = "x86"))]
const _: () = assert!(size_of::<Value<'_>>() == 12);
#[cfg(target_pointer_width = "32")]
const _: () = assert!(size_of::<Value<'_>>() <= 16);

/// Equality is `PartialEq`'s: reflexive for every value without a NaN (see [`Value`]).
impl Eq for Value<'_> {}

impl Hash for Value<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        core::mem::discriminant(self).hash(state);
        match self {
            Self::Unit | Self::None => {}
            Self::Some(v) | Self::Newtype(v) => v.hash(state),
            Self::Bool(v) => v.hash(state),
            Self::I64(v) => v.hash(state),
            Self::U64(v) => v.hash(state),
            Self::I128(v) => v.hash(state),
            Self::U128(v) => v.hash(state),
            // `-0.0 == 0.0`: both hash as `0.0`. A NaN equals nothing, so its bits may hash
            // as they are.
            Self::F32(v) => (if *v == 0.0 { 0.0 } else { *v }).to_bits().hash(state),
            Self::F64(v) => (if *v == 0.0 { 0.0 } else { *v }).to_bits().hash(state),
            Self::Char(v) => v.hash(state),
            Self::Str(v) => v.hash(state),
            Self::Bytes(v) => v.hash(state),
            Self::Array(v) => v.hash(state),
            Self::Map(v) => v.hash(state),
            Self::Enum(v) => v.hash(state),
        }
    }
}

impl fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unit => f.write_str("Unit"),
            Self::None => f.write_str("None"),
            Self::Some(v) => f.debug_tuple("Some").field(v).finish(),
            Self::Bool(v) => f.debug_tuple("Bool").field(v).finish(),
            Self::I64(v) => f.debug_tuple("I64").field(v).finish(),
            Self::U64(v) => f.debug_tuple("U64").field(v).finish(),
            Self::I128(v) => f.debug_tuple("I128").field(v).finish(),
            Self::U128(v) => f.debug_tuple("U128").field(v).finish(),
            Self::F32(v) => f.debug_tuple("F32").field(v).finish(),
            Self::F64(v) => f.debug_tuple("F64").field(v).finish(),
            Self::Char(v) => f.debug_tuple("Char").field(v).finish(),
            Self::Str(v) => f.debug_tuple("Str").field(v).finish(),
            Self::Bytes(v) => f.debug_tuple("Bytes").field(v).finish(),
            Self::Newtype(v) => f.debug_tuple("Newtype").field(v).finish(),
            Self::Array(v) => f.debug_list().entries(v.iter()).finish(),
            Self::Map(v) => f
                .debug_map()
                .entries(v.iter().map(|(k, v)| (k, v)))
                .finish(),
            Self::Enum(v) => f.debug_tuple("Enum").field(&v.0).field(&v.1).finish(),
        }
    }
}
