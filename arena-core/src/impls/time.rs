//! time's drop-free types (feature `time`), read by their serde impls, in whichever form the
//! `time` features of the build choose (`serde-human-readable` for strings in JSON).

crate::through_serde!(
    ::time::OffsetDateTime,
    ::time::PrimitiveDateTime,
    ::time::Date,
    ::time::Time,
    ::time::UtcOffset,
    ::time::Duration,
    ::time::Weekday,
    ::time::Month,
);
