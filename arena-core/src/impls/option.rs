//! `Option<T>`, read as serde reads it, flattened too.

use core::fmt;
use core::marker::PhantomData;

use serde::Deserializer;
use serde::de::{EnumAccess, Error, MapAccess, SeqAccess, Visitor, value};

use crate::{ArenaDeserialize, BumpAllocator};

struct OptionVisitor<'bump, T, A: ?Sized> {
    arena: &'bump A,
    marker: PhantomData<fn() -> T>,
}

impl<'de, 'bump, T, A> Visitor<'de> for OptionVisitor<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }

    fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        T::deserialize_in(self.arena, deserializer).map(Some)
    }

    /// serde's hook for a flattened `Option<T>` (serde's `Option` visitor has the same, and
    /// only the flattened fields' deserializer calls it): `Some` when `T` reads from the
    /// entries left, `None` when it fails, its error dropped.
    fn __private_visit_untagged_option<D>(self, deserializer: D) -> Result<Self::Value, ()>
    where
        D: Deserializer<'de>,
    {
        Ok(T::deserialize_in(self.arena, deserializer).ok())
    }
}

impl<'bump, T, A> ArenaDeserialize<'bump, A> for Option<T>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_option(OptionVisitor {
            arena,
            marker: PhantomData,
        })
    }

    /// `None` for a `null`, else `Some` of `T` read through its own direct path, as the
    /// reader's `deserialize_option` reads it.
    #[cfg(feature = "json")]
    #[inline]
    fn __deserialize_json_in(
        arena: &'bump A,
        reader: &mut crate::json::Reader<'_>,
    ) -> Result<Self, crate::json::Refused> {
        if reader.null()? {
            Ok(None)
        } else {
            T::__deserialize_json_in(arena, reader).map(Some)
        }
    }

    /// serde's buffer: a none or a unit is `None`, anything else `Some` of it.
    #[inline]
    fn __deserialize_content_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_any(OptionContentVisitor {
            arena,
            marker: PhantomData,
        })
    }
}

/// The visitor of an `Option<T>` read as from serde's buffer: whatever the input holds but a
/// none or a unit is `T`'s content, handed on in a deserializer of its own.
struct OptionContentVisitor<'bump, T, A: ?Sized> {
    arena: &'bump A,
    marker: PhantomData<fn() -> T>,
}

impl<'bump, T, A> OptionContentVisitor<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    #[inline]
    fn some<'de, D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<T>, D::Error> {
        T::__deserialize_content_in(self.arena, deserializer).map(Some)
    }
}

/// `visit_*` methods handing a scalar on as `Some` through serde's deserializer of it.
macro_rules! some_scalar {
    ($($method:ident($ty:ty) => $de:ident,)*) => {$(
        fn $method<E: Error>(self, v: $ty) -> Result<Self::Value, E> {
            self.some(value::$de::new(v))
        }
    )*};
}

impl<'de, 'bump, T, A> Visitor<'de> for OptionContentVisitor<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }

    fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.some(deserializer)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        self.some(deserializer)
    }

    some_scalar! {
        visit_bool(bool) => BoolDeserializer,
        visit_i8(i8) => I8Deserializer,
        visit_i16(i16) => I16Deserializer,
        visit_i32(i32) => I32Deserializer,
        visit_i64(i64) => I64Deserializer,
        visit_i128(i128) => I128Deserializer,
        visit_u8(u8) => U8Deserializer,
        visit_u16(u16) => U16Deserializer,
        visit_u32(u32) => U32Deserializer,
        visit_u64(u64) => U64Deserializer,
        visit_u128(u128) => U128Deserializer,
        visit_f32(f32) => F32Deserializer,
        visit_f64(f64) => F64Deserializer,
        visit_char(char) => CharDeserializer,
        visit_str(&str) => StrDeserializer,
        visit_borrowed_str(&'de str) => BorrowedStrDeserializer,
        visit_bytes(&[u8]) => BytesDeserializer,
        visit_borrowed_bytes(&'de [u8]) => BorrowedBytesDeserializer,
    }

    fn visit_string<E: Error>(self, v: String) -> Result<Self::Value, E> {
        self.some(value::StrDeserializer::new(&v))
    }

    fn visit_byte_buf<E: Error>(self, v: Vec<u8>) -> Result<Self::Value, E> {
        self.some(value::BytesDeserializer::new(&v))
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Self::Value, S::Error> {
        self.some(value::SeqAccessDeserializer::new(seq))
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
        self.some(value::MapAccessDeserializer::new(map))
    }

    fn visit_enum<E: EnumAccess<'de>>(self, data: E) -> Result<Self::Value, E::Error> {
        self.some(value::EnumAccessDeserializer::new(data))
    }
}
