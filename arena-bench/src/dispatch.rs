//! The dispatch from names to types: [`dispatch`] turns the names of a cell (its
//! [`StrategyId`] among them) into its format, dataset and strategy types for a
//! [`CellVisitor`], and [`measure_cell`] reaches the generic [`measure`] that way.

use crate::datasets::{Dataset, DatasetId, canada, citm, city, events, twitter};
use crate::format::{
    Bincode, Cbor, Format, FormatId, Json, JsonSerde, JsonSonic, MsgPack, Postcard,
};
use crate::measure::{Plan, Row, measure};
use crate::strategy::{
    Borrowed, Fresh, InPlace, Multitude, Ours, Owned, Reused, Strategy, ViaValue,
};
use crate::strategy_id::StrategyId;
use crate::value::{ArenaValueFresh, SerdeValue, SimdJsonValue, SonicValue, ValueStrategy};

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
        FormatId::Cbor => with_dataset::<Cbor, V>(dataset, strategy, visitor),
        FormatId::Json => with_dataset::<Json, V>(dataset, strategy, visitor),
        FormatId::JsonSerde => with_dataset::<JsonSerde, V>(dataset, strategy, visitor),
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
        StrategyId::BumpaloFresh => visitor.visit::<F, D, Fresh<Ours<bumpalo::Bump>>>(strategy),
        StrategyId::BumpaloReused => visitor.visit::<F, D, Reused<Ours<bumpalo::Bump>>>(strategy),
        StrategyId::BumpScopeFresh => {
            visitor.visit::<F, D, Fresh<Ours<bump_scope::Bump>>>(strategy)
        }
        StrategyId::BumpScopeReused => {
            visitor.visit::<F, D, Reused<Ours<bump_scope::Bump>>>(strategy)
        }
        StrategyId::SlabFresh => {
            visitor.visit::<F, D, Fresh<Ours<arena_core::SlabArena>>>(strategy)
        }
        StrategyId::SlabReused => {
            visitor.visit::<F, D, Reused<Ours<arena_core::SlabArena>>>(strategy)
        }
        StrategyId::SlabFreshViaValue => {
            visitor.visit::<F, D, Fresh<Ours<arena_core::SlabArena, ViaValue>>>(strategy)
        }
        StrategyId::MultitudeFresh => visitor.visit::<F, D, Fresh<Multitude>>(strategy),
        StrategyId::MultitudeReused => visitor.visit::<F, D, Reused<Multitude>>(strategy),
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
