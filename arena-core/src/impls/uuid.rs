//! `uuid::Uuid` (feature `uuid`), read by its serde impl: a string in human-readable formats,
//! 16 bytes in the others.

crate::through_serde!(::uuid::Uuid);
