//! chrono's drop-free types (feature `chrono`), read by their serde impls: `DateTime` in UTC
//! or at a fixed offset, the naive dates and times, `Weekday` and `Month`.
//! `DateTime<Local>` needs chrono's `clock` feature and is left to `#[arena(serde)]`.

crate::through_serde!(
    ::chrono::DateTime<::chrono::Utc>,
    ::chrono::DateTime<::chrono::FixedOffset>,
    ::chrono::NaiveDate,
    ::chrono::NaiveTime,
    ::chrono::NaiveDateTime,
    ::chrono::Weekday,
    ::chrono::Month,
);
