//! `--sizes`: the size sweep, run size by size: the city's documents at one size are written,
//! every cell (format × strategy) is measured in its own child process over the size's rounds,
//! and the files are removed before the next size, so that a run of several hundred MB holds
//! one size's documents on disk at a time.

use std::io::Write as _;
use std::path::Path;
use std::time::Instant;

use super::Options;
use super::documents::ValueDigest;
use super::parent::{
    ChildPlan, binary_for, failed_row, median_round, prepare, run_child, run_meta, write_file,
};
use crate::datasets::DatasetId;
use crate::measure::Row;
use crate::strategy_id::GlobalAllocator;
use crate::sweep::{SizeRow, SweepReport, markdown, size_name};

/// Runs the sweep at `sizes` (increasing), prints it and writes `out/sizes.{md,json}` (and
/// `--json`, `--results`).
pub(super) fn sweep(
    o: &Options,
    args: &[String],
    sizes: &[u64],
    out: &Path,
    data: &Path,
    started: Instant,
    date_utc: String,
) -> Result<(), String> {
    let mut binaries = Vec::new();
    for allocator in [GlobalAllocator::System, GlobalAllocator::Mimalloc] {
        if o.strategies.iter().any(|s| s.allocator() == allocator) {
            binaries.push((allocator, binary_for(allocator)?));
        }
    }
    let mut rows = Vec::new();
    for &size in sizes {
        let name = size_name(size);
        eprint!("\r\x1b[2Ksizes: preparing the city at {name}...");
        let stem = format!("city-sweep-{size}");
        let city = DatasetId::City;
        let p = prepare(city, size, &o.formats, ValueDigest::Skipped, data, &stem)?;
        let rounds = o.rounds;
        let plan = ChildPlan {
            budget_ms: (o.budget_ms / u64::from(rounds)).max(1),
            min_runs: super::min_runs(size),
            threads: o.threads,
        };
        let cells: Vec<_> = o
            .formats
            .iter()
            .filter_map(|&format| {
                let path = &p.files.iter().find(|(f, _)| *f == format)?.1;
                Some((format, path))
            })
            .flat_map(|(format, path)| {
                o.strategies
                    .iter()
                    .filter(move |s| s.reads(format))
                    .map(move |&strategy| (format, strategy, path))
            })
            .collect();
        let mut measured: Vec<Vec<Row>> = vec![Vec::new(); cells.len()];
        for round in 1..=rounds {
            for (cell, &(format, strategy, path)) in cells.iter().enumerate() {
                eprint!(
                    "\r\x1b[2Ksizes: {name}, round {round}/{rounds}: {}/{}",
                    format.name(),
                    strategy.name()
                );
                let _ = std::io::stderr().flush();
                let input = std::fs::metadata(path).map_or(0, |m| m.len());
                let binary = binaries
                    .iter()
                    .find(|(a, _)| *a == strategy.allocator())
                    .map(|(_, b)| b)
                    .ok_or_else(|| "no binary".to_owned());
                let row = binary
                    .and_then(|binary| run_child(binary, format, &p, strategy, path, plan))
                    .unwrap_or_else(|why| failed_row(format, city, strategy, input, why));
                measured[cell].push(row);
            }
        }
        rows.extend(measured.into_iter().map(|r| SizeRow {
            size,
            rounds,
            row: median_round(r),
        }));
        for (_, path) in &p.files {
            let _ = std::fs::remove_file(path);
        }
    }
    eprintln!(
        "\r\x1b[2Ksizes: {} cells measured in {:.0} s",
        rows.len(),
        started.elapsed().as_secs_f64()
    );
    let meta = run_meta(o, args, date_utc, started);
    let report = SweepReport::new(meta, sizes.to_vec(), rows);
    let md = markdown(&report);
    println!("{md}");
    let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
    write_file(
        &out.join("sizes.md"),
        format!("# arena-bench sizes\n\n{md}"),
    )?;
    write_file(&out.join("sizes.json"), &json)?;
    if let Some(path) = &o.json {
        write_file(path, &json)?;
    }
    if let Some(path) = &o.results {
        write_file(path, crate::results::sweep_markdown(&report))?;
        eprintln!("results: {}", path.display());
    }
    eprintln!("reports: {}/sizes.{{md,json}}", out.display());
    Ok(())
}
