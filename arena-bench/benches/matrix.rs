//! Criterion benchmarks of the same matrix as `arena-bench`, at a small size: groups named
//! `{format}/{dataset}/{strategy}`, each timing the deserialization (`decode`) and the drop
//! (`drop`) exactly as the report does.
//!
//! The benchmark binary has one global allocator, the system one, so the `*-mimalloc`
//! strategies are left to `cargo run --release -p arena-bench`, which runs them in their own
//! binary.

use std::time::Duration;

use arena_bench::cell::Cell;
use arena_bench::datasets::DatasetId;
use arena_bench::dispatch;
use arena_bench::format::FormatId;
use arena_bench::run::documents;
use arena_bench::strategy::Observed;
use arena_bench::strategy_id::{GlobalAllocator, StrategyId};
use criterion::Criterion;

/// The synthetic documents at 100 KB (the city in postcard, about 1,200 citizens; the event
/// streams in MessagePack, about 580 events): small enough that the whole matrix runs in
/// minutes, large enough that a document takes well over a microsecond.
const CITY_BYTES: u64 = 100_000;

/// Benchmarks `cell` on `input` as the group `name`, after checking its result against
/// `digest`.
fn bench(c: &mut Criterion, cell: &Cell, input: &[u8], digest: u64, name: &str) {
    // Correctness first: the result must equal the owned result before it is timed.
    let mut reader = cell.code.start();
    let mut observed = Observed::default();
    reader
        .once(input, Some(&mut observed))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        observed.digest, digest,
        "{name}: the result differs from the owned one"
    );

    let mut group = c.benchmark_group(name);
    group.bench_function("decode", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    reader
                        .once(input, None)
                        .map_or(Duration::ZERO, |s| s.decode)
                })
                .sum()
        });
    });
    group.bench_function("drop", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| reader.once(input, None).map_or(Duration::ZERO, |s| s.drop))
                .sum()
        });
    });
    group.finish();
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
                let cell = dispatch::cell(*format, dataset, strategy).expect("a cell");
                bench(c, &cell, input, digest, &name);
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
