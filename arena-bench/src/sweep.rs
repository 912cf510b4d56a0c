//! The size sweep (`--sizes 2MB,20MB,200MB`): the synthetic city at each size, in a few formats,
//! read by the contender and what a user would pick instead, to show whether `slab-fresh` keeps
//! its lead as documents grow (a cliff past a size shows only there).
//!
//! Per format, [`FormatSweep::of`] reads the rows of every size: `slab-fresh`'s speedup over
//! `owned-system` at each size and how much of it is left at the largest size (the target:
//! at least [`HOLD_TARGET`] of the speedup at the smallest), and whether `slab-fresh` beats
//! in-place (either allocator) at every size (a target on [`IN_PLACE_TARGET_FORMATS`]).
//! [`markdown`] writes the tables and the verdicts.

use std::fmt::Write as _;

use crate::format::FormatId;
use crate::measure::Row;
use crate::report::{Meta, os_calls};
use crate::report_row::BASELINE;

/// The strategy the sweep is about.
pub const CONTENDER: &str = "slab-fresh";

/// The strategies `slab-fresh` must beat on [`IN_PLACE_TARGET_FORMATS`]: serde's
/// `deserialize_in_place` under either allocator.
pub const IN_PLACE: [&str; 2] = ["in-place-system", "in-place-mimalloc"];

/// The share of `slab-fresh`'s speedup over `owned-system` at the smallest size that must be
/// left at the largest: 0.9, a larger loss than a shared machine's noise on a
/// ratio taken within one run, and a cliff loses far more.
pub const HOLD_TARGET: f64 = 0.9;

/// The formats on which `slab-fresh` must beat in-place at every size: the binary formats,
/// whose announced lengths let the arena build each sequence in place. On JSON every sequence
/// is staged and copied once, where in-place rewrites its vectors where they are: the line is
/// printed there too, as information.
pub const IN_PLACE_TARGET_FORMATS: [FormatId; 2] = [FormatId::Postcard, FormatId::Bincode];

/// One cell of the sweep: a strategy on the city at one size in one format.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct SizeRow {
    /// The requested size of the city, in postcard bytes (`--sizes`).
    pub size: u64,
    /// The rounds the cell was measured in (its row is the median round).
    pub rounds: u32,
    /// The measured row (the cell's median round).
    #[serde(flatten)]
    pub row: Row,
}

impl SizeRow {
    /// The median time per document, if the cell was measured.
    fn total_ns(&self) -> Option<u64> {
        (self.row.error.is_none() && self.row.total_median_ns > 0)
            .then_some(self.row.total_median_ns)
    }
}

/// `slab-fresh` against the faster in-place strategy at one size.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct InPlaceAtSize {
    /// The requested size.
    pub size: u64,
    /// The faster of the in-place strategies measured (the first among equals).
    pub in_place: String,
    /// Its time per document.
    pub in_place_ns: u64,
    /// `slab-fresh`'s.
    pub contender_ns: u64,
}

impl InPlaceAtSize {
    /// Whether `slab-fresh` is strictly faster.
    #[must_use]
    pub const fn beats(&self) -> bool {
        self.contender_ns < self.in_place_ns
    }
}

/// The sweep's figures for one format.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FormatSweep {
    /// Format name.
    pub format: String,
    /// Per size (increasing): `owned-system`'s time per document over `slab-fresh`'s, when
    /// both were measured.
    pub speedups: Vec<(u64, Option<f64>)>,
    /// The speedup at the largest size over the speedup at the smallest, when both were
    /// measured and there are two sizes.
    pub hold: Option<f64>,
    /// Per size where `slab-fresh` and an in-place strategy were measured: the comparison.
    pub in_place: Vec<InPlaceAtSize>,
    /// Whether beating in-place at every size is a target on this format
    /// ([`IN_PLACE_TARGET_FORMATS`]).
    pub in_place_is_target: bool,
}

impl FormatSweep {
    /// The figures of `format` from the rows of every size in `sizes` (increasing).
    #[must_use]
    pub fn of(format: &str, sizes: &[u64], rows: &[SizeRow]) -> Self {
        let time = |size: u64, strategy: &str| {
            rows.iter()
                .find(|r| r.size == size && r.row.format == format && r.row.strategy == strategy)
                .and_then(SizeRow::total_ns)
        };
        let speedups: Vec<(u64, Option<f64>)> = sizes
            .iter()
            .map(|&size| {
                let speedup = time(size, BASELINE)
                    .zip(time(size, CONTENDER))
                    .map(|(base, slab)| base as f64 / slab as f64);
                (size, speedup)
            })
            .collect();
        let hold = match (speedups.first(), speedups.last()) {
            (Some(&(small, Some(first))), Some(&(large, Some(last)))) if large > small => {
                Some(last / first)
            }
            _ => None,
        };
        let in_place = sizes
            .iter()
            .filter_map(|&size| {
                let contender_ns = time(size, CONTENDER)?;
                let (name, in_place_ns) = IN_PLACE
                    .iter()
                    .filter_map(|&s| Some((s, time(size, s)?)))
                    .reduce(|best, next| if next.1 < best.1 { next } else { best })?;
                Some(InPlaceAtSize {
                    size,
                    in_place: name.to_owned(),
                    in_place_ns,
                    contender_ns,
                })
            })
            .collect();
        Self {
            format: format.to_owned(),
            speedups,
            hold,
            in_place,
            in_place_is_target: FormatId::from_name(format)
                .is_some_and(|f| IN_PLACE_TARGET_FORMATS.contains(&f)),
        }
    }

    /// Whether the speedup holds: at least [`HOLD_TARGET`] of it left at the largest size.
    #[must_use]
    pub fn holds(&self) -> Option<bool> {
        self.hold.map(|h| h >= HOLD_TARGET)
    }

    /// Whether `slab-fresh` beats in-place at every size measured, if it was compared at all.
    #[must_use]
    pub fn beats_in_place(&self) -> Option<bool> {
        (!self.in_place.is_empty()).then(|| self.in_place.iter().all(InPlaceAtSize::beats))
    }

    /// The verdict on the speedup, in words.
    #[must_use]
    pub fn hold_line(&self) -> String {
        let speedups = self
            .speedups
            .iter()
            .map(|&(size, s)| {
                format!(
                    "{} at {}",
                    s.map_or_else(|| "n/a".to_owned(), |s| format!("{s:.2}x")),
                    size_name(size)
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let verdict = match (self.hold, self.holds()) {
            (Some(hold), Some(met)) => format!(
                "{hold:.2} of it left at the largest size (target at least {HOLD_TARGET}): {}",
                if met { "met" } else { "NOT met" }
            ),
            _ => "not measured at two sizes".to_owned(),
        };
        format!(
            "{}: {CONTENDER}'s speedup over {BASELINE} {speedups}; {verdict}",
            self.format
        )
    }

    /// The comparison with in-place, in words.
    #[must_use]
    pub fn in_place_line(&self) -> String {
        let per_size = self
            .in_place
            .iter()
            .map(|c| {
                // How much faster the faster of the two is, as the verdicts say it.
                let faster =
                    |fast: u64, slow: u64| (slow as f64 / fast.max(1) as f64 - 1.0) * 100.0;
                if c.beats() {
                    let percent = faster(c.contender_ns, c.in_place_ns);
                    format!("{CONTENDER} {percent:.0}% faster at {}", size_name(c.size))
                } else {
                    let percent = faster(c.in_place_ns, c.contender_ns);
                    format!(
                        "{} {percent:.0}% faster at {}",
                        c.in_place,
                        size_name(c.size)
                    )
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        let target = if self.in_place_is_target {
            ""
        } else {
            " (not a target on this format)"
        };
        match self.beats_in_place() {
            None => format!(
                "{}: {CONTENDER} was not compared with in-place",
                self.format
            ),
            Some(beats) => format!(
                "{}: {CONTENDER} beats in-place (either allocator) at every size{target}: {} ({per_size})",
                self.format,
                match (beats, self.in_place_is_target) {
                    (true, true) => "met",
                    (false, true) => "NOT met",
                    (true, false) => "yes",
                    (false, false) => "no",
                }
            ),
        }
    }
}

/// The whole sweep: what the run was, its cells and the figures per format.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct SweepReport {
    /// What the run was.
    pub meta: Meta,
    /// The sizes, increasing (postcard bytes of the city).
    pub sizes: Vec<u64>,
    /// Every cell, size by size, in run order.
    pub rows: Vec<SizeRow>,
    /// The figures per format, in run order.
    pub formats: Vec<FormatSweep>,
}

impl SweepReport {
    /// Builds the report, computing the figures of every format among `rows`.
    #[must_use]
    pub fn new(meta: Meta, sizes: Vec<u64>, rows: Vec<SizeRow>) -> Self {
        let mut formats: Vec<&str> = Vec::new();
        for r in &rows {
            if !formats.contains(&r.row.format.as_str()) {
                formats.push(&r.row.format);
            }
        }
        let formats = formats
            .into_iter()
            .map(|f| FormatSweep::of(f, &sizes, &rows))
            .collect();
        Self {
            meta,
            sizes,
            rows,
            formats,
        }
    }
}

/// A size as `--sizes` would write it: `2 MB`, `500 KB`, `1.5 GB`.
#[must_use]
pub fn size_name(bytes: u64) -> String {
    let (value, unit) = if bytes >= 1_000_000_000 {
        (bytes as f64 / 1e9, "GB")
    } else if bytes >= 1_000_000 {
        (bytes as f64 / 1e6, "MB")
    } else if bytes >= 1_000 {
        (bytes as f64 / 1e3, "KB")
    } else {
        (bytes as f64, "B")
    };
    let text = format!("{value:.1}");
    format!("{} {unit}", text.strip_suffix(".0").unwrap_or(&text))
}

/// A table with one row per format and strategy (in run order) and one column per size, each
/// entry `entry` of that cell's row (empty when the cell was not run, `failed` when it failed).
fn pivot(report: &SweepReport, entry: impl Fn(&SizeRow) -> String) -> String {
    let mut lines: Vec<(&str, &str)> = Vec::new();
    for r in &report.rows {
        let line = (r.row.format.as_str(), r.row.strategy.as_str());
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    let sizes: Vec<String> = report.sizes.iter().map(|&s| size_name(s)).collect();
    let mut out = format!("| format/strategy | {} |\n|---|", sizes.join(" | "));
    out.push_str(&"--:|".repeat(sizes.len()));
    out.push('\n');
    for (format, strategy) in lines {
        let _ = write!(out, "| {format}/{strategy} |");
        for &size in &report.sizes {
            let text = report
                .rows
                .iter()
                .find(|r| r.size == size && r.row.format == format && r.row.strategy == strategy)
                .map_or_else(String::new, |r| r.row.table_entry(|| entry(r)));
            let _ = write!(out, " {text} |");
        }
        out.push('\n');
    }
    out
}

/// Milliseconds with three or four significant digits.
fn ms(ns: u64) -> String {
    let ms = ns as f64 / 1e6;
    if ms >= 100.0 {
        format!("{ms:.1}")
    } else if ms >= 10.0 {
        format!("{ms:.2}")
    } else {
        format!("{ms:.3}")
    }
}

/// The sweep in Markdown: what was run, the verdicts, then time, peak memory and OS calls per
/// document, each as a table of strategies by sizes.
#[must_use]
pub fn markdown(report: &SweepReport) -> String {
    let sizes: Vec<String> = report.sizes.iter().map(|&s| size_name(s)).collect();
    let m = &report.meta;
    let mut out = format!(
        "## Size sweep: the city at {} (postcard bytes; the same citizens in every format)\n\n",
        sizes.join(", ")
    );
    let mut plans: Vec<(u64, u32, u32)> = Vec::new();
    for r in &report.rows {
        if !plans.iter().any(|p| p.0 == r.size) {
            plans.push((r.size, r.rounds, crate::run::min_runs(r.size)));
        }
    }
    let few = plans
        .iter()
        .any(|&(_, rounds, min)| min < crate::run::MIN_RUNS || rounds < m.rounds);
    let plans = plans
        .iter()
        .map(|&(size, rounds, min)| {
            format!(
                "{}: {rounds} round(s), at least {min} timed documents per round",
                size_name(size)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let few = if few {
        " (large documents are timed only a few times; every cell also reads five untimed \
         ones: the check, two to warm, the count and the arena's figures)"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "{} logical CPU(s), {}; each cell in its own child process, {} ms of timed documents \
         per cell over its rounds, each row its cell's median round; {plans}{few}; {:.0} s in \
         all.\n",
        m.cpus, m.cpu, m.budget_ms, m.wall_seconds
    );
    out.push_str("### Verdicts\n\n");
    for f in &report.formats {
        let _ = writeln!(out, "- {}", f.hold_line());
        let _ = writeln!(out, "- {}", f.in_place_line());
    }
    let _ = write!(
        out,
        "\n### Time per document\n\nMilliseconds (deserialization + drop, median), and the \
         input's size in each format.\n\n{}",
        pivot(report, |r| ms(r.row.total_median_ns))
    );
    let mut formats: Vec<&str> = Vec::new();
    for r in &report.rows {
        if !formats.contains(&r.row.format.as_str()) {
            formats.push(&r.row.format);
        }
    }
    for format in formats {
        let _ = write!(out, "| {format} input MB |");
        for &size in &report.sizes {
            let input = report
                .rows
                .iter()
                .find(|r| r.size == size && r.row.format == format && r.row.input_bytes > 0)
                .map_or_else(String::new, |r| {
                    format!("{:.1}", r.row.input_bytes as f64 / 1e6)
                });
            let _ = write!(out, " {input} |");
        }
        out.push('\n');
    }
    let _ = write!(
        out,
        "\n### Peak resident memory\n\nMB, the child's peak while timing (input and process \
         included), the worst of its rounds.\n\n{}",
        pivot(report, |r| format!(
            "{:.1}",
            r.row.peak_rss_bytes as f64 / 1e6
        ))
    );
    let _ = write!(
        out,
        "\n### OS calls per document\n\nA warm document's calls outside the global allocator: \
         `SlabArena`'s pool maps and unmaps plus the pages arena_core's scratch stack gives \
         back (in brackets when there are any); - where all memory comes from the global \
         allocator (its calls are not told apart).\n\n{}",
        pivot(report, |r| os_calls(&r.row))
    );
    if let Some(failed) = report.rows.iter().find(|r| r.row.error.is_some()) {
        let _ = writeln!(
            out,
            "\nfailed: {}/{}/{} at {}: {}",
            failed.row.format,
            failed.row.dataset,
            failed.row.strategy,
            size_name(failed.size),
            failed.row.error.as_deref().unwrap_or_default()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(size: u64, format: &str, strategy: &str, ns: u64) -> SizeRow {
        SizeRow {
            size,
            rounds: 1,
            row: Row {
                format: format.to_owned(),
                dataset: "city".to_owned(),
                strategy: strategy.to_owned(),
                input_bytes: size,
                median_ns: ns,
                total_median_ns: ns,
                ..Row::default()
            },
        }
    }

    const SIZES: [u64; 3] = [2_000_000, 20_000_000, 200_000_000];

    #[test]
    fn the_speedup_holds_when_at_least_nine_tenths_of_it_is_left() {
        let rows = [
            row(SIZES[0], "postcard", BASELINE, 1_000),
            row(SIZES[0], "postcard", CONTENDER, 200),
            row(SIZES[1], "postcard", BASELINE, 10_000),
            row(SIZES[1], "postcard", CONTENDER, 2_500),
            row(SIZES[2], "postcard", BASELINE, 100_000),
            // 4.5x at the largest size against 5x at the smallest: exactly 0.9 of it.
            row(SIZES[2], "postcard", CONTENDER, 100_000 * 2 / 9),
        ];
        let f = FormatSweep::of("postcard", &SIZES, &rows);
        let speedups: Vec<f64> = f.speedups.iter().map(|s| s.1.unwrap()).collect();
        assert!((speedups[0] - 5.0).abs() < 1e-9, "{speedups:?}");
        assert!((speedups[1] - 4.0).abs() < 1e-9, "{speedups:?}");
        assert!((f.hold.unwrap() - 0.9).abs() < 1e-4, "{:?}", f.hold);
        assert_eq!(f.holds(), Some(true));
        assert_eq!(
            f.hold_line(),
            "postcard: slab-fresh's speedup over owned-system 5.00x at 2 MB, 4.00x at 20 MB, \
             4.50x at 200 MB; 0.90 of it left at the largest size (target at least 0.9): met"
        );
        // A collapse at the largest size.
        let mut collapsed = rows.clone();
        collapsed[5].row.total_median_ns = 50_000;
        let f = FormatSweep::of("postcard", &SIZES, &collapsed);
        assert!((f.hold.unwrap() - 0.4).abs() < 1e-9);
        assert_eq!(f.holds(), Some(false));
        assert!(f.hold_line().ends_with("NOT met"), "{}", f.hold_line());
    }

    #[test]
    fn a_missing_or_failed_end_size_leaves_the_hold_unmeasured() {
        let mut failed = row(SIZES[2], "json", CONTENDER, 0);
        failed.row.error = Some("the child failed".to_owned());
        let rows = [
            row(SIZES[0], "json", BASELINE, 1_000),
            row(SIZES[0], "json", CONTENDER, 500),
            row(SIZES[2], "json", BASELINE, 100_000),
            failed,
        ];
        let f = FormatSweep::of("json", &SIZES, &rows);
        assert_eq!(f.speedups[1], (SIZES[1], None));
        assert_eq!(f.speedups[2], (SIZES[2], None));
        assert_eq!((f.hold, f.holds()), (None, None));
        assert!(f.hold_line().ends_with("not measured at two sizes"));
        // One size alone has no hold either.
        let f = FormatSweep::of("json", &SIZES[..1], &rows);
        assert_eq!(f.hold, None);
    }

    #[test]
    fn slab_fresh_must_beat_the_faster_in_place_at_every_size_on_the_binary_formats() {
        let rows = [
            row(SIZES[0], "bincode", CONTENDER, 90),
            row(SIZES[0], "bincode", "in-place-system", 120),
            row(SIZES[0], "bincode", "in-place-mimalloc", 100),
            row(SIZES[2], "bincode", CONTENDER, 1_000),
            row(SIZES[2], "bincode", "in-place-system", 1_000),
            row(SIZES[2], "bincode", "in-place-mimalloc", 1_100),
        ];
        let f = FormatSweep::of("bincode", &SIZES, &rows);
        assert!(f.in_place_is_target);
        assert_eq!(f.in_place.len(), 2, "no comparison at the size not run");
        assert_eq!(f.in_place[0].in_place, "in-place-mimalloc");
        assert!(f.in_place[0].beats());
        // A tie is not a win.
        assert_eq!(f.in_place[1].in_place, "in-place-system");
        assert!(!f.in_place[1].beats());
        assert_eq!(f.beats_in_place(), Some(false));
        assert_eq!(
            f.in_place_line(),
            "bincode: slab-fresh beats in-place (either allocator) at every size: NOT met \
             (slab-fresh 11% faster at 2 MB, in-place-system 0% faster at 200 MB)"
        );
        // JSON: the same comparison, not a target.
        let json: Vec<SizeRow> = rows
            .iter()
            .take(3)
            .cloned()
            .map(|mut r| {
                r.row.format = "json".to_owned();
                r
            })
            .collect();
        let f = FormatSweep::of("json", &SIZES, &json);
        assert!(!f.in_place_is_target);
        assert_eq!(f.beats_in_place(), Some(true));
        assert!(
            f.in_place_line()
                .starts_with("json: slab-fresh beats in-place (either allocator) at every size (not a target on this format): yes"),
            "{}",
            f.in_place_line()
        );
        assert_eq!(FormatSweep::of("json", &SIZES, &[]).beats_in_place(), None);
    }

    #[test]
    fn the_report_has_one_line_per_strategy_and_one_column_per_size() {
        let mut slab = row(SIZES[0], "postcard", CONTENDER, 2_000_000);
        slab.row.os_calls_per_doc = Some(3);
        slab.row.scratch_releases_per_doc = Some(3);
        slab.row.peak_rss_bytes = 25_000_000;
        let mut failed = row(SIZES[1], "postcard", BASELINE, 0);
        failed.row.error = Some("out of memory".to_owned());
        let mut large = row(SIZES[1], "postcard", CONTENDER, 20_000_000);
        large.row.os_calls_per_doc = Some(0);
        large.row.scratch_releases_per_doc = Some(0);
        let rows = vec![
            row(SIZES[0], "postcard", BASELINE, 10_000_000),
            slab,
            failed,
            large,
        ];
        let report = SweepReport::new(Meta::default(), SIZES[..2].to_vec(), rows);
        assert_eq!(report.formats.len(), 1);
        let md = markdown(&report);
        for expected in [
            "## Size sweep: the city at 2 MB, 20 MB (postcard bytes",
            "2 MB: 1 round(s), at least 5 timed documents per round; \
             20 MB: 1 round(s), at least 3 timed documents per round",
            "| format/strategy | 2 MB | 20 MB |",
            "| postcard/owned-system | 10.00 | failed |",
            "| postcard/slab-fresh | 2.000 | 20.00 |",
            "| postcard input MB | 2.0 | 20.0 |",
            "| postcard/slab-fresh | 25.0 | 0.0 |",
            "| postcard/slab-fresh | 3 (3 scratch) | 0 |",
            "| postcard/owned-system | - | failed |",
            "- postcard: slab-fresh's speedup over owned-system 5.00x at 2 MB, n/a at 20 MB",
            "failed: postcard/city/owned-system at 20 MB: out of memory",
        ] {
            assert!(md.contains(expected), "no `{expected}` in:\n{md}");
        }
    }

    #[test]
    fn sizes_are_named_as_the_command_line_writes_them() {
        assert_eq!(size_name(2_000_000), "2 MB");
        assert_eq!(size_name(200_000_000), "200 MB");
        assert_eq!(size_name(1_500_000_000), "1.5 GB");
        assert_eq!(size_name(20_000), "20 KB");
        assert_eq!(size_name(999), "999 B");
    }
}
