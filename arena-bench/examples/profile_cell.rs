//! Runs one cell of the matrix in this process, for a profiler: `perf record` or
//! `valgrind --tool=callgrind` see one strategy's code and nothing else (no child processes, no
//! timing loop, no counting pass).
//!
//! ```sh
//! cargo build --release -p arena-bench --example profile_cell
//! valgrind --tool=callgrind target/release/examples/profile_cell postcard city slab-fresh 2MB 5
//! ```
//!
//! Arguments: format, dataset, strategy (names as in `--help` of arena-bench; the `*-mimalloc`
//! strategies run with this binary's system allocator), size of the synthetic documents, the
//! number of documents to read (default 10), and the number of threads each reading that many
//! documents of their own copy, free-running (default 1). Prints the total time and the
//! time per document (only indicative under a profiler).

use std::time::Instant;

use arena_bench::datasets::{Dataset, DatasetId};
use arena_bench::dispatch::{CellVisitor, dispatch};
use arena_bench::format::{Format, FormatId};
use arena_bench::run::{documents, parse_size};
use arena_bench::strategy::{Observed, Strategy};
use arena_bench::strategy_id::StrategyId;

struct Profile<'a> {
    input: &'a [u8],
    expect_digest: u64,
    docs: u32,
    threads: u32,
}

impl CellVisitor for Profile<'_> {
    type Output = Result<(), String>;

    fn visit<F: Format, D: Dataset, S: Strategy<D>>(self, strategy: StrategyId) -> Self::Output {
        let copies: Vec<Vec<u8>> = (0..self.threads).map(|_| self.input.to_vec()).collect();
        let barrier = std::sync::Barrier::new(copies.len());
        let per_thread = std::thread::scope(|scope| {
            let workers: Vec<_> = copies
                .iter()
                .map(|input| {
                    let barrier = &barrier;
                    scope.spawn(move || {
                        let mut state = S::new_state();
                        // Correct first, as in the benchmark.
                        let mut observed = Observed::default();
                        S::once::<F>(&mut state, input, Some(&mut observed))?;
                        if observed.digest != self.expect_digest {
                            return Err(format!("{} read a different value", strategy.name()));
                        }
                        barrier.wait();
                        let started = Instant::now();
                        for _ in 0..self.docs {
                            S::once::<F>(&mut state, input, None)?;
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
                F::NAME,
                D::NAME,
                strategy.name(),
                self.docs,
                self.input.len(),
                elapsed,
                elapsed / self.docs.max(1)
            );
        }
        Ok(())
    }
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
    if let Some(why) = dataset.skipped(strategy) {
        return Err(format!(
            "{} is not measured on {}: {why}",
            strategy.name(),
            dataset.name()
        ));
    }
    let prepared = documents(dataset, size, &[format])?;
    let expect_digest = prepared
        .expected_digest(format, strategy)
        .ok_or("no document to check the result against")?;
    let (_, input) = prepared.bytes.first().ok_or_else(|| {
        format!(
            "no {} document of {}: {}",
            format.name(),
            dataset.name(),
            dataset.skipped_format(format).unwrap_or("")
        )
    })?;
    dispatch(
        format,
        dataset,
        strategy,
        Profile {
            input,
            expect_digest,
            docs,
            threads,
        },
    )
}
