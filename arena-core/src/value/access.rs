//! Reading into a [`Value`] as into a `serde_json::Value`: `get`, indexing, JSON pointers, the
//! `as_*` and `is_*` views, and comparison with strings, booleans and numbers.
//!
//! These views see a document as JSON sees it:
//!
//! - `Some` and `Newtype` are looked through (JSON writes them as their content), so
//!   `Some(Str("a")).as_str()` is `Some("a")`;
//! - `Unit` and `None` are both null;
//! - every integer width and both float widths are numbers; `as_i64` and `as_u64` give an
//!   integer when it fits, whatever its width, as serde_json's rules; `as_f64` gives any
//!   number as an `f64`;
//! - an object is a map; a key is looked up among its string keys (`Str`). Maps keep duplicate
//!   keys, and lookup takes the **last** entry with the key, as serde_json (and JavaScript's
//!   `JSON.parse`) keep the last: a document reads the same here as there.

use core::ops;

use super::Value;

/// What [`Value::get`] and `value[...]` take: a `usize` indexes an array, a string (`str`,
/// `String`, or a reference to one) looks up a key of a map.
///
/// Sealed: implemented for those types only, as `serde_json::value::Index` is.
pub trait ValueIndex: sealed::Sealed {
    /// The element of `value` this index names, if there is one.
    #[doc(hidden)]
    fn index_into<'bump>(&self, value: Value<'bump>) -> Option<&'bump Value<'bump>>;
}

mod sealed {
    /// Keeps [`ValueIndex`](super::ValueIndex) to this module's impls.
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

impl ValueIndex for usize {
    fn index_into<'bump>(&self, value: Value<'bump>) -> Option<&'bump Value<'bump>> {
        value.as_array()?.get(*self)
    }
}

impl ValueIndex for str {
    fn index_into<'bump>(&self, value: Value<'bump>) -> Option<&'bump Value<'bump>> {
        value
            .as_map()?
            .iter()
            .rev()
            .find(|(key, _)| key.as_str() == Some(self))
            .map(|(_, value)| value)
    }
}

impl ValueIndex for String {
    fn index_into<'bump>(&self, value: Value<'bump>) -> Option<&'bump Value<'bump>> {
        self.as_str().index_into(value)
    }
}

impl<T: ValueIndex + ?Sized> ValueIndex for &T {
    fn index_into<'bump>(&self, value: Value<'bump>) -> Option<&'bump Value<'bump>> {
        (**self).index_into(value)
    }
}

/// What indexing gives for a missing element: a null.
const NULL: &Value<'static> = &Value::Unit;

impl<'bump> Value<'bump> {
    /// The value itself, or what a chain of `Some` and `Newtype` holds.
    fn inner(self) -> Self {
        match self {
            Value::Some(v) | Value::Newtype(v) => v.inner(),
            other => other,
        }
    }

    /// The element at an array index or the value of a map key, if there is one (the last
    /// entry with that key, when the map has several).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let list = Value::array(&bump, [Value::U64(1), Value::U64(2)]);
    /// let doc = Value::object(&bump, [("list", list), ("n", Value::U64(1)), ("n", Value::U64(2))]);
    /// assert_eq!(doc.get("list").and_then(|l| l.get(1)), Some(&Value::U64(2)));
    /// assert_eq!(doc.get("n"), Some(&Value::U64(2))); // the last of the duplicates
    /// assert_eq!(doc.get("missing"), None);
    /// assert_eq!(doc.get(0), None); // an object is not an array
    /// ```
    #[must_use]
    pub fn get<I: ValueIndex>(&self, index: I) -> Option<&'bump Value<'bump>> {
        index.index_into(*self)
    }

    /// The value a JSON pointer (RFC 6901) names: `""` for the whole document, `"/a/0/b"` for
    /// key `b` of element 0 of key `a`, with `~1` for a `/` and `~0` for a `~` inside a key.
    ///
    /// An array index is a decimal number without a sign or leading zeros, as the RFC says.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::{ArenaSeed, Value};
    /// use serde::de::DeserializeSeed;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let json = r#"{"a": [{"b": 1}], "c/d": 2, "e~f": 3}"#;
    /// let doc: Value = ArenaSeed::new(&bump).deserialize(&mut serde_json::Deserializer::from_str(json))?;
    /// assert_eq!(doc.pointer("/a/0/b"), Some(&Value::U64(1)));
    /// assert_eq!(doc.pointer("/c~1d"), Some(&Value::U64(2)));
    /// assert_eq!(doc.pointer("/e~0f"), Some(&Value::U64(3)));
    /// assert_eq!(doc.pointer(""), Some(&doc));
    /// assert_eq!(doc.pointer("/a/00/b"), None);
    /// assert_eq!(doc.pointer("a"), None);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    #[must_use]
    pub fn pointer<'a>(&'a self, pointer: &str) -> Option<&'a Value<'bump>> {
        let Some(tokens) = pointer.strip_prefix('/') else {
            return pointer.is_empty().then_some(self);
        };
        let mut target = self;
        for token in tokens.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            target = match target.inner() {
                Value::Array(_) => target.get(parse_index(&token)?)?,
                _ => target.get(token.as_str())?,
            };
        }
        Some(target)
    }

    /// The string, if this is a `Str`.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// assert_eq!(Value::Str("hi").as_str(), Some("hi"));
    /// assert_eq!(Value::Some(&Value::Str("hi")).as_str(), Some("hi"));
    /// assert_eq!(Value::Char('h').as_str(), None);
    /// ```
    #[must_use]
    pub fn as_str(&self) -> Option<&'bump str> {
        match self.inner() {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The integer as an `i64`, if this is an integer (of any width) that fits.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// assert_eq!(Value::U64(7).as_i64(), Some(7));
    /// assert_eq!(Value::I128(&-5).as_i64(), Some(-5));
    /// assert_eq!(Value::U64(u64::MAX).as_i64(), None);
    /// assert_eq!(Value::F64(1.0).as_i64(), None);
    /// ```
    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        match self.inner() {
            Value::I64(v) => Some(v),
            Value::U64(v) => i64::try_from(v).ok(),
            Value::I128(v) => i64::try_from(*v).ok(),
            Value::U128(v) => i64::try_from(*v).ok(),
            _ => None,
        }
    }

    /// The integer as a `u64`, if this is an integer (of any width) that fits.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// assert_eq!(Value::I64(7).as_u64(), Some(7));
    /// assert_eq!(Value::U128(&(1 << 64)).as_u64(), None);
    /// assert_eq!(Value::I64(-1).as_u64(), None);
    /// ```
    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        match self.inner() {
            Value::I64(v) => u64::try_from(v).ok(),
            Value::U64(v) => Some(v),
            Value::I128(v) => u64::try_from(*v).ok(),
            Value::U128(v) => u64::try_from(*v).ok(),
            _ => None,
        }
    }

    /// The number as an `f64`, if this is a number: floats exactly (an `F32` widened), integers
    /// rounded to the nearest `f64`, as serde_json does.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// assert_eq!(Value::F32(0.5).as_f64(), Some(0.5));
    /// assert_eq!(Value::I64(-3).as_f64(), Some(-3.0));
    /// assert_eq!(Value::Str("1").as_f64(), None);
    /// ```
    #[must_use]
    #[expect(
        clippy::cast_precision_loss,
        reason = "an integer as an f64 is rounded, as serde_json's as_f64 rounds"
    )]
    pub fn as_f64(&self) -> Option<f64> {
        match self.inner() {
            Value::I64(v) => Some(v as f64),
            Value::U64(v) => Some(v as f64),
            Value::I128(v) => Some(*v as f64),
            Value::U128(v) => Some(*v as f64),
            Value::F32(v) => Some(f64::from(v)),
            Value::F64(v) => Some(v),
            _ => None,
        }
    }

    /// The boolean, if this is a `Bool`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(arena_core::Value::Bool(true).as_bool(), Some(true));
    /// assert_eq!(arena_core::Value::Unit.as_bool(), None);
    /// ```
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self.inner() {
            Value::Bool(v) => Some(v),
            _ => None,
        }
    }

    /// The elements, if this is an `Array` (a `Bytes` is not one).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let items = [Value::Unit, Value::Bool(false)];
    /// assert_eq!(Value::Array(&items).as_array(), Some(&items[..]));
    /// assert_eq!(Value::Bytes(b"ab").as_array(), None);
    /// ```
    #[must_use]
    pub fn as_array(&self) -> Option<&'bump [Value<'bump>]> {
        match self.inner() {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The entries, if this is a `Map`: all of them, in order, keys of any kind and duplicates
    /// included.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let entries = [(Value::U64(1), Value::Str("one")), (Value::Str("k"), Value::Unit)];
    /// assert_eq!(Value::Map(&entries).as_map().map(<[_]>::len), Some(2));
    /// assert_eq!(Value::Unit.as_map(), None);
    /// ```
    #[must_use]
    pub fn as_map(&self) -> Option<&'bump [(Value<'bump>, Value<'bump>)]> {
        match self.inner() {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The entries with a string key, as `(key, value)`, if this is a `Map`: what a JSON object
    /// holds. In order, duplicates included (lookup with [`get`](Self::get) takes the last);
    /// entries with other keys are skipped.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let entries = [(Value::Str("a"), Value::U64(1)), (Value::U64(2), Value::Unit)];
    /// let object: Vec<_> = Value::Map(&entries).as_object().unwrap().collect();
    /// assert_eq!(object, [("a", &Value::U64(1))]);
    /// assert!(Value::Unit.as_object().is_none());
    /// ```
    #[must_use]
    pub fn as_object(
        &self,
    ) -> Option<impl Iterator<Item = (&'bump str, &'bump Value<'bump>)> + Clone + use<'bump>> {
        let entries = self.as_map()?;
        Some(
            entries
                .iter()
                .filter_map(|(key, value)| Some((key.as_str()?, value))),
        )
    }

    /// Whether this is null: `Unit` or `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// assert!(Value::Unit.is_null() && Value::None.is_null());
    /// assert!(!Value::Bool(false).is_null());
    /// ```
    #[must_use]
    pub fn is_null(&self) -> bool {
        matches!(self.inner(), Value::Unit | Value::None)
    }

    /// Whether this is a `Str` (so [`as_str`](Self::as_str) gives it).
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(arena_core::Value::Str("").is_string());
    /// ```
    #[must_use]
    pub fn is_string(&self) -> bool {
        self.as_str().is_some()
    }

    /// Whether this is a number: an integer of any width or a float (NaN included).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// assert!(Value::U128(&1).is_number() && Value::F32(f32::NAN).is_number());
    /// assert!(!Value::Str("1").is_number());
    /// ```
    #[must_use]
    pub fn is_number(&self) -> bool {
        self.as_f64().is_some()
    }

    /// Whether this is an integer that fits in an `i64` (so [`as_i64`](Self::as_i64) gives it).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// assert!(Value::U64(1).is_i64() && !Value::U64(u64::MAX).is_i64());
    /// ```
    #[must_use]
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether this is an integer that fits in a `u64` (so [`as_u64`](Self::as_u64) gives it).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// assert!(Value::I64(1).is_u64() && !Value::I64(-1).is_u64());
    /// ```
    #[must_use]
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// Whether this is a number that is neither [`is_i64`](Self::is_i64) nor
    /// [`is_u64`](Self::is_u64): a float, or a 128-bit integer out of their range (where
    /// serde_json would hold a float). [`as_f64`](Self::as_f64) gives it.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// assert!(Value::F64(1.0).is_f64() && Value::I128(&i128::MIN).is_f64());
    /// assert!(!Value::I64(1).is_f64());
    /// ```
    #[must_use]
    pub fn is_f64(&self) -> bool {
        self.is_number() && !self.is_i64() && !self.is_u64()
    }

    /// Whether this is a `Bool`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(arena_core::Value::Bool(false).is_boolean());
    /// ```
    #[must_use]
    pub fn is_boolean(&self) -> bool {
        self.as_bool().is_some()
    }

    /// Whether this is an `Array`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(arena_core::Value::Array(&[]).is_array());
    /// ```
    #[must_use]
    pub fn is_array(&self) -> bool {
        self.as_array().is_some()
    }

    /// Whether this is a `Map`, whatever its keys.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(arena_core::Value::Map(&[]).is_object());
    /// ```
    #[must_use]
    pub fn is_object(&self) -> bool {
        self.as_map().is_some()
    }
}

/// An RFC 6901 array index: decimal digits, no sign, no leading zero (but `0` itself).
fn parse_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() > 1) {
        return None;
    }
    token.parse().ok()
}

impl<I: ValueIndex> ops::Index<I> for Value<'_> {
    type Output = Self;

    /// The element at an array index or the value of a map key (the last with that key), or a
    /// null (`Unit`) when there is none: never a panic, as with `serde_json::Value`.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let doc = Value::object(&bump, [("a", Value::array(&bump, [Value::Bool(true)]))]);
    /// assert_eq!(doc["a"][0], Value::Bool(true));
    /// assert_eq!(doc["a"][1], Value::Unit);
    /// assert!(doc["x"]["y"][3].is_null());
    /// ```
    fn index(&self, index: I) -> &Self {
        self.get(index).unwrap_or(NULL)
    }
}

/// `PartialEq` both ways between `Value` and `$ty`, through the view `$as` (and `$conv` of the
/// other side), as serde_json compares its `Value` with primitives.
macro_rules! eq_primitive {
    ($($ty:ty => $as:ident as $conv:ty),* $(,)?) => {$(
        impl PartialEq<$ty> for Value<'_> {
            fn eq(&self, other: &$ty) -> bool {
                self.$as().is_some_and(|v| v == <$conv>::from(*other))
            }
        }

        impl PartialEq<Value<'_>> for $ty {
            fn eq(&self, other: &Value<'_>) -> bool {
                other == self
            }
        }
    )*};
}

eq_primitive! {
    bool => as_bool as bool,
    i8 => as_i64 as i64,
    i16 => as_i64 as i64,
    i32 => as_i64 as i64,
    i64 => as_i64 as i64,
    u8 => as_u64 as u64,
    u16 => as_u64 as u64,
    u32 => as_u64 as u64,
    u64 => as_u64 as u64,
    f32 => as_f64 as f64,
    f64 => as_f64 as f64,
}

impl PartialEq<isize> for Value<'_> {
    fn eq(&self, other: &isize) -> bool {
        self.as_i64()
            .is_some_and(|v| i64::try_from(*other) == Ok(v))
    }
}

impl PartialEq<Value<'_>> for isize {
    fn eq(&self, other: &Value<'_>) -> bool {
        other == self
    }
}

impl PartialEq<usize> for Value<'_> {
    fn eq(&self, other: &usize) -> bool {
        self.as_u64()
            .is_some_and(|v| u64::try_from(*other) == Ok(v))
    }
}

impl PartialEq<Value<'_>> for usize {
    fn eq(&self, other: &Value<'_>) -> bool {
        other == self
    }
}

/// `PartialEq` both ways between `Value` and a string type: equal when the value is that
/// `Str`.
macro_rules! eq_string {
    ($($ty:ty),*) => {$(
        impl PartialEq<$ty> for Value<'_> {
            fn eq(&self, other: &$ty) -> bool {
                self.as_str() == Some(<$ty as AsRef<str>>::as_ref(other))
            }
        }

        impl PartialEq<Value<'_>> for $ty {
            fn eq(&self, other: &Value<'_>) -> bool {
                other == self
            }
        }
    )*};
}

eq_string!(str, &str, String);
