//! Reading a [`Value`] from any self-describing format: `deserialize_any`, each node as the
//! format hands it over.
//!
//! Strings and byte strings are copied into the arena; arrays and maps are built at their
//! exact size by a [`SliceBuilder`](crate::slice_builder::SliceBuilder), like every slice, under
//! the call's limits (depth, bytes, lengths). Every node that holds another (`Some`, newtype,
//! array, map, enum) enters a level of depth, so a deeply nested document is an error, not a
//! stack overflow.

use core::fmt;

use serde::Deserializer;
use serde::de::{EnumAccess, Error, MapAccess, SeqAccess, VariantAccess, Visitor};

use super::Value;
use crate::arena_deserialize::NestedSeed;
use crate::call::{self, DepthGuard};
use crate::limits::LimitHit;
use crate::slice_builder;
use crate::{AllocError, ArenaDeserialize, BumpAllocator};

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for Value<'bump> {
    /// Reads whatever the input holds, with `deserialize_any`.
    ///
    /// # Errors
    ///
    /// The format's own error where it cannot describe itself (postcard, bincode:
    /// "deserialize_any is not supported"), a limit hit, or the arena out of memory.
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor { arena })
    }

    /// Reads the JSON text straight into the nodes (see `json::value`), what the visitor path
    /// reads.
    #[cfg(feature = "json")]
    fn __deserialize_json_in(
        arena: &'bump A,
        reader: &mut crate::json::Reader<'_>,
    ) -> Result<Self, crate::json::Refused> {
        reader.value_in(arena)
    }

    /// Whatever the input holds, as serde's buffer holds it.
    fn __deserialize_content_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor { arena })
    }
}

/// Builds a [`Value`] from whatever the format visits.
pub(crate) struct ValueVisitor<'bump, A: ?Sized> {
    arena: &'bump A,
}

impl<'bump, A: BumpAllocator + ?Sized> ValueVisitor<'bump, A> {
    /// A visitor building its value in `arena`.
    pub(crate) const fn new(arena: &'bump A) -> Self {
        Self { arena }
    }

    /// `value` moved into the arena, charged to the budget.
    fn place<T, E: Error>(&self, value: T) -> Result<&'bump T, E> {
        call::alloc_charged(self.arena, value).map(|v| &*v)
    }

    /// The value `deserializer` holds, read into the arena one level deeper.
    fn nested<'de, D: Deserializer<'de>>(
        &self,
        deserializer: D,
    ) -> Result<&'bump Value<'bump>, D::Error> {
        let value = {
            let _level = DepthGuard::enter::<D::Error>()?;
            Value::deserialize_in(self.arena, deserializer)?
        };
        self.place(value)
    }
}

impl<'de, 'bump, A: BumpAllocator + ?Sized> Visitor<'de> for ValueVisitor<'bump, A> {
    type Value = Value<'bump>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E: Error>(self, v: bool) -> Result<Value<'bump>, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: Error>(self, v: i64) -> Result<Value<'bump>, E> {
        Ok(Value::I64(v))
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<Value<'bump>, E> {
        Ok(Value::U64(v))
    }

    fn visit_i128<E: Error>(self, v: i128) -> Result<Value<'bump>, E> {
        self.place(v).map(Value::I128)
    }

    fn visit_u128<E: Error>(self, v: u128) -> Result<Value<'bump>, E> {
        self.place(v).map(Value::U128)
    }

    fn visit_f32<E: Error>(self, v: f32) -> Result<Value<'bump>, E> {
        Ok(Value::F32(v))
    }

    fn visit_f64<E: Error>(self, v: f64) -> Result<Value<'bump>, E> {
        Ok(Value::F64(v))
    }

    fn visit_char<E: Error>(self, v: char) -> Result<Value<'bump>, E> {
        Ok(Value::Char(v))
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<Value<'bump>, E> {
        call::admit_str(v.len()).map_err(LimitHit::into_de)?;
        self.arena
            .try_alloc_str(v)
            .map(Value::Str)
            .map_err(AllocError::into_de)
    }

    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Value<'bump>, E> {
        call::admit_str(v.len()).map_err(LimitHit::into_de)?;
        self.arena
            .try_alloc_bytes(v)
            .map(Value::Bytes)
            .map_err(AllocError::into_de)
    }

    fn visit_none<E: Error>(self) -> Result<Value<'bump>, E> {
        Ok(Value::None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value<'bump>, D::Error> {
        self.nested(deserializer).map(Value::Some)
    }

    fn visit_unit<E: Error>(self) -> Result<Value<'bump>, E> {
        Ok(Value::Unit)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Value<'bump>, D::Error> {
        self.nested(deserializer).map(Value::Newtype)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Value<'bump>, S::Error> {
        let element = NestedSeed::<Value<'bump>, A>::new(self.arena);
        slice_builder::read_slice(self.arena, seq, element, true).map(|items| Value::Array(items))
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Value<'bump>, M::Error> {
        let node = NestedSeed::<Value<'bump>, A>::new(self.arena);
        slice_builder::read_entries(self.arena, map, node, node, true)
            .map(|entries| Value::Map(entries))
    }

    fn visit_enum<D: EnumAccess<'de>>(self, data: D) -> Result<Value<'bump>, D::Error> {
        let _level = DepthGuard::enter::<D::Error>()?;
        let seed = NestedSeed::<Value<'bump>, A>::new(self.arena);
        let (variant, access) = data.variant_seed(seed)?;
        let content = access.newtype_variant_seed(seed)?;
        self.place((variant, content)).map(Value::Enum)
    }
}
