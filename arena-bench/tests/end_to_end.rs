//! Runs the report binary end to end at a tiny size and checks that every strategy produced a
//! row with sane numbers, and that the reports were written; also with `--threads 2`, a
//! `--json FILE` copy and a `--results FILE` results file, with the large city, the rows, and
//! the size sweep (`--sizes`).

use std::path::PathBuf;
use std::process::Command;

use arena_bench::format::FormatId;
use arena_bench::report::Report;
use arena_bench::report_row::{BASELINE, VALUE_BASELINE};
use arena_bench::strategy_id::StrategyId;
use arena_bench::sweep::{HOLD_TARGET, SweepReport};
use arena_bench::verdict::CellGroup;

/// Runs arena-bench with `args`, its outputs in `out`; returns what it printed.
fn run_binary(out: &PathBuf, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_arena-bench"))
        .args(args)
        .arg("--out")
        .arg(out)
        // A timing budget of zero: every cell runs its minimum number of documents.
        .args(["--budget-ms", "0"])
        .output()
        .expect("the binary starts");
    assert!(
        output.status.success(),
        "arena-bench failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn run(out: &PathBuf, args: &[&str]) -> Report {
    let table = run_binary(out, args);
    assert!(
        table.contains("| format/dataset/strategy |"),
        "no table printed:\n{table}"
    );
    for file in ["report.md", "report.json", "report.svg"] {
        let text = std::fs::read_to_string(out.join(file)).expect("the report exists");
        assert!(text.len() > 100, "{file} is nearly empty");
    }
    let json = std::fs::read_to_string(out.join("report.json")).unwrap();
    serde_json::from_str(&json).expect("report.json parses")
}

/// Checks every row; `formats` includes JSON when `strategies` has any that reads JSON only
/// (the value table's, and slab-fresh-via-value).
fn check_rows(report: &Report, formats: usize, datasets: usize, strategies: &[StrategyId]) {
    let mut seen: Vec<FormatId> = Vec::new();
    for r in &report.rows {
        let format = FormatId::from_name(&r.row.format).expect("a known format");
        if !seen.contains(&format) {
            seen.push(format);
        }
    }
    assert_eq!(seen.len(), formats, "{seen:?}");
    let cells: usize = strategies
        .iter()
        .map(|s| seen.iter().filter(|f| s.reads(**f)).count())
        .sum();
    assert_eq!(report.rows.len(), cells * datasets);
    for strategy in strategies {
        assert!(
            report
                .rows
                .iter()
                .any(|r| r.row.strategy == strategy.name()),
            "no row for {}",
            strategy.name()
        );
    }
    for r in &report.rows {
        let row = &r.row;
        assert_eq!(row.error, None, "{} was not measured", r.name);
        assert!(row.input_bytes > 0, "{}: empty input", r.name);
        assert!(row.runs >= 5, "{}: {} runs", r.name, row.runs);
        assert!(row.median_ns > 0, "{}: zero time", r.name);
        assert!(
            row.min_ns <= row.p25_ns
                && row.p25_ns <= row.median_ns
                && row.median_ns <= row.p75_ns
                && row.p75_ns <= row.max_ns,
            "{}: quantiles out of order",
            r.name
        );
        assert!(
            r.mb_per_s.is_some_and(|t| t > 0.0),
            "{}: no throughput",
            r.name
        );
        assert!(r.speedup.is_some_and(|s| s > 0.0), "{}: no speedup", r.name);
        // Only the strategy that reads through a value replays, and its replay is a part of
        // each document's deserialization, so of its median too.
        let via_value = row.strategy == StrategyId::SlabFreshViaValue.name();
        assert_eq!(row.replay_median_ns.is_some(), via_value, "{}", r.name);
        if let Some(replay) = row.replay_median_ns {
            assert!(
                replay > 0 && replay <= row.median_ns,
                "{}: replay {replay} ns of {} ns",
                r.name,
                row.median_ns
            );
            assert_eq!(row.format, "json", "{}: it reads JSON only", r.name);
        }
        if row.strategy == BASELINE || row.strategy == VALUE_BASELINE {
            assert!((r.speedup.unwrap() - 1.0).abs() < 1e-9);
            // Owned types allocate for every string of the document.
            assert!(
                row.allocs_per_doc > 10,
                "{}: {} allocations",
                r.name,
                row.allocs_per_doc
            );
        }
        // Peak resident memory is measured on Linux only.
        if cfg!(target_os = "linux") {
            assert!(row.baseline_rss_bytes > 0, "{}: no baseline RSS", r.name);
            assert!(
                row.peak_rss_bytes >= row.baseline_rss_bytes,
                "{}: peak below baseline",
                r.name
            );
        }
        if row.strategy.starts_with("value-") {
            assert_eq!(row.format, "json", "{}: the value table reads JSON", r.name);
            let held = row
                .held_bytes
                .unwrap_or_else(|| panic!("{}: no held bytes", r.name));
            assert!(held > 0, "{}: holds nothing", r.name);
            if let Some(arena) = row.arena_warm {
                assert!(
                    arena.used.is_some_and(|used| used > 0 && used <= held),
                    "{}: {arena:?}, held {held}",
                    r.name
                );
            }
        } else if row.strategy.contains("fresh") || row.strategy.contains("reused") {
            let arena = row
                .arena
                .unwrap_or_else(|| panic!("{}: no arena figures", r.name));
            assert!(
                arena.reserved > 0 && arena.chunks > 0,
                "{}: empty arena",
                r.name
            );
            assert!(
                row.live_bytes.is_some_and(|live| live > 0),
                "{}: no live size",
                r.name
            );
            if let (Some(used), Some(live)) = (arena.used, row.live_bytes) {
                assert!(
                    live <= used && used <= arena.reserved,
                    "{}: {arena:?}, live {live}",
                    r.name
                );
            }
        }
    }
}

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn every_strategy_reports_a_sane_row_on_a_tiny_city() {
    let out = out_dir("city");
    // 20 KB: a few hundred citizens, fast even in a debug build.
    let report = run(&out, &["--dataset", "city", "--size", "20KB"]);
    check_rows(&report, 7, 1, &StrategyId::ALL);
    let figures = report.figures.expect("the figures ran");
    assert!(figures.errors.is_empty(), "{:?}", figures.errors);
    assert_eq!(figures.latency.len(), 4);
    for l in &figures.latency {
        assert!(l.calls > 0 && l.p50_ns > 0.0, "{l:?}");
        assert!(
            l.p50_ns <= l.p99_ns && l.p99_ns <= l.p999_ns && l.p999_ns <= l.max_ns,
            "{l:?}"
        );
    }
    assert_eq!(figures.spike.len(), 2);
    for s in &figures.spike {
        assert!(s.spike_input_bytes > 0 && s.rss_start > 0, "{s:?}");
        if cfg!(target_os = "linux") {
            assert!(s.rss_peak >= s.rss_start, "{s:?}");
        }
    }
    let table = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        table.contains("Slab arena figures"),
        "no figures in report.md"
    );
    // One verdict per format measured: the matrix's four, then JSON through serde_json and
    // sonic-rs and CBOR through cbor4ii apart.
    let cells: Vec<String> = report
        .verdicts
        .iter()
        .map(|v| format!("{}/{}", v.format, v.dataset))
        .collect();
    assert_eq!(
        cells,
        [
            "postcard/city",
            "bincode/city",
            "msgpack/city",
            "json/city",
            "json-serde/city",
            "json-sonic/city",
            "cbor/city"
        ]
    );
    let groups: Vec<CellGroup> = report.verdicts.iter().map(|v| v.group).collect();
    assert_eq!(groups[..4], [CellGroup::Matrix; 4]);
    assert_eq!(groups[4..], [CellGroup::Other; 3]);
    let summary = &report.summary;
    assert_eq!(summary.len(), 3, "{summary:?}");
    assert_eq!((summary[0].group, summary[0].cells), (None, 7));
    assert_eq!(
        (summary[1].group, summary[1].cells),
        (Some(CellGroup::Matrix), 4)
    );
    assert_eq!(
        (summary[2].group, summary[2].cells),
        (Some(CellGroup::Other), 3)
    );
    assert!(
        table.contains(&summary[1].line()),
        "no summary in report.md"
    );
    for v in &report.verdicts {
        assert!(table.contains(&v.line()), "no verdict line in report.md");
    }
    // The format's own Deserializer is judged apart, in the four formats that have one.
    let via_serde: Vec<&str> = report
        .verdicts
        .iter()
        .filter(|v| v.via_serde.is_some())
        .map(|v| v.format.as_str())
        .collect();
    assert_eq!(via_serde, ["postcard", "bincode", "msgpack", "cbor"]);
    assert!(table.contains("### Through the format's own serde Deserializer"));
    for line in report.verdicts.iter().filter_map(|v| v.via_serde_line()) {
        assert!(table.contains(&line), "no line for {line} in report.md");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_corpus_models_read_every_document_in_a_binary_format() {
    let out = out_dir("corpus");
    let strategies = [
        StrategyId::OwnedSystem,
        StrategyId::Borrowed,
        StrategyId::BumpaloFresh,
        StrategyId::SlabFresh,
        StrategyId::MultitudeFresh,
    ];
    let names = strategies.map(StrategyId::name).join(",");
    let report = run(
        &out,
        &[
            "--dataset",
            "twitter,citm_catalog,canada",
            "--format",
            "postcard",
            "--strategy",
            &names,
            "--no-figures",
        ],
    );
    check_rows(&report, 1, 3, &strategies);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn two_threads_report_sane_rows_a_json_copy_and_a_results_file() {
    let out = out_dir("threads");
    let copy = std::env::temp_dir().join(format!("arena-bench-copy-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&copy);
    let results = out.with_extension("md");
    let chart = out.with_extension("svg");
    let strategies = [StrategyId::OwnedSystem, StrategyId::SlabFresh];
    let names = strategies.map(StrategyId::name).join(",");
    let report = run(
        &out,
        &[
            "--threads",
            "2",
            "--strategy",
            &names,
            "--format",
            "postcard",
            "--dataset",
            "city",
            "--size",
            "20KB",
            "--no-figures",
            "--json",
            copy.to_str().expect("a UTF-8 temporary path"),
            "--results",
            results.to_str().expect("a UTF-8 temporary path"),
        ],
    );
    check_rows(&report, 1, 1, &strategies);
    assert_eq!(report.meta.threads, 2);
    for r in &report.rows {
        assert_eq!(r.row.threads, 2, "{}: not run on two threads", r.name);
    }
    let text = std::fs::read_to_string(&copy).expect("--json wrote its file");
    let copied: Report = serde_json::from_str(&text).expect("the --json file parses");
    let rows = |report: &Report| {
        report
            .rows
            .iter()
            .map(|r| (r.name.clone(), r.row.threads, r.row.median_ns))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        rows(&copied),
        rows(&report),
        "--json differs from report.json"
    );
    assert_eq!(copied.verdicts.len(), 1, "{:?}", copied.verdicts);
    assert_eq!(copied.verdicts, report.verdicts);
    assert_eq!(copied.summary, report.summary);
    let md = std::fs::read_to_string(&results).expect("--results wrote its file");
    let chart_name = chart.file_name().unwrap().to_str().unwrap();
    for expected in [
        format!("| date | {} |", report.meta.date_utc),
        format!("| compiler | {} |", report.meta.rustc),
        format!("({chart_name})"),
        report.summary[0].line(),
        report.verdicts[0].line(),
        "| cell | owned-system | slab-fresh |".to_owned(),
        "| postcard/city | ".to_owned(),
    ] {
        assert!(
            md.contains(&expected),
            "no `{expected}` in the results file:\n{md}"
        );
    }
    assert!(
        md.contains("| command | `cargo run") && md.contains("--threads 2 --strategy"),
        "{md}"
    );
    assert!(report.meta.rustc.starts_with("rustc "), "{:?}", report.meta);
    assert!(std::fs::read_to_string(&chart).is_ok_and(|svg| svg.starts_with("<svg")));
    let _ = std::fs::remove_file(&results);
    let _ = std::fs::remove_file(&chart);
    let _ = std::fs::remove_file(&copy);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_event_streams_run_in_every_json_and_msgpack_and_say_what_they_skip() {
    let out = out_dir("events");
    let measured = [
        StrategyId::OwnedSystem,
        StrategyId::InPlaceSystem,
        StrategyId::Borrowed,
        StrategyId::SlabFresh,
        StrategyId::SlabFreshViaValue,
    ];
    let asked: Vec<&str> = measured
        .iter()
        .chain(&[StrategyId::MultitudeFresh])
        .map(|s| s.name())
        .collect();
    let report = run(
        &out,
        &[
            "--dataset",
            "events,events-tag-last",
            "--size",
            "20KB",
            "--strategy",
            &asked.join(","),
            "--no-figures",
        ],
    );
    // Every format was asked for: JSON (through each parser), MessagePack and CBOR are
    // measured, postcard and bincode skipped.
    check_rows(&report, 5, 2, &measured);
    for r in &report.rows {
        assert!(
            ["json", "json-serde", "json-sonic", "msgpack", "cbor"]
                .contains(&r.row.format.as_str()),
            "{}: the event streams are JSON, MessagePack and CBOR only",
            r.name
        );
    }
    for dataset in ["events", "events-tag-last"] {
        let notes: Vec<&String> = report
            .meta
            .skipped
            .iter()
            .filter(|n| n.starts_with(&format!("{dataset}: ")))
            .collect();
        assert_eq!(notes.len(), 2, "{dataset}: {notes:?}");
        assert!(notes[0].starts_with(&format!("{dataset}: postcard, bincode (")));
        assert!(notes[1].starts_with(&format!("{dataset}: multitude-fresh (")));
    }
    let table = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(table.contains("Not measured, by design:"), "{table}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_rows_run_in_postcard_and_bincode_as_a_group_of_their_own() {
    let out = out_dir("rows");
    let strategies = [
        StrategyId::OwnedSystem,
        StrategyId::InPlaceSystem,
        StrategyId::SlabFresh,
        StrategyId::MultitudeFresh,
    ];
    let names = strategies.map(StrategyId::name).join(",");
    let report = run(
        &out,
        &[
            "--dataset",
            "rows",
            "--size",
            "20KB",
            "--strategy",
            &names,
            "--no-figures",
        ],
    );
    // Every format was asked for; the rows are written in the two binary ones.
    check_rows(&report, 2, 1, &strategies);
    for r in &report.rows {
        assert!(
            ["postcard", "bincode"].contains(&r.row.format.as_str()),
            "{}: the rows are postcard and bincode only",
            r.name
        );
    }
    assert_eq!(report.meta.skipped.len(), 1, "{:?}", report.meta.skipped);
    assert!(
        report.meta.skipped[0].starts_with("rows: msgpack, json, json-serde, json-sonic, cbor ("),
        "{:?}",
        report.meta.skipped
    );
    let cells: Vec<(String, CellGroup)> = report
        .verdicts
        .iter()
        .map(|v| (format!("{}/{}", v.format, v.dataset), v.group))
        .collect();
    assert_eq!(
        cells,
        [
            ("postcard/rows".to_owned(), CellGroup::Rows),
            ("bincode/rows".to_owned(), CellGroup::Rows),
        ]
    );
    let groups: Vec<(Option<CellGroup>, usize)> =
        report.summary.iter().map(|s| (s.group, s.cells)).collect();
    assert_eq!(groups, [(None, 2), (Some(CellGroup::Rows), 2)]);
    let table = std::fs::read_to_string(out.join("report.md")).unwrap();
    for expected in [
        report.summary[1].line(),
        "row-document cells (rows)".to_owned(),
        "| postcard/rows/slab-fresh | ".to_owned(),
        "| bincode/rows/in-place-system | ".to_owned(),
    ] {
        assert!(table.contains(&expected), "no `{expected}` in:\n{table}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_large_city_is_measured_next_to_the_city_as_a_group_of_its_own() {
    let out = out_dir("large");
    let strategies = [
        StrategyId::OwnedSystem,
        StrategyId::InPlaceSystem,
        StrategyId::BumpaloFresh,
        StrategyId::SlabFresh,
    ];
    let names = strategies.map(StrategyId::name).join(",");
    let report = run(
        &out,
        &[
            "--dataset",
            "city,city-large",
            "--size",
            "20KB",
            "--large",
            "40KB",
            "--format",
            "postcard,json",
            "--strategy",
            &names,
            "--no-figures",
        ],
    );
    check_rows(&report, 2, 2, &strategies);
    assert_eq!(report.meta.large_bytes, Some(40_000));
    let input = |dataset: &str| {
        report
            .rows
            .iter()
            .find(|r| r.row.format == "postcard" && r.row.dataset == dataset)
            .map(|r| r.row.input_bytes)
            .unwrap()
    };
    let ratio = input("city-large") as f64 / input("city") as f64;
    assert!(
        (1.8..2.2).contains(&ratio),
        "city-large is {ratio:.2}x city"
    );
    // Every arena strategy counts its OS calls; the others cannot.
    for r in &report.rows {
        let arena = r.row.strategy.contains("fresh");
        assert_eq!(r.row.os_calls_per_doc.is_some(), arena, "{}", r.name);
        assert_eq!(
            r.row.scratch_releases_per_doc.is_some(),
            arena,
            "{}",
            r.name
        );
    }
    let cells: Vec<(String, CellGroup)> = report
        .verdicts
        .iter()
        .map(|v| (format!("{}/{}", v.format, v.dataset), v.group))
        .collect();
    assert_eq!(
        cells,
        [
            ("postcard/city".to_owned(), CellGroup::Matrix),
            ("postcard/city-large".to_owned(), CellGroup::Large),
            ("json/city".to_owned(), CellGroup::Matrix),
            ("json/city-large".to_owned(), CellGroup::Large),
        ]
    );
    let groups: Vec<(Option<CellGroup>, usize)> =
        report.summary.iter().map(|s| (s.group, s.cells)).collect();
    assert_eq!(
        groups,
        [
            (None, 4),
            (Some(CellGroup::Matrix), 2),
            (Some(CellGroup::Large), 2)
        ]
    );
    let table = std::fs::read_to_string(out.join("report.md")).unwrap();
    for expected in [
        report.summary[2].line(),
        "large-document cells (city-large)".to_owned(),
        "| postcard/city-large/slab-fresh | ".to_owned(),
        "| OS calls/doc |".to_owned(),
        "the large city (city-large) of 0.0 MB".to_owned(),
    ] {
        assert!(table.contains(&expected), "no `{expected}` in:\n{table}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_size_sweep_reports_every_size_with_its_verdicts() {
    let out = out_dir("sizes");
    let results = out.with_extension("md");
    let strategies = [
        StrategyId::SlabFresh,
        StrategyId::InPlaceSystem,
        StrategyId::OwnedSystem,
    ];
    let names = strategies.map(StrategyId::name).join(",");
    let printed = run_binary(
        &out,
        &[
            "--sizes",
            "40KB,20KB",
            "--format",
            "postcard,json",
            "--strategy",
            &names,
            "--rounds",
            "2",
            "--results",
            results.to_str().expect("a UTF-8 temporary path"),
        ],
    );
    let json = std::fs::read_to_string(out.join("sizes.json")).expect("sizes.json exists");
    let sweep: SweepReport = serde_json::from_str(&json).expect("sizes.json parses");
    assert_eq!(sweep.sizes, [20_000, 40_000]);
    assert_eq!(sweep.rows.len(), 2 * 2 * strategies.len());
    for r in &sweep.rows {
        let name = format!("{}/{}/{}", r.row.format, r.size, r.row.strategy);
        assert_eq!(r.row.error, None, "{name} was not measured");
        assert_eq!(r.row.dataset, "city", "{name}");
        assert_eq!(r.rounds, 2, "{name}");
        assert!(r.row.runs >= 2 * 5, "{name}: {} runs", r.row.runs);
        assert!(r.row.total_median_ns > 0, "{name}: no time");
        let arena = r.row.strategy == StrategyId::SlabFresh.name();
        assert_eq!(r.row.os_calls_per_doc.is_some(), arena, "{name}");
    }
    let formats: Vec<&str> = sweep.formats.iter().map(|f| f.format.as_str()).collect();
    assert_eq!(formats, ["postcard", "json"]);
    for f in &sweep.formats {
        assert!(
            f.speedups.iter().all(|s| s.1.is_some_and(|s| s > 0.0)),
            "{f:?}"
        );
        let hold = f.hold.expect("two sizes give a hold");
        assert_eq!(f.holds(), Some(hold >= HOLD_TARGET));
        assert_eq!(f.in_place.len(), 2, "{f:?}");
        assert_eq!(f.in_place_is_target, f.format == "postcard");
    }
    let md = std::fs::read_to_string(out.join("sizes.md")).expect("sizes.md exists");
    let file = std::fs::read_to_string(&results).expect("--results wrote its file");
    for text in [&printed, &md, &file] {
        assert!(
            text.contains("## Size sweep: the city at 20 KB, 40 KB"),
            "{text}"
        );
        for f in &sweep.formats {
            assert!(text.contains(&f.hold_line()), "{text}");
            assert!(text.contains(&f.in_place_line()), "{text}");
        }
        assert!(text.contains("| postcard/slab-fresh |"), "{text}");
    }
    assert!(file.contains("| command | `cargo run") && file.contains("--sizes 40KB,20KB"));
    assert!(
        !out.join("data").read_dir().unwrap().any(|_| true),
        "the sweep's documents were left behind"
    );
    let _ = std::fs::remove_file(&results);
    let _ = std::fs::remove_dir_all(&out);
}
