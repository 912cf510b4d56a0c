//! Criterion benchmarks of the same matrix as `arena-bench`, at a small size: groups named
//! `{format}/{dataset}/{strategy}`, each timing the deserialization (`decode`) and the drop
//! (`drop`) exactly as the report does.
//!
//! The benchmark binary has one global allocator, the system one, so the `*-mimalloc`
//! strategies are left to `cargo run --release -p arena-bench`, which runs them in their own
//! binary.

use std::time::Duration;

use arena_bench::datasets::Dataset;
use arena_bench::datasets::DatasetId;
use arena_bench::dispatch::{CellVisitor, dispatch};
use arena_bench::format::{Format, FormatId};
use arena_bench::run::documents;
use arena_bench::strategy::{Observed, Strategy};
use arena_bench::strategy_id::{GlobalAllocator, StrategyId};
use criterion::Criterion;

/// The synthetic documents at 100 KB (the city in postcard, about 1,200 citizens; the event
/// streams in MessagePack, about 580 events): small enough that the whole matrix runs in
/// minutes, large enough that a document takes well over a microsecond.
const CITY_BYTES: u64 = 100_000;

struct Bench<'a> {
    c: &'a mut Criterion,
    input: &'a [u8],
    digest: u64,
    name: String,
}

impl CellVisitor for Bench<'_> {
    type Output = ();

    fn visit<F: Format, D: Dataset, S: Strategy<D>>(self, _: StrategyId) {
        // Correctness first: the result must equal the owned result before it is timed.
        let mut state = S::new_state();
        let mut observed = Observed::default();
        S::once::<F>(&mut state, self.input, Some(&mut observed))
            .unwrap_or_else(|e| panic!("{}: {e}", self.name));
        assert_eq!(
            observed.digest, self.digest,
            "{}: the result differs from the owned one",
            self.name
        );

        let mut group = self.c.benchmark_group(&self.name);
        group.bench_function("decode", |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        S::once::<F>(&mut state, self.input, None)
                            .map_or(Duration::ZERO, |s| s.decode)
                    })
                    .sum()
            });
        });
        group.bench_function("drop", |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        S::once::<F>(&mut state, self.input, None)
                            .map_or(Duration::ZERO, |s| s.drop)
                    })
                    .sum()
            });
        });
        group.finish();
    }
}

fn matrix(c: &mut Criterion) {
    // The large city is the same model as the city: at this size it would be its duplicate,
    // and at its own it would take the bench past an hour.
    for dataset in DatasetId::ALL.into_iter().filter(|d| !d.is_large()) {
        let docs = documents(dataset, CITY_BYTES, &FormatId::ALL).expect("the documents");
        for (format, input) in &docs.bytes {
            for strategy in StrategyId::ALL {
                let Some(digest) = docs.expected_digest(*format, strategy) else {
                    continue;
                };
                if strategy.allocator() != GlobalAllocator::System
                    || !strategy.reads(*format)
                    || dataset.skipped(strategy).is_some()
                {
                    continue;
                }
                let name = format!("{}/{}/{}", format.name(), dataset.name(), strategy.name());
                let bench = Bench {
                    c: &mut *c,
                    input,
                    digest,
                    name,
                };
                dispatch(*format, dataset, strategy, bench);
            }
        }
    }
}

fn config() -> Criterion {
    // 20 samples of about 1 s each: the matrix has over a hundred cells, and on documents of
    // this size the default 100 samples over 5 s would take most of an hour.
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
}

criterion::criterion_group! {
    name = benches;
    config = config();
    targets = matrix
}
criterion::criterion_main!(benches);
