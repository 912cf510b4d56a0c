//! The child: measures one cell in this process and prints its row.

use std::time::Duration;

use crate::datasets::DatasetId;
use crate::dispatch::cell;
use crate::format::FormatId;
use crate::measure::{Plan, Row, measure};
use crate::strategy_id::{GlobalAllocator, StrategyId};

/// Fewest timed documents per cell: fewer makes the median and spread meaningless.
pub const MIN_RUNS: u32 = 5;

/// Most timed documents per cell: tiny documents would otherwise run thousands of times for
/// no better median.
pub const MAX_RUNS: u32 = 201;

/// Fewest timed documents per cell of a large document (a city of [`LARGE_DOCUMENT_BYTES`] or
/// more): each such document takes 50 ms to several seconds, and a cell also reads five untimed
/// ones (the check, two to warm, the count, the warm arena's figures), so five timed ones per
/// round would more than double the default run for the large city's cells alone. Three per
/// round, in every round, still give each cell's median a round's middle document.
pub const LARGE_MIN_RUNS: u32 = 3;

/// A city of this many postcard bytes or more is a large document ([`LARGE_MIN_RUNS`]): 10 MB,
/// five times the default documents, so that the default run's 2 MB cells keep [`MIN_RUNS`]
/// and the large city's 20 MB cells get [`LARGE_MIN_RUNS`].
pub const LARGE_DOCUMENT_BYTES: u64 = 10_000_000;

/// The fewest timed documents per cell for documents of a city of `postcard_bytes`.
#[must_use]
pub const fn min_runs(postcard_bytes: u64) -> u32 {
    if postcard_bytes >= LARGE_DOCUMENT_BYTES {
        LARGE_MIN_RUNS
    } else {
        MIN_RUNS
    }
}

/// The child: `--child FORMAT DATASET STRATEGY INPUT DIGEST BUDGET_MS MIN_RUNS THREADS`;
/// prints one JSON row, with `error` set when the cell could not be measured.
pub(super) fn child(allocator: GlobalAllocator, args: &[String]) -> i32 {
    let (row, code) = match child_row(allocator, args) {
        Ok(row) => (row, 0),
        Err(why) => {
            let row = Row {
                format: args.first().cloned().unwrap_or_default(),
                dataset: args.get(1).cloned().unwrap_or_default(),
                strategy: args.get(2).cloned().unwrap_or_default(),
                input_bytes: args
                    .get(3)
                    .and_then(|p| std::fs::metadata(p).ok())
                    .map_or(0, |m| m.len()),
                error: Some(why),
                ..Row::default()
            };
            (row, 1)
        }
    };
    println!("{}", serde_json::to_string(&row).unwrap_or_default());
    code
}

fn child_row(allocator: GlobalAllocator, args: &[String]) -> Result<Row, String> {
    let [
        format,
        dataset,
        strategy,
        input,
        digest,
        budget_ms,
        min_runs,
        threads,
    ] = args
    else {
        return Err(
            "usage: --child FORMAT DATASET STRATEGY INPUT DIGEST BUDGET_MS MIN_RUNS THREADS"
                .to_owned(),
        );
    };
    let format = FormatId::from_name(format).ok_or("unknown format")?;
    let dataset = DatasetId::from_name(dataset).ok_or("unknown dataset")?;
    let strategy = StrategyId::from_name(strategy).ok_or("unknown strategy")?;
    let cell = cell(format, dataset, strategy)?;
    if strategy.allocator() != allocator {
        return Err(format!(
            "{} needs the {} allocator, this binary has {}",
            strategy.name(),
            strategy.allocator().name(),
            allocator.name()
        ));
    }
    let bytes = std::fs::read(input).map_err(|e| format!("reading {input}: {e}"))?;
    let plan = Plan {
        budget: Duration::from_millis(budget_ms.parse().map_err(|_| "bad budget")?),
        min_runs: min_runs
            .parse::<u32>()
            .map_err(|_| "bad minimum of runs")?
            .clamp(1, MAX_RUNS),
        max_runs: MAX_RUNS,
        threads: threads.parse().map_err(|_| "bad thread count")?,
        expect_digest: u64::from_str_radix(digest, 16).map_err(|_| "bad digest")?,
    };
    measure(&cell, &bytes, &plan)
}
