//! The dispatch from names to code: [`cell`] turns the names of a cell (its format, dataset and
//! [`StrategyId`]) into its [`Cell`], the strategy's code for that format and model.
//!
//! Only the cells the matrix has are compiled: the strategies that read JSON only with JSON
//! alone, the event streams with the formats that carry them, the rows with postcard and
//! bincode, multitude off the event streams.
//! Datasets of one model share its code (the city and the large city, the event streams with
//! the tag first and last), and the value table's strategies, which read no model, are compiled
//! once each.

use crate::cell::{Cell, Code};
use crate::datasets::{Dataset, DatasetId, canada, citm, city, events, rows, twitter};
use crate::format::{
    Bincode, Cbor, Format, FormatId, Json, JsonSerde, JsonSonic, MsgPack, Postcard,
};
use crate::strategy::{
    Borrowed, Fresh, InPlace, Multitude, Ours, Owned, Reused, Strategy, ViaSerde, ViaValue,
};
use crate::strategy_id::StrategyId;
use crate::value::{ArenaValueFresh, SerdeValue, SimdJsonValue, SonicValue, ValueStrategy};

/// The cell of `strategy` reading `dataset` in `format`.
///
/// # Errors
///
/// Why the matrix has no such cell: the strategy reads JSON only, the dataset has no document
/// in the format, or the strategy is not measured on the dataset.
pub fn cell(format: FormatId, dataset: DatasetId, strategy: StrategyId) -> Result<Cell, String> {
    if !strategy.reads(format) {
        return Err(format!(
            "{} reads {}, not {}",
            strategy.name(),
            strategy.reads_what(),
            format.name()
        ));
    }
    if let Some(why) = dataset.skipped_format(format) {
        return Err(format!(
            "no {} document of {}: {why}",
            format.name(),
            dataset.name()
        ));
    }
    if let Some(why) = dataset.skipped(strategy) {
        return Err(format!(
            "{} is not measured on {}: {why}",
            strategy.name(),
            dataset.name()
        ));
    }
    let code = if strategy.json_only() {
        json_only(dataset, strategy)
    } else if strategy == StrategyId::SlabFreshViaSerde {
        via_serde(format, dataset)
    } else {
        match format {
            FormatId::Postcard => binary::<Postcard>(dataset, strategy),
            FormatId::Bincode => binary::<Bincode>(dataset, strategy),
            FormatId::MsgPack => described::<MsgPack>(dataset, strategy),
            FormatId::Cbor => described::<Cbor>(dataset, strategy),
            FormatId::Json => described::<Json>(dataset, strategy),
            FormatId::JsonSerde => described::<JsonSerde>(dataset, strategy),
            FormatId::JsonSonic => described::<JsonSonic>(dataset, strategy),
        }
    }?;
    Ok(Cell {
        format,
        dataset,
        strategy,
        code,
    })
}

/// What a branch the checks of [`cell`] rule out returns: the cell has no code.
fn no_code(strategy: StrategyId) -> Result<Code, String> {
    Err(format!("{} has no code for this cell", strategy.name()))
}

/// A typed strategy's code for a format that carries the event streams (a self-describing
/// one).
fn described<F: Format + 'static>(
    dataset: DatasetId,
    strategy: StrategyId,
) -> Result<Code, String> {
    match dataset {
        // multitude is not measured on them (`DatasetId::skipped`).
        DatasetId::Events | DatasetId::EventsTagLast => {
            typed::<F, events::Events>(strategy, no_code)
        }
        _ => schema::<F>(dataset, strategy),
    }
}

/// A typed strategy's code for a format without field names (postcard, bincode): the rows'
/// code is compiled for these formats alone, the only ones they are written in
/// (`DatasetId::skipped_format`).
fn binary<F: Format + 'static>(dataset: DatasetId, strategy: StrategyId) -> Result<Code, String> {
    match dataset {
        DatasetId::Rows => typed::<F, rows::Rows>(strategy, multitude::<F, rows::Rows>),
        _ => schema::<F>(dataset, strategy),
    }
}

/// A typed strategy's code for a dataset other than the event streams, which formats without
/// field names do not carry, and the rows, which the self-describing formats are not asked to
/// (`DatasetId::skipped_format`).
fn schema<F: Format + 'static>(dataset: DatasetId, strategy: StrategyId) -> Result<Code, String> {
    match dataset {
        DatasetId::City | DatasetId::CityLarge => {
            typed::<F, city::City>(strategy, multitude::<F, city::City>)
        }
        DatasetId::Twitter => {
            typed::<F, twitter::Twitter>(strategy, multitude::<F, twitter::Twitter>)
        }
        DatasetId::CitmCatalog => {
            typed::<F, citm::CitmCatalog>(strategy, multitude::<F, citm::CitmCatalog>)
        }
        DatasetId::Canada => typed::<F, canada::Canada>(strategy, multitude::<F, canada::Canada>),
        // The event streams are in the self-describing formats only ([`described`]), the rows
        // in the binary ones only ([`binary`]).
        DatasetId::Events | DatasetId::EventsTagLast | DatasetId::Rows => no_code(strategy),
    }
}

/// The code of a strategy that reads every format, on format `F` and the model of `D`; the
/// multitude strategies' code comes from `multitude` (where they are measured).
fn typed<F: Format + 'static, D: Dataset + 'static>(
    strategy: StrategyId,
    multitude: fn(StrategyId) -> Result<Code, String>,
) -> Result<Code, String> {
    Ok(match strategy {
        // The same code for both allocators: the binary running it decides.
        StrategyId::OwnedSystem | StrategyId::OwnedMimalloc => Code::of::<F, D, Owned>(),
        StrategyId::InPlaceSystem | StrategyId::InPlaceMimalloc => Code::of::<F, D, InPlace>(),
        StrategyId::Borrowed => Code::of::<F, D, Borrowed>(),
        StrategyId::BumpaloFresh => Code::of::<F, D, Fresh<Ours<bumpalo::Bump>>>(),
        StrategyId::BumpaloReused => Code::of::<F, D, Reused<Ours<bumpalo::Bump>>>(),
        StrategyId::BumpScopeFresh => Code::of::<F, D, Fresh<Ours<bump_scope::Bump>>>(),
        StrategyId::BumpScopeReused => Code::of::<F, D, Reused<Ours<bump_scope::Bump>>>(),
        StrategyId::SlabFresh => Code::of::<F, D, Fresh<Ours<arena_core::SlabArena>>>(),
        StrategyId::SlabReused => Code::of::<F, D, Reused<Ours<arena_core::SlabArena>>>(),
        StrategyId::MultitudeFresh | StrategyId::MultitudeReused => return multitude(strategy),
        _ => return no_code(strategy),
    })
}

/// The multitude strategies' code on format `F` and the model of `D`.
fn multitude<F: Format + 'static, D: Dataset + 'static>(
    strategy: StrategyId,
) -> Result<Code, String> {
    match strategy {
        StrategyId::MultitudeFresh => Ok(Code::of::<F, D, Fresh<Multitude>>()),
        StrategyId::MultitudeReused => Ok(Code::of::<F, D, Reused<Multitude>>()),
        _ => no_code(strategy),
    }
}

/// `slab-fresh-via-serde`'s code: compiled for the formats it reads
/// ([`StrategyId::reads`]) and the datasets it is measured on (`DatasetId::skipped`), the
/// city and the rows (in postcard and bincode, the formats they are written in).
fn via_serde(format: FormatId, dataset: DatasetId) -> Result<Code, String> {
    fn of<F: Format + 'static, D: Dataset + 'static>() -> Code {
        Code::of::<F, D, Fresh<Ours<arena_core::SlabArena, ViaSerde>>>()
    }
    fn city_or_rows<F: Format + 'static>(dataset: DatasetId) -> Result<Code, String> {
        match dataset {
            DatasetId::City | DatasetId::CityLarge => Ok(of::<F, city::City>()),
            DatasetId::Rows => Ok(of::<F, rows::Rows>()),
            _ => no_code(StrategyId::SlabFreshViaSerde),
        }
    }
    fn city_only<F: Format + 'static>(dataset: DatasetId) -> Result<Code, String> {
        match dataset {
            DatasetId::City | DatasetId::CityLarge => Ok(of::<F, city::City>()),
            _ => no_code(StrategyId::SlabFreshViaSerde),
        }
    }
    match format {
        FormatId::Postcard => city_or_rows::<Postcard>(dataset),
        FormatId::Bincode => city_or_rows::<Bincode>(dataset),
        FormatId::MsgPack => city_only::<MsgPack>(dataset),
        FormatId::Cbor => city_only::<Cbor>(dataset),
        FormatId::Json | FormatId::JsonSerde | FormatId::JsonSonic => {
            no_code(StrategyId::SlabFreshViaSerde)
        }
    }
}

/// The code of a strategy that reads JSON only ([`StrategyId::json_only`]).
fn json_only(dataset: DatasetId, strategy: StrategyId) -> Result<Code, String> {
    /// `slab-fresh-via-value` on the model of `D`.
    fn via_value<D: Dataset + 'static>() -> Code {
        Code::of::<Json, D, Fresh<Ours<arena_core::SlabArena, ViaValue>>>()
    }
    /// A value table's strategy: a dynamic value reads no model, and the city's types stand
    /// in for every dataset's.
    fn value<S>() -> Code
    where
        S: Strategy<city::City, State = ()> + 'static,
    {
        Code::of::<Json, city::City, S>()
    }
    Ok(match strategy {
        StrategyId::SlabFreshViaValue => match dataset {
            DatasetId::City | DatasetId::CityLarge => via_value::<city::City>(),
            DatasetId::Twitter => via_value::<twitter::Twitter>(),
            DatasetId::CitmCatalog => via_value::<citm::CitmCatalog>(),
            DatasetId::Canada => via_value::<canada::Canada>(),
            DatasetId::Events | DatasetId::EventsTagLast => via_value::<events::Events>(),
            // No JSON document (`DatasetId::skipped_format`).
            DatasetId::Rows => return no_code(strategy),
        },
        StrategyId::ValueSerdeSystem | StrategyId::ValueSerdeMimalloc => {
            value::<ValueStrategy<SerdeValue>>()
        }
        StrategyId::ValueSlabFresh => {
            value::<ValueStrategy<ArenaValueFresh<arena_core::SlabArena>>>()
        }
        StrategyId::ValueBumpaloFresh => value::<ValueStrategy<ArenaValueFresh<bumpalo::Bump>>>(),
        StrategyId::ValueSimdJson => value::<ValueStrategy<SimdJsonValue>>(),
        StrategyId::ValueSonicRs => value::<ValueStrategy<SonicValue>>(),
        _ => return no_code(strategy),
    })
}
