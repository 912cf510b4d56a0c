//! The datasets: a synthetic city of any size, the json-benchmark corpus, synthetic event
//! streams in serde's buffered representations, and a large binary document of many small
//! rows.
//!
//! Each dataset is a data model written once with [`model!`](crate::model!) and a source of
//! documents: [`city`], [`events`] and [`rows`] generate them, the others read
//! `arena-bench/data/*.json`.

pub mod canada;
pub mod citm;
pub mod city;
pub mod events;
pub mod rows;
mod splitmix;
pub mod twitter;

use crate::format::FormatId;
use crate::model::{Digest, LiveSize, MultiAlloc};
use crate::strategy_id::StrategyId;

/// One dataset: its four representations.
pub trait Dataset {
    /// The name in rows and on the command line.
    const NAME: &'static str;
    /// `String`/`Vec` types: serde `Deserialize` (and `deserialize_in_place`).
    type Owned: serde::Serialize + serde::de::DeserializeOwned + Default + Digest + Send;
    /// Strings borrowed from the input where the format allows.
    type Borrowed<'a>: serde::Deserialize<'a> + Digest;
    /// `#[derive(ArenaDeserialize)]` representation, for every arena measured.
    type Arena<'a>: arena_core::ArenaDeserialize<'a, bumpalo::Bump>
        + arena_core::ArenaDeserialize<'a, bump_scope::Bump>
        + arena_core::ArenaDeserialize<'a, arena_core::SlabArena>
        + Digest
        + LiveSize;
    /// multitude's `#[derive(DeserializeIn)]` representation.
    type Multi: for<'de> multitude::de::DeserializeIn<'de, MultiAlloc> + Digest;
}

/// Identifies a dataset at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatasetId {
    /// The synthetic city, scalable.
    City,
    /// The same synthetic city at a large size (`--large`, 20 MB of postcard by default), next
    /// to the small documents: a cliff past a size shows only there.
    CityLarge,
    /// json-benchmark's `twitter.json`: string-heavy, many optional fields, nested statuses.
    Twitter,
    /// json-benchmark's `citm_catalog.json`: maps keyed by ids, many small integers.
    CitmCatalog,
    /// json-benchmark's `canada.json`: one polygon, almost only floats.
    Canada,
    /// Synthetic web events, scalable: internally tagged, adjacently tagged, untagged and
    /// flattened, each event's tag first.
    Events,
    /// The same events, each event's tag last in its map.
    EventsTagLast,
    /// Many small rows (an id, two short strings, a few tags and an optional note each) in one
    /// large binary document: 200,000 rows at the default `--size`, postcard and bincode only.
    Rows,
}

/// Why [`StrategyId::SlabFreshViaSerde`] is measured on the city and the rows only.
pub const SKIPPED_VIA_SERDE: &str = "slab-fresh-via-serde is measured on the city (at both \
    sizes) and the rows: documents of many short strings and nested sequences, where a \
    format's own Deserializer and the entry point part ways (how strings and announced \
    lengths are read)";

impl DatasetId {
    /// Every dataset, in report order.
    pub const ALL: [Self; 8] = [
        Self::City,
        Self::Twitter,
        Self::CitmCatalog,
        Self::Canada,
        Self::Events,
        Self::EventsTagLast,
        Self::Rows,
        Self::CityLarge,
    ];

    /// The name in rows and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::City => city::City::NAME,
            Self::CityLarge => city::LARGE_NAME,
            Self::Twitter => twitter::Twitter::NAME,
            Self::CitmCatalog => citm::CitmCatalog::NAME,
            Self::Canada => canada::Canada::NAME,
            Self::Events => events::Events::NAME,
            Self::EventsTagLast => events::EventsTagLast::NAME,
            Self::Rows => rows::Rows::NAME,
        }
    }

    /// Why the dataset has no document in `format`, if it has none.
    #[must_use]
    pub const fn skipped_format(self, format: FormatId) -> Option<&'static str> {
        match (self, format) {
            (Self::Events | Self::EventsTagLast, FormatId::Postcard | FormatId::Bincode) => {
                Some(events::SKIPPED_FORMAT)
            }
            (Self::Rows, FormatId::Postcard | FormatId::Bincode) => None,
            (Self::Rows, _) => Some(rows::SKIPPED_FORMAT),
            _ => None,
        }
    }

    /// Why `strategy` is not measured on the dataset, if it is not.
    #[must_use]
    pub const fn skipped(self, strategy: StrategyId) -> Option<&'static str> {
        match (self, strategy) {
            (
                Self::Events | Self::EventsTagLast,
                StrategyId::MultitudeFresh | StrategyId::MultitudeReused,
            ) => Some(events::SKIPPED_MULTITUDE),
            (Self::CityLarge, _) if strategy.is_value() => Some(city::SKIPPED_LARGE_VALUES),
            (
                Self::Twitter
                | Self::CitmCatalog
                | Self::Canada
                | Self::Events
                | Self::EventsTagLast,
                StrategyId::SlabFreshViaSerde,
            ) => Some(SKIPPED_VIA_SERDE),
            _ => None,
        }
    }

    /// Whether the dataset is the large city, sized by `--large` rather than `--size`.
    #[must_use]
    pub const fn is_large(self) -> bool {
        matches!(self, Self::CityLarge)
    }

    /// The dataset called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }
}
