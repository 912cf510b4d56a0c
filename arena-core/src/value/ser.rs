//! Writing a [`Value`] back with serde: each node through the `Serializer` method that matches
//! the visitor call it was read from, so a document written to the format it came from reads
//! back as the same `Value`.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use super::Value;

/// The name [`Value::Newtype`] is written with (`serialize_newtype_struct`). JSON, MessagePack
/// and CBOR ignore it; formats that record names (RON, for one) write it.
const NEWTYPE_NAME: &str = "Newtype";

/// The name rmp-serde gives a MessagePack extension (`rmp_serde::MSGPACK_EXT_STRUCT_NAME`): it
/// reads one as a newtype of `(tag, bytes)`, and writes a newtype of that name, holding a tuple
/// of an `i8` and bytes, as an extension again.
const EXT_NAME: &str = "_ExtStruct";

/// A MessagePack extension's content as rmp-serde writes it: a tuple of its tag and its bytes.
struct Ext<'a>(i8, &'a [u8]);

impl Serialize for Ext<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut tuple = serializer.serialize_tuple(2)?;
        tuple.serialize_element(&self.0)?;
        tuple.serialize_element(&Value::Bytes(self.1))?;
        tuple.end()
    }
}

/// The extension a newtype's content holds, if it is one: an array of a tag that fits an `i8`
/// and bytes, which is what a MessagePack extension reads as.
fn as_ext<'a>(content: &Value<'a>) -> Option<Ext<'a>> {
    let Value::Array([tag, Value::Bytes(bytes)]) = *content else {
        return None;
    };
    let tag = match *tag {
        Value::I64(t) => i8::try_from(t).ok()?,
        Value::U64(t) => i8::try_from(t).ok()?,
        _ => return None,
    };
    Some(Ext(tag, bytes))
}

impl Serialize for Value<'_> {
    /// Writes the value as it was read: `Unit` with `serialize_unit`, `None` and `Some` as an
    /// option, each number with its own width (`I128` with `serialize_i128`, `F32` with
    /// `serialize_f32`, ...), `Bytes` with `serialize_bytes`, `Newtype` with
    /// `serialize_newtype_struct` named `"Newtype"` (or, when it holds what a MessagePack
    /// extension reads as, an `i8` tag and bytes, named `"_ExtStruct"` with a tuple, so
    /// rmp-serde writes the extension again; JSON and CBOR write the same array either way),
    /// arrays and maps with their length and
    /// their elements in order (map keys of any kind, duplicates included).
    ///
    /// An `Enum` is written as serde's externally tagged enums are in JSON, MessagePack and
    /// CBOR, since its variant is known only at run time and serde's `serialize_*_variant`
    /// take a `&'static str`: the variant alone when the content is `Unit` (a unit variant),
    /// else a map of one entry, variant to content. Those formats read it back as a `Str` (or
    /// an index) or a `Map`, not an `Enum`: none of them hands a visitor an enum from
    /// `deserialize_any`.
    ///
    /// # Errors
    ///
    /// The serializer's error, for a node the format cannot write (a non-string map key in
    /// JSON, a 128-bit integer in a format without them, a non-finite float in a map key of
    /// JSON).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::{ArenaSeed, Value};
    /// use serde::de::DeserializeSeed;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let json = r#"{"a":[1,-2,3.5,null,true],"b":"\u00e9"}"#;
    /// let doc: Value = ArenaSeed::new(&bump).deserialize(&mut serde_json::Deserializer::from_str(json))?;
    /// assert_eq!(serde_json::to_string(&doc)?, r#"{"a":[1,-2,3.5,null,true],"b":"é"}"#);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Value::Unit => serializer.serialize_unit(),
            Value::None => serializer.serialize_none(),
            Value::Some(v) => serializer.serialize_some(v),
            Value::Bool(v) => serializer.serialize_bool(v),
            Value::I64(v) => serializer.serialize_i64(v),
            Value::U64(v) => serializer.serialize_u64(v),
            Value::I128(v) => serializer.serialize_i128(*v),
            Value::U128(v) => serializer.serialize_u128(*v),
            Value::F32(v) => serializer.serialize_f32(v),
            Value::F64(v) => serializer.serialize_f64(v),
            Value::Char(v) => serializer.serialize_char(v),
            Value::Str(v) => serializer.serialize_str(v),
            Value::Bytes(v) => serializer.serialize_bytes(v),
            Value::Newtype(v) => match as_ext(v) {
                Some(ext) => serializer.serialize_newtype_struct(EXT_NAME, &ext),
                None => serializer.serialize_newtype_struct(NEWTYPE_NAME, v),
            },
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Map(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
            Value::Enum(&(variant, Value::Unit)) => variant.serialize(serializer),
            Value::Enum((variant, content)) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry(variant, content)?;
                map.end()
            }
        }
    }
}
