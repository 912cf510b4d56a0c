//! One cell (format × dataset × strategy), measured inside the module: checked, then timed.
//!
//! The harness runs each cell in a fresh instance whose input document is already in linear
//! memory. The first document is the check: its result must have the owned value's digest
//! (the native bench's rule: results are checked before they are timed), and what it grew
//! (the instance's first document: a browser tab reading one file) is reported apart. One warm
//! document then sizes the batch (none when the first took ten batches' time: a batch is then
//! one document), and the timed samples follow: each sample is `batch`
//! consecutive documents timed together and divided by `batch`, at least `batch_ms` long, so
//! that a coarse clock (`performance.now()` steps of 5 µs to 1 ms, by engine and isolation)
//! is a small part of every sample. The figure is the median sample.

use serde::{Deserialize, Serialize};

use arena_bench::clock::Instant;
use arena_bench::datasets::{Dataset, DatasetId, canada, citm, city, events, twitter};
use arena_bench::format::{Bincode, Format, FormatId, Json, MsgPack, Postcard};
use arena_bench::strategy::{Borrowed, Fresh, InPlace, Observed, Ours, Owned, Reused, Strategy};

use crate::ALLOCATOR;
use crate::counting::AllocCounts;

/// Milliseconds since `t`.
fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// A batch never holds more documents than this: a document of a few microseconds still takes
/// `batch_ms` per sample well below it.
const MAX_BATCH: u32 = 10_000;
/// A cell never takes more samples than this, however fast its documents.
const MAX_SAMPLES: usize = 101;

/// What the harness asks for.
#[derive(Debug, Deserialize)]
pub(crate) struct CellRequest {
    /// The format's name (`postcard`, `bincode`, `msgpack`, `json`).
    pub format: String,
    /// The dataset's name (`city`, `city-large`, `twitter`, ...).
    pub dataset: String,
    /// The strategy's name (`owned-system`, `slab-fresh`, ...).
    pub strategy: String,
    /// The owned value's digest, 16 hex digits.
    pub digest: String,
    /// At least this many samples.
    pub min_samples: usize,
    /// And at least this long, in milliseconds, of samples.
    pub min_ms: f64,
    /// Each sample at least this long, in milliseconds.
    pub batch_ms: f64,
}

/// What the global allocator and the pool did, per document where it says so.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(crate) struct Calls {
    /// `memory.grow` calls inside the global allocator.
    pub alloc_grows: f64,
    /// `memory.grow` calls of `SlabArena`'s chunk pool (`ChunkPool::stats().os_map_calls`).
    pub pool_grows: f64,
    /// Global allocator calls (`alloc`, `alloc_zeroed`, `realloc`).
    pub alloc_calls: f64,
}

impl Calls {
    fn between(before: (AllocCounts, u64), after: (AllocCounts, u64), docs: u32) -> Self {
        let alloc = after.0.since(before.0);
        let docs = f64::from(docs.max(1));
        Self {
            alloc_grows: alloc.grows as f64 / docs,
            pool_grows: after.1.saturating_sub(before.1) as f64 / docs,
            alloc_calls: alloc.calls as f64 / docs,
        }
    }
}

/// A measured cell.
#[derive(Debug, Serialize)]
pub(crate) struct CellResult {
    /// The format.
    pub format: String,
    /// The dataset.
    pub dataset: String,
    /// The strategy.
    pub strategy: String,
    /// The input document's bytes.
    pub input_bytes: u64,
    /// Linear memory before the first document (the input, the module's own data), bytes.
    pub memory_before: u64,
    /// Linear memory after the first document, bytes.
    pub memory_after_first: u64,
    /// The first document's time (the check pass, a fresh instance), ms.
    pub first_ms: f64,
    /// What the first document grew and allocated.
    pub first: Calls,
    /// The median sample's time per document, ms.
    pub ms_per_doc: f64,
    /// Half the samples' interquartile range, ms per document.
    pub spread_ms: f64,
    /// Samples taken.
    pub samples: usize,
    /// Documents per sample.
    pub batch: u32,
    /// What a timed document grew and allocated, on average.
    pub warm: Calls,
    /// The arena's reserved bytes after the first document, for the arena strategies.
    pub arena_reserved: Option<u64>,
    /// The document's live data (its arena model's deep size), for the arena strategies.
    pub live_bytes: Option<u64>,
}

fn counts() -> (AllocCounts, u64) {
    (
        AllocCounts::now(),
        arena_core::ChunkPool::global().stats().os_map_calls,
    )
}

fn memory_bytes() -> u64 {
    (core::arch::wasm32::memory_size::<0>() * 65_536) as u64
}

/// Measures strategy `S` (one of the native bench's, whose `Sample` of decode and drop times
/// is not used: whole documents are timed here, in batches) on dataset `D` in format `F` over
/// `input`.
fn measure<F: Format, D: Dataset, S: Strategy<D>>(
    req: &CellRequest,
    input: &[u8],
) -> Result<CellResult, String> {
    let expected = u64::from_str_radix(&req.digest, 16).map_err(|e| e.to_string())?;
    let memory_before = memory_bytes();
    let mut state = S::new_state();

    let before = counts();
    let mut observed = Observed::default();
    let t0 = Instant::now();
    S::once::<F>(&mut state, input, Some(&mut observed))?;
    let first_ms = ms_since(t0);
    let first = Calls::between(before, counts(), 1);
    let memory_after_first = memory_bytes();
    if observed.digest != expected {
        return Err(format!(
            "{}/{}/{} reads a value unlike the owned one (digest {:016x}, expected {expected:016x})",
            req.format, req.dataset, req.strategy, observed.digest
        ));
    }

    // A first document far longer than a batch needs no warm one to tell that a batch is one
    // document (the large city: each document costs seconds).
    let warm_ms = if first_ms > 10.0 * req.batch_ms && req.batch_ms > 0.0 {
        first_ms
    } else {
        let t0 = Instant::now();
        S::once::<F>(&mut state, input, None)?;
        ms_since(t0).max(1e-3)
    };
    // A whole number of documents, at least one (the cast saturates, the clamp bounds it).
    let batch = ((req.batch_ms / warm_ms).ceil() as u32).clamp(1, MAX_BATCH);

    let before = counts();
    let started = Instant::now();
    let mut samples = Vec::new();
    while samples.len() < MAX_SAMPLES
        && (samples.len() < req.min_samples || ms_since(started) < req.min_ms)
    {
        let t0 = Instant::now();
        for _ in 0..batch {
            S::once::<F>(&mut state, input, None)?;
        }
        samples.push(ms_since(t0) / f64::from(batch));
    }
    let docs = batch * u32::try_from(samples.len()).unwrap_or(u32::MAX);
    let warm = Calls::between(before, counts(), docs);
    drop(state);

    samples.sort_by(f64::total_cmp);
    let quartile = |q: usize| samples[(samples.len() - 1) * q / 4];
    Ok(CellResult {
        format: req.format.clone(),
        dataset: req.dataset.clone(),
        strategy: req.strategy.clone(),
        input_bytes: input.len() as u64,
        memory_before,
        memory_after_first,
        first_ms,
        first,
        ms_per_doc: quartile(2),
        spread_ms: (quartile(3) - quartile(1)) / 2.0,
        samples: samples.len(),
        batch,
        warm,
        arena_reserved: observed.arena.map(|a| a.reserved),
        live_bytes: observed.live_bytes,
    })
}

/// The strategies of this build: every arena one, and the owned and in-place ones of its
/// global allocator.
fn with_strategy<F: Format, D: Dataset>(
    req: &CellRequest,
    input: &[u8],
) -> Result<CellResult, String> {
    let name = req.strategy.as_str();
    if let Some(allocator) = name
        .strip_prefix("owned-")
        .or_else(|| name.strip_prefix("in-place-"))
        && allocator != ALLOCATOR
    {
        return Err(format!(
            "{name} needs the {allocator} build; this one is {ALLOCATOR}'s"
        ));
    }
    match name {
        _ if name.starts_with("owned-") => measure::<F, D, Owned>(req, input),
        _ if name.starts_with("in-place-") => measure::<F, D, InPlace>(req, input),
        "borrowed" => measure::<F, D, Borrowed>(req, input),
        "bumpalo-fresh" => measure::<F, D, Fresh<Ours<bumpalo::Bump>>>(req, input),
        "bumpalo-reused" => measure::<F, D, Reused<Ours<bumpalo::Bump>>>(req, input),
        "bump-scope-fresh" => measure::<F, D, Fresh<Ours<bump_scope::Bump>>>(req, input),
        "bump-scope-reused" => measure::<F, D, Reused<Ours<bump_scope::Bump>>>(req, input),
        "slab-fresh" => measure::<F, D, Fresh<Ours<arena_core::SlabArena>>>(req, input),
        "slab-reused" => measure::<F, D, Reused<Ours<arena_core::SlabArena>>>(req, input),
        _ => Err(format!("unknown strategy {name}")),
    }
}

fn with_dataset<F: Format>(req: &CellRequest, input: &[u8]) -> Result<CellResult, String> {
    let dataset = DatasetId::from_name(&req.dataset)
        .ok_or_else(|| format!("unknown dataset {}", req.dataset))?;
    match dataset {
        DatasetId::City | DatasetId::CityLarge => with_strategy::<F, city::City>(req, input),
        DatasetId::Twitter => with_strategy::<F, twitter::Twitter>(req, input),
        DatasetId::CitmCatalog => with_strategy::<F, citm::CitmCatalog>(req, input),
        DatasetId::Canada => with_strategy::<F, canada::Canada>(req, input),
        DatasetId::Events => with_strategy::<F, events::Events>(req, input),
        DatasetId::EventsTagLast => with_strategy::<F, events::EventsTagLast>(req, input),
        DatasetId::Rows => Err(crate::documents::NO_ROWS.to_owned()),
    }
}

/// Runs the cell `req` over `input`.
///
/// # Errors
///
/// An unknown name, a strategy of another build, a result unlike the owned one, or the
/// format's error.
pub(crate) fn run(req: &CellRequest, input: &[u8]) -> Result<CellResult, String> {
    match FormatId::from_name(&req.format) {
        Some(FormatId::Postcard) => with_dataset::<Postcard>(req, input),
        Some(FormatId::Bincode) => with_dataset::<Bincode>(req, input),
        Some(FormatId::MsgPack) => with_dataset::<MsgPack>(req, input),
        Some(FormatId::Json) => with_dataset::<Json>(req, input),
        _ => Err(format!("the Wasm bench does not read {}", req.format)),
    }
}
