//! Building a [`Value`] by hand in an arena: strings, byte strings, arrays, maps, objects and
//! the boxed nodes, each a `try_` constructor returning [`AllocError`] and a panicking twin, as
//! [`BumpAllocatorExt`] has.
//!
//! Scalars need no arena (`Value::U64(7)`, `Value::Bool(true)`), and neither does a node whose
//! parts already live long enough (`Value::Array(&[...])` with a `'static` slice).
//!
//! A `serde_json::Value` is converted by reading it: it is a serde `Deserializer`, so
//! [`ArenaSeed`](crate::ArenaSeed) reads it into the arena like any input.
//!
//! ```
//! use arena_core::{ArenaSeed, Value};
//! use serde::de::DeserializeSeed;
//!
//! let bump = bumpalo::Bump::new();
//! let json = serde_json::json!({"a": [1, -2.5, null], "b": "x"});
//! let doc: Value = ArenaSeed::new(&bump).deserialize(json)?;
//! assert_eq!(doc["a"][1], -2.5);
//! assert_eq!(doc["b"], "x");
//! # Ok::<(), serde_json::Error>(())
//! ```

use super::Value;
use crate::arena_vec::out_of_memory;
use crate::{AllocError, ArenaVec, BumpAllocator, BumpAllocatorExt};

impl<'bump> Value<'bump> {
    /// A `Str`: `s` copied into `arena`.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_core::SlabArena::new();
    /// assert_eq!(arena_core::Value::try_str(&arena, "hi")?, "hi");
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_str<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        s: &str,
    ) -> Result<Self, AllocError> {
        arena.try_alloc_str(s).map(Value::Str)
    }

    /// A `Str`: `s` copied into `arena`.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// assert_eq!(arena_core::Value::str(&bump, "hi"), "hi");
    /// ```
    #[must_use]
    pub fn str<A: BumpAllocator + ?Sized>(arena: &'bump A, s: &str) -> Self {
        Self::try_str(arena, s).unwrap_or_else(out_of_memory)
    }

    /// A `Bytes`: `bytes` copied into `arena`.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let arena = arena_core::SlabArena::new();
    /// assert_eq!(Value::try_bytes(&arena, &[0, 255])?, Value::Bytes(&[0, 255]));
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_bytes<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        bytes: &[u8],
    ) -> Result<Self, AllocError> {
        arena.try_alloc_bytes(bytes).map(Value::Bytes)
    }

    /// A `Bytes`: `bytes` copied into `arena`.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let bump = bumpalo::Bump::new();
    /// assert_eq!(Value::bytes(&bump, b"ab"), Value::Bytes(b"ab"));
    /// ```
    #[must_use]
    pub fn bytes<A: BumpAllocator + ?Sized>(arena: &'bump A, bytes: &[u8]) -> Self {
        Self::try_bytes(arena, bytes).unwrap_or_else(out_of_memory)
    }

    /// An `Array` of `items`, in `arena` at its exact length.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena (or the staging memory) is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let arena = arena_core::SlabArena::new();
    /// let squares = Value::try_array(&arena, (1..=3).map(|i| Value::U64(i * i)))?;
    /// assert_eq!(squares.to_string(), "[1,4,9]");
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_array<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        items: impl IntoIterator<Item = Value<'bump>>,
    ) -> Result<Self, AllocError> {
        collect(arena, items).map(Value::Array)
    }

    /// An `Array` of `items`, in `arena` at its exact length.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let list = Value::array(&bump, [Value::Bool(true), Value::Unit]);
    /// assert_eq!(list.to_string(), "[true,null]");
    /// ```
    #[must_use]
    pub fn array<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        items: impl IntoIterator<Item = Value<'bump>>,
    ) -> Self {
        Self::try_array(arena, items).unwrap_or_else(out_of_memory)
    }

    /// A `Map` of `entries` (keys of any kind), in order, in `arena` at its exact length.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena (or the staging memory) is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let arena = arena_core::SlabArena::new();
    /// let map = Value::try_map(&arena, [(Value::U64(1), Value::Str("one"))])?;
    /// assert_eq!(map.as_map(), Some(&[(Value::U64(1), Value::Str("one"))][..]));
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_map<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        entries: impl IntoIterator<Item = (Value<'bump>, Value<'bump>)>,
    ) -> Result<Self, AllocError> {
        collect(arena, entries).map(Value::Map)
    }

    /// A `Map` of `entries` (keys of any kind), in order, in `arena` at its exact length.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let map = Value::map(&bump, [(Value::Bool(true), Value::U64(1))]);
    /// assert_eq!(map.to_string(), r#"{"true":1}"#);
    /// ```
    #[must_use]
    pub fn map<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        entries: impl IntoIterator<Item = (Value<'bump>, Value<'bump>)>,
    ) -> Self {
        Self::try_map(arena, entries).unwrap_or_else(out_of_memory)
    }

    /// A `Map` with string keys (a JSON object): each key copied into `arena`, the entries in
    /// order.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena (or the staging memory) is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let arena = arena_core::SlabArena::new();
    /// let key = String::from("id");
    /// let object = Value::try_object(&arena, [(key.as_str(), Value::U64(7))])?;
    /// drop(key); // the arena holds its own copy
    /// assert_eq!(object["id"], 7);
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_object<'k, A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        entries: impl IntoIterator<Item = (&'k str, Value<'bump>)>,
    ) -> Result<Self, AllocError> {
        let mut staged = ArenaVec::new_in(arena);
        for (key, value) in entries {
            staged.try_push((Self::try_str(arena, key)?, value))?;
        }
        staged.try_into_slice().map(|entries| Value::Map(entries))
    }

    /// A `Map` with string keys (a JSON object): each key copied into `arena`, the entries in
    /// order.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let object = Value::object(&bump, [("a", Value::U64(1)), ("b", Value::Unit)]);
    /// assert_eq!(object.to_string(), r#"{"a":1,"b":null}"#);
    /// ```
    #[must_use]
    pub fn object<'k, A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        entries: impl IntoIterator<Item = (&'k str, Value<'bump>)>,
    ) -> Self {
        Self::try_object(arena, entries).unwrap_or_else(out_of_memory)
    }

    /// A `Some` holding `value`, moved into `arena`.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let arena = arena_core::SlabArena::new();
    /// assert_eq!(Value::try_some(&arena, Value::U64(1))?, Value::Some(&Value::U64(1)));
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_some<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        value: Value<'bump>,
    ) -> Result<Self, AllocError> {
        arena.try_alloc(value).map(|v| Value::Some(v))
    }

    /// A `Some` holding `value`, moved into `arena`.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let bump = bumpalo::Bump::new();
    /// assert_eq!(Value::some(&bump, Value::Unit), Value::Some(&Value::Unit));
    /// ```
    #[must_use]
    pub fn some<A: BumpAllocator + ?Sized>(arena: &'bump A, value: Value<'bump>) -> Self {
        Self::try_some(arena, value).unwrap_or_else(out_of_memory)
    }

    /// A `Newtype` holding `value`, moved into `arena`.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let arena = arena_core::SlabArena::new();
    /// assert_eq!(Value::try_newtype(&arena, Value::U64(1))?, Value::Newtype(&Value::U64(1)));
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_newtype<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        value: Value<'bump>,
    ) -> Result<Self, AllocError> {
        arena.try_alloc(value).map(|v| Value::Newtype(v))
    }

    /// A `Newtype` holding `value`, moved into `arena`.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let bump = bumpalo::Bump::new();
    /// assert_eq!(Value::newtype(&bump, Value::Unit), Value::Newtype(&Value::Unit));
    /// ```
    #[must_use]
    pub fn newtype<A: BumpAllocator + ?Sized>(arena: &'bump A, value: Value<'bump>) -> Self {
        Self::try_newtype(arena, value).unwrap_or_else(out_of_memory)
    }

    /// An `Enum` of `variant` (a string or an index) and its `content` (`Unit` for a unit
    /// variant), moved into `arena`.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let arena = arena_core::SlabArena::new();
    /// let e = Value::try_variant(&arena, Value::Str("Circle"), Value::F64(1.5))?;
    /// assert_eq!(e.to_string(), r#"{"Circle":1.5}"#);
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_variant<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        variant: Value<'bump>,
        content: Value<'bump>,
    ) -> Result<Self, AllocError> {
        arena.try_alloc((variant, content)).map(|v| Value::Enum(v))
    }

    /// An `Enum` of `variant` (a string or an index) and its `content` (`Unit` for a unit
    /// variant), moved into `arena`.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let e = Value::variant(&bump, Value::Str("Empty"), Value::Unit);
    /// assert_eq!(e.to_string(), r#""Empty""#);
    /// ```
    #[must_use]
    pub fn variant<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        variant: Value<'bump>,
        content: Value<'bump>,
    ) -> Self {
        Self::try_variant(arena, variant, content).unwrap_or_else(out_of_memory)
    }

    /// An `I128`: `v` moved into `arena`.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let arena = arena_core::SlabArena::new();
    /// assert_eq!(Value::try_i128(&arena, i128::MIN)?, Value::I128(&i128::MIN));
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_i128<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        v: i128,
    ) -> Result<Self, AllocError> {
        arena.try_alloc(v).map(|v| Value::I128(v))
    }

    /// An `I128`: `v` moved into `arena`.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// assert_eq!(arena_core::Value::i128(&bump, -1).as_i64(), Some(-1));
    /// ```
    #[must_use]
    pub fn i128<A: BumpAllocator + ?Sized>(arena: &'bump A, v: i128) -> Self {
        Self::try_i128(arena, v).unwrap_or_else(out_of_memory)
    }

    /// A `U128`: `v` moved into `arena`.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let arena = arena_core::SlabArena::new();
    /// assert_eq!(Value::try_u128(&arena, u128::MAX)?, Value::U128(&u128::MAX));
    /// # Ok::<(), arena_core::AllocError>(())
    /// ```
    pub fn try_u128<A: BumpAllocator + ?Sized>(
        arena: &'bump A,
        v: u128,
    ) -> Result<Self, AllocError> {
        arena.try_alloc(v).map(|v| Value::U128(v))
    }

    /// A `U128`: `v` moved into `arena`.
    ///
    /// # Panics
    ///
    /// When the arena is out of memory or over its limit.
    ///
    /// # Examples
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// assert_eq!(arena_core::Value::u128(&bump, 1 << 100).to_string(), (1u128 << 100).to_string());
    /// ```
    #[must_use]
    pub fn u128<A: BumpAllocator + ?Sized>(arena: &'bump A, v: u128) -> Self {
        Self::try_u128(arena, v).unwrap_or_else(out_of_memory)
    }
}

/// `items` in `arena`, at their exact length.
fn collect<'bump, T: 'bump, A: BumpAllocator + ?Sized>(
    arena: &'bump A,
    items: impl IntoIterator<Item = T>,
) -> Result<&'bump [T], AllocError> {
    let mut staged = ArenaVec::new_in(arena);
    for item in items {
        staged.try_push(item)?;
    }
    staged.try_into_slice().map(|items| &*items)
}
