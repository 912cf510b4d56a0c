//! Per-cell verdicts: in each cell (format × dataset) of a run, is [`CONTENDER`] faster than
//! what a user would pick instead of an arena, within [`TOLERANCE_PERCENT`] of the fastest of
//! those, or beaten?
//!
//! The competition is every typed strategy that is not one of this toolkit's own arenas
//! ([`StrategyId::is_ours`]): owned types and `deserialize_in_place` on either allocator,
//! borrowed strings, and multitude. The other arenas of the toolkit (bumpalo and bump-scope,
//! a reused `SlabArena`) are the same product with another allocator, so they are not what
//! `slab-fresh` has to beat.
//!
//! [`verdict`] is the rule, a pure function over the per-document medians of one cell's
//! strategies; [`verdicts`] applies it to every cell of a run's rows and [`summarize`] counts
//! the cells it holds in, per [`CellGroup`]. A fresh arena against a reused one ([`REUSED`])
//! is a choice inside the product, so it is stated per cell apart from the verdicts.

use std::fmt::Write as _;

use crate::datasets::DatasetId;
use crate::format::FormatId;
use crate::measure::Row;
use crate::run::FULL_ROUNDS;
use crate::strategy_id::StrategyId;

/// The strategy the verdicts are about: the arena derive into a fresh `SlabArena` per
/// document, what a user of the toolkit does by default.
pub const CONTENDER: &str = "slab-fresh";

/// The other way to use the product: one `SlabArena` reset after each document instead of a
/// new one per document. Not a competitor; reported apart, against [`CONTENDER`], since it
/// is a choice users make inside the product.
pub const REUSED: &str = "slab-reused";

/// The arena read through the format's own serde `Deserializer` and a default `ArenaSeed`
/// (what a user whose format has no entry point in arena-core gets), judged against the same
/// competitors as [`CONTENDER`] in the cells where both were measured, and reported apart:
/// it is [`CONTENDER`] without what the entry point adds.
pub const VIA_SERDE: &str = "slab-fresh-via-serde";

/// How much slower than the fastest competitor [`CONTENDER`] may be and still count: its
/// time at most `1 + TOLERANCE_PERCENT / 100` times the other's. 3%: about the spread of one
/// cell's median between rounds on a quiet machine, so a smaller gap is not a result.
pub const TOLERANCE_PERCENT: u64 = 3;

/// How [`CONTENDER`] fared in one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// No competitor was faster (a tie counts as fastest).
    Fastest,
    /// Slower than the fastest competitor by at most [`TOLERANCE_PERCENT`].
    Within,
    /// Slower than the fastest competitor by more than [`TOLERANCE_PERCENT`].
    Lost,
}

/// The verdict of one cell: the outcome, and the figures it was read from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    /// How [`CONTENDER`] fared.
    pub outcome: Outcome,
    /// [`CONTENDER`]'s median time per document, in nanoseconds.
    pub contender_ns: u64,
    /// The fastest competitor of the cell (the first in run order among equals).
    pub fastest_other: String,
    /// Its median time per document, in nanoseconds.
    pub other_ns: u64,
}

impl Verdict {
    /// Whether the cell counts for [`CONTENDER`]: fastest or within the tolerance.
    #[must_use]
    pub const fn holds(&self) -> bool {
        !matches!(self.outcome, Outcome::Lost)
    }

    /// How much faster the fastest competitor is, in percent of its speed over
    /// [`CONTENDER`]'s (`contender time / other time − 1`); negative when [`CONTENDER`] is the
    /// faster.
    #[must_use]
    pub fn other_faster_percent(&self) -> f64 {
        (self.contender_ns as f64 / self.other_ns.max(1) as f64 - 1.0) * 100.0
    }

    /// The verdict in words: `fastest`, `within 3%` or `lost: X is N% faster`.
    #[must_use]
    pub fn words(&self) -> String {
        match self.outcome {
            Outcome::Fastest => "fastest".to_owned(),
            Outcome::Within => format!("within {TOLERANCE_PERCENT}%"),
            Outcome::Lost => format!(
                "lost: {} is {:.0}% faster",
                self.fastest_other,
                self.other_faster_percent()
            ),
        }
    }
}

/// The verdict of [`CONTENDER`] in a cell whose strategies took `medians` (name, median
/// nanoseconds per document): [`verdict_of`] it.
#[must_use]
pub fn verdict<'a>(medians: impl IntoIterator<Item = (&'a str, u64)>) -> Option<Verdict> {
    verdict_of(CONTENDER, medians)
}

/// The verdict of `contender` in a cell whose strategies took `medians` (name, median
/// nanoseconds per document), or `None` when `contender` or every other strategy is missing;
/// [`verdicts`] passes the competitors only.
///
/// `contender` is compared with the fastest of the others: [`Outcome::Fastest`] when its time
/// is at most theirs, [`Outcome::Within`] when it is at most `1 + TOLERANCE_PERCENT / 100`
/// times theirs (computed in integers, so the boundary is exact), [`Outcome::Lost`] beyond.
#[must_use]
pub fn verdict_of<'a>(
    contender_name: &str,
    medians: impl IntoIterator<Item = (&'a str, u64)>,
) -> Option<Verdict> {
    let mut contender = None;
    let mut fastest: Option<(&str, u64)> = None;
    for (name, ns) in medians {
        if name == contender_name {
            contender = Some(ns);
        } else if fastest.is_none_or(|(_, best)| ns < best) {
            fastest = Some((name, ns));
        }
    }
    let (contender_ns, (other, other_ns)) = contender.zip(fastest)?;
    let scaled = |ns: u64, percent: u64| u128::from(ns) * u128::from(percent);
    let outcome = if contender_ns <= other_ns {
        Outcome::Fastest
    } else if scaled(contender_ns, 100) <= scaled(other_ns, 100 + TOLERANCE_PERCENT) {
        Outcome::Within
    } else {
        Outcome::Lost
    };
    Some(Verdict {
        outcome,
        contender_ns,
        fastest_other: other.to_owned(),
        other_ns,
    })
}

/// The cells a summary counts apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CellGroup {
    /// The matrix the performance target is read on: [`MATRIX_FORMATS`] × [`MATRIX_DATASETS`]
    /// (16 cells when all are run).
    Matrix,
    /// The large city (`city-large`), in every format measured: where a cliff past a size
    /// shows.
    Large,
    /// The large binary documents of many small rows (`rows`), in postcard and bincode.
    Rows,
    /// The synthetic event streams, in the formats that carry them.
    EventStreams,
    /// Any other cell: a format read through a parser arena-core does not own, JSON through
    /// serde_json's or sonic-rs's serde path, or CBOR through cbor4ii.
    Other,
}

/// The formats of [`CellGroup::Matrix`].
pub const MATRIX_FORMATS: [FormatId; 4] = [
    FormatId::Postcard,
    FormatId::Bincode,
    FormatId::MsgPack,
    FormatId::Json,
];

/// The datasets of [`CellGroup::Matrix`].
pub const MATRIX_DATASETS: [DatasetId; 4] = [
    DatasetId::City,
    DatasetId::Twitter,
    DatasetId::CitmCatalog,
    DatasetId::Canada,
];

impl CellGroup {
    /// The group of the cell `format`/`dataset` (names as in the rows).
    #[must_use]
    pub fn of(format: &str, dataset: &str) -> Self {
        let format = FormatId::from_name(format);
        let dataset = DatasetId::from_name(dataset);
        if dataset.is_some_and(DatasetId::is_large) {
            Self::Large
        } else if dataset == Some(DatasetId::Rows) {
            Self::Rows
        } else if dataset.is_some_and(|d| MATRIX_DATASETS.contains(&d))
            && format.is_some_and(|f| MATRIX_FORMATS.contains(&f))
        {
            Self::Matrix
        } else if matches!(dataset, Some(DatasetId::Events | DatasetId::EventsTagLast))
            && format.is_some_and(|f| MATRIX_FORMATS.contains(&f))
        {
            Self::EventStreams
        } else {
            Self::Other
        }
    }

    /// The group's cells in words, completing "N of M ...".
    #[must_use]
    pub const fn cells(self) -> &'static str {
        match self {
            Self::Matrix => {
                "cells of the matrix (postcard, bincode, msgpack, json × city, twitter, \
                 citm_catalog, canada)"
            }
            Self::Large => "large-document cells (city-large)",
            Self::Rows => "row-document cells (rows)",
            Self::EventStreams => "event-stream cells (events, events-tag-last)",
            Self::Other => "cells of other formats (json-serde, json-sonic, cbor)",
        }
    }
}

/// The verdict of one cell of a run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CellVerdict {
    /// Format name.
    pub format: String,
    /// Dataset name.
    pub dataset: String,
    /// Which summary counts it.
    pub group: CellGroup,
    /// The verdict.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// [`REUSED`]'s median time per document in the cell, in nanoseconds, when it was
    /// measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reused_ns: Option<u64>,
    /// [`VIA_SERDE`]'s verdict against the same competitors, when it was measured in the
    /// cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via_serde: Option<Verdict>,
    /// The noise of the two times compared: the larger spread of their rows over their
    /// documents ([`Row::spread_percent`]), rounded up to a whole percent. A gap no larger is
    /// not a result of this run alone: one round measures each cell in one process.
    #[serde(default)]
    pub noise_percent: u64,
}

impl CellVerdict {
    /// One line: the cell, the verdict and the two times it compares.
    #[must_use]
    pub fn line(&self) -> String {
        let v = &self.verdict;
        let ms = |ns: u64| ns as f64 / 1e6;
        let inside = if self.within_noise() {
            ", the gap inside it"
        } else {
            ""
        };
        format!(
            "{}/{}: {} ({CONTENDER} {:.3} ms, {} {:.3} ms per document; noise ±{}%{inside})",
            self.format,
            self.dataset,
            v.words(),
            ms(v.contender_ns),
            v.fastest_other,
            ms(v.other_ns),
            self.noise_percent
        )
    }

    /// Whether the gap between the two times is no larger than their noise
    /// ([`Self::noise_percent`]).
    #[must_use]
    pub fn within_noise(&self) -> bool {
        self.verdict.other_faster_percent().abs() <= self.noise_percent as f64
    }

    /// One line for [`REUSED`] against [`CONTENDER`] in this cell, when it was measured: its
    /// time, and how much faster or slower it is.
    #[must_use]
    pub fn reuse_line(&self) -> Option<String> {
        let reused = self.reused_ns?;
        let fresh = self.verdict.contender_ns;
        let percent = (fresh as f64 / reused.max(1) as f64 - 1.0) * 100.0;
        let words = if percent.abs() < 0.5 {
            format!("as fast as {CONTENDER}")
        } else if percent > 0.0 {
            format!("{percent:.0}% faster than {CONTENDER}")
        } else {
            format!("{:.0}% slower than {CONTENDER}", -percent)
        };
        Some(format!(
            "{}/{}: {REUSED} {:.3} ms per document, {words}",
            self.format,
            self.dataset,
            reused as f64 / 1e6
        ))
    }
}

impl CellVerdict {
    /// One line for [`VIA_SERDE`] in this cell, when it was measured: its verdict against the
    /// cell's competitors, and [`CONTENDER`]'s time beside it.
    #[must_use]
    pub fn via_serde_line(&self) -> Option<String> {
        let v = self.via_serde.as_ref()?;
        let ms = |ns: u64| ns as f64 / 1e6;
        Some(format!(
            "{}/{}: {} ({VIA_SERDE} {:.3} ms, {} {:.3} ms per document; {CONTENDER}, through \
             the entry point, {:.3} ms)",
            self.format,
            self.dataset,
            v.words(),
            ms(v.contender_ns),
            v.fastest_other,
            ms(v.other_ns),
            ms(self.verdict.contender_ns)
        ))
    }
}

/// The verdict of every cell of `rows` (in run order) where [`CONTENDER`] and another
/// strategy of the typed matrix were measured; the value table's strategies, which read no
/// model, take no part.
#[must_use]
pub fn verdicts(rows: &[Row]) -> Vec<CellVerdict> {
    let measured = |r: &&Row| {
        let id = StrategyId::from_name(&r.strategy);
        r.error.is_none()
            && r.total_median_ns > 0
            && !id.is_some_and(StrategyId::is_value)
            && (r.strategy == CONTENDER || !id.is_some_and(StrategyId::is_ours))
    };
    let mut cells: Vec<(&str, &str)> = Vec::new();
    for r in rows.iter().filter(measured) {
        if !cells.contains(&(r.format.as_str(), r.dataset.as_str())) {
            cells.push((&r.format, &r.dataset));
        }
    }
    cells
        .into_iter()
        .filter_map(|(format, dataset)| {
            let verdict = verdict(
                rows.iter()
                    .filter(measured)
                    .filter(|r| r.format == format && r.dataset == dataset)
                    .map(|r| (r.strategy.as_str(), r.total_median_ns)),
            )?;
            let reused_ns = rows
                .iter()
                .find(|r| {
                    r.format == format
                        && r.dataset == dataset
                        && r.strategy == REUSED
                        && r.error.is_none()
                        && r.total_median_ns > 0
                })
                .map(|r| r.total_median_ns);
            let via_serde = verdict_of(
                VIA_SERDE,
                rows.iter()
                    .filter(|r| r.format == format && r.dataset == dataset)
                    .filter(|r| {
                        (r.strategy == VIA_SERDE && r.error.is_none() && r.total_median_ns > 0)
                            || (measured(r) && r.strategy != CONTENDER)
                    })
                    .map(|r| (r.strategy.as_str(), r.total_median_ns)),
            );
            let spread = |name: &str| {
                rows.iter()
                    .filter(measured)
                    .find(|r| r.format == format && r.dataset == dataset && r.strategy == name)
                    .map_or(0.0, Row::spread_percent)
            };
            let noise = spread(CONTENDER).max(spread(&verdict.fastest_other));
            Some(CellVerdict {
                format: format.to_owned(),
                dataset: dataset.to_owned(),
                group: CellGroup::of(format, dataset),
                verdict,
                reused_ns,
                via_serde,
                noise_percent: noise.ceil() as u64,
            })
        })
        .collect()
}

/// How many cells of a group [`CONTENDER`] holds in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// The group; `None` for all the cells of the run.
    pub group: Option<CellGroup>,
    /// Cells where [`CONTENDER`] is fastest or within the tolerance.
    pub holds: usize,
    /// Cells with a verdict.
    pub cells: usize,
}

impl Summary {
    /// The summary line: "slab-fresh is fastest (or within 3%) in N of M cells".
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "{CONTENDER} is fastest (or within {TOLERANCE_PERCENT}%) in {} of {} {}",
            self.holds,
            self.cells,
            self.group.map_or("cells", CellGroup::cells)
        )
    }
}

/// The summary over every cell of `verdicts`, then one per group that has cells.
#[must_use]
pub fn summarize(verdicts: &[CellVerdict]) -> Vec<Summary> {
    let count = |group: Option<CellGroup>| {
        let cells = verdicts
            .iter()
            .filter(|v| group.is_none_or(|g| v.group == g));
        Summary {
            group,
            holds: cells.clone().filter(|v| v.verdict.holds()).count(),
            cells: cells.count(),
        }
    };
    std::iter::once(count(None))
        .chain(
            [
                CellGroup::Matrix,
                CellGroup::Large,
                CellGroup::Rows,
                CellGroup::EventStreams,
                CellGroup::Other,
            ]
            .into_iter()
            .map(|g| count(Some(g)))
            .filter(|s| s.cells > 0),
        )
        .collect()
}

/// The verdicts section of the report, in Markdown: the summary lines, then one line per
/// cell.
#[must_use]
pub fn markdown(verdicts: &[CellVerdict], summary: &[Summary]) -> String {
    let mut out = format!(
        "\n## Verdicts: is {CONTENDER} the fastest strategy of its cell?\n\n\
         Per cell, {CONTENDER}'s time per document against the fastest competitor measured \
         in that cell (owned and in-place on either allocator, borrowed, multitude; the \
         toolkit's other arenas are not competition): fastest, within {TOLERANCE_PERCENT}%, or \
         lost. The noise of each is the larger spread of the two times over their documents \
         (half the interquartile range); a gap inside it is not a result of this run alone. \
         A run of one round (the default) measures each cell once; `--full` measures {FULL_ROUNDS} \
         interleaved rounds and reports each cell's median round.\n\n"
    );
    if verdicts.is_empty() {
        let _ = writeln!(
            out,
            "No cell measured {CONTENDER} and a competitor of the typed matrix."
        );
        return out;
    }
    for s in summary {
        let _ = writeln!(out, "- **{}**", s.line());
    }
    out.push('\n');
    for v in verdicts {
        let _ = writeln!(out, "- {}", v.line());
    }
    let reuse: Vec<String> = verdicts
        .iter()
        .filter_map(CellVerdict::reuse_line)
        .collect();
    if !reuse.is_empty() {
        let _ = writeln!(
            out,
            "\n### A fresh or a reused arena\n\n\
             Inside the product, a choice of the user's: {REUSED} (one `SlabArena`, reset after \
             each document) against {CONTENDER} (a new one per document), per cell.\n"
        );
        for line in reuse {
            let _ = writeln!(out, "- {line}");
        }
    }
    let via_serde: Vec<String> = verdicts
        .iter()
        .filter_map(CellVerdict::via_serde_line)
        .collect();
    if !via_serde.is_empty() {
        let _ = writeln!(
            out,
            "\n### Through the format's own serde Deserializer\n\n\
             {VIA_SERDE}: the same model into a fresh `SlabArena`, read by an `ArenaSeed` with \
             its defaults over the format's own serde `Deserializer` (postcard's, bincode's, \
             rmp-serde's, cbor4ii's) instead of arena-core's entry point, as a user whose format \
             has no entry point reads it; its verdict against the same competitors, per cell.\n"
        );
        for line in via_serde {
            let _ = writeln!(out, "- {line}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(medians: &[(&'static str, u64)]) -> Option<Verdict> {
        verdict(medians.iter().copied())
    }

    #[test]
    fn the_contender_alone_in_front_or_tied_is_fastest() {
        let v = cell(&[("owned-system", 200), (CONTENDER, 100), ("borrowed", 150)]).unwrap();
        assert_eq!(v.outcome, Outcome::Fastest);
        assert_eq!((v.fastest_other.as_str(), v.other_ns), ("borrowed", 150));
        assert!(v.other_faster_percent() < 0.0);
        let tie = cell(&[("in-place-system", 100), (CONTENDER, 100)]).unwrap();
        assert_eq!(tie.outcome, Outcome::Fastest);
        assert_eq!(tie.words(), "fastest");
    }

    #[test]
    fn the_tolerance_boundary_is_exact() {
        // 1.03x the other's time: within.
        let at = cell(&[("in-place-mimalloc", 10_000), (CONTENDER, 10_300)]).unwrap();
        assert_eq!(at.outcome, Outcome::Within);
        assert_eq!(at.words(), "within 3%");
        // One nanosecond more: lost.
        let past = cell(&[("in-place-mimalloc", 10_000), (CONTENDER, 10_301)]).unwrap();
        assert_eq!(past.outcome, Outcome::Lost);
        assert_eq!(past.words(), "lost: in-place-mimalloc is 3% faster");
        // Large times do not overflow the comparison.
        let huge = cell(&[("owned-system", u64::MAX), (CONTENDER, u64::MAX - 1)]).unwrap();
        assert_eq!(huge.outcome, Outcome::Fastest);
    }

    #[test]
    fn a_lost_cell_names_the_fastest_other_and_by_how_much() {
        let v = cell(&[
            ("owned-system", 300),
            ("multitude-fresh", 178),
            (CONTENDER, 222),
            ("in-place-system", 140),
            ("in-place-mimalloc", 140),
        ])
        .unwrap();
        assert_eq!(v.outcome, Outcome::Lost);
        // The first of two equally fast others.
        assert_eq!(v.fastest_other, "in-place-system");
        assert_eq!(v.words(), "lost: in-place-system is 59% faster");
        assert!(!v.holds());
    }

    #[test]
    fn a_cell_without_the_contender_or_without_another_has_no_verdict() {
        assert_eq!(cell(&[("owned-system", 100), ("borrowed", 90)]), None);
        assert_eq!(cell(&[(CONTENDER, 90)]), None);
        assert_eq!(cell(&[]), None);
    }

    fn row(format: &str, dataset: &str, strategy: &str, ns: u64) -> Row {
        Row {
            format: format.to_owned(),
            dataset: dataset.to_owned(),
            strategy: strategy.to_owned(),
            median_ns: ns,
            total_median_ns: ns,
            ..Row::default()
        }
    }

    #[test]
    fn a_run_gets_one_verdict_per_cell_and_a_summary_per_group() {
        let mut failed = row("json", "city", "in-place-system", 0);
        failed.error = Some("not measured".to_owned());
        let rows = [
            row("postcard", "city", "owned-system", 100),
            row("postcard", "city", CONTENDER, 40),
            // The toolkit's other arenas are not competition, however fast.
            row("postcard", "city", "slab-reused", 10),
            row("postcard", "city", "bump-scope-reused", 20),
            row("postcard", "canada", "in-place-system", 300_000),
            row("postcard", "canada", CONTENDER, 400_000),
            // A failed row and a value-table row take no part.
            failed,
            row("json", "city", "value-sonic-rs", 1),
            row("json", "city", "owned-system", 100),
            row("json", "city", CONTENDER, 102),
            row("msgpack", "events", "owned-system", 100),
            row("msgpack", "events", CONTENDER, 120),
            row("json-sonic", "city", "owned-system", 100),
            row("json-sonic", "city", CONTENDER, 50),
            row("postcard", "city-large", "in-place-system", 1_000),
            row("postcard", "city-large", CONTENDER, 900),
            row("json-sonic", "city-large", "in-place-mimalloc", 1_000),
            row("json-sonic", "city-large", CONTENDER, 1_100),
            row("bincode", "rows", "in-place-system", 1_000),
            row("bincode", "rows", CONTENDER, 800),
            // No contender: no verdict.
            row("bincode", "twitter", "owned-system", 100),
        ];
        let v = verdicts(&rows);
        let cells: Vec<(&str, &str, Outcome, CellGroup)> = v
            .iter()
            .map(|c| {
                (
                    c.format.as_str(),
                    c.dataset.as_str(),
                    c.verdict.outcome,
                    c.group,
                )
            })
            .collect();
        assert_eq!(
            cells,
            [
                ("postcard", "city", Outcome::Fastest, CellGroup::Matrix),
                ("postcard", "canada", Outcome::Lost, CellGroup::Matrix),
                ("json", "city", Outcome::Within, CellGroup::Matrix),
                ("msgpack", "events", Outcome::Lost, CellGroup::EventStreams),
                ("json-sonic", "city", Outcome::Fastest, CellGroup::Other),
                ("postcard", "city-large", Outcome::Fastest, CellGroup::Large),
                ("json-sonic", "city-large", Outcome::Lost, CellGroup::Large),
                ("bincode", "rows", Outcome::Fastest, CellGroup::Rows),
            ]
        );
        assert_eq!(v[2].verdict.fastest_other, "owned-system");
        let summary = summarize(&v);
        let counts: Vec<(Option<CellGroup>, usize, usize)> = summary
            .iter()
            .map(|s| (s.group, s.holds, s.cells))
            .collect();
        assert_eq!(
            counts,
            [
                (None, 5, 8),
                (Some(CellGroup::Matrix), 2, 3),
                (Some(CellGroup::Large), 1, 2),
                (Some(CellGroup::Rows), 1, 1),
                (Some(CellGroup::EventStreams), 0, 1),
                (Some(CellGroup::Other), 1, 1),
            ]
        );
        assert_eq!(
            summary[0].line(),
            "slab-fresh is fastest (or within 3%) in 5 of 8 cells"
        );
        assert_eq!(
            v[1].line(),
            "postcard/canada: lost: in-place-system is 33% faster \
             (slab-fresh 0.400 ms, in-place-system 0.300 ms per document; noise ±0%)"
        );
        // slab-reused is reported apart, where it was measured.
        assert_eq!(v[0].reused_ns, Some(10));
        assert_eq!(v[1].reused_ns, None);
        assert_eq!(
            v[0].reuse_line().as_deref(),
            Some("postcard/city: slab-reused 0.000 ms per document, 300% faster than slab-fresh")
        );
        let text = markdown(&v, &summary);
        assert!(text.contains("### A fresh or a reused arena"));
        assert_eq!(text.matches(REUSED).count(), 2, "{text}");
    }

    #[test]
    fn each_verdict_states_the_larger_spread_of_its_two_times_as_its_noise() {
        let spread = |strategy: &str, ns: u64, p25: u64, p75: u64| Row {
            p25_ns: p25,
            p75_ns: p75,
            ..row("json", "twitter", strategy, ns)
        };
        // owned ±2.5% (1000 between 975 and 1025), slab-fresh ±6.2% (1050 between 985 and 1115):
        // lost by 5%, inside the larger spread, rounded up to 7%.
        let rows = [
            spread("owned-system", 1_000, 975, 1_025),
            spread(CONTENDER, 1_050, 985, 1_115),
        ];
        let v = verdicts(&rows);
        assert_eq!(v[0].verdict.outcome, Outcome::Lost);
        assert_eq!(v[0].noise_percent, 7);
        assert!(v[0].within_noise());
        assert!(
            v[0].line().ends_with("; noise ±7%, the gap inside it)"),
            "{}",
            v[0].line()
        );
        // A gap past the noise says nothing more.
        let rows = [
            spread("owned-system", 1_000, 975, 1_025),
            spread(CONTENDER, 2_000, 1_990, 2_010),
        ];
        let v = verdicts(&rows);
        assert_eq!(v[0].noise_percent, 3);
        assert!(!v[0].within_noise());
        assert!(v[0].line().ends_with("; noise ±3%)"), "{}", v[0].line());
    }

    #[test]
    fn the_format_s_own_deserializer_is_judged_against_the_competitors_alone() {
        let rows = [
            row("postcard", "city", "in-place-mimalloc", 100),
            row("postcard", "city", CONTENDER, 60),
            row("postcard", "city", VIA_SERDE, 120),
            // Another arena of the toolkit is no competitor of either.
            row("postcard", "city", "slab-reused", 50),
            row("bincode", "city", "in-place-system", 100),
            row("bincode", "city", CONTENDER, 60),
            row("bincode", "city", VIA_SERDE, 90),
            // Not measured: no line.
            row("msgpack", "city", "in-place-system", 100),
            row("msgpack", "city", CONTENDER, 60),
        ];
        let v = verdicts(&rows);
        // slab-fresh's own verdict does not see it.
        assert_eq!(v[0].verdict.fastest_other, "in-place-mimalloc");
        let postcard = v[0].via_serde.as_ref().unwrap();
        assert_eq!(
            (postcard.outcome, postcard.fastest_other.as_str()),
            (Outcome::Lost, "in-place-mimalloc")
        );
        assert_eq!(v[1].via_serde.as_ref().unwrap().outcome, Outcome::Fastest);
        assert_eq!(v[2].via_serde, None);
        assert_eq!(
            v[0].via_serde_line().unwrap(),
            "postcard/city: lost: in-place-mimalloc is 20% faster (slab-fresh-via-serde \
             0.000 ms, in-place-mimalloc 0.000 ms per document; slab-fresh, through the entry \
             point, 0.000 ms)"
        );
        let text = markdown(&v, &summarize(&v));
        assert!(text.contains("### Through the format's own serde Deserializer"));
        assert_eq!(
            text.matches("- bincode/city: fastest (slab-fresh-via-serde")
                .count(),
            1
        );
        assert!(!text.contains("msgpack/city: fastest (slab-fresh-via-serde"));
    }

    #[test]
    fn reuse_is_stated_either_way() {
        let cell = |fresh: u64, reused: u64| CellVerdict {
            format: "bincode".to_owned(),
            dataset: "twitter".to_owned(),
            group: CellGroup::Matrix,
            verdict: verdict([(CONTENDER, fresh), ("borrowed", fresh * 2)]).unwrap(),
            reused_ns: Some(reused),
            via_serde: None,
            noise_percent: 0,
        };
        assert_eq!(
            cell(220_000, 200_000).reuse_line().unwrap(),
            "bincode/twitter: slab-reused 0.200 ms per document, 10% faster than slab-fresh"
        );
        assert_eq!(
            cell(200_000, 250_000).reuse_line().unwrap(),
            "bincode/twitter: slab-reused 0.250 ms per document, 20% slower than slab-fresh"
        );
        assert_eq!(
            cell(200_000, 200_400).reuse_line().unwrap(),
            "bincode/twitter: slab-reused 0.200 ms per document, as fast as slab-fresh"
        );
    }
}
