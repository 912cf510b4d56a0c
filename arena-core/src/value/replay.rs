//! Replaying a [`Value`] into any serde type: [`ValueDeserializer`], a `Deserializer` over a
//! document in the arena.
//!
//! Its rules are those of serde's private `ContentRefDeserializer` (serde 1.0.229,
//! `src/private/de.rs`), the buffer serde_derive replays untagged and internally tagged enums
//! from, method by method and message by message, so a type reads from a `Value` exactly what it
//! reads from serde's own buffer. The typed methods visit the value under the crate's one copy
//! of those rules (`buffer_rules`), which the derive's reads straight from an input share; the
//! option, newtype, enum and variant answers depend on the value's own nodes, and are here. Where `Value` holds more than serde's `Content`, it says so:
//! - `I128` and `U128` replay with `visit_i128` and `visit_u128`, wherever an integer or a float
//!   is asked for (`Content` cannot hold them, and its `deserialize_i128` fails with "i128 is not
//!   supported");
//! - `Enum` replays with `visit_enum` from `deserialize_any`, and is an enum to
//!   `deserialize_enum`, its content always present (`Unit` for a unit variant);
//! - the source format's `is_human_readable` is kept, not serde's default `true`.
//!
//! Inside the crate, a replay can follow serde's `ContentDeserializer` instead, the buffer
//! replayed by value, as serde replays the fields of a flattened struct (`by_value`): the two
//! differ only in what reads as a unit (an empty map too) and as a unit struct (an empty map or
//! array, or anything `deserialize_any` hands the visitor).
//!
//! Strings and byte strings are visited borrowed (`visit_borrowed_str`, `visit_borrowed_bytes`)
//! for the arena's lifetime `'bump`, so a visitor can keep a `&'bump str` of the document.
//! Integers are visited at the width `Value` stores (`visit_u64`, `visit_i64`, ...) and the
//! visitor converts, as serde's buffer does; `Value` keeps every unsigned integer of 64 bits or
//! fewer as `U64`, so `deserialize_identifier` accepts `U64` (serde's accepts `U8` and `U64`).
//!
//! An `ArenaDeserialize` type replayed through [`ArenaSeed`](crate::ArenaSeed) reads the same
//! calls; a `&'bump str` in it is a copy, even in the arena the value lives in: the impl of
//! `&'bump str` copies every string it is visited with, borrowed or not.

use core::fmt;
use core::marker::PhantomData;
use core::slice;

use serde::de::{
    Deserialize, DeserializeSeed, Deserializer, EnumAccess, Error, Expected, IntoDeserializer,
    MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor,
};

use super::{Value, ValueError};
use crate::buffer_rules::{Ask, ExpectedIn, Rules, wide_invalid_type};

/// A serde `Deserializer` that replays a [`Value`], with the rules of serde's own buffer.
///
/// Made by [`Value::deserializer`] or [`ValueDeserializer::new`]; it copies the `Value` (24
/// bytes) and borrows only the arena, so what a visitor borrows lives for `'bump`. The error type
/// `E` is the caller's choice, as with serde's `IntoDeserializer`.
///
/// `is_human_readable` answers what the construction says: the source format's, so a type
/// that reads differently from JSON and from a binary format (an IP address, a timestamp) reads
/// the replay as it would have read the source.
///
/// A replay fails as serde's own buffer does: a type the value does not hold (``invalid type:
/// string "x", expected u32``), an array longer than the visitor reads (`invalid length 3,
/// expected 2 elements in sequence`), an enum that is neither a string nor a map with a single
/// key, or the visitor's own error.
///
/// Where `Value` holds more than serde's buffer, the replay keeps it:
/// - `I128` and `U128` replay with `visit_i128` and `visit_u128`, wherever an integer or a float
///   is asked for (serde's buffer cannot hold them: "i128 is not supported");
/// - `Enum` replays with `visit_enum` from `deserialize_any`, and is an enum to
///   `deserialize_enum`, its content always present (`Unit` for a unit variant);
/// - the source format's `is_human_readable` is kept, not serde's default `true`.
///
/// Strings and byte strings are visited borrowed for `'bump`; integers at the width `Value`
/// stores, the visitor converting (every unsigned integer of 64 bits or fewer is a `U64`, so
/// `deserialize_identifier` accepts `U64` where serde's buffer accepts `U8` and `U64`).
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaSeed, Value};
/// use serde::Deserialize;
/// use serde::de::DeserializeSeed;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct City<'a> {
///     name: &'a str,
///     population: u32,
/// }
///
/// let bump = bumpalo::Bump::new();
/// let json = r#"{"name": "Lyon", "population": 522000}"#;
/// let mut de = serde_json::Deserializer::from_str(json);
/// let doc: Value = ArenaSeed::new(&bump).deserialize(&mut de)?;
/// // JSON is human-readable: the replay says so too.
/// let city = City::deserialize(doc.deserializer::<serde_json::Error>(true))?;
/// assert_eq!(city, City { name: "Lyon", population: 522000 });
/// # Ok::<(), serde_json::Error>(())
/// ```
pub struct ValueDeserializer<'bump, E> {
    value: Value<'bump>,
    mode: Mode,
    error: PhantomData<fn() -> E>,
}

/// What a replay answers that the value alone does not say, the same for every node of it.
#[derive(Clone, Copy, Debug)]
struct Mode {
    /// What `is_human_readable` answers: the source format's.
    human_readable: bool,
    /// Whether the replay follows serde's `ContentDeserializer`, the buffer replayed by value
    /// (as serde replays the fields of a flattened struct and the variant of a flattened enum),
    /// rather than `ContentRefDeserializer`: a unit then also reads from an empty map, and a unit
    /// struct from an empty map or array, or else from `deserialize_any`.
    by_value: bool,
}

impl<'bump, E> ValueDeserializer<'bump, E> {
    /// A deserializer that replays `value`, answering `human_readable` to
    /// `is_human_readable`.
    #[must_use]
    pub const fn new(value: &Value<'bump>, human_readable: bool) -> Self {
        Self::with_mode(
            value,
            Mode {
                human_readable,
                by_value: false,
            },
        )
    }

    /// A deserializer that replays `value` with the rules of serde's `ContentDeserializer`
    /// (see [`Mode::by_value`]), answering `human_readable` to `is_human_readable`.
    pub(crate) const fn by_value(value: &Value<'bump>, human_readable: bool) -> Self {
        Self::with_mode(
            value,
            Mode {
                human_readable,
                by_value: true,
            },
        )
    }

    const fn with_mode(value: &Value<'bump>, mode: Mode) -> Self {
        Self {
            value: *value,
            mode,
            error: PhantomData,
        }
    }

    /// A deserializer for `value`, a node inside this one, with the same mode.
    const fn nested(&self, value: &Value<'bump>) -> Self {
        Self::with_mode(value, self.mode)
    }
}

impl<'bump> Value<'bump> {
    /// A serde `Deserializer` that replays this value into any `Deserialize` type (or any
    /// `ArenaDeserialize` type, through [`ArenaSeed`](crate::ArenaSeed)), answering
    /// `human_readable` to `is_human_readable`: pass the source format's
    /// (`Deserializer::is_human_readable` of the deserializer the value was read from; `true`
    /// for JSON, `false` for MessagePack and CBOR).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::{ArenaSeed, Value};
    /// use serde::de::DeserializeSeed;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let json = r#"["a", "bc"]"#;
    /// let mut de = serde_json::Deserializer::from_str(json);
    /// let doc: Value = ArenaSeed::new(&bump).deserialize(&mut de)?;
    /// // Into the arena again, from the document instead of the text.
    /// let replay = doc.deserializer::<serde_json::Error>(true);
    /// let words: &[&str] = ArenaSeed::new(&bump).deserialize(replay)?;
    /// assert_eq!(words, ["a", "bc"]);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[must_use]
    pub const fn deserializer<E>(&self, human_readable: bool) -> ValueDeserializer<'bump, E> {
        ValueDeserializer::new(self, human_readable)
    }
}

/// `is_human_readable` is `true`, serde's default (as for serde's own `IntoDeserializer` types):
/// for a value read from a binary format, use [`Value::deserializer`] with `false`.
impl<'bump, E: Error> IntoDeserializer<'bump, E> for &Value<'bump> {
    type Deserializer = ValueDeserializer<'bump, E>;

    fn into_deserializer(self) -> ValueDeserializer<'bump, E> {
        ValueDeserializer::new(self, true)
    }
}

/// `deserialize_*` methods of `&Value` handing the call to a [`ValueDeserializer`] with
/// [`ValueError`].
macro_rules! by_value_deserializer {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'bump>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, ValueError> {
            self.deserializer::<ValueError>(true).$method($($arg,)* visitor)
        }
    )*};
}

/// A `&Value` is a `Deserializer`, as a `&serde_json::Value` is: `T::deserialize(&value)` and
/// `ArenaSeed::new(&arena).deserialize(&value)` replay it, with the crate's [`ValueError`] and
/// `is_human_readable` true. For another error type, or a value read from a binary format, use
/// [`Value::deserializer`].
///
/// # Examples
///
/// ```
/// use arena_core::Value;
/// use serde::Deserialize;
///
/// let bump = bumpalo::Bump::new();
/// let doc: Value = arena_core::json::from_str(&bump, r#"{"x": 1, "y": [2, 3]}"#).unwrap();
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct P<'a> {
///     x: u8,
///     y: Vec<u16>,
///     #[serde(default)]
///     z: Option<&'a str>,
/// }
/// let p = P::deserialize(&doc)?;
/// assert_eq!(p, P { x: 1, y: vec![2, 3], z: None });
/// # Ok::<(), arena_core::ValueError>(())
/// ```
impl<'bump> Deserializer<'bump> for &Value<'bump> {
    type Error = ValueError;

    by_value_deserializer! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }
}

impl<'bump, E: Error> IntoDeserializer<'bump, E> for ValueDeserializer<'bump, E> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<E> Clone for ValueDeserializer<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for ValueDeserializer<'_, E> {}

impl<E> fmt::Debug for ValueDeserializer<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValueDeserializer")
            .field("value", &self.value)
            .field("human_readable", &self.mode.human_readable)
            .field("by_value", &self.mode.by_value)
            .finish()
    }
}

/// What an error says `value` is: serde's `content_unexpected`, and for the variants `Content`
/// does not have, `Enum` for an enum and, for a 128-bit integer out of the 64-bit range,
/// serde's own wording of `visit_i128` (``integer `N` as i128``).
#[cold]
fn invalid_type<E: Error>(value: &Value<'_>, expected: &dyn Expected) -> E {
    let unexpected = match *value {
        Value::Bool(v) => Unexpected::Bool(v),
        Value::I64(v) => Unexpected::Signed(v),
        Value::U64(v) => Unexpected::Unsigned(v),
        Value::I128(&v) => match i64::try_from(v) {
            Ok(v) => Unexpected::Signed(v),
            Err(_) => return wide_invalid_type("i128", v, expected),
        },
        Value::U128(&v) => match u64::try_from(v) {
            Ok(v) => Unexpected::Unsigned(v),
            Err(_) => return wide_invalid_type("u128", v, expected),
        },
        Value::F32(v) => Unexpected::Float(f64::from(v)),
        Value::F64(v) => Unexpected::Float(v),
        Value::Char(v) => Unexpected::Char(v),
        Value::Str(v) => Unexpected::Str(v),
        Value::Bytes(v) => Unexpected::Bytes(v),
        Value::None | Value::Some(_) => Unexpected::Option,
        Value::Unit => Unexpected::Unit,
        Value::Newtype(_) => Unexpected::NewtypeStruct,
        Value::Array(_) => Unexpected::Seq,
        Value::Map(_) => Unexpected::Map,
        Value::Enum(_) => Unexpected::Enum,
    };
    E::invalid_type(unexpected, expected)
}

impl<'bump, E: Error> ValueDeserializer<'bump, E> {
    /// `visitor` under the rules of `by_value` when the value is read as from serde's buffer
    /// by value, else of [`Ask::BareUnit`] (a unit only): `deserialize_unit` and
    /// `deserialize_unit_struct`.
    fn unit_under<V: Visitor<'bump>>(self, by_value: Ask, visitor: V) -> Result<V::Value, E> {
        let ask = if self.mode.by_value {
            by_value
        } else {
            Ask::BareUnit
        };
        self.deserialize_any(Rules::new(ask, visitor))
    }

    /// `visitor.visit_enum` with `variant` and its content, if any, replayed with this
    /// deserializer's mode.
    pub(crate) fn visit_enum<V: Visitor<'bump>>(
        &self,
        variant: Value<'bump>,
        content: Option<Value<'bump>>,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_enum(EnumReplay {
            variant: self.nested(&variant),
            content: VariantReplay {
                content,
                mode: self.mode,
                error: PhantomData,
            },
        })
    }
}

/// `deserialize_*` methods answered by visiting the value under serde's buffer's rules for
/// the [`Ask`] named.
macro_rules! under_rules {
    ($($method:ident($($arg:ident: $ty:ty),*) => $ask:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'bump>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, E> {
            self.deserialize_any(Rules::new(Ask::$ask, visitor))
        }
    )*};
}

/// The typed methods visit the value under serde's buffer's [`Rules`], shared with the
/// derive's reads straight from the input; `deserialize_option`, `deserialize_newtype_struct`
/// and `deserialize_enum` answer from the value's own nodes, as serde's buffer does.
impl<'bump, E: Error> Deserializer<'bump> for ValueDeserializer<'bump, E> {
    type Error = E;

    /// What the value holds: strings and bytes borrowed for `'bump`, integers at the width
    /// they are stored, an array or a map as a sequence or a map access over its nodes, each of
    /// which the visitor must read, an `Enum` as an enum. The typed methods visit it under
    /// [`Rules`].
    fn deserialize_any<V: Visitor<'bump>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::Bool(v) => visitor.visit_bool(v),
            Value::U64(v) => visitor.visit_u64(v),
            Value::I64(v) => visitor.visit_i64(v),
            Value::U128(&v) => visitor.visit_u128(v),
            Value::I128(&v) => visitor.visit_i128(v),
            Value::F32(v) => visitor.visit_f32(v),
            Value::F64(v) => visitor.visit_f64(v),
            Value::Char(v) => visitor.visit_char(v),
            Value::Str(v) => visitor.visit_borrowed_str(v),
            Value::Bytes(v) => visitor.visit_borrowed_bytes(v),
            Value::Unit => visitor.visit_unit(),
            Value::None => visitor.visit_none(),
            Value::Some(v) => visitor.visit_some(self.nested(v)),
            Value::Newtype(v) => visitor.visit_newtype_struct(self.nested(v)),
            Value::Array(items) => visit_seq(items, self.mode, visitor),
            Value::Map(entries) => visit_map(entries, self.mode, visitor),
            Value::Enum((variant, content)) => self.visit_enum(*variant, Some(*content), visitor),
        }
    }

    under_rules! {
        deserialize_bool() => Bool;
        deserialize_i8() => Integer;
        deserialize_i16() => Integer;
        deserialize_i32() => Integer;
        deserialize_i64() => Integer;
        deserialize_i128() => Integer;
        deserialize_u8() => Integer;
        deserialize_u16() => Integer;
        deserialize_u32() => Integer;
        deserialize_u64() => Integer;
        deserialize_u128() => Integer;
        deserialize_f32() => Float;
        deserialize_f64() => Float;
        deserialize_char() => Char;
        deserialize_str() => Str;
        deserialize_string() => Str;
        deserialize_bytes() => Bytes;
        deserialize_byte_buf() => Bytes;
        deserialize_seq() => Seq;
        deserialize_tuple(_len: usize) => Seq;
        deserialize_tuple_struct(_name: &'static str, _len: usize) => Seq;
        deserialize_map() => Map;
        deserialize_struct(_name: &'static str, _fields: &'static [&'static str]) => Struct;
        deserialize_identifier() => Identifier;
    }

    /// `None` is `visit_none`, `Unit` is `visit_unit`, `Some(v)` is `visit_some` of `v`, and
    /// anything else is present: `visit_some` of the value itself (JSON has no `Some`).
    fn deserialize_option<V: Visitor<'bump>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            Value::None => visitor.visit_none(),
            Value::Some(v) => visitor.visit_some(self.nested(v)),
            Value::Unit => visitor.visit_unit(),
            _ => visitor.visit_some(self),
        }
    }

    /// `Unit` only (not `None`: CBOR's `null`, read as `None`, is not a unit here); by value
    /// (serde's `ContentDeserializer`), an empty map too.
    fn deserialize_unit<V: Visitor<'bump>>(self, visitor: V) -> Result<V::Value, E> {
        self.unit_under(Ask::Unit, visitor)
    }

    /// As [`deserialize_unit`](Self::deserialize_unit); by value, an empty map or array too,
    /// and anything else as `deserialize_any`.
    fn deserialize_unit_struct<V: Visitor<'bump>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        self.unit_under(Ask::UnitStruct, visitor)
    }

    /// `Newtype(v)` is `visit_newtype_struct` of `v`; anything else of the value itself (JSON
    /// writes a newtype as its content).
    fn deserialize_newtype_struct<V: Visitor<'bump>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        match self.value {
            Value::Newtype(v) => visitor.visit_newtype_struct(self.nested(v)),
            _ => visitor.visit_newtype_struct(self),
        }
    }

    /// A map with a single key (the variant) and its content, a string (a unit variant), or an
    /// `Enum`. Anything else is ``invalid type: ..., expected string or map``; a map of any
    /// other size is ``invalid value: map, expected map with a single key``.
    fn deserialize_enum<V: Visitor<'bump>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        match self.value {
            Value::Map([(variant, content)]) => self.visit_enum(*variant, Some(*content), visitor),
            Value::Map(_) => Err(E::invalid_value(Unexpected::Map, &"map with a single key")),
            Value::Str(_) => self.visit_enum(self.value, None, visitor),
            Value::Enum((variant, content)) => self.visit_enum(*variant, Some(*content), visitor),
            _ => Err(invalid_type(&self.value, &"string or map")),
        }
    }

    /// `visit_unit`, whatever the value.
    fn deserialize_ignored_any<V: Visitor<'bump>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.mode.human_readable
    }
}

/// `items` to `visitor.visit_seq`, then every item read (serde's `visit_content_seq_ref`).
fn visit_seq<'bump, V: Visitor<'bump>, E: Error>(
    items: &'bump [Value<'bump>],
    mode: Mode,
    visitor: V,
) -> Result<V::Value, E> {
    let mut seq = SeqReplay {
        iter: items.iter(),
        mode,
        error: PhantomData,
    };
    let value = visitor.visit_seq(&mut seq)?;
    end(items.len(), seq.iter.len(), "sequence")?;
    Ok(value)
}

/// `entries` to `visitor.visit_map`, then every entry read (serde's `visit_content_map_ref`).
fn visit_map<'bump, V: Visitor<'bump>, E: Error>(
    entries: &'bump [(Value<'bump>, Value<'bump>)],
    mode: Mode,
    visitor: V,
) -> Result<V::Value, E> {
    let mut map = MapReplay {
        iter: entries.iter(),
        value: None,
        mode,
        error: PhantomData,
    };
    let value = visitor.visit_map(&mut map)?;
    end(entries.len(), map.iter.len(), "map")?;
    Ok(value)
}

/// Whether the visitor read every one of the `len` elements of a sequence or map (`what`):
/// ``invalid length N, expected M elements in {what}`` if `left` were not, `N` the length and
/// `M` how many it read (a typed method's [`Rules`] finds them first, with the same words).
#[inline(always)]
fn end<E: Error>(len: usize, left: usize, what: &'static str) -> Result<(), E> {
    match left {
        0 => Ok(()),
        left => Err(E::invalid_length(len, &ExpectedIn(len - left, what))),
    }
}

/// The elements of an array, to `visit_seq` (serde's `SeqRefDeserializer`).
struct SeqReplay<'bump, E> {
    iter: slice::Iter<'bump, Value<'bump>>,
    mode: Mode,
    error: PhantomData<fn() -> E>,
}

impl<'bump, E: Error> SeqAccess<'bump> for SeqReplay<'bump, E> {
    type Error = E;

    fn next_element_seed<T: DeserializeSeed<'bump>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, E> {
        match self.iter.next() {
            Some(value) => seed
                .deserialize(ValueDeserializer::with_mode(value, self.mode))
                .map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The entries of a map, to `visit_map` (serde's `MapRefDeserializer`).
struct MapReplay<'bump, E> {
    iter: slice::Iter<'bump, (Value<'bump>, Value<'bump>)>,
    /// The value of the key just read, until the visitor reads it.
    value: Option<&'bump Value<'bump>>,
    mode: Mode,
    error: PhantomData<fn() -> E>,
}

impl<'bump, E> MapReplay<'bump, E> {
    const fn replay(&self, value: &Value<'bump>) -> ValueDeserializer<'bump, E> {
        ValueDeserializer::with_mode(value, self.mode)
    }
}

impl<'bump, E: Error> MapAccess<'bump> for MapReplay<'bump, E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'bump>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        match self.iter.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(self.replay(key)).map(Some)
            }
            None => Ok(None),
        }
    }

    /// # Panics
    ///
    /// When called before `next_key_seed`: a bug of the visitor, not of the input (as serde's).
    fn next_value_seed<V: DeserializeSeed<'bump>>(&mut self, seed: V) -> Result<V::Value, E> {
        let value = self
            .value
            .take()
            .expect("MapAccess::next_value called before next_key");
        seed.deserialize(self.replay(value))
    }

    fn next_entry_seed<K: DeserializeSeed<'bump>, V: DeserializeSeed<'bump>>(
        &mut self,
        kseed: K,
        vseed: V,
    ) -> Result<Option<(K::Value, V::Value)>, E> {
        match self.iter.next() {
            Some((key, value)) => {
                let key = kseed.deserialize(self.replay(key))?;
                let value = vseed.deserialize(self.replay(value))?;
                Ok(Some((key, value)))
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An enum's variant and content, to `visit_enum` (serde's `EnumRefDeserializer`).
struct EnumReplay<'bump, E> {
    variant: ValueDeserializer<'bump, E>,
    content: VariantReplay<'bump, E>,
}

impl<'bump, E: Error> EnumAccess<'bump> for EnumReplay<'bump, E> {
    type Error = E;
    type Variant = VariantReplay<'bump, E>;

    fn variant_seed<V: DeserializeSeed<'bump>>(
        self,
        seed: V,
    ) -> Result<(V::Value, VariantReplay<'bump, E>), E> {
        let variant = seed.deserialize(self.variant)?;
        Ok((variant, self.content))
    }
}

/// A variant's content, `None` for a variant written as a bare string (serde's
/// `VariantRefDeserializer`, and `VariantDeserializer` by value).
struct VariantReplay<'bump, E> {
    content: Option<Value<'bump>>,
    mode: Mode,
    error: PhantomData<fn() -> E>,
}

impl<'bump, E: Error> VariantReplay<'bump, E> {
    const fn replay(&self, value: &Value<'bump>) -> ValueDeserializer<'bump, E> {
        ValueDeserializer::with_mode(value, self.mode)
    }
}

impl<'bump, E: Error> VariantAccess<'bump> for VariantReplay<'bump, E> {
    type Error = E;

    /// No content, or content that reads as `()` (`Unit`).
    fn unit_variant(self) -> Result<(), E> {
        match self.content {
            Some(value) => <()>::deserialize(self.replay(&value)),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'bump>>(self, seed: T) -> Result<T::Value, E> {
        match self.content {
            Some(value) => seed.deserialize(self.replay(&value)),
            None => Err(E::invalid_type(Unexpected::UnitVariant, &"newtype variant")),
        }
    }

    fn tuple_variant<V: Visitor<'bump>>(self, _len: usize, visitor: V) -> Result<V::Value, E> {
        match self.content {
            Some(Value::Array(items)) => visit_seq(items, self.mode, visitor),
            Some(other) => Err(invalid_type(&other, &"tuple variant")),
            None => Err(E::invalid_type(Unexpected::UnitVariant, &"tuple variant")),
        }
    }

    fn struct_variant<V: Visitor<'bump>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        match self.content {
            Some(Value::Map(entries)) => visit_map(entries, self.mode, visitor),
            Some(Value::Array(items)) => visit_seq(items, self.mode, visitor),
            Some(other) => Err(invalid_type(&other, &"struct variant")),
            None => Err(E::invalid_type(Unexpected::UnitVariant, &"struct variant")),
        }
    }
}
