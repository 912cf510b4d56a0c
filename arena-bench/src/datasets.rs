//! The datasets: a synthetic city of any size, and the json-benchmark corpus.
//!
//! Each dataset is a data model written once with [`model!`](crate::model!) and a source of
//! documents: [`city`] generates them, the others read `arena-bench/data/*.json`.

pub mod canada;
pub mod citm;
pub mod city;
pub mod twitter;

use crate::model::{Digest, LiveSize};

/// Lets [`Dataset::Multi`] name multitude's default allocator.
pub type MultiAlloc = allocator_api2_04::alloc::Global;

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
    /// json-benchmark's `twitter.json`: string-heavy, many optional fields, nested statuses.
    Twitter,
    /// json-benchmark's `citm_catalog.json`: maps keyed by ids, many small integers.
    CitmCatalog,
    /// json-benchmark's `canada.json`: one polygon, almost only floats.
    Canada,
}

impl DatasetId {
    /// Every dataset, in report order.
    pub const ALL: [Self; 4] = [Self::City, Self::Twitter, Self::CitmCatalog, Self::Canada];

    /// The name in rows and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::City => city::City::NAME,
            Self::Twitter => twitter::Twitter::NAME,
            Self::CitmCatalog => citm::CitmCatalog::NAME,
            Self::Canada => canada::Canada::NAME,
        }
    }

    /// The dataset called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }
}
