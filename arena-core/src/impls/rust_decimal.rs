//! `rust_decimal::Decimal` (feature `rust_decimal`), read by its serde impl (a string or a
//! number, as `rust_decimal`'s features of the build say).

crate::through_serde!(::rust_decimal::Decimal);
