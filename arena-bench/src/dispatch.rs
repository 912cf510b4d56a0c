//! The strategies by name and the dispatch from names to types: [`StrategyId`] names a
//! strategy (and the [`GlobalAllocator`] it runs under), [`dispatch`] turns the names of a cell
//! into its format, dataset and strategy types for a [`CellVisitor`], and [`measure_cell`]
//! reaches the generic [`measure`] that way.

use crate::datasets::{Dataset, DatasetId, canada, citm, city, events, twitter};
use crate::format::{Bincode, Format, FormatId, Json, JsonSonic, MsgPack, Postcard};
use crate::measure::{Plan, Row, measure};
use crate::strategy::{
    ArenaFresh, ArenaReused, Borrowed, InPlace, MultitudeFresh, MultitudeReused, Owned, Strategy,
    ViaValue,
};
use crate::value::{ArenaValueFresh, SerdeValue, SimdJsonValue, SonicValue, ValueStrategy};

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
    /// 5. `#[derive(ArenaDeserialize)]` into a fresh `bumpalo::Bump` per document.
    BumpaloFresh,
    /// 5. `#[derive(ArenaDeserialize)]` into one `bumpalo::Bump`, reset between documents.
    BumpaloReused,
    /// 5. `#[derive(ArenaDeserialize)]` into a fresh `bump_scope::Bump` per document.
    BumpScopeFresh,
    /// 5. `#[derive(ArenaDeserialize)]` into one `bump_scope::Bump`, reset between documents.
    BumpScopeReused,
    /// 5. `#[derive(ArenaDeserialize)]` into a fresh `SlabArena` per document (global pool).
    SlabFresh,
    /// 5. `#[derive(ArenaDeserialize)]` into one `SlabArena`, reset between documents.
    SlabReused,
    /// 5. JSON only: an `arena_core::Value` parsed into a fresh `SlabArena` per document,
    ///    replayed into the `#[derive(ArenaDeserialize)]` model in the same arena.
    SlabFreshViaValue,
    /// 6. multitude, a fresh arena per document.
    MultitudeFresh,
    /// 6. multitude, one arena reset between documents.
    MultitudeReused,
    /// Value table: `serde_json::Value`, system allocator: the baseline of the value table.
    ValueSerdeSystem,
    /// Value table: `serde_json::Value`, mimalloc.
    ValueSerdeMimalloc,
    /// Value table: `arena_core::Value` in a fresh `SlabArena` per document.
    ValueSlabFresh,
    /// Value table: `arena_core::Value` in a fresh `bumpalo::Bump` per document.
    ValueBumpaloFresh,
    /// Value table: simd-json's borrowed value, from a copy of the input.
    ValueSimdJson,
    /// Value table: sonic-rs's `Value`.
    ValueSonicRs,
}

impl StrategyId {
    /// Every strategy, in report order: the typed matrix, then the value table.
    pub const ALL: [Self; 20] = [
        Self::OwnedSystem,
        Self::OwnedMimalloc,
        Self::InPlaceSystem,
        Self::InPlaceMimalloc,
        Self::Borrowed,
        Self::BumpaloFresh,
        Self::BumpaloReused,
        Self::BumpScopeFresh,
        Self::BumpScopeReused,
        Self::SlabFresh,
        Self::SlabReused,
        Self::SlabFreshViaValue,
        Self::MultitudeFresh,
        Self::MultitudeReused,
        Self::ValueSerdeSystem,
        Self::ValueSerdeMimalloc,
        Self::ValueSlabFresh,
        Self::ValueBumpaloFresh,
        Self::ValueSimdJson,
        Self::ValueSonicRs,
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
            Self::BumpaloFresh => "bumpalo-fresh",
            Self::BumpaloReused => "bumpalo-reused",
            Self::BumpScopeFresh => "bump-scope-fresh",
            Self::BumpScopeReused => "bump-scope-reused",
            Self::SlabFresh => "slab-fresh",
            Self::SlabReused => "slab-reused",
            Self::SlabFreshViaValue => "slab-fresh-via-value",
            Self::MultitudeFresh => "multitude-fresh",
            Self::MultitudeReused => "multitude-reused",
            Self::ValueSerdeSystem => "value-serde-system",
            Self::ValueSerdeMimalloc => "value-serde-mimalloc",
            Self::ValueSlabFresh => "value-slab-fresh",
            Self::ValueBumpaloFresh => "value-bumpalo-fresh",
            Self::ValueSimdJson => "value-simd-json",
            Self::ValueSonicRs => "value-sonic-rs",
        }
    }

    /// Whether the strategy is one of the value table's: a dynamic value, of JSON only.
    #[must_use]
    pub const fn is_value(self) -> bool {
        matches!(
            self,
            Self::ValueSerdeSystem
                | Self::ValueSerdeMimalloc
                | Self::ValueSlabFresh
                | Self::ValueBumpaloFresh
                | Self::ValueSimdJson
                | Self::ValueSonicRs
        )
    }

    /// Whether the strategy is one of this toolkit's own arenas (bumpalo, bump-scope or
    /// `SlabArena`, fresh or reused, through the derive): the product, which the verdicts
    /// measure `slab-fresh` against only as context, not as competition.
    #[must_use]
    pub const fn is_ours(self) -> bool {
        matches!(
            self,
            Self::BumpaloFresh
                | Self::BumpaloReused
                | Self::BumpScopeFresh
                | Self::BumpScopeReused
                | Self::SlabFresh
                | Self::SlabReused
                | Self::SlabFreshViaValue
        )
    }

    /// Whether the strategy reads JSON only: the value table's, and the typed strategy that
    /// parses a `Value` first.
    #[must_use]
    pub const fn json_only(self) -> bool {
        self.is_value() || matches!(self, Self::SlabFreshViaValue)
    }

    /// Whether the strategy reads documents in `format` (see [`Self::json_only`]).
    #[must_use]
    pub fn reads(self, format: FormatId) -> bool {
        !self.json_only() || format == FormatId::Json
    }

    /// The strategy whose time every speedup of this one is against: owned types for the typed
    /// matrix, `serde_json::Value` for the value table, both under the system allocator.
    #[must_use]
    pub const fn baseline(self) -> Self {
        if self.is_value() {
            Self::ValueSerdeSystem
        } else {
            Self::OwnedSystem
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
            Self::OwnedMimalloc | Self::InPlaceMimalloc | Self::ValueSerdeMimalloc => {
                GlobalAllocator::Mimalloc
            }
            _ => GlobalAllocator::System,
        }
    }
}

/// Something done with one cell's types: what [`dispatch`] calls once it has turned the names
/// into a format `F`, a dataset `D` and a strategy `S`.
pub trait CellVisitor {
    /// What it returns.
    type Output;

    /// Does it with the cell's types.
    fn visit<F: Format, D: Dataset, S: Strategy<D>>(self, strategy: StrategyId) -> Self::Output;
}

/// Calls `visitor` with the types named by `format`, `dataset` and `strategy`.
pub fn dispatch<V: CellVisitor>(
    format: FormatId,
    dataset: DatasetId,
    strategy: StrategyId,
    visitor: V,
) -> V::Output {
    match format {
        FormatId::Postcard => with_dataset::<Postcard, V>(dataset, strategy, visitor),
        FormatId::Bincode => with_dataset::<Bincode, V>(dataset, strategy, visitor),
        FormatId::MsgPack => with_dataset::<MsgPack, V>(dataset, strategy, visitor),
        FormatId::Json => with_dataset::<Json, V>(dataset, strategy, visitor),
        FormatId::JsonSonic => with_dataset::<JsonSonic, V>(dataset, strategy, visitor),
    }
}

fn with_dataset<F: Format, V: CellVisitor>(
    dataset: DatasetId,
    strategy: StrategyId,
    visitor: V,
) -> V::Output {
    match dataset {
        DatasetId::City | DatasetId::CityLarge => {
            with_strategy::<F, city::City, V>(strategy, visitor)
        }
        DatasetId::Twitter => with_strategy::<F, twitter::Twitter, V>(strategy, visitor),
        DatasetId::CitmCatalog => with_strategy::<F, citm::CitmCatalog, V>(strategy, visitor),
        DatasetId::Canada => with_strategy::<F, canada::Canada, V>(strategy, visitor),
        DatasetId::Events => with_strategy::<F, events::Events, V>(strategy, visitor),
        DatasetId::EventsTagLast => with_strategy::<F, events::EventsTagLast, V>(strategy, visitor),
    }
}

fn with_strategy<F: Format, D: Dataset, V: CellVisitor>(
    strategy: StrategyId,
    visitor: V,
) -> V::Output {
    match strategy {
        // The same code for both allocators: the binary running it decides.
        StrategyId::OwnedSystem | StrategyId::OwnedMimalloc => {
            visitor.visit::<F, D, Owned>(strategy)
        }
        StrategyId::InPlaceSystem | StrategyId::InPlaceMimalloc => {
            visitor.visit::<F, D, InPlace>(strategy)
        }
        StrategyId::Borrowed => visitor.visit::<F, D, Borrowed>(strategy),
        StrategyId::BumpaloFresh => visitor.visit::<F, D, ArenaFresh<bumpalo::Bump>>(strategy),
        StrategyId::BumpaloReused => visitor.visit::<F, D, ArenaReused<bumpalo::Bump>>(strategy),
        StrategyId::BumpScopeFresh => visitor.visit::<F, D, ArenaFresh<bump_scope::Bump>>(strategy),
        StrategyId::BumpScopeReused => {
            visitor.visit::<F, D, ArenaReused<bump_scope::Bump>>(strategy)
        }
        StrategyId::SlabFresh => visitor.visit::<F, D, ArenaFresh<arena_core::SlabArena>>(strategy),
        StrategyId::SlabReused => {
            visitor.visit::<F, D, ArenaReused<arena_core::SlabArena>>(strategy)
        }
        StrategyId::SlabFreshViaValue => {
            visitor.visit::<F, D, ArenaFresh<arena_core::SlabArena, ViaValue>>(strategy)
        }
        StrategyId::MultitudeFresh => visitor.visit::<F, D, MultitudeFresh>(strategy),
        StrategyId::MultitudeReused => visitor.visit::<F, D, MultitudeReused>(strategy),
        StrategyId::ValueSerdeSystem | StrategyId::ValueSerdeMimalloc => {
            visitor.visit::<F, D, ValueStrategy<SerdeValue>>(strategy)
        }
        StrategyId::ValueSlabFresh => {
            visitor.visit::<F, D, ValueStrategy<ArenaValueFresh<arena_core::SlabArena>>>(strategy)
        }
        StrategyId::ValueBumpaloFresh => {
            visitor.visit::<F, D, ValueStrategy<ArenaValueFresh<bumpalo::Bump>>>(strategy)
        }
        StrategyId::ValueSimdJson => visitor.visit::<F, D, ValueStrategy<SimdJsonValue>>(strategy),
        StrategyId::ValueSonicRs => visitor.visit::<F, D, ValueStrategy<SonicValue>>(strategy),
    }
}

/// Measures one cell with [`measure`].
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
    struct Measure<'a>(&'a [u8], &'a Plan);
    impl CellVisitor for Measure<'_> {
        type Output = Result<Row, String>;
        fn visit<F: Format, D: Dataset, S: Strategy<D>>(
            self,
            strategy: StrategyId,
        ) -> Self::Output {
            let mut row = measure::<F, D, S>(self.0, self.1)?;
            strategy.name().clone_into(&mut row.strategy);
            Ok(row)
        }
    }
    let mut row = dispatch(format, dataset, strategy, Measure(input, plan))?;
    // Two datasets share the city's model: the row names the one measured.
    dataset.name().clone_into(&mut row.dataset);
    Ok(row)
}
