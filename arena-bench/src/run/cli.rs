//! The command line: the options, their defaults and the `--help` text.

use std::path::PathBuf;

use crate::datasets::DatasetId;
use crate::format::FormatId;
use crate::strategy_id::StrategyId;

/// The default size of the synthetic documents (`--size`), in bytes of the city's postcard
/// and of the event streams' MessagePack, and ten bytes per row of the rows: 2 MB (about
/// 24,000 citizens, 4.3 MB of JSON; about 11,700 events, 2.4 MB of JSON; 200,000 rows, about
/// 9 MB of postcard). The default run measures 5 formats (JSON twice, through serde_json and
/// sonic-rs) × 4 datasets × every strategy that reads every format, the 2 event streams in
/// both JSONs and MessagePack × every such strategy but multitude's, the rows in postcard and
/// bincode × every strategy that reads every format, and the 6 JSON documents × every
/// strategy that reads JSON only, each cell in its own process; at this size
/// the slowest cell (owned, system allocator, JSON city) takes about 25 ms per document on a
/// 2-core machine, so each cell fits its budget with enough runs for a median, and the run
/// without the large city (`--no-large`) stays under 3 minutes.
pub const DEFAULT_CITY_BYTES: u64 = 2_000_000;

/// The default size of the large city (`--large`), in postcard bytes like `--size`: 20 MB
/// (about 240,000 citizens, 43 MB of JSON), ten times the default documents and past the 8 MiB
/// of staging that arena_core's scratch stack keeps resident (above it, large sequences give
/// their pages back as they move into the arena), so a cost that grows past that size shows in
/// every default run.
pub const DEFAULT_LARGE_BYTES: u64 = 20_000_000;

/// The JSON city `--stream` reads: 200 MB, large next to the reader's window and its
/// buffers, read in seconds.
pub const DEFAULT_STREAM_JSON_BYTES: u64 = 200_000_000;

/// The JSON Lines file `--stream` reads: 1 GB, far more than the streams hold at once (a
/// window and one batch's arena), read in seconds by the fastest ways.
pub const DEFAULT_STREAM_LINES_BYTES: u64 = 1_000_000_000;

/// Timed time per cell by default. With 22 cells for each of the 13 strategies that read every
/// format (20, and the rows' 2), 6 more for each of the 11 of them that read the event streams,
/// and 6 (the JSON documents) for each of the 7 that read JSON only (the value table's 6 and
/// slab-fresh-via-value), 394 cells, 300 ms each is about 118 s of timing, leaving room for the
/// process starts, the check and counting passes and a loaded machine within the 3 minutes.
/// The large city's 66 cells (the 13 strategies in 5 formats, and slab-fresh-via-value) are
/// past their budget at their first document and run their minimum of documents instead
/// (`LARGE_MIN_RUNS`).
pub const DEFAULT_BUDGET_MS: u64 = 300;

/// Rounds over the whole matrix by default: one, each cell measured in one child process, so
/// that a first run answers in a few minutes. Its verdicts state their noise (the spread of
/// each time over its documents); [`FULL_ROUNDS`] is the run of the results file.
pub const DEFAULT_ROUNDS: u32 = 1;

/// Rounds of `--full`, the results file's run: each cell is measured in this many separate
/// child processes, spread over the run, and the median round is reported, so that a slow
/// phase of a noisy (shared, virtual) machine hits every strategy alike instead of a few
/// cells. Three: the fewest with a median that one slow round cannot move.
pub const FULL_ROUNDS: u32 = 3;

/// Parsed command line.
#[derive(Clone, Debug)]
pub struct Options {
    pub(super) formats: Vec<FormatId>,
    pub(super) datasets: Vec<DatasetId>,
    pub(super) strategies: Vec<StrategyId>,
    pub(super) city_bytes: u64,
    pub(super) large_bytes: u64,
    pub(super) threads: u32,
    pub(super) budget_ms: u64,
    pub(super) rounds: u32,
    pub(super) json: Option<PathBuf>,
    pub(super) results: Option<PathBuf>,
    pub(super) out: Option<PathBuf>,
    pub(super) figures: bool,
    pub(super) stream: Option<u64>,
    /// `--stream-json`: bytes of the JSON city `--stream` reads.
    pub(super) stream_json: u64,
    /// `--stream-lines`: bytes of the JSON Lines file `--stream` reads.
    pub(super) stream_lines: u64,
    /// `--sizes`: the size sweep instead of the matrix, at these city sizes (postcard bytes),
    /// in increasing order.
    pub(super) sizes: Option<Vec<u64>>,
}

const USAGE: &str = "\
arena-bench: compare allocation strategies for serde deserialization, with time and memory.

USAGE: cargo run --release -p arena-bench -- [OPTIONS]

OPTIONS (lists are comma-separated; the default is all):
  --format F        postcard, bincode, msgpack, cbor, json, json-serde, json-sonic; cbor is read
                    by cbor4ii for every strategy (the arena ones through
                    arena_core::cbor::from_slice); json is read by
                    arena-core's reader for the arena strategies, json-serde is the JSON
                    read by serde_json for every strategy, json-sonic is the JSON
                    documents read by sonic-rs's serde Deserializer instead of serde_json's
                    (every typed strategy; the value table and slab-fresh-via-value read json)
  --dataset D       city, twitter, citm_catalog, canada, events, events-tag-last, rows,
                    city-large (the large city, see --large);
                    the event streams (serde's internally tagged, adjacently tagged and
                    untagged enums and flatten; events-tag-last: each event's tag last in its
                    map) are written in JSON, MessagePack and CBOR only (postcard and bincode cannot
                    carry them), and the multitude strategies are not measured on them (its
                    derive refuses these representations); rows (many small rows in one
                    large document: 200,000 at the default --size) are written in postcard
                    and bincode only
  --strategy S      owned-system, owned-mimalloc, in-place-system, in-place-mimalloc, borrowed,
                    bumpalo-fresh, bumpalo-reused, bump-scope-fresh, bump-scope-reused,
                    slab-fresh, slab-reused, slab-fresh-via-value (JSON only),
                    slab-fresh-via-serde (postcard, bincode, msgpack, cbor through the
                    format's own serde Deserializer; the city and the rows only),
                    multitude-fresh, multitude-reused;
                    the value table (JSON only): value-serde-system, value-serde-mimalloc,
                    value-slab-fresh, value-bumpalo-fresh, value-simd-json, value-sonic-rs
  --size SIZE       size of the synthetic documents, e.g. 500KB, 2MB (default), 200MB: the
                    city in postcard, the event streams in MessagePack, the rows at one row
                    per 10 bytes
  --large SIZE      size of the large city, dataset city-large (default 20MB of postcard):
                    the same city measured next to the small documents, every format, every
                    typed strategy, its verdicts a group of their own
  --no-large        leave the large city out (as --dataset without city-large does)
  --threads N       N workers deserializing their own documents concurrently (default 1)
  --budget-ms MS    time spent timing each cell, over all rounds (default 300)
  --rounds N        measure the whole matrix N times, interleaved, and report each cell's
                    median round (default 1: a first look in a few minutes, each verdict
                    with its noise)
  --full            the results file's run: --rounds 3
  --json FILE       also write the JSON report to FILE (with the per-cell verdicts)
  --results FILE    also write the dated results file to FILE, in Markdown: date (UTC),
                    machine, rustc, the command, the verdicts, time per document and
                    speedup and peak memory per cell, the full tables; its chart goes next
                    to it, as FILE with the extension .svg (how arena-bench/docs/results.md
                    is made: see arena-bench/README.md)
  --out DIR         where data and reports go (default target/arena-bench)
  --no-figures      skip the slab arena's figures (alloc latency, memory after a spike)
  --stream SIZE     instead of the matrix, the streaming table: peak resident memory of
                    reading one city of SIZE postcard bytes (e.g. 200MB) from a file, each way
                    in a fresh process: arena_core::postcard::from_reader into a SlabArena,
                    from_bytes after reading the file, borrowed, and owned from a reader and
                    from bytes; then a JSON city and a JSON Lines file of citizens, read by
                    arena_core::json (from_reader, from_slice, ReaderStream, SliceStream),
                    serde_json (from_reader, StreamDeserializer) and sonic-rs's stream: time
                    per GB and peak RSS
  --stream-json SIZE   the JSON city's size for --stream (default 200MB)
  --stream-lines SIZE  the JSON Lines file's size for --stream (default 1GB)
  --sizes LIST      instead of the matrix, the size sweep: the city at each size (e.g.
                    2MB,20MB,200MB) in postcard, bincode and JSON (or --format), read by
                    slab-fresh, in-place-system, in-place-mimalloc, owned-system and
                    owned-mimalloc (or --strategy), each cell in its own process: time per
                    document, peak RSS and OS calls per document at each size, slab-fresh's
                    speedup over owned-system and how it holds from the smallest size to the
                    largest, and whether slab-fresh beats in-place at every size; written to
                    sizes.md and sizes.json (and to --results FILE, --json FILE); documents
                    of 10 MB or more are timed at least 3 times per round
";

/// The formats of the size sweep unless `--format` says otherwise: the two binary formats whose
/// announced lengths the arena trusts (up to 64 MiB a block), and JSON, which stages every
/// sequence on the scratch stack (where the cliff was).
pub const SWEEP_FORMATS: [FormatId; 3] = [FormatId::Postcard, FormatId::Bincode, FormatId::Json];

/// The strategies of the size sweep unless `--strategy` says otherwise: the contender, what a
/// user would pick instead (in-place with either allocator), and the baseline with either
/// allocator.
pub const SWEEP_STRATEGIES: [StrategyId; 5] = [
    StrategyId::SlabFresh,
    StrategyId::InPlaceSystem,
    StrategyId::InPlaceMimalloc,
    StrategyId::OwnedSystem,
    StrategyId::OwnedMimalloc,
];

fn list<T: Copy>(
    value: &str,
    all: &[T],
    parse: impl Fn(&str) -> Option<T>,
    what: &str,
) -> Result<Vec<T>, String> {
    if value == "all" {
        return Ok(all.to_vec());
    }
    value
        .split(',')
        .map(|name| parse(name.trim()).ok_or_else(|| format!("unknown {what} `{name}`")))
        .collect()
}

/// Parses `200MB`, `500KB`, `1GB` or a plain number of bytes (decimal units).
///
/// # Errors
///
/// When the text is not a size.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let upper = text.trim().to_ascii_uppercase();
    let (digits, unit) = upper
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .map_or((upper.as_str(), ""), |i| upper.split_at(i));
    let factor = match unit.trim() {
        "" | "B" => 1.0,
        "K" | "KB" => 1e3,
        "M" | "MB" => 1e6,
        "G" | "GB" => 1e9,
        _ => {
            return Err(format!(
                "unknown size unit in `{text}` (use B, KB, MB or GB)"
            ));
        }
    };
    let value: f64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size"))?;
    Ok((value * factor) as u64)
}

/// Parses `--sizes`: comma-separated sizes ([`parse_size`]), at least one, each at least one
/// byte; returned in increasing order without repeats.
///
/// # Errors
///
/// A size that does not parse, a zero size, or an empty list.
pub fn parse_sizes(text: &str) -> Result<Vec<u64>, String> {
    let mut sizes = text
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| match parse_size(s)? {
            0 => Err(format!("`--sizes {text}`: a size of zero bytes")),
            n => Ok(n),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if sizes.is_empty() {
        return Err(format!(
            "`--sizes {text}`: expected sizes such as 2MB,20MB,200MB"
        ));
    }
    sizes.sort_unstable();
    sizes.dedup();
    Ok(sizes)
}

impl Options {
    /// Parses the command line (without the program name).
    ///
    /// # Errors
    ///
    /// A message for the user.
    pub fn parse(args: &[String]) -> Result<Self, String> {
        let mut o = Self {
            formats: FormatId::ALL.to_vec(),
            datasets: DatasetId::ALL.to_vec(),
            strategies: StrategyId::ALL.to_vec(),
            city_bytes: DEFAULT_CITY_BYTES,
            large_bytes: DEFAULT_LARGE_BYTES,
            threads: 1,
            budget_ms: DEFAULT_BUDGET_MS,
            rounds: DEFAULT_ROUNDS,
            json: None,
            results: None,
            out: None,
            figures: true,
            stream: None,
            stream_json: DEFAULT_STREAM_JSON_BYTES,
            stream_lines: DEFAULT_STREAM_LINES_BYTES,
            sizes: None,
        };
        let (mut formats, mut strategies, mut large) = (None, None, true);
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            if flag == "--help" || flag == "-h" {
                return Err(USAGE.to_owned());
            }
            if flag == "--no-figures" {
                o.figures = false;
                continue;
            }
            if flag == "--no-large" {
                large = false;
                continue;
            }
            if flag == "--full" {
                o.rounds = FULL_ROUNDS;
                continue;
            }
            let value = it
                .next()
                .ok_or_else(|| format!("`{flag}` needs a value\n\n{USAGE}"))?;
            match flag.as_str() {
                "--format" => {
                    formats = Some(list(value, &FormatId::ALL, FormatId::from_name, "format")?);
                }
                "--dataset" => {
                    o.datasets = list(value, &DatasetId::ALL, DatasetId::from_name, "dataset")?;
                }
                "--strategy" => {
                    strategies = Some(list(
                        value,
                        &StrategyId::ALL,
                        StrategyId::from_name,
                        "strategy",
                    )?);
                }
                "--size" => o.city_bytes = parse_size(value)?,
                "--large" => o.large_bytes = parse_size(value)?,
                "--sizes" => o.sizes = Some(parse_sizes(value)?),
                "--stream" => o.stream = Some(parse_size(value)?),
                "--stream-json" => o.stream_json = parse_size(value)?.max(1),
                "--stream-lines" => o.stream_lines = parse_size(value)?.max(1),
                "--threads" => {
                    o.threads = value.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                        format!("`--threads {value}`: expected a positive number")
                    })?;
                }
                "--budget-ms" => {
                    o.budget_ms = value
                        .parse()
                        .map_err(|_| format!("`--budget-ms {value}`: expected milliseconds"))?;
                }
                "--rounds" => {
                    o.rounds = value
                        .parse()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or("--rounds takes a positive number")?;
                }
                "--json" => o.json = Some(PathBuf::from(value)),
                "--results" => o.results = Some(PathBuf::from(value)),
                "--out" => o.out = Some(PathBuf::from(value)),
                _ => return Err(format!("unknown option `{flag}`\n\n{USAGE}")),
            }
        }
        if !large {
            o.datasets.retain(|d| !d.is_large());
        }
        let sweep = o.sizes.is_some();
        o.formats = formats.unwrap_or_else(|| {
            if sweep {
                SWEEP_FORMATS.to_vec()
            } else {
                FormatId::ALL.to_vec()
            }
        });
        o.strategies = strategies.unwrap_or_else(|| {
            if sweep {
                SWEEP_STRATEGIES.to_vec()
            } else {
                StrategyId::ALL.to_vec()
            }
        });
        if sweep {
            // The sweep reads the city's typed model: the value table reads no model.
            o.strategies.retain(|s| !s.is_value());
            if o.strategies.is_empty() {
                return Err("--sizes measures typed strategies, not the value table".to_owned());
            }
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::{
        DEFAULT_LARGE_BYTES, DEFAULT_ROUNDS, FULL_ROUNDS, Options, SWEEP_FORMATS, SWEEP_STRATEGIES,
        parse_sizes,
    };
    use crate::datasets::DatasetId;
    use crate::format::FormatId;
    use crate::strategy_id::StrategyId;

    fn parse(args: &[&str]) -> Result<Options, String> {
        Options::parse(&args.iter().map(|&a| a.to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn the_default_run_is_one_round_and_full_is_three() {
        assert_eq!(parse(&[]).unwrap().rounds, DEFAULT_ROUNDS);
        assert_eq!(DEFAULT_ROUNDS, 1);
        assert_eq!(parse(&["--full"]).unwrap().rounds, FULL_ROUNDS);
        assert_eq!(FULL_ROUNDS, 3);
        // The last of the two says.
        assert_eq!(parse(&["--full", "--rounds", "2"]).unwrap().rounds, 2);
        assert_eq!(parse(&["--rounds", "2", "--full"]).unwrap().rounds, 3);
    }

    #[test]
    fn json_sonic_is_in_the_default_run_and_named_on_the_command_line() {
        assert_eq!(parse(&[]).unwrap().formats, FormatId::ALL);
        assert!(FormatId::ALL.contains(&FormatId::JsonSonic));
        assert_eq!(
            parse(&["--format", "json, json-sonic"]).unwrap().formats,
            [FormatId::Json, FormatId::JsonSonic]
        );
        assert_eq!(
            parse(&["--format", "json-sonic"]).unwrap().formats,
            [FormatId::JsonSonic]
        );
        let error = parse(&["--format", "json,sonic"]).unwrap_err();
        assert!(error.contains("unknown format `sonic`"), "{error}");
    }

    #[test]
    fn the_large_city_is_in_the_default_run_unless_left_out() {
        let o = parse(&[]).unwrap();
        assert!(o.datasets.contains(&DatasetId::CityLarge));
        assert_eq!(o.large_bytes, DEFAULT_LARGE_BYTES);
        assert_eq!(o.sizes, None);
        let o = parse(&["--no-large", "--large", "50MB"]).unwrap();
        assert!(!o.datasets.iter().any(|d| d.is_large()));
        assert_eq!(o.datasets.len(), DatasetId::ALL.len() - 1);
        assert_eq!(o.large_bytes, 50_000_000);
        let o = parse(&["--dataset", "city-large"]).unwrap();
        assert_eq!(o.datasets, [DatasetId::CityLarge]);
        // Naming the datasets leaves it out unless it is named.
        let o = parse(&["--dataset", "city,canada"]).unwrap();
        assert_eq!(o.datasets, [DatasetId::City, DatasetId::Canada]);
    }

    #[test]
    fn sizes_parse_into_increasing_distinct_sizes() {
        assert_eq!(
            parse_sizes("2MB,20MB,200MB").unwrap(),
            [2_000_000, 20_000_000, 200_000_000]
        );
        assert_eq!(
            parse_sizes("200MB, 2mb,2MB,500KB,").unwrap(),
            [500_000, 2_000_000, 200_000_000]
        );
        assert_eq!(parse_sizes("1.5GB").unwrap(), [1_500_000_000]);
        for bad in ["", ",", "2MB,0", "2MB,20XB", "big"] {
            assert!(parse_sizes(bad).is_err(), "`{bad}` parsed");
        }
    }

    #[test]
    fn the_sweep_has_its_own_formats_and_strategies_unless_named() {
        let o = parse(&["--sizes", "2MB,20MB,200MB"]).unwrap();
        assert_eq!(
            o.sizes.as_deref(),
            Some(&[2_000_000, 20_000_000, 200_000_000][..])
        );
        assert_eq!(o.formats, SWEEP_FORMATS);
        assert_eq!(o.strategies, SWEEP_STRATEGIES);
        let o = parse(&[
            "--format",
            "json",
            "--sizes",
            "2MB",
            "--strategy",
            "slab-fresh,owned-system,value-sonic-rs",
        ])
        .unwrap();
        assert_eq!(o.formats, [FormatId::Json]);
        // The value table reads no model: the sweep leaves it out.
        assert_eq!(
            o.strategies,
            [StrategyId::SlabFresh, StrategyId::OwnedSystem]
        );
        let error = parse(&["--sizes", "2MB", "--strategy", "value-serde-system"]).unwrap_err();
        assert!(error.contains("typed strategies"), "{error}");
        let error = parse(&["--sizes", "2MB,twenty"]).unwrap_err();
        assert!(error.contains("`twenty`"), "{error}");
        assert!(parse(&["--sizes"]).unwrap_err().contains("needs a value"));
    }
}
