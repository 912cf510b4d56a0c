//! The visitors of a unit variant's content in the representations that read it with
//! `deserialize_any` (serde's `InternallyTaggedUnitVisitor` and `UntaggedUnitVisitor`).

use core::fmt;

use serde::de::{Error, MapAccess, SeqAccess, Visitor};

use crate::buffer_rules::IgnoredContent;

/// The rest of an internally tagged unit variant's map (its entries read past) or sequence
/// (left to the replay's length check). Not public API.
#[derive(Debug, Clone, Copy)]
pub struct InternallyTaggedUnitVisitor {
    type_name: &'static str,
    variant_name: &'static str,
}

impl InternallyTaggedUnitVisitor {
    /// The visitor of `type_name::variant_name` (their Rust names).
    #[must_use]
    pub const fn new(type_name: &'static str, variant_name: &'static str) -> Self {
        Self {
            type_name,
            variant_name,
        }
    }
}

impl<'de> Visitor<'de> for InternallyTaggedUnitVisitor {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit variant {}::{}", self.type_name, self.variant_name)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, _seq: S) -> Result<(), S::Error> {
        Ok(())
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        while map
            .next_entry::<IgnoredContent, IgnoredContent>()?
            .is_some()
        {}
        Ok(())
    }
}

/// A unit variant's content that is a unit or a `None`. Not public API.
#[derive(Debug, Clone, Copy)]
pub struct UntaggedUnitVisitor {
    type_name: &'static str,
    variant_name: &'static str,
}

impl UntaggedUnitVisitor {
    /// The visitor of `type_name::variant_name` (their Rust names).
    #[must_use]
    pub const fn new(type_name: &'static str, variant_name: &'static str) -> Self {
        Self {
            type_name,
            variant_name,
        }
    }
}

impl<'de> Visitor<'de> for UntaggedUnitVisitor {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit variant {}::{}", self.type_name, self.variant_name)
    }

    fn visit_unit<E: Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E: Error>(self) -> Result<(), E> {
        Ok(())
    }
}
