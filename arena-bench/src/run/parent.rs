//! The parent: writes the documents to files, starts one child per cell and round in the
//! binary with the strategy's global allocator, reports each cell's median round, runs the
//! slab arena's figures and writes the reports.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use super::Options;
use super::documents::{Documents, ValueDigest, documents_for};
use crate::datasets::{DatasetId, city};
use crate::figures::Figures;
use crate::format::FormatId;
use crate::measure::Row;
use crate::provenance;
use crate::report::{Meta, Report};
use crate::strategy_id::{GlobalAllocator, StrategyId};

/// Where `target/` is: the binary lives in `target/<profile>/`.
fn default_out_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("arena-bench")))
        .unwrap_or_else(|| PathBuf::from("target/arena-bench"))
}

/// A dataset's documents written to files for the children.
pub(super) struct Prepared {
    pub(super) dataset: DatasetId,
    /// The size the synthetic documents were generated at (`--size`, `--large`, or a size of
    /// the sweep); unused by the corpus.
    pub(super) size: u64,
    /// The documents, their bytes left out.
    pub(super) digests: Documents,
    pub(super) files: Vec<(FormatId, PathBuf)>,
}

/// Writes `dataset`'s documents at `size` in `formats` to files in `dir`, named by `stem`.
pub(super) fn prepare(
    dataset: DatasetId,
    size: u64,
    formats: &[FormatId],
    value: ValueDigest,
    dir: &Path,
    stem: &str,
) -> Result<Prepared, String> {
    let mut docs = documents_for(dataset, size, formats, value)?;
    let mut files = Vec::new();
    for (format, bytes) in std::mem::take(&mut docs.bytes) {
        let path = dir.join(format!("{stem}.{}", format.name()));
        write_file(&path, &bytes)?;
        files.push((format, path));
    }
    Ok(Prepared {
        dataset,
        size,
        digests: docs,
        files,
    })
}

/// Whether the run measures a strategy of the value table on `dataset`: only then do its
/// documents need the value table's digest.
fn value_digest(o: &Options, dataset: DatasetId) -> ValueDigest {
    if o.strategies
        .iter()
        .any(|&s| s.is_value() && dataset.skipped(s).is_none())
    {
        ValueDigest::Computed
    } else {
        ValueDigest::Skipped
    }
}

/// The binary that runs strategies under `allocator`.
pub(super) fn binary_for(allocator: GlobalAllocator) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let name = match allocator {
        GlobalAllocator::System => "arena-bench",
        GlobalAllocator::Mimalloc => "arena-bench-mimalloc",
    };
    let path = exe.with_file_name(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if path.exists() {
        return Ok(path);
    }
    // `cargo run` builds only the binary it runs: build the sibling with the same profile, the
    // one its directory is named after (`dev` builds into `debug`).
    let profile = exe
        .parent()
        .and_then(Path::file_name)
        .and_then(|p| p.to_str())
        .map_or("dev", |p| if p == "debug" { "dev" } else { p });
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build.args([
        "build",
        "-p",
        "arena-bench",
        "--bin",
        name,
        "--profile",
        profile,
    ]);
    eprintln!("arena-bench: building {name} (the mimalloc strategies run in it)...");
    let ok = build.status().is_ok_and(|s| s.success());
    if ok && path.exists() {
        Ok(path)
    } else {
        Err(format!(
            "{name} is not built: run `cargo build --release -p arena-bench --bins`"
        ))
    }
}

pub(super) fn failed_row(
    format: FormatId,
    dataset: DatasetId,
    strategy: StrategyId,
    input: u64,
    why: String,
) -> Row {
    Row {
        format: format.name().to_owned(),
        dataset: dataset.name().to_owned(),
        strategy: strategy.name().to_owned(),
        input_bytes: input,
        error: Some(why),
        ..Row::default()
    }
}

pub(super) fn parent(o: &Options, args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let date_utc = provenance::utc_now();
    let out = o.out.clone().unwrap_or_else(default_out_dir);
    let data = out.join("data");
    std::fs::create_dir_all(&data).map_err(|e| format!("creating {}: {e}", data.display()))?;
    if let Some(size) = o.stream {
        return stream(size, o.stream_json, o.stream_lines, &out, &data);
    }
    if let Some(sizes) = &o.sizes {
        return super::sweep::sweep(o, args, sizes, &out, &data, started, date_utc);
    }

    eprint!("preparing data...");
    let prepared = o
        .datasets
        .iter()
        .map(|&d| {
            let size = if d.is_large() {
                o.large_bytes
            } else {
                o.city_bytes
            };
            prepare(d, size, &o.formats, value_digest(o, d), &data, d.name())
        })
        .collect::<Result<Vec<_>, _>>()?;
    eprintln!(" done");

    let mut binaries = Vec::new();
    for allocator in [GlobalAllocator::System, GlobalAllocator::Mimalloc] {
        if o.strategies.iter().any(|s| s.allocator() == allocator) {
            binaries.push((allocator, binary_for(allocator)));
        }
    }

    let cells: Vec<(FormatId, &Prepared, StrategyId, &PathBuf)> = o
        .formats
        .iter()
        .flat_map(|&format| {
            prepared.iter().filter_map(move |p| {
                p.files
                    .iter()
                    .find(|(f, _)| *f == format)
                    .map(|(_, path)| (format, p, path))
            })
        })
        .flat_map(|(format, p, path)| {
            o.strategies
                .iter()
                .filter(move |s| s.reads(format) && p.dataset.skipped(**s).is_none())
                .map(move |&strategy| (format, p, strategy, path))
        })
        .collect();
    let skipped = skipped_cells(o);
    for note in &skipped {
        eprintln!("not measured: {note}");
    }
    if cells.is_empty() {
        return Err(
            "nothing to measure: no dataset is written in the formats asked for, or \
                    none is read by the strategies asked for"
                .to_owned(),
        );
    }
    let total = cells.len() * o.rounds as usize;
    let budget_ms = (o.budget_ms / u64::from(o.rounds)).max(1);
    let mut rounds: Vec<Vec<Row>> = vec![Vec::with_capacity(o.rounds as usize); cells.len()];
    let mut done = 0;
    for round in 1..=o.rounds {
        for (cell, &(format, p, strategy, path)) in cells.iter().enumerate() {
            let name = format!("{}/{}/{}", format.name(), p.dataset.name(), strategy.name());
            done += 1;
            eprint!("\r\x1b[2K[{done:>4}/{total}] round {round}: {name}");
            let _ = std::io::stderr().flush();
            let input = std::fs::metadata(path).map_or(0, |m| m.len());
            let binary = binaries
                .iter()
                .find(|(a, _)| *a == strategy.allocator())
                .map(|(_, b)| b.clone())
                .unwrap_or_else(|| Err("no binary".to_owned()));
            let plan = ChildPlan {
                budget_ms,
                min_runs: super::min_runs(p.size),
                threads: o.threads,
            };
            let row = binary
                .and_then(|binary| run_child(&binary, format, p, strategy, path, plan))
                .unwrap_or_else(|why| failed_row(format, p.dataset, strategy, input, why));
            rounds[cell].push(row);
        }
    }
    let rows: Vec<Row> = rounds.into_iter().map(median_round).collect();
    eprintln!(
        "\r\x1b[2K{} cells measured in {} round(s) in {:.0} s",
        rows.len(),
        o.rounds,
        started.elapsed().as_secs_f64()
    );

    let meta = Meta {
        skipped,
        large_bytes: o
            .datasets
            .iter()
            .any(|d| d.is_large())
            .then_some(o.large_bytes),
        ..run_meta(o, args, date_utc, started)
    };
    let mut report = Report::new(meta, rows);
    if o.figures {
        report.figures = Some(run_figures(o, &data));
        report.meta.wall_seconds = started.elapsed().as_secs_f64();
    }
    let table = report.table();
    println!("{table}");
    let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
    write_file(
        &out.join("report.md"),
        format!("# arena-bench report\n\n{table}"),
    )?;
    write_file(&out.join("report.json"), &json)?;
    let svg = report.svg();
    write_file(&out.join("report.svg"), &svg)?;
    if let Some(path) = &o.json {
        write_file(path, &json)?;
    }
    if let Some(path) = &o.results {
        let chart = path.with_extension("svg");
        write_file(&chart, &svg)?;
        let name = chart.file_name().map(|n| n.to_string_lossy().into_owned());
        write_file(path, crate::results::markdown(&report, name.as_deref()))?;
        eprintln!("results: {} (chart: {})", path.display(), chart.display());
    }
    eprintln!("reports: {}/report.{{md,json,svg}}", out.display());
    Ok(())
}

/// What the run is, for its reports: the command, the machine and the options.
pub(super) fn run_meta(o: &Options, args: &[String], date_utc: String, started: Instant) -> Meta {
    Meta {
        command: std::iter::once("arena-bench".to_owned())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        cpu: provenance::cpu_model(),
        cpus: provenance::cpus(),
        date_utc,
        memory_bytes: provenance::memory_bytes(),
        os: provenance::os(),
        rustc: provenance::RUSTC.to_owned(),
        release: !cfg!(debug_assertions),
        threads: o.threads,
        city_bytes: o.city_bytes,
        large_bytes: None,
        budget_ms: o.budget_ms,
        rounds: o.rounds,
        wall_seconds: started.elapsed().as_secs_f64(),
        skipped: Vec::new(),
    }
}

/// Writes `contents` to `path`, the error naming the file.
pub(super) fn write_file(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), String> {
    std::fs::write(path, contents).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// `--stream SIZE`: the streaming tables alone (the postcard city of `size` bytes, the JSON
/// city of `json` bytes, the JSON Lines of `lines` bytes), printed and written to
/// `out/stream.{md,json}`.
fn stream(size: u64, json: u64, lines: u64, out: &Path, data: &Path) -> Result<(), String> {
    let exe = binary_for(GlobalAllocator::System)?;
    let mut rows = crate::streaming::run(&exe, data, size)?;
    let (file_rows, lines_rows) = crate::streaming::run_json(&exe, data, json, lines)?;
    let mut table = crate::streaming::markdown(&rows);
    table.push_str(&crate::streaming::json_markdown(&file_rows, &lines_rows));
    println!("{table}");
    rows.extend(file_rows);
    rows.extend(lines_rows);
    let json = serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?;
    write_file(&out.join("stream.md"), &table)?;
    write_file(&out.join("stream.json"), &json)?;
    eprintln!("reports: {}/stream.{{md,json}}", out.display());
    Ok(())
}

/// What the run leaves out of the matrix by design, one line per dataset and reason: the
/// formats asked for that a dataset has no document in, and the strategies asked for that are
/// not measured on it.
fn skipped_cells(o: &Options) -> Vec<String> {
    let mut notes = Vec::new();
    for &dataset in &o.datasets {
        let mut by_reason: Vec<(&str, Vec<&str>)> = Vec::new();
        let formats = o
            .formats
            .iter()
            .filter_map(|&f| dataset.skipped_format(f).map(|why| (why, f.name())));
        let strategies = o
            .strategies
            .iter()
            .filter_map(|&s| dataset.skipped(s).map(|why| (why, s.name())));
        for (why, name) in formats.chain(strategies) {
            match by_reason.iter_mut().find(|(w, _)| *w == why) {
                Some((_, names)) => names.push(name),
                None => by_reason.push((why, vec![name])),
            }
        }
        for (why, names) in by_reason {
            notes.push(format!("{}: {} ({why})", dataset.name(), names.join(", ")));
        }
    }
    notes
}

/// The spike is this many times the requested city (`--size`), up to [`SPIKE_CAP_BYTES`]: at
/// the default 2 MB, a 20 MB spike whose chunks dwarf the small documents' (and go past
/// glibc's mmap threshold), small enough to take a second.
const SPIKE_FACTOR: u64 = 10;

/// Most postcard bytes in the spike, whatever `--size` asks: ten times `--size 200MB` would be
/// 2 GB of postcard and, scaling what 64 MB takes, over 10 GB resident (the parent builds the
/// owned city to encode it, the child reads it). 64 MB (about 770,000 citizens) reads into an
/// arena of about 150 MB, whose chunks are past glibc's largest mmap threshold (32 MiB), so a
/// bigger spike would show nothing new; it takes about 3 s, and no process of the run goes
/// past 365 MB resident (measured on the 2-vCPU VM).
const SPIKE_CAP_BYTES: u64 = 64_000_000;

/// The small documents read after the spike are this many times smaller than it (at the
/// default size, 200 KB): small enough that they need none of the spike's chunks.
const SPIKE_TO_SMALL: u64 = 100;

/// The postcard sizes of the spike and of the small documents for a city of `city_bytes`.
fn spike_sizes(city_bytes: u64) -> (u64, u64) {
    let spike = city_bytes.saturating_mul(SPIKE_FACTOR).min(SPIKE_CAP_BYTES);
    (spike, (spike / SPIKE_TO_SMALL).max(1))
}

/// Runs the slab arena's figures, each in its own child of the system binary.
fn run_figures(o: &Options, data: &Path) -> Figures {
    let mut figures = Figures::default();
    let exe = match binary_for(GlobalAllocator::System) {
        Ok(exe) => exe,
        Err(why) => {
            figures.errors.push(why);
            return figures;
        }
    };
    let figure = |args: &[&str]| -> Result<String, String> {
        eprint!("\r\x1b[2Kfigures: {}", args.join(" "));
        let _ = std::io::stderr().flush();
        let output = Command::new(&exe)
            .arg("--child-figure")
            .args(args)
            .output()
            .map_err(|e| format!("starting {}: {e}", exe.display()))?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(format!(
                "figure {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        }
    };
    for arena in crate::figures::LATENCY_ARENAS {
        match figure(&["latency", arena])
            .and_then(|j| serde_json::from_str(&j).map_err(|e| e.to_string()))
        {
            Ok(l) => figures.latency.push(l),
            Err(why) => figures.errors.push(why),
        }
    }
    let (spike_bytes, small_bytes) = spike_sizes(o.city_bytes);
    let docs = [("spike", spike_bytes), ("small", small_bytes)].map(|(name, bytes)| {
        let owned = city::generate(usize::try_from(bytes).unwrap_or(usize::MAX));
        let path = data.join(format!("city-{name}.postcard"));
        FormatId::Postcard
            .encode(&owned)
            .and_then(|b| std::fs::write(&path, b).map_err(|e| e.to_string()))
            .map(|()| path.display().to_string())
    });
    match docs {
        [Ok(big), Ok(small)] => {
            for arena in crate::figures::SPIKE_ARENAS {
                match figure(&["spike", arena, &big, &small])
                    .and_then(|j| serde_json::from_str(&j).map_err(|e| e.to_string()))
                {
                    Ok(s) => figures.spike.push(s),
                    Err(why) => figures.errors.push(why),
                }
            }
        }
        [Err(why), _] | [_, Err(why)] => figures.errors.push(why),
    }
    eprintln!("\r\x1b[2Kfigures: done");
    figures
}

/// One cell's rounds as one row: the first error if a round failed, else the round with the
/// median time per document, with the worst memory and call counts of all rounds and the
/// timed documents of all rounds.
pub(super) fn median_round(mut rounds: Vec<Row>) -> Row {
    if let Some(i) = rounds.iter().position(|r| r.error.is_some()) {
        return rounds.swap_remove(i);
    }
    let runs = rounds.iter().map(|r| r.runs).sum();
    let peak = rounds.iter().map(|r| r.peak_rss_bytes).max().unwrap_or(0);
    let peak_data = rounds
        .iter()
        .map(|r| r.peak_data_rss_bytes)
        .max()
        .unwrap_or(0);
    let allocs = rounds.iter().map(|r| r.allocs_per_doc).max().unwrap_or(0);
    let os = rounds.iter().filter_map(|r| r.os_calls_per_doc).max();
    let scratch = rounds
        .iter()
        .filter_map(|r| r.scratch_releases_per_doc)
        .max();
    rounds.sort_by_key(|r| r.total_median_ns);
    let mut row = rounds.swap_remove(rounds.len() / 2);
    row.runs = runs;
    row.peak_rss_bytes = peak;
    row.peak_data_rss_bytes = peak_data;
    row.allocs_per_doc = allocs;
    row.os_calls_per_doc = os;
    row.scratch_releases_per_doc = scratch;
    row
}

/// How a child times its cell.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChildPlan {
    /// Timed time for the cell in this round.
    pub(super) budget_ms: u64,
    /// Fewest timed documents ([`super::min_runs`]).
    pub(super) min_runs: u32,
    /// Workers (`--threads`).
    pub(super) threads: u32,
}

/// Measures one cell in a child process of `binary` and returns its row.
pub(super) fn run_child(
    binary: &Path,
    format: FormatId,
    prepared: &Prepared,
    strategy: StrategyId,
    input: &Path,
    plan: ChildPlan,
) -> Result<Row, String> {
    let digest = prepared
        .digests
        .expected_digest(format, strategy)
        .ok_or("no document to check the result against")?;
    let output = Command::new(binary)
        .arg("--child")
        .args([format.name(), prepared.dataset.name(), strategy.name()])
        .arg(input)
        .arg(format!("{digest:016x}"))
        .arg(plan.budget_ms.to_string())
        .arg(plan.min_runs.to_string())
        .arg(plan.threads.to_string())
        .output()
        .map_err(|e| format!("starting {}: {e}", binary.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    match serde_json::from_str::<Row>(stdout.trim()) {
        Ok(row) => Ok(row),
        Err(_) => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let last = stderr
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            Err(format!("the child failed ({}): {last}", output.status))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{median_round, spike_sizes};
    use crate::measure::Row;

    #[test]
    fn a_cell_keeps_its_median_time_and_its_worst_memory() {
        let round = |ns, peak, data| Row {
            total_median_ns: ns,
            runs: 10,
            peak_rss_bytes: peak,
            peak_data_rss_bytes: data,
            ..Row::default()
        };
        let row = median_round(vec![round(30, 12, 9), round(10, 14, 7), round(20, 13, 8)]);
        assert_eq!(row.total_median_ns, 20);
        assert_eq!(row.runs, 30);
        assert_eq!(row.peak_rss_bytes, 14);
        assert_eq!(row.peak_data_rss_bytes, 9);
    }

    #[test]
    fn the_spike_is_ten_times_the_city_up_to_its_cap() {
        assert_eq!(spike_sizes(20_000), (200_000, 2_000));
        assert_eq!(spike_sizes(2_000_000), (20_000_000, 200_000));
        assert_eq!(spike_sizes(200_000_000), (64_000_000, 640_000));
        assert_eq!(spike_sizes(u64::MAX), (64_000_000, 640_000));
    }
}
