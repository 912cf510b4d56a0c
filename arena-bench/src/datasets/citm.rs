//! json-benchmark's `citm_catalog.json`: a ticketing catalog, maps keyed by numeric ids and
//! arrays of small integers.
//!
//! Fields that are `null` throughout the file (`description`, `subjectCode`, `subtitle`,
//! `name` of a performance, `seatMapImage`) and the always-empty `blockIds` are left out.

use super::Dataset;

crate::model! {
    /// The catalog: one document.
    #[serde(rename_all = "camelCase")]
    struct CitmCatalog {
        area_names: (map str str),
        audience_sub_category_names: (map str str),
        block_names: (map str str),
        events: (map str Event),
        performances: [Performance],
        seat_category_names: (map str str),
        sub_topic_names: (map str str),
        subject_names: (map str str),
        topic_names: (map str str),
        topic_sub_topics: (map str [u32]),
        venue_names: (map str str),
    }

    /// An event.
    #[serde(rename_all = "camelCase")]
    struct Event {
        id: u32,
        logo: (opt str),
        name: str,
        sub_topic_ids: [u32],
        topic_ids: [u32],
    }

    /// A performance of an event.
    #[serde(rename_all = "camelCase")]
    struct Performance {
        event_id: u32,
        id: u32,
        logo: (opt str),
        prices: [Price],
        seat_categories: [SeatCategory],
        start: u64,
        venue_code: str,
    }

    /// A price.
    #[serde(rename_all = "camelCase")]
    struct Price {
        amount: u32,
        audience_sub_category_id: u32,
        seat_category_id: u32,
    }

    /// A seat category and its areas.
    #[serde(rename_all = "camelCase")]
    struct SeatCategory {
        areas: [Area],
        seat_category_id: u32,
    }

    /// An area.
    #[serde(rename_all = "camelCase")]
    struct Area {
        area_id: u32,
    }
}

/// The citm_catalog dataset.
#[derive(Debug)]
pub struct CitmCatalog;

impl Dataset for CitmCatalog {
    const NAME: &'static str = "citm_catalog";
    type Owned = owned::CitmCatalog;
    type Borrowed<'a> = borrowed::CitmCatalog<'a>;
    type Arena<'a> = arena::CitmCatalog<'a>;
    type Multi = multi::CitmCatalog;
}
