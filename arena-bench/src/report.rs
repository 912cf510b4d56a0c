//! The outputs: the table (terminal and `report.md`, the verdicts last), `report.json` and
//! `report.svg`.

use std::fmt::Write as _;

use crate::figures::{self, Figures};
use crate::measure::Row;
use crate::report_row::{BASELINE, ReportRow};
use crate::strategy_id::StrategyId;
use crate::verdict::{self, CellVerdict, Summary};

/// What the strategies that read through a value are compared with in their own table: the
/// same arena model in the same arena kind, read straight from the text.
pub const DIRECT: &str = "slab-fresh";

/// The baseline of the strategy called `strategy` ([`StrategyId::baseline`]).
fn baseline_of(strategy: &str) -> &'static str {
    StrategyId::from_name(strategy).map_or(BASELINE, |s| s.baseline().name())
}

/// Whether `row` is one of the value table's.
fn is_value(row: &Row) -> bool {
    StrategyId::from_name(&row.strategy).is_some_and(StrategyId::is_value)
}

/// What the run was: printed above the table and stored in `report.json`.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    /// The command line.
    pub command: String,
    /// CPU model, from `/proc/cpuinfo`.
    pub cpu: String,
    /// Logical CPUs.
    pub cpus: usize,
    /// When the run started, `YYYY-MM-DD HH:MM UTC`.
    #[serde(default)]
    pub date_utc: String,
    /// The machine's memory in bytes (0 when unknown).
    #[serde(default)]
    pub memory_bytes: u64,
    /// The OS and its kernel's release.
    #[serde(default)]
    pub os: String,
    /// The compiler that built the benchmark (`rustc --version`).
    #[serde(default)]
    pub rustc: String,
    /// Whether the benchmark was built with optimizations (`--release`).
    #[serde(default)]
    pub release: bool,
    /// Concurrent workers per strategy.
    pub threads: u32,
    /// Requested size of the synthetic documents (`--size`): the city's in postcard bytes, the
    /// event streams' in MessagePack bytes, the rows' at one row per 10 bytes.
    pub city_bytes: u64,
    /// Requested size of the large city (`--large`, postcard bytes), when the run measured it.
    #[serde(default)]
    pub large_bytes: Option<u64>,
    /// Time budget for the timed documents of each cell, in milliseconds.
    pub budget_ms: u64,
    /// Interleaved rounds over the matrix; each row is its cell's median round.
    #[serde(default)]
    pub rounds: u32,
    /// Wall time of the whole run, in seconds.
    pub wall_seconds: f64,
    /// The cells left out by design, one line per dataset and reason (see
    /// [`DatasetId::skipped`](crate::datasets::DatasetId::skipped)).
    #[serde(default)]
    pub skipped: Vec<String>,
}

/// The whole report.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// What the run was.
    pub meta: Meta,
    /// One row per cell, in run order.
    pub rows: Vec<ReportRow>,
    /// The slab arena's figures, unless `--no-figures`.
    pub figures: Option<Figures>,
    /// The verdict of every cell where `slab-fresh` and another typed strategy were measured
    /// ([`verdict::verdicts`]).
    #[serde(default)]
    pub verdicts: Vec<CellVerdict>,
    /// How many of those cells `slab-fresh` holds in: over all of them, then per group
    /// ([`verdict::summarize`]).
    #[serde(default)]
    pub summary: Vec<Summary>,
}

fn f(x: u64) -> f64 {
    x as f64
}

impl Report {
    /// Builds the report, computing throughput and speedups within this run.
    #[must_use]
    pub fn new(meta: Meta, rows: Vec<Row>) -> Self {
        let ok = |r: &Row| r.error.is_none() && r.median_ns > 0;
        let report_rows = rows
            .iter()
            .map(|r| {
                let baseline = baseline_of(&r.strategy);
                let base = rows.iter().find(|b| {
                    b.strategy == baseline
                        && b.format == r.format
                        && b.dataset == r.dataset
                        && ok(b)
                });
                ReportRow {
                    name: format!("{}/{}/{}", r.format, r.dataset, r.strategy),
                    mb_per_s: ok(r).then(|| f(r.input_bytes) / f(r.median_ns) * 1e3),
                    speedup: base
                        .filter(|_| ok(r) && r.total_median_ns > 0)
                        .map(|b| f(b.total_median_ns) / f(r.total_median_ns)),
                    held_per_input: r
                        .held_bytes
                        .filter(|_| r.input_bytes > 0)
                        .map(|held| f(held) / f(r.input_bytes)),
                    row: r.clone(),
                }
            })
            .collect();
        let verdicts = verdict::verdicts(&rows);
        Self {
            meta,
            summary: verdict::summarize(&verdicts),
            verdicts,
            rows: report_rows,
            figures: None,
        }
    }

    /// The table, in Markdown (readable in a terminal as it is): [`Self::tables`], then the
    /// verdicts.
    #[must_use]
    pub fn table(&self) -> String {
        let mut out = self.tables();
        out.push_str(&verdict::markdown(&self.verdicts, &self.summary));
        out
    }

    /// Every table of the run, in Markdown: the typed matrix, the two JSON parsers side by
    /// side, the replay and value tables and the slab arena's figures, under a line saying what
    /// the run was.
    #[must_use]
    pub fn tables(&self) -> String {
        let mut out = String::new();
        let m = &self.meta;
        let _ = writeln!(
            out,
            "{} logical CPU(s), {}; {} thread(s) per strategy; synthetic documents of {:.1} MB (the city in postcard, \
             the event streams in MessagePack, the rows at one row per {} bytes){}; \
             {} ms of timed documents per cell over {} interleaved round(s), each row its cell's \
             median round; {:.0} s in all. Speedup: per document (deserialization + drop) \
             against owned-system. OS calls/doc: a warm document's calls outside the global \
             allocator, `SlabArena`'s pool maps and unmaps plus the pages arena_core's scratch \
             stack gives back (in brackets when there are any), - where all memory comes from \
             the global allocator.\n",
            m.cpus,
            m.cpu,
            m.threads,
            f(m.city_bytes) / 1e6,
            crate::datasets::rows::SIZE_BYTES_PER_ROW,
            m.large_bytes.map_or_else(String::new, |b| format!(
                ", the large city (city-large) of {:.1} MB, timed at least {} times per round",
                f(b) / 1e6,
                crate::run::min_runs(b)
            )),
            m.budget_ms,
            m.rounds.max(1),
            m.wall_seconds
        );
        if !m.skipped.is_empty() {
            out.push_str("Not measured, by design:\n\n");
            for note in &m.skipped {
                let _ = writeln!(out, "- {note}");
            }
            out.push('\n');
        }
        out.push_str(
            "| format/dataset/strategy | input MB | median ms | ± % | MB/s | drop ms | \
             ms per doc | speedup | allocs/doc | OS calls/doc | peak RSS MB | data MB | \
             arena reserved (warm) / used / live MB |\n",
        );
        out.push_str("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        for r in self.rows.iter().filter(|r| !is_value(&r.row)) {
            let row = &r.row;
            if not_measured(&mut out, r, 10) {
                continue;
            }
            let arena = match (row.arena, row.live_bytes) {
                (Some(a), live) => format!(
                    "{:.2} ({}) / {} / {}",
                    f(a.reserved) / 1e6,
                    row.arena_warm.map_or_else(
                        || "n/a".to_owned(),
                        |w| format!("{:.2}", f(w.reserved) / 1e6)
                    ),
                    a.used
                        .map_or_else(|| "n/a".to_owned(), |u| format!("{:.2}", f(u) / 1e6)),
                    live.map_or_else(|| "n/a".to_owned(), |l| format!("{:.2}", f(l) / 1e6)),
                ),
                (None, _) => String::new(),
            };
            let _ = writeln!(
                out,
                "| {} | {:.2} | {:.3} | {:.1} | {:.0} | {:.3} | {:.3} | {} | {} | {} | {:.1} | {:.1} | {} |",
                r.name,
                f(row.input_bytes) / 1e6,
                f(row.median_ns) / 1e6,
                row.spread_percent(),
                r.mb_per_s.unwrap_or(0.0),
                f(row.drop_median_ns) / 1e6,
                f(row.total_median_ns) / 1e6,
                r.speedup
                    .map_or_else(|| "n/a".to_owned(), |s| format!("{s:.2}x")),
                calls(row),
                os_calls(row),
                f(row.peak_rss_bytes) / 1e6,
                f(row.peak_data_rss_bytes) / 1e6,
                arena,
            );
        }
        if let Some(parsers) = crate::json_parsers::markdown(&self.rows) {
            out.push_str(&parsers);
        }
        if self.rows.iter().any(|r| r.row.replay_median_ns.is_some()) {
            out.push_str(&self.replay_table());
        }
        if self.rows.iter().any(|r| is_value(&r.row)) {
            out.push_str(&self.value_table());
        }
        if let Some(figures) = &self.figures {
            out.push_str(&figures::markdown(&self.rows, figures));
        }
        out
    }

    /// The replay table, in Markdown: the rows that parse a value and replay it into the typed
    /// model, their replay apart, against [`DIRECT`] on the same document.
    fn replay_table(&self) -> String {
        let mut out = format!(
            "\n## Through a value (JSON)\n\nEach JSON document parsed into an `arena_core::Value` \
             and replayed into the typed arena model, in one fresh arena. Medians per document: \
             the deserialization (parse + replay), the replay alone and its share, and the \
             deserialization against {DIRECT} (the same model read straight from the text) in \
             this run.\n\n\
             | format/dataset/strategy | deserialize ms | replay ms | replay share | \
             {DIRECT} ms | time / {DIRECT} |\n\
             |---|--:|--:|--:|--:|--:|\n",
        );
        for r in &self.rows {
            let row = &r.row;
            let Some(replay) = row.replay_median_ns.filter(|_| row.error.is_none()) else {
                continue;
            };
            let direct = self
                .rows
                .iter()
                .find(|d| {
                    d.row.strategy == DIRECT
                        && d.row.format == row.format
                        && d.row.dataset == row.dataset
                        && d.row.error.is_none()
                        && d.row.median_ns > 0
                })
                .map(|d| d.row.median_ns);
            let _ = writeln!(
                out,
                "| {} | {:.3} | {:.3} | {:.0} % | {} | {} |",
                r.name,
                f(row.median_ns) / 1e6,
                f(replay) / 1e6,
                f(replay) / f(row.median_ns.max(1)) * 100.0,
                direct.map_or_else(|| "n/a".to_owned(), |d| format!("{:.3}", f(d) / 1e6)),
                direct.map_or_else(
                    || "n/a".to_owned(),
                    |d| format!("{:.2}x", f(row.median_ns) / f(d))
                ),
            );
        }
        out
    }

    /// The value table, in Markdown: each JSON document parsed into a dynamic value.
    fn value_table(&self) -> String {
        let mut out = String::from(
            "\n## Dynamic values (JSON)\n\nEach JSON document parsed into a dynamic value and \
             dropped. Speedup: per document (parse + drop) against value-serde-system \
             (`serde_json::Value`, system allocator). Held: the arena's reserved bytes (a warm \
             document's), or the heap bytes the parse leaves allocated as requested from the \
             allocator, its per-allocation overhead not counted (simd-json: the input's copy \
             included).\n\n\
             | format/dataset/strategy | input MB | parse ms | ± % | drop ms | ms per doc | \
             speedup | allocs/doc | OS calls/doc | held MB | held / input | arena used MB | \
             peak RSS MB |\n\
             |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
        );
        for r in self.rows.iter().filter(|r| is_value(&r.row)) {
            let row = &r.row;
            if not_measured(&mut out, r, 10) {
                continue;
            }
            let mb = |bytes: Option<u64>| {
                bytes.map_or_else(String::new, |b| format!("{:.2}", f(b) / 1e6))
            };
            let _ = writeln!(
                out,
                "| {} | {:.2} | {:.3} | {:.1} | {:.3} | {:.3} | {} | {} | {} | {} | {} | {} | {:.1} |",
                r.name,
                f(row.input_bytes) / 1e6,
                f(row.median_ns) / 1e6,
                row.spread_percent(),
                f(row.drop_median_ns) / 1e6,
                f(row.total_median_ns) / 1e6,
                r.speedup
                    .map_or_else(|| "n/a".to_owned(), |s| format!("{s:.2}x")),
                calls(row),
                os_calls(row),
                mb(row.held_bytes),
                r.held_per_input
                    .map_or_else(String::new, |h| format!("{h:.2}")),
                mb(row.arena_warm.and_then(|a| a.used)),
                f(row.peak_rss_bytes) / 1e6,
            );
        }
        out
    }

    /// An SVG bar chart of the typed matrix: per dataset, the speedup over [`BASELINE`]
    /// (geometric mean over the formats) and the peak resident memory above the baseline
    /// (median over the formats), one bar per strategy.
    #[must_use]
    pub fn svg(&self) -> String {
        let mut datasets: Vec<&str> = Vec::new();
        let mut strategies: Vec<&str> = Vec::new();
        for r in self.rows.iter().filter(|r| !is_value(&r.row)) {
            if !datasets.contains(&r.row.dataset.as_str()) {
                datasets.push(&r.row.dataset);
            }
            if !strategies.contains(&r.row.strategy.as_str()) {
                strategies.push(&r.row.strategy);
            }
        }
        let bar = 16.0;
        let panel_h = bar * strategies.len() as f64 + 40.0;
        // Wide enough for the longest label, "slab-fresh-via-serde (binary)", at 11 px.
        let (label_w, panel_w) = (185.0, 330.0);
        let width = 2.0 * (label_w + panel_w) + 40.0;
        let height = panel_h * datasets.len() as f64 + 50.0;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(
            s,
            r#"<rect width="100%" height="100%" fill="white"/><text x="10" y="20" font-size="14" font-weight="bold">arena-bench: speedup over {BASELINE} (geometric mean over formats, higher is better) and peak RSS above baseline (MB, median over formats, lower is better)</text>"#
        );
        for (di, dataset) in datasets.iter().enumerate() {
            let y0 = 40.0 + panel_h * di as f64;
            let cells = |strategy: &str| -> Vec<&ReportRow> {
                self.rows
                    .iter()
                    .filter(|r| {
                        r.row.dataset == *dataset
                            && r.row.strategy == strategy
                            && r.row.error.is_none()
                    })
                    .collect()
            };
            let speed: Vec<Option<f64>> = strategies
                .iter()
                .map(|st| {
                    let v: Vec<f64> = cells(st).iter().filter_map(|r| r.speedup).collect();
                    (!v.is_empty())
                        .then(|| (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp())
                })
                .collect();
            let mem: Vec<Option<f64>> = strategies
                .iter()
                .map(|st| {
                    let mut v: Vec<f64> = cells(st)
                        .iter()
                        .map(|r| {
                            f(r.row
                                .peak_rss_bytes
                                .saturating_sub(r.row.baseline_rss_bytes))
                                / 1e6
                        })
                        .collect();
                    v.sort_by(f64::total_cmp);
                    (!v.is_empty()).then(|| v[v.len() / 2])
                })
                .collect();
            for (pi, (title, values, unit)) in [
                (format!("{dataset}: speedup"), &speed, "x"),
                (format!("{dataset}: peak RSS above baseline"), &mem, " MB"),
            ]
            .into_iter()
            .enumerate()
            {
                let x0 = 10.0 + pi as f64 * (label_w + panel_w + 20.0);
                let max = values
                    .iter()
                    .flatten()
                    .copied()
                    .fold(0.0_f64, f64::max)
                    .max(1e-9);
                let _ = writeln!(
                    s,
                    r#"<text x="{x0}" y="{}" font-weight="bold">{}</text>"#,
                    y0 + 14.0,
                    xml(&title)
                );
                for (i, (st, v)) in strategies.iter().zip(values.iter()).enumerate() {
                    let y = y0 + 22.0 + bar * i as f64;
                    let _ = writeln!(
                        s,
                        r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
                        x0 + label_w - 6.0,
                        y + bar - 5.0,
                        xml(&chart_label(st))
                    );
                    match v {
                        Some(v) => {
                            let w = (v / max * (panel_w - 60.0)).max(1.0);
                            let color = if st.contains("multitude")
                                || st.starts_with("owned")
                                || st.starts_with("in-place")
                                || *st == "borrowed"
                            {
                                "#8a8a8a"
                            } else {
                                "#2a7ab9"
                            };
                            let _ = writeln!(
                                s,
                                r#"<rect x="{}" y="{}" width="{w:.1}" height="{}" fill="{color}"/><text x="{}" y="{}">{v:.2}{unit}</text>"#,
                                x0 + label_w,
                                y + 2.0,
                                bar - 4.0,
                                x0 + label_w + w + 4.0,
                                y + bar - 5.0,
                            );
                        }
                        None => {
                            let _ = writeln!(
                                s,
                                r##"<text x="{}" y="{}" fill="#b00">not measured</text>"##,
                                x0 + label_w + 4.0,
                                y + bar - 5.0
                            );
                        }
                    }
                }
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

/// Writes `r` as a row not measured, with `empty` empty cells after the reason, if it has an
/// error; returns whether it had.
fn not_measured(out: &mut String, r: &ReportRow, empty: usize) -> bool {
    let Some(e) = &r.row.error else {
        return false;
    };
    let _ = writeln!(
        out,
        "| {} | {:.2} | not measured: {} |{}",
        r.name,
        f(r.row.input_bytes) / 1e6,
        e.replace('|', "/").replace('\n', " "),
        "  |".repeat(empty)
    );
    true
}

/// Global-allocator calls per document.
fn calls(row: &Row) -> String {
    (row.allocs_per_doc + row.reallocs_per_doc).to_string()
}

/// OS calls per warm document outside the global allocator, those of the scratch stack in
/// brackets when it made any; `-` for a strategy that cannot count them (all its memory comes
/// from the global allocator).
#[must_use]
pub fn os_calls(row: &Row) -> String {
    match (row.os_calls_per_doc, row.scratch_releases_per_doc) {
        (None, _) => "-".to_owned(),
        (Some(all), Some(scratch)) if scratch > 0 => format!("{all} ({scratch} scratch)"),
        (Some(all), _) => all.to_string(),
    }
}

/// A strategy's label in the chart: its name, marked when it reads JSON only or the binary
/// formats only, as its means are then over those alone where the others' are over every
/// format of the run.
fn chart_label(strategy: &str) -> String {
    match StrategyId::from_name(strategy) {
        Some(id) if id.json_only() => format!("{strategy} (JSON)"),
        Some(StrategyId::SlabFreshViaSerde) => format!("{strategy} (binary)"),
        _ => strategy.to_owned(),
    }
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
