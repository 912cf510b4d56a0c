//! Runs one cell of the matrix in this process, for a profiler: `perf record` or
//! `valgrind --tool=callgrind` see one strategy's code and nothing else (no child processes, no
//! timing loop, no counting pass). The `profiling` profile is `release` with line tables, for
//! annotated source; `--release` builds the same code without them.
//!
//! ```sh
//! cargo build --profile profiling -p arena-bench --example profile_cell
//! valgrind --tool=callgrind target/profiling/examples/profile_cell postcard city slab-fresh 2MB 5
//! ```
//!
//! Arguments: format, dataset, strategy (names as in `--help` of arena-bench; the `*-mimalloc`
//! strategies run with this binary's system allocator), size of the synthetic documents, the
//! number of documents to read (default 10), and the number of threads each reading that many
//! documents of their own copy, free-running (default 1). Prints the total time and the
//! time per document (only indicative under a profiler).

use std::time::Instant;

use arena_bench::cell::Cell;
use arena_bench::datasets::DatasetId;
use arena_bench::dispatch;
use arena_bench::format::FormatId;
use arena_bench::run::{documents, parse_size};
use arena_bench::strategy::Observed;
use arena_bench::strategy_id::StrategyId;

/// Reads `docs` documents of `input` with `cell` on each of `threads` threads, after checking
/// the first against `expect_digest`.
fn profile(
    cell: &Cell,
    input: &[u8],
    expect_digest: u64,
    docs: u32,
    threads: u32,
) -> Result<(), String> {
    let copies: Vec<Vec<u8>> = (0..threads).map(|_| input.to_vec()).collect();
    let barrier = std::sync::Barrier::new(copies.len());
    let per_thread = std::thread::scope(|scope| {
        let workers: Vec<_> = copies
            .iter()
            .map(|input| {
                let barrier = &barrier;
                scope.spawn(move || {
                    let mut reader = cell.code.start();
                    // Correct first, as in the benchmark.
                    let mut observed = Observed::default();
                    reader.once(input, Some(&mut observed))?;
                    if observed.digest != expect_digest {
                        return Err(format!("{} read a different value", cell.strategy.name()));
                    }
                    barrier.wait();
                    let started = Instant::now();
                    for _ in 0..docs {
                        reader.once(input, None)?;
                    }
                    Ok(started.elapsed())
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("a worker panicked".to_owned()))
            })
            .collect::<Result<Vec<_>, _>>()
    })?;
    for elapsed in per_thread {
        println!(
            "{} {} {}: {} documents of {} bytes in {:?} ({:?} per document)",
            cell.format.name(),
            cell.dataset.name(),
            cell.strategy.name(),
            docs,
            input.len(),
            elapsed,
            elapsed / docs.max(1)
        );
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [format, dataset, strategy, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: profile_cell FORMAT DATASET STRATEGY [SIZE] [DOCUMENTS] [THREADS]".to_owned(),
        );
    };
    let format = FormatId::from_name(format).ok_or("unknown format")?;
    let dataset = DatasetId::from_name(dataset).ok_or("unknown dataset")?;
    let strategy = StrategyId::from_name(strategy).ok_or("unknown strategy")?;
    let size = rest.first().map_or(Ok(2_000_000), |s| parse_size(s))?;
    let docs = rest
        .get(1)
        .map_or(Ok(10), |n| n.parse().map_err(|_| "DOCUMENTS: a number"))?;
    let threads = rest.get(2).map_or(Ok(1), |n| {
        n.parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or("THREADS: a positive number")
    })?;
    // The cell first: it says why, when the matrix has no such cell.
    let cell = dispatch::cell(format, dataset, strategy)?;
    let prepared = documents(dataset, size, &[format])?;
    let expect_digest = prepared
        .expected_digest(format, strategy)
        .ok_or("no document to check the result against")?;
    let (_, input) = prepared.bytes.first().ok_or("no document in this format")?;
    profile(&cell, input, expect_digest, docs, threads)
}
