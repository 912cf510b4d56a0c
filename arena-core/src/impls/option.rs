//! `Option<T>`, read as serde reads it, flattened too.

use core::fmt;
use core::marker::PhantomData;

use serde::Deserializer;
use serde::de::{Error, Visitor};

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
}
