//! The strategies by name, and the dispatch from names to the generic [`measure`].

use crate::datasets::{Dataset, DatasetId, canada, citm, city, twitter};
use crate::format::{Bincode, Format, FormatId, Json, MsgPack, Postcard};
use crate::measure::{Plan, Row, measure};
use crate::strategy::{Borrowed, InPlace, MultitudeFresh, MultitudeReused, Owned};

/// Which global allocator a binary has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalAllocator {
    /// `std::alloc::System` (glibc malloc on Linux).
    System,
    /// mimalloc.
    Mimalloc,
}

impl GlobalAllocator {
    /// The name used in strategy names.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::System => "system",
            Self::Mimalloc => "mimalloc",
        }
    }
}

/// One strategy as the command line and the report name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrategyId {
    /// 1. owned types, system allocator: the baseline every speedup is against.
    OwnedSystem,
    /// 2. owned types, mimalloc.
    OwnedMimalloc,
    /// 3. `deserialize_in_place` into a reused value, system allocator.
    InPlaceSystem,
    /// 3. `deserialize_in_place` into a reused value, mimalloc.
    InPlaceMimalloc,
    /// 4. strings borrowed from the input.
    Borrowed,
    /// 6. multitude, a fresh arena per document.
    MultitudeFresh,
    /// 6. multitude, one arena reset between documents.
    MultitudeReused,
}

impl StrategyId {
    /// Every strategy, in report order.
    pub const ALL: [Self; 7] = [
        Self::OwnedSystem,
        Self::OwnedMimalloc,
        Self::InPlaceSystem,
        Self::InPlaceMimalloc,
        Self::Borrowed,
        Self::MultitudeFresh,
        Self::MultitudeReused,
    ];

    /// The name in rows and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::OwnedSystem => "owned-system",
            Self::OwnedMimalloc => "owned-mimalloc",
            Self::InPlaceSystem => "in-place-system",
            Self::InPlaceMimalloc => "in-place-mimalloc",
            Self::Borrowed => "borrowed",
            Self::MultitudeFresh => "multitude-fresh",
            Self::MultitudeReused => "multitude-reused",
        }
    }

    /// The strategy called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The global allocator the strategy runs under (and so which binary runs it).
    #[must_use]
    pub const fn allocator(self) -> GlobalAllocator {
        match self {
            Self::OwnedMimalloc | Self::InPlaceMimalloc => GlobalAllocator::Mimalloc,
            _ => GlobalAllocator::System,
        }
    }
}

/// Measures one cell: dispatches the names to [`measure`]`::<F, D, S>`.
///
/// # Errors
///
/// See [`measure`].
pub fn measure_cell(
    format: FormatId,
    dataset: DatasetId,
    strategy: StrategyId,
    input: &[u8],
    plan: &Plan,
) -> Result<Row, String> {
    match format {
        FormatId::Postcard => with_dataset::<Postcard>(dataset, strategy, input, plan),
        FormatId::Bincode => with_dataset::<Bincode>(dataset, strategy, input, plan),
        FormatId::MsgPack => with_dataset::<MsgPack>(dataset, strategy, input, plan),
        FormatId::Json => with_dataset::<Json>(dataset, strategy, input, plan),
    }
}

fn with_dataset<F: Format>(
    dataset: DatasetId,
    strategy: StrategyId,
    input: &[u8],
    plan: &Plan,
) -> Result<Row, String> {
    match dataset {
        DatasetId::City => with_strategy::<F, city::City>(strategy, input, plan),
        DatasetId::Twitter => with_strategy::<F, twitter::Twitter>(strategy, input, plan),
        DatasetId::CitmCatalog => with_strategy::<F, citm::CitmCatalog>(strategy, input, plan),
        DatasetId::Canada => with_strategy::<F, canada::Canada>(strategy, input, plan),
    }
}

fn with_strategy<F: Format, D: Dataset>(
    strategy: StrategyId,
    input: &[u8],
    plan: &Plan,
) -> Result<Row, String> {
    let mut row = match strategy {
        // The same code for both allocators: the binary running it decides.
        StrategyId::OwnedSystem | StrategyId::OwnedMimalloc => measure::<F, D, Owned>(input, plan),
        StrategyId::InPlaceSystem | StrategyId::InPlaceMimalloc => {
            measure::<F, D, InPlace>(input, plan)
        }
        StrategyId::Borrowed => measure::<F, D, Borrowed>(input, plan),
        StrategyId::MultitudeFresh => measure::<F, D, MultitudeFresh>(input, plan),
        StrategyId::MultitudeReused => measure::<F, D, MultitudeReused>(input, plan),
    }?;
    strategy.name().clone_into(&mut row.strategy);
    Ok(row)
}
