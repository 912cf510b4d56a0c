//! What the derive's untagged variants need besides the buffer: the unit variant's visitor.

use core::fmt;

use serde::de::{Error, Visitor};

/// Reads an untagged unit variant: a unit or a `None`, anything else an invalid type
/// "expected unit variant `Type::Variant`" (serde's private `UntaggedUnitVisitor`, with its
/// wording).
///
/// Not public API.
#[derive(Debug)]
pub struct UntaggedUnitVisitor {
    type_name: &'static str,
    variant_name: &'static str,
}

impl UntaggedUnitVisitor {
    /// The visitor for the variant `variant_name` of the enum `type_name` (their Rust names).
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

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "unit variant {}::{}",
            self.type_name, self.variant_name
        )
    }

    fn visit_unit<E: Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E: Error>(self) -> Result<(), E> {
        Ok(())
    }
}
