//! Not public API: the runtime of flattened fields (`#[serde(flatten)]`) in the derive's
//! generated code, serde's `FlatMapDeserializer` and its accesses (serde 1.0.229,
//! `src/private/de.rs`), over entries buffered as [`Value`]s in the arena.
//!
//! A struct with a flattened field reads its input with `deserialize_map`. Every entry whose
//! key is not one of its own fields is buffered, key and value, in input order, by a
//! [`FlatCollector`]; the keys come from the generated field identifier ([`flat_key_str`],
//! [`flat_key_bytes`] and the scalars it keeps as they are), the values are read as `Value`s.
//! Then each flattened field, in declaration order, reads from a [`FlatMapDeserializer`] over
//! the entries, as serde's does:
//! - a struct (`deserialize_struct`) takes the entries whose keys are its fields, and removes
//!   them, so that a later flattened field does not see them;
//! - a map (`deserialize_map`, and `deserialize_any`, which internally tagged and untagged
//!   enums and structs with a flattened field of their own ask for) reads every entry left,
//!   removing none;
//! - an externally tagged enum (`deserialize_enum`) takes the first entry whose key is one of
//!   its variants, or fails with ``no variant of enum E found in flattened data``;
//! - an `Option` is `Some` when its content reads from the entries and `None` when that fails
//!   (what it took stays taken);
//! - a unit, a unit struct and an ignored value read as a unit;
//! - anything else is ``can only flatten structs and maps``, and a 128-bit integer serde's
//!   default ``i128 is not supported``, as serde says.
//!
//! With `deny_unknown_fields`, an entry left after every flattened field is an error
//! ([`flat_deny_unknown_fields`]): so an entry a flattened map read, which it does not remove,
//! is one.
//!
//! Where serde's buffer loses what the input said, this one keeps it: the flattened fields are
//! asked `is_human_readable` with the source format's answer (serde's flattened deserializer
//! answers `true` whatever the format, serde issue #2172), and a 128-bit integer in a buffered
//! value reads exactly (serde's buffer cannot hold one: "i128 is not supported", serde issue
//! #1682).
//!
//! When the first flattened field is a struct reading its entries by name
//! ([`ArenaDeserialize::__FLAT_BY_NAME`], which the derive sets for its structs with named
//! fields), nothing of it is buffered: the struct reads from a [`FlatDriver`] over the map, which
//! hands it the entries named in its fields as the map is read, the struct's own to the struct,
//! and collects the rest for the flattened fields after it.
//!
//! The entries are collected on the scratch stack and moved into the arena at their exact size
//! once the map is read, like any slice: no allocation per entry outside the arena, and the
//! call's limits count them (their number, their bytes, the depth of their values).

use core::fmt;
use core::marker::PhantomData;
use core::slice;

use serde::de::value::{BytesDeserializer, StrDeserializer};
use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, Visitor};

use crate::arena_deserialize::NestedSeed;
use crate::slice_builder::{self, BuildError, SliceBuilder};
use crate::{ArenaDeserialize, BumpAllocator, Value, ValueDeserializer};

/// One buffered entry, key and value; `None` once a flattened struct or enum has taken it.
pub type FlatEntry<'bump> = Option<(Value<'bump>, Value<'bump>)>;

/// The entries of a map that are not the struct's own fields, buffered in input order while the
/// map is read. Not public API.
pub struct FlatCollector<'bump, A: ?Sized> {
    arena: &'bump A,
    entries: SliceBuilder<'bump, FlatEntry<'bump>>,
}

impl<'bump, A: BumpAllocator + ?Sized> FlatCollector<'bump, A> {
    /// No entries yet.
    ///
    /// # Errors
    ///
    /// The scratch stack out of memory.
    pub fn new<E: Error>(arena: &'bump A) -> Result<Self, E> {
        // No length hint: the map's counts the struct's own fields too.
        let entries = SliceBuilder::new(arena, None, false).map_err(BuildError::into_de)?;
        Ok(Self { arena, entries })
    }

    /// Buffers the entry of `key`, its value read from `map` as a [`Value`].
    ///
    /// # Errors
    ///
    /// The format's error, a limit hit (the number of entries counts as a length), or the
    /// arena out of memory.
    pub fn collect<'de, M: MapAccess<'de>>(
        &mut self,
        map: &mut M,
        key: Value<'bump>,
    ) -> Result<(), M::Error> {
        let value = map.next_value_seed(NestedSeed::<Value<'bump>, A>::new(self.arena))?;
        self.entries
            .push(Some((key, value)))
            .map_err(BuildError::into_de)
    }

    /// The entries, moved into the arena at their exact size (charged to the byte budget).
    ///
    /// # Errors
    ///
    /// The byte budget exceeded, or the arena out of memory.
    pub fn finish<E: Error>(mut self) -> Result<&'bump mut [FlatEntry<'bump>], E> {
        slice_builder::finish(&mut self.entries, self.arena)
    }
}

impl<A: ?Sized> fmt::Debug for FlatCollector<'_, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatCollector")
            .field("len", &self.entries.len())
            .finish_non_exhaustive()
    }
}

/// A key given as a string that is not one of the struct's fields: copied into the arena, and
/// counted as every string is (length limit, byte budget). Not public API.
///
/// # Errors
///
/// A limit hit, or the arena out of memory.
pub fn flat_key_str<'bump, A, E>(arena: &'bump A, key: &str) -> Result<Value<'bump>, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    Value::deserialize_in(arena, StrDeserializer::<E>::new(key))
}

/// A key given as bytes that is not one of the struct's fields, as [`flat_key_str`]. Not
/// public API.
///
/// # Errors
///
/// A limit hit, or the arena out of memory.
pub fn flat_key_bytes<'bump, A, E>(arena: &'bump A, key: &[u8]) -> Result<Value<'bump>, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    Value::deserialize_in(arena, BytesDeserializer::<E>::new(key))
}

/// `deny_unknown_fields` after the flattened fields: the first entry none of them took is
/// ``unknown field `key` `` (``unexpected map key`` when its key is not a name), as serde_derive
/// says it. Not public API.
///
/// # Errors
///
/// That error, if an entry is left.
pub fn flat_deny_unknown_fields<E: Error>(entries: &[FlatEntry<'_>]) -> Result<(), E> {
    match entries.iter().flatten().next() {
        None => Ok(()),
        Some((key, _)) => Err(match key_as_str(key) {
            Some(key) => E::custom(format_args!("unknown field `{key}`")),
            None => E::custom("unexpected map key"),
        }),
    }
}

/// The name a key gives, if it is one: a string, or bytes in UTF-8 (serde's `content_as_str`).
fn key_as_str<'v>(key: &'v Value<'_>) -> Option<&'v str> {
    match key {
        Value::Str(name) => Some(name),
        Value::Bytes(bytes) => core::str::from_utf8(bytes).ok(),
        _ => None,
    }
}

/// Takes `entry` out of the list if its key is one of the `recognized` names (serde's
/// `flat_map_take_entry`).
fn take_entry<'bump>(
    entry: &mut FlatEntry<'bump>,
    recognized: &[&str],
) -> Option<(Value<'bump>, Value<'bump>)> {
    let is_recognized = entry
        .as_ref()
        .and_then(|(key, _)| key_as_str(key))
        .is_some_and(|name| recognized.contains(&name));
    if is_recognized { entry.take() } else { None }
}

/// ``can only flatten structs and maps``: serde's error for a flattened field of any other type.
#[cold]
fn cannot_flatten<E: Error>() -> E {
    E::custom("can only flatten structs and maps")
}

/// The `Deserializer` a flattened field reads from: the entries its struct did not claim, see
/// the module docs. `is_human_readable` answers the source format's. Not public API.
pub struct FlatMapDeserializer<'a, 'bump, E> {
    entries: &'a mut [FlatEntry<'bump>],
    human_readable: bool,
    error: PhantomData<fn() -> E>,
}

impl<'a, 'bump, E> FlatMapDeserializer<'a, 'bump, E> {
    /// A deserializer over `entries`, answering `human_readable` to `is_human_readable`.
    pub const fn new(entries: &'a mut [FlatEntry<'bump>], human_readable: bool) -> Self {
        Self {
            entries,
            human_readable,
            error: PhantomData,
        }
    }
}

impl<E> fmt::Debug for FlatMapDeserializer<'_, '_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMapDeserializer")
            .field("entries", &self.entries)
            .field("human_readable", &self.human_readable)
            .finish()
    }
}

/// The methods a flattened field cannot read from: ``can only flatten structs and maps``.
macro_rules! cannot_flatten {
    ($($method:ident($($arg:ty),*))*) => {$(
        fn $method<V: Visitor<'bump>>(self, $(_: $arg,)* _visitor: V) -> Result<V::Value, E> {
            Err(cannot_flatten())
        }
    )*};
}

impl<'bump, E: Error> Deserializer<'bump> for FlatMapDeserializer<'_, 'bump, E> {
    type Error = E;

    /// As a map: what internally tagged and untagged enums, and structs with a flattened field
    /// of their own, read.
    fn deserialize_any<V: Visitor<'bump>>(self, visitor: V) -> Result<V::Value, E> {
        self.deserialize_map(visitor)
    }

    /// The first entry whose key is one of `variants`, taken, replayed as the enum.
    fn deserialize_enum<V: Visitor<'bump>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        for entry in self.entries.iter_mut() {
            if let Some((variant, content)) = take_entry(entry, variants) {
                return ValueDeserializer::by_value(&variant, self.human_readable).visit_enum(
                    variant,
                    Some(content),
                    visitor,
                );
            }
        }
        Err(E::custom(format_args!(
            "no variant of enum {name} found in flattened data"
        )))
    }

    /// Every entry left, none removed.
    fn deserialize_map<V: Visitor<'bump>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_map(FlatMapAccess {
            iter: self.entries.iter(),
            pending: None,
            human_readable: self.human_readable,
            error: PhantomData,
        })
    }

    /// The entries whose keys are `fields`, each removed as it is read.
    fn deserialize_struct<V: Visitor<'bump>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_map(FlatStructAccess {
            iter: self.entries.iter_mut(),
            pending: None,
            fields,
            human_readable: self.human_readable,
            error: PhantomData,
        })
    }

    fn deserialize_newtype_struct<V: Visitor<'bump>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_newtype_struct(self)
    }

    /// `Some` if the content reads from the entries, else `None`, through serde's hook for it
    /// (`Option`'s visitors have it); any other visitor cannot be flattened.
    fn deserialize_option<V: Visitor<'bump>>(self, visitor: V) -> Result<V::Value, E> {
        visitor
            .__private_visit_untagged_option(self)
            .map_err(|()| cannot_flatten())
    }

    fn deserialize_unit<V: Visitor<'bump>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'bump>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, E> {
        visitor.visit_unit()
    }

    fn deserialize_ignored_any<V: Visitor<'bump>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    // `deserialize_i128` and `deserialize_u128` keep serde's defaults, as serde's
    // flattened deserializer does: ``i128 is not supported``.
    cannot_flatten! {
        deserialize_bool()
        deserialize_i8()
        deserialize_i16()
        deserialize_i32()
        deserialize_i64()
        deserialize_u8()
        deserialize_u16()
        deserialize_u32()
        deserialize_u64()
        deserialize_f32()
        deserialize_f64()
        deserialize_char()
        deserialize_str()
        deserialize_string()
        deserialize_bytes()
        deserialize_byte_buf()
        deserialize_seq()
        deserialize_tuple(usize)
        deserialize_tuple_struct(&'static str, usize)
        deserialize_identifier()
    }
}

/// ``value is missing``: a value asked for before its key (a bug of the visitor), as serde says.
#[cold]
fn value_is_missing<E: Error>() -> E {
    E::custom("value is missing")
}

/// Every entry left, to a flattened map (serde's `FlatMapAccess`): none is removed, so a later
/// flattened field sees them too. Replayed as serde's buffer by reference.
struct FlatMapAccess<'a, 'bump, E> {
    iter: slice::Iter<'a, FlatEntry<'bump>>,
    /// The value of the key just read.
    pending: Option<Value<'bump>>,
    human_readable: bool,
    error: PhantomData<fn() -> E>,
}

impl<'bump, E: Error> MapAccess<'bump> for FlatMapAccess<'_, 'bump, E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'bump>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        // Entries a flattened struct or enum took are `None`: skipped.
        match self.iter.by_ref().flatten().next() {
            Some((key, value)) => {
                self.pending = Some(*value);
                seed.deserialize(ValueDeserializer::new(key, self.human_readable))
                    .map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'bump>>(&mut self, seed: V) -> Result<V::Value, E> {
        match self.pending.take() {
            Some(value) => seed.deserialize(ValueDeserializer::new(&value, self.human_readable)),
            None => Err(value_is_missing()),
        }
    }
}

/// The entries whose keys are a flattened struct's fields (serde's `FlatStructAccess`): each
/// is taken out of the list as it is read. Replayed as serde's buffer by value.
struct FlatStructAccess<'a, 'bump, E> {
    iter: slice::IterMut<'a, FlatEntry<'bump>>,
    /// The value of the key just read.
    pending: Option<Value<'bump>>,
    fields: &'static [&'static str],
    human_readable: bool,
    error: PhantomData<fn() -> E>,
}

impl<'bump, E: Error> MapAccess<'bump> for FlatStructAccess<'_, 'bump, E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'bump>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        for entry in self.iter.by_ref() {
            if let Some((key, value)) = take_entry(entry, self.fields) {
                self.pending = Some(value);
                return seed
                    .deserialize(ValueDeserializer::by_value(&key, self.human_readable))
                    .map(Some);
            }
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'bump>>(&mut self, seed: V) -> Result<V::Value, E> {
        match self.pending.take() {
            Some(value) => {
                seed.deserialize(ValueDeserializer::by_value(&value, self.human_readable))
            }
            None => Err(value_is_missing()),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde::de::IgnoredAny;
    use serde::de::value::Error as E;

    use super::*;

    /// `{"a": 1, "b": "x", 7: true}` as buffered entries.
    fn entries() -> Vec<FlatEntry<'static>> {
        vec![
            Some((Value::Str("a"), Value::U64(1))),
            Some((Value::Str("b"), Value::Str("x"))),
            Some((Value::U64(7), Value::Bool(true))),
        ]
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct A {
        a: u8,
    }

    /// Counts the entries of a map.
    struct Count;

    impl<'de> Visitor<'de> for Count {
        type Value = usize;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map")
        }

        fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<usize, M::Error> {
            let mut n = 0;
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
                n += 1;
            }
            Ok(n)
        }
    }

    #[test]
    fn a_struct_takes_its_fields_and_a_map_reads_what_is_left() {
        let mut entries = entries();
        let a = A::deserialize(FlatMapDeserializer::<E>::new(&mut entries, true)).unwrap();
        assert_eq!(a, A { a: 1 });
        assert_eq!(entries[0], None, "taken");
        let flat = FlatMapDeserializer::<E>::new(&mut entries, true);
        assert_eq!(flat.deserialize_any(Count).unwrap(), 2);
        assert_eq!(entries.iter().flatten().count(), 2, "a map takes nothing");
        let err = flat_deny_unknown_fields::<E>(&entries).unwrap_err();
        assert_eq!(err.to_string(), "unknown field `b`");
        entries[1] = None;
        let err = flat_deny_unknown_fields::<E>(&entries).unwrap_err();
        assert_eq!(err.to_string(), "unexpected map key");
        entries[2] = None;
        flat_deny_unknown_fields::<E>(&entries).unwrap();
    }

    #[test]
    fn other_types_cannot_be_flattened_and_a_unit_reads_from_anything() {
        let mut entries = entries();
        let err = u8::deserialize(FlatMapDeserializer::<E>::new(&mut entries, true)).unwrap_err();
        assert_eq!(err.to_string(), "can only flatten structs and maps");
        let err = i128::deserialize(FlatMapDeserializer::<E>::new(&mut entries, true)).unwrap_err();
        assert_eq!(err.to_string(), "i128 is not supported");
        <()>::deserialize(FlatMapDeserializer::<E>::new(&mut entries, true)).unwrap();
        IgnoredAny::deserialize(FlatMapDeserializer::<E>::new(&mut entries, true)).unwrap();
        assert_eq!(entries.iter().flatten().count(), 3);
    }

    #[test]
    fn an_option_is_none_when_its_content_does_not_read() {
        let mut entries = entries();
        let none = Option::<A>::deserialize(FlatMapDeserializer::<E>::new(&mut entries[1..], true));
        assert_eq!(none.unwrap(), None);
        let some = Option::<A>::deserialize(FlatMapDeserializer::<E>::new(&mut entries, false));
        assert_eq!(some.unwrap(), Some(A { a: 1 }));
    }

    #[derive(Deserialize, Debug, PartialEq)]
    enum Pick {
        #[serde(rename = "b")]
        B(String),
    }

    #[test]
    fn an_enum_takes_the_first_entry_named_as_a_variant() {
        let mut entries = entries();
        let pick = Pick::deserialize(FlatMapDeserializer::<E>::new(&mut entries, true)).unwrap();
        assert_eq!(pick, Pick::B("x".to_owned()));
        assert_eq!(entries[1], None);
        let err = Pick::deserialize(FlatMapDeserializer::<E>::new(&mut entries, true)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no variant of enum Pick found in flattened data"
        );
    }

    #[test]
    fn a_flattened_struct_names_a_key_by_the_first_of_its_names_that_the_key_is() {
        // A field's own name, then an alias that an earlier field's name takes already.
        let names: &'static [&'static str] = &["id", "ident", "label", "id", ""];
        assert_eq!(flat_field_in(names, b"id"), Some("id"));
        assert_eq!(flat_field_in(names, b"ident"), Some("ident"));
        assert_eq!(flat_field_in(names, b"label"), Some("label"));
        assert_eq!(flat_field_in(names, b""), Some(""));
        assert_eq!(flat_field_in(names, b"i"), None);
        assert_eq!(flat_field_in(names, b"labels"), None);
        assert_eq!(flat_field_in(&[], b"id"), None);
    }
}

/// What the key reader of a [`FlatDriver`] found: the end of the map, one of the struct's own
/// fields (its value read), or another key. Not public API.
#[derive(Debug)]
pub enum FlatNext<'bump> {
    /// The map has no more entries.
    End,
    /// A key of the struct's own, its value read into the struct's slot.
    Own,
    /// A key named in the flattened struct's fields (the name from its list).
    Wanted(&'static str),
    /// Any other key, its value not read yet.
    Other(Value<'bump>),
}

/// The map of a struct whose first flattened field is a struct reading its entries by name
/// ([`ArenaDeserialize::__FLAT_BY_NAME`]), as a `Deserializer` for that field: the map is read
/// once, each key in turn going to the struct (`own`: its fields), to the flattened struct
/// (a key named in its fields, [`ArenaDeserialize::__flat_field`]), or to the
/// [`FlatCollector`] for the flattened fields after it, as serde's flattened deserializer would
/// have handed them out of its buffer. The flattened
/// struct's values are read straight from the input, as from serde's buffer (it reads with
/// `__deserialize_content_in`). Not public API.
pub struct FlatDriver<'a, 'bump, A: ?Sized, M, F> {
    map: &'a mut M,
    collect: &'a mut FlatCollector<'bump, A>,
    own: F,
    human_readable: bool,
    /// Whether the map's end was read.
    ended: bool,
}

impl<'a, 'bump, A: ?Sized, M, F> FlatDriver<'a, 'bump, A, M, F> {
    /// The map `map`, its keys read by `own`, which reads the value of a key of the struct's
    /// own and tells the flattened struct's keys and the others apart ([`FlatNext`]), the
    /// other entries collected in `collect`.
    pub fn new(
        map: &'a mut M,
        collect: &'a mut FlatCollector<'bump, A>,
        human_readable: bool,
        own: F,
    ) -> Self {
        Self {
            map,
            collect,
            own,
            human_readable,
            ended: false,
        }
    }
}

impl<'de, 'bump, A, M, F> FlatDriver<'_, 'bump, A, M, F>
where
    A: BumpAllocator + ?Sized,
    M: MapAccess<'de>,
    F: FnMut(&mut M) -> Result<FlatNext<'bump>, M::Error>,
{
    /// The next key named in the flattened struct's fields, the entries before it handed to the
    /// struct or collected; `None` at the end of the map.
    fn next_wanted(&mut self) -> Result<Option<&'static str>, M::Error> {
        while !self.ended {
            match (self.own)(self.map)? {
                FlatNext::End => self.ended = true,
                FlatNext::Own => {}
                FlatNext::Wanted(name) => return Ok(Some(name)),
                FlatNext::Other(key) => self.collect.collect(self.map, key)?,
            }
        }
        Ok(None)
    }
}

impl<'de, 'bump, A, M, F> Deserializer<'de> for FlatDriver<'_, 'bump, A, M, F>
where
    A: BumpAllocator + ?Sized,
    M: MapAccess<'de>,
    F: FnMut(&mut M) -> Result<FlatNext<'bump>, M::Error>,
{
    type Error = M::Error;

    /// The flattened struct's entries as a map (what its reading asks for, under serde's
    /// buffer rules), then the rest of the map read to its end.
    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, M::Error> {
        let value = visitor.visit_map(DrivenAccess { driver: &mut self })?;
        // A derived struct reads every key it is handed, to the end of the map.
        if self.next_wanted()?.is_some() {
            return Err(M::Error::custom(
                "invalid length: the flattened struct left entries unread",
            ));
        }
        Ok(value)
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<A: ?Sized, M, F> fmt::Debug for FlatDriver<'_, '_, A, M, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatDriver")
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

/// The flattened struct's entries, as a map.
struct DrivenAccess<'d, 'a, 'bump, A: ?Sized, M, F> {
    driver: &'d mut FlatDriver<'a, 'bump, A, M, F>,
}

impl<'de, 'bump, A, M, F> MapAccess<'de> for DrivenAccess<'_, '_, 'bump, A, M, F>
where
    A: BumpAllocator + ?Sized,
    M: MapAccess<'de>,
    F: FnMut(&mut M) -> Result<FlatNext<'bump>, M::Error>,
{
    type Error = M::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, M::Error> {
        let Some(name) = self.driver.next_wanted()? else {
            return Ok(None);
        };
        seed.deserialize(StrDeserializer::<M::Error>::new(name))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, M::Error> {
        self.driver.map.next_value_seed(seed)
    }
}

/// The first of `names` (a struct's fields' names, aliases included, in the order of its
/// fields) that `key` is: how a derived struct read flattened tells its entries apart
/// ([`ArenaDeserialize::__flat_field`]), as its field visitor's `match` would. A function that
/// every struct shares, rather than a `match` on the names in each, which cost the user's
/// build more to check. Not public API.
#[must_use]
#[inline]
pub fn flat_field_in(names: &'static [&'static str], key: &[u8]) -> Option<&'static str> {
    names.iter().copied().find(|name| name.as_bytes() == key)
}

/// No name: what a key is to a type that reads no flattened entries by name, and to a struct
/// that hands no key to a flattened struct ([`ArenaDeserialize::__flat_field`]). Not public
/// API.
#[must_use]
#[inline(always)]
pub const fn no_flat_field(_key: &[u8]) -> Option<&'static str> {
    None
}
