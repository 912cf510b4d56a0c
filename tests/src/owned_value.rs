//! [`OwnedValue`]: the owned twin of [`arena_core::Value`], for differential tests of types that
//! hold one.
//!
//! It reads what `Value` reads, node for node (whatever `deserialize_any` hands over: any keys,
//! byte strings apart from arrays, `None` apart from unit, 128-bit integers), and writes each
//! node back as it was read, so that serde_derive and the derive can be compared on the same
//! bytes. `serde_json::Value` cannot be the twin: it refuses non-string keys and byte strings,
//! which corrupted MessagePack and CBOR inputs hold.

use core::fmt;

use arena_core::Value;
use proptest::prelude::*;
use serde::de::{Deserialize, Deserializer, EnumAccess, Error, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};

use crate::derive_support::SameAs;

/// A document of serde's data model, owned; see the module docs. Floats compare by their bits.
#[derive(Clone, Debug)]
pub enum OwnedValue {
    Unit,
    None,
    Some(Box<OwnedValue>),
    Bool(bool),
    I64(i64),
    U64(u64),
    I128(i128),
    U128(u128),
    F32(f32),
    F64(f64),
    Char(char),
    Str(String),
    Bytes(Vec<u8>),
    Newtype(Box<OwnedValue>),
    Array(Vec<OwnedValue>),
    Map(Vec<(OwnedValue, OwnedValue)>),
}

impl PartialEq for OwnedValue {
    fn eq(&self, other: &Self) -> bool {
        use OwnedValue as O;
        match (self, other) {
            (O::Unit, O::Unit) | (O::None, O::None) => true,
            (O::Some(a), O::Some(b)) | (O::Newtype(a), O::Newtype(b)) => a == b,
            (O::Bool(a), O::Bool(b)) => a == b,
            (O::I64(a), O::I64(b)) => a == b,
            (O::U64(a), O::U64(b)) => a == b,
            (O::I128(a), O::I128(b)) => a == b,
            (O::U128(a), O::U128(b)) => a == b,
            (O::F32(a), O::F32(b)) => a.to_bits() == b.to_bits(),
            (O::F64(a), O::F64(b)) => a.to_bits() == b.to_bits(),
            (O::Char(a), O::Char(b)) => a == b,
            (O::Str(a), O::Str(b)) => a == b,
            (O::Bytes(a), O::Bytes(b)) => a == b,
            (O::Array(a), O::Array(b)) => a == b,
            (O::Map(a), O::Map(b)) => a == b,
            _ => false,
        }
    }
}

impl SameAs<OwnedValue> for Value<'_> {
    fn same_as(&self, owned: &OwnedValue) -> bool {
        use OwnedValue as O;
        match (self, owned) {
            (Value::Unit, O::Unit) | (Value::None, O::None) => true,
            (Value::Some(a), O::Some(b)) | (Value::Newtype(a), O::Newtype(b)) => a.same_as(b),
            (Value::Bool(a), O::Bool(b)) => a == b,
            (Value::I64(a), O::I64(b)) => a == b,
            (Value::U64(a), O::U64(b)) => a == b,
            (Value::I128(a), O::I128(b)) => *a == b,
            (Value::U128(a), O::U128(b)) => *a == b,
            (Value::F32(a), O::F32(b)) => a.same_as(b),
            (Value::F64(a), O::F64(b)) => a.same_as(b),
            (Value::Char(a), O::Char(b)) => a == b,
            (Value::Str(a), O::Str(b)) => a == b,
            (Value::Bytes(a), O::Bytes(b)) => a == b,
            (Value::Array(a), O::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.same_as(b))
            }
            (Value::Map(a), O::Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ak, av), (bk, bv))| ak.same_as(bk) && av.same_as(bv))
            }
            _ => false,
        }
    }
}

impl Serialize for OwnedValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Unit => serializer.serialize_unit(),
            Self::None => serializer.serialize_none(),
            Self::Some(v) => serializer.serialize_some(v),
            Self::Bool(v) => serializer.serialize_bool(*v),
            Self::I64(v) => serializer.serialize_i64(*v),
            Self::U64(v) => serializer.serialize_u64(*v),
            Self::I128(v) => serializer.serialize_i128(*v),
            Self::U128(v) => serializer.serialize_u128(*v),
            Self::F32(v) => serializer.serialize_f32(*v),
            Self::F64(v) => serializer.serialize_f64(*v),
            Self::Char(v) => serializer.serialize_char(*v),
            Self::Str(v) => serializer.serialize_str(v),
            Self::Bytes(v) => serializer.serialize_bytes(v),
            Self::Newtype(v) => serializer.serialize_newtype_struct("OwnedValue", v),
            Self::Array(v) => serializer.collect_seq(v),
            Self::Map(v) => serializer.collect_map(v.iter().map(|(k, v)| (k, v))),
        }
    }
}

impl<'de> Deserialize<'de> for OwnedValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(OwnedValueVisitor)
    }
}

/// Builds an [`OwnedValue`] from whatever the format visits, as `Value`'s visitor does.
struct OwnedValueVisitor;

impl<'de> Visitor<'de> for OwnedValueVisitor {
    type Value = OwnedValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E: Error>(self, v: bool) -> Result<OwnedValue, E> {
        Ok(OwnedValue::Bool(v))
    }

    fn visit_i64<E: Error>(self, v: i64) -> Result<OwnedValue, E> {
        Ok(OwnedValue::I64(v))
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<OwnedValue, E> {
        Ok(OwnedValue::U64(v))
    }

    fn visit_i128<E: Error>(self, v: i128) -> Result<OwnedValue, E> {
        Ok(OwnedValue::I128(v))
    }

    fn visit_u128<E: Error>(self, v: u128) -> Result<OwnedValue, E> {
        Ok(OwnedValue::U128(v))
    }

    fn visit_f32<E: Error>(self, v: f32) -> Result<OwnedValue, E> {
        Ok(OwnedValue::F32(v))
    }

    fn visit_f64<E: Error>(self, v: f64) -> Result<OwnedValue, E> {
        Ok(OwnedValue::F64(v))
    }

    fn visit_char<E: Error>(self, v: char) -> Result<OwnedValue, E> {
        Ok(OwnedValue::Char(v))
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<OwnedValue, E> {
        Ok(OwnedValue::Str(v.to_owned()))
    }

    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<OwnedValue, E> {
        Ok(OwnedValue::Bytes(v.to_vec()))
    }

    fn visit_none<E: Error>(self) -> Result<OwnedValue, E> {
        Ok(OwnedValue::None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<OwnedValue, D::Error> {
        OwnedValue::deserialize(deserializer).map(|v| OwnedValue::Some(Box::new(v)))
    }

    fn visit_unit<E: Error>(self) -> Result<OwnedValue, E> {
        Ok(OwnedValue::Unit)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<OwnedValue, D::Error> {
        OwnedValue::deserialize(deserializer).map(|v| OwnedValue::Newtype(Box::new(v)))
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<OwnedValue, S::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(OwnedValue::Array(items))
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<OwnedValue, M::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(OwnedValue::Map(entries))
    }

    /// `Value` keeps an enum as its variant and content; no test here writes one.
    fn visit_enum<A: EnumAccess<'de>>(self, _data: A) -> Result<OwnedValue, A::Error> {
        Err(A::Error::custom("an enum, which OwnedValue does not hold"))
    }
}

impl Arbitrary for OwnedValue {
    type Parameters = ();
    type Strategy = BoxedStrategy<Self>;

    /// Documents every format writes and reads back alike: no 128-bit integers (serde's
    /// buffer cannot hold them), no options, newtypes, chars or `f32`s (formats write them as
    /// other nodes), no NaN.
    fn arbitrary_with((): ()) -> Self::Strategy {
        let leaf = prop_oneof![
            Just(Self::Unit),
            any::<bool>().prop_map(Self::Bool),
            (i64::MIN..0).prop_map(Self::I64),
            any::<u64>().prop_map(Self::U64),
            (-1e9..1e9f64).prop_map(Self::F64),
            "[a-z]{0,4}".prop_map(Self::Str),
            prop::collection::vec(any::<u8>(), 0..4).prop_map(Self::Bytes),
        ];
        leaf.prop_recursive(2, 8, 3, |inner| {
            let key = prop_oneof![
                "[a-z]{1,2}".prop_map(Self::Str),
                (0..4u64).prop_map(Self::U64),
            ];
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3).prop_map(Self::Array),
                prop::collection::vec((key, inner), 0..3).prop_map(Self::Map),
            ]
        })
        .boxed()
    }
}
