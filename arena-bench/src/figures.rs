//! The slab arena's figures, measured in the same run as the table: `alloc` latency including
//! chunk refills, resident memory after a spike, and the targets read off the table's rows
//! (fresh `SlabArena` against reused and fresh bumpalo, OS calls per warm document).
//!
//! Latency and spike each run in their own child process, the spike so that its resident
//! memory is its own, one generic function per figure instantiated per arena.

use std::hint::black_box;
use std::time::{Duration, Instant};

use arena_core::ArenaSeed;
use core::alloc::Layout;

use crate::datasets::city;
use crate::format::{Format, Postcard};
use crate::measure::{proc_status_bytes, quantile};
use crate::report_row::ReportRow;
use crate::strategy::ArenaKind;

/// Allocations per simulated document in the latency figure: about what a 2 MB city makes
/// (24,000 citizens × 4 to 6 strings and slices), so that each document crosses several chunk
/// refills. A multiple of [`BATCH`], so that every batch is whole.
const ALLOCS_PER_DOC: usize = 102_400;

/// Consecutive `alloc` calls per timed sample in the batched latency figure. One call takes
/// 2 to 5 ns, while this VM's cycle counter advances in steps of about 10 ns (24 ticks) and two
/// reads of it cost one step: timed alone, a call is one step at the median and two or three at
/// p999, which measures the clock. A batch must span at least 10 steps (a quantization error of
/// 10% at most): 64 calls take 110 to 120 ns on the fastest arena measured (`SlabArena`, 1.7
/// to 1.9 ns a call), 11 to 12 steps, where 32 would take 6 (`markdown` warns when a median
/// batch spans fewer than 10). The timer's own cost (one step) is then 8 to 9% of a median
/// batch, 0.16 ns a call. A chunk refill adds its whole cost to its batch: a refill of a few
/// microseconds makes that batch tens of times the median.
const BATCH: usize = 64;

const _: () = assert!(ALLOCS_PER_DOC.is_multiple_of(BATCH));

/// Documents per latency figure, each figure its own, after one warm-up document: 20 × 102,400
/// calls, so the batched figure's p999 rests on the slowest 32 of its 32,000 batches and the
/// unbatched one's on the slowest 2,048 of its 2,048,000 calls.
const LATENCY_DOCS: usize = 20;

/// Small documents read after the spike, to see whether memory comes back while the arena
/// keeps working.
const SMALL_DOCS: usize = 50;

/// `alloc` latency of one arena and mode, per call, in nanoseconds, timer included.
///
/// The batched figure (the top-level quantiles, which the verdict reads) times `BATCH`
/// consecutive calls per sample and divides by it; a batch holding a chunk refill is a
/// slow sample, so refills show in the tail. They are warm: the first document of the figure's
/// process (an empty pool that maps and faults in its chunks) is left out of them and reported
/// on its own (`first_document`). The timer's own cost is never subtracted: each sample
/// includes it once (`timer_ns`), so each batched figure includes `timer_ns / batch` and each
/// unbatched one all of `timer_ns`.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Latency {
    /// `slab-fresh`, `bumpalo-reused`, ...
    pub arena: String,
    /// Consecutive calls per timed sample in the batched figure.
    pub batch: u64,
    /// Batches timed: the batched figure's samples.
    pub batches: u64,
    /// Calls timed in batches (`batches × batch`).
    pub calls: u64,
    /// Median batch time / `batch`.
    pub p50_ns: f64,
    /// 99th percentile batch time / `batch`.
    pub p99_ns: f64,
    /// 99.9th percentile batch time / `batch`.
    pub p999_ns: f64,
    /// Slowest batch time / `batch` (the slowest call of it took at most `max_ns × batch`).
    pub max_ns: f64,
    /// Median cost of the timer alone (two back-to-back reads), included once in every sample,
    /// batched or not.
    pub timer_ns: f64,
    /// Smallest nonzero difference between two back-to-back timer reads: the timer's step or
    /// its own cost, whichever is larger. No sample can be finer than this.
    pub timer_step_ns: f64,
    /// The same mix of calls, each timed alone: bound by the timer (a call is cheaper than
    /// `timer_step_ns`), kept so nothing is hidden; the verdict does not read it.
    pub unbatched: Quantiles,
    /// The warm-up: the process's first document, batched, per call. Its arena draws from an
    /// empty pool (or allocator), so this is where mapping and first touches show.
    pub first_document: Quantiles,
    /// A fresh arena per document: the time to create each one (outside the `alloc` figures;
    /// a `SlabArena` may take its first chunk there), one sample per document after the
    /// first. `None` for a reused arena.
    pub create: Option<Quantiles>,
}

/// `alloc` latency quantiles per call, in nanoseconds, the timer included.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Quantiles {
    /// Calls timed.
    pub calls: u64,
    /// Median.
    pub p50_ns: f64,
    /// 99th percentile.
    pub p99_ns: f64,
    /// 99.9th percentile.
    pub p999_ns: f64,
    /// Slowest sample.
    pub max_ns: f64,
}

impl Quantiles {
    /// Of `samples` (sorted here), each the ticks of `calls_per_sample` calls, `ns_per_tick`
    /// apart.
    fn of(samples: &mut [u64], calls_per_sample: usize, ns_per_tick: f64) -> Self {
        samples.sort_unstable();
        let per_call = |t: u64| t as f64 * ns_per_tick / calls_per_sample as f64;
        Quantiles {
            calls: (samples.len() * calls_per_sample) as u64,
            p50_ns: per_call(quantile(samples, 0.5)),
            p99_ns: per_call(quantile(samples, 0.99)),
            p999_ns: per_call(quantile(samples, 0.999)),
            max_ns: per_call(samples.last().copied().unwrap_or(0)),
        }
    }
}

/// Resident memory around one large document followed by small ones.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Spike {
    /// `slab` or `bumpalo` (a fresh arena per document).
    pub arena: String,
    /// Size of the large document (postcard city).
    pub spike_input_bytes: u64,
    /// Resident memory before it (inputs loaded).
    pub rss_start: u64,
    /// Peak resident memory while reading it.
    pub rss_peak: u64,
    /// Resident memory once it is dropped.
    pub rss_after_spike: u64,
    /// Resident memory after `SMALL_DOCS` small documents.
    pub rss_after_small: u64,
    /// Bytes the chunk pool still maps at the end (`SlabArena` only).
    pub pool_mapped: Option<u64>,
}

/// Everything the figures measured; a figure that failed is `None` with its reason in
/// `errors`.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Figures {
    /// One per arena and mode.
    pub latency: Vec<Latency>,
    /// One per arena.
    pub spike: Vec<Spike>,
    /// Figures that could not be measured, and why.
    pub errors: Vec<String>,
}

/// A cycle counter where there is one (x86_64), nanoseconds elsewhere.
#[inline(always)]
fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `rdtsc` has no preconditions and exists on every x86_64 CPU.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        static START: OnceLock<Instant> = OnceLock::new();
        u64::try_from(START.get_or_init(Instant::now).elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// Nanoseconds per tick, measured against `Instant` over 20 ms.
fn ns_per_tick() -> f64 {
    let (t0, c0) = (Instant::now(), ticks());
    while t0.elapsed() < Duration::from_millis(20) {}
    let (ns, cycles) = (
        t0.elapsed().as_nanos() as f64,
        ticks().wrapping_sub(c0) as f64,
    );
    if cycles > 0.0 { ns / cycles } else { 1.0 }
}

/// A deterministic mix of the layouts deserialization asks for: mostly short strings
/// (align 1), some slices of small structs (align 8).
fn layout(i: usize) -> Layout {
    let x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58; // 0..64
    if i % 4 == 3 {
        Layout::from_size_align(48 * (1 + (x as usize % 3)), 8).unwrap_or(Layout::new::<u64>())
    } else {
        Layout::from_size_align(1 + x as usize, 1).unwrap_or(Layout::new::<u8>())
    }
}

/// The latency of `try_alloc_layout` on arena `K`: a fresh arena per document, or one reset
/// between documents.
///
/// The first document, batched, warms the arena kind up and is reported on its own
/// ([`Latency::first_document`]); then documents alternate between the batched figure and the
/// unbatched one, so both see the same arena and pool states.
#[must_use]
pub fn latency<K: ArenaKind>(name: &str, reused: bool) -> Latency {
    let mut batches: Vec<u64> = Vec::with_capacity(ALLOCS_PER_DOC / BATCH * LATENCY_DOCS);
    let mut singles: Vec<u64> = Vec::with_capacity(ALLOCS_PER_DOC * LATENCY_DOCS);
    let mut first: Vec<u64> = Vec::with_capacity(ALLOCS_PER_DOC / BATCH);
    let mut creates: Vec<u64> = Vec::with_capacity(2 * LATENCY_DOCS);
    let mut kept = K::create();
    // Document 0 is the warm-up; then odd documents are batched, even ones unbatched.
    for doc in 0..=2 * LATENCY_DOCS {
        let t0 = ticks();
        let fresh = (!reused).then(K::create);
        let t1 = ticks();
        if doc > 0 && fresh.is_some() {
            creates.push(t1.wrapping_sub(t0));
        }
        let arena = fresh.as_ref().unwrap_or(&kept);
        if doc % 2 == 1 || doc == 0 {
            let into = if doc == 0 { &mut first } else { &mut batches };
            for start in (0..ALLOCS_PER_DOC).step_by(BATCH) {
                // The layouts are computed before the timer starts, as for a single call.
                let layouts: [Layout; BATCH] = core::array::from_fn(|k| layout(start + k));
                let t0 = ticks();
                for l in layouts {
                    black_box(arena.try_alloc_layout(l).ok());
                }
                let t1 = ticks();
                into.push(t1.wrapping_sub(t0));
            }
        } else {
            for i in 0..ALLOCS_PER_DOC {
                let l = layout(i);
                let t0 = ticks();
                let p = arena.try_alloc_layout(l);
                let t1 = ticks();
                black_box(p.ok());
                singles.push(t1.wrapping_sub(t0));
            }
        }
        drop(fresh);
        if reused {
            kept.reset();
        }
    }
    let mut timer: Vec<u64> = (0..ALLOCS_PER_DOC)
        .map(|_| {
            let t0 = ticks();
            let t1 = black_box(ticks());
            t1.wrapping_sub(t0)
        })
        .collect();
    timer.sort_unstable();
    let scale = ns_per_tick();
    let warm = Quantiles::of(&mut batches, BATCH, scale);
    Latency {
        arena: name.to_owned(),
        batch: BATCH as u64,
        batches: batches.len() as u64,
        calls: warm.calls,
        p50_ns: warm.p50_ns,
        p99_ns: warm.p99_ns,
        p999_ns: warm.p999_ns,
        max_ns: warm.max_ns,
        timer_ns: quantile(&timer, 0.5) as f64 * scale,
        timer_step_ns: timer.iter().copied().find(|&t| t > 0).unwrap_or(0) as f64 * scale,
        unbatched: Quantiles::of(&mut singles, 1, scale),
        first_document: Quantiles::of(&mut first, BATCH, scale),
        create: (!reused).then(|| Quantiles::of(&mut creates, 1, scale)),
    }
}

/// Resident memory around one large city (`big`, postcard) and then `SMALL_DOCS` small ones
/// (`small`), a fresh arena `K` per document.
///
/// # Errors
///
/// A document that does not read.
pub fn spike<K: ArenaKind>(name: &str, big: &[u8], small: &[u8]) -> Result<Spike, String>
where
    for<'a> city::arena::City<'a>: arena_core::ArenaDeserialize<'a, K>,
{
    let read = |input: &[u8]| -> Result<(), String> {
        let arena = K::create();
        let value: city::arena::City<'_> = Postcard::decode_seed(input, ArenaSeed::new(&arena))?;
        black_box(&value);
        Ok(())
    };
    let rss_start = proc_status_bytes("VmRSS");
    // "5" resets the peak resident memory to the current one (Linux 4.0+).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    read(big)?;
    let rss_peak = proc_status_bytes("VmHWM");
    let rss_after_spike = proc_status_bytes("VmRSS");
    for _ in 0..SMALL_DOCS {
        read(small)?;
    }
    Ok(Spike {
        arena: name.to_owned(),
        spike_input_bytes: big.len() as u64,
        rss_start,
        rss_peak,
        rss_after_spike,
        rss_after_small: proc_status_bytes("VmRSS"),
        pool_mapped: K::pool_mapped(),
    })
}

/// The latency figures' arenas, as `--child-figure latency NAME` takes them.
pub const LATENCY_ARENAS: [&str; 4] = [
    "slab-fresh",
    "slab-reused",
    "bumpalo-fresh",
    "bumpalo-reused",
];

/// The spike figures' arenas, as `--child-figure spike NAME BIG SMALL` takes them.
pub const SPIKE_ARENAS: [&str; 2] = ["slab", "bumpalo"];

/// Runs one figure in this (child) process and returns it as JSON.
///
/// # Errors
///
/// Unknown figure or arena, unreadable documents.
pub fn child_figure(args: &[String]) -> Result<String, String> {
    let json = |v: Result<String, serde_json::Error>| v.map_err(|e| e.to_string());
    match args {
        [kind, arena] if kind == "latency" => {
            let figure = match arena.as_str() {
                "slab-fresh" => latency::<arena_core::SlabArena>(arena, false),
                "slab-reused" => latency::<arena_core::SlabArena>(arena, true),
                "bumpalo-fresh" => latency::<bumpalo::Bump>(arena, false),
                "bumpalo-reused" => latency::<bumpalo::Bump>(arena, true),
                _ => return Err(format!("unknown arena `{arena}`")),
            };
            json(serde_json::to_string(&figure))
        }
        [kind, arena, big, small] if kind == "spike" => {
            let big = std::fs::read(big).map_err(|e| format!("reading {big}: {e}"))?;
            let small = std::fs::read(small).map_err(|e| format!("reading {small}: {e}"))?;
            let figure = match arena.as_str() {
                "slab" => spike::<arena_core::SlabArena>(arena, &big, &small)?,
                "bumpalo" => spike::<bumpalo::Bump>(arena, &big, &small)?,
                _ => return Err(format!("unknown arena `{arena}`")),
            };
            json(serde_json::to_string(&figure))
        }
        _ => Err("usage: --child-figure latency ARENA | spike ARENA BIG SMALL".to_owned()),
    }
}

fn geomean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp())
}

/// Ratios of one strategy's median time per document (deserialization plus drop) to another's
/// over every format and dataset both measured: `(geometric mean, smallest, largest, cells)`.
fn ratios(rows: &[ReportRow], num: &str, den: &str) -> Option<(f64, f64, f64, usize)> {
    let ok = |r: &&ReportRow| r.row.error.is_none() && r.row.total_median_ns > 0;
    let v: Vec<f64> = rows
        .iter()
        .filter(|r| r.row.strategy == num)
        .filter(ok)
        .filter_map(|n| {
            let d = rows.iter().filter(ok).find(|d| {
                d.row.strategy == den
                    && d.row.format == n.row.format
                    && d.row.dataset == n.row.dataset
            })?;
            Some(n.row.total_median_ns as f64 / d.row.total_median_ns as f64)
        })
        .collect();
    let min = v.iter().copied().fold(f64::MAX, f64::min);
    let max = v.iter().copied().fold(f64::MIN, f64::max);
    Some((geomean(&v)?, min, max, v.len()))
}

/// Timer steps a batched sample spans at the median, below which the quantiles are as much
/// the timer's as the arena's.
const MIN_STEPS_PER_BATCH: f64 = 10.0;

/// A warning for the verdict row when the median batch spans fewer than
/// [`MIN_STEPS_PER_BATCH`] timer steps, else nothing.
fn coarse(l: &Latency) -> String {
    let steps = l.p50_ns * l.batch as f64 / l.timer_step_ns.max(f64::MIN_POSITIVE);
    if l.timer_step_ns > 0.0 && steps < MIN_STEPS_PER_BATCH {
        format!(
            ", but a median batch spans only {steps:.1} timer steps of {:.1} ns",
            l.timer_step_ns
        )
    } else {
        String::new()
    }
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT met" }
}

/// The figures as Markdown: targets first, then the latency and spike tables.
#[must_use]
pub fn markdown(rows: &[ReportRow], figures: &Figures) -> String {
    use std::fmt::Write as _;
    let mut out = String::from("\n## Slab arena figures (same run, same data)\n\n");
    out.push_str("| target | measured | verdict |\n|---|---|---|\n");
    match ratios(rows, "slab-fresh", "bumpalo-reused") {
        Some((g, _, worst, n)) => {
            let _ = writeln!(
                out,
                "| fresh `SlabArena` within 5% of a reused bumpalo arena (time ratio ≤ 1.05) | {g:.3} geometric mean, {worst:.3} worst, over {n} cells | {} |",
                verdict(g <= 1.05)
            );
        }
        None => out.push_str("| fresh `SlabArena` within 5% of a reused bumpalo arena | not measured (needs slab-fresh and bumpalo-reused) | |\n"),
    }
    match ratios(rows, "bumpalo-fresh", "slab-fresh") {
        Some((g, worst, _, n)) => {
            let _ = writeln!(
                out,
                "| fresh `SlabArena` ≥ 1.2x faster than a fresh bumpalo arena | {g:.2}x geometric mean, {worst:.2}x worst, over {n} cells | {} |",
                verdict(g >= 1.2)
            );
        }
        None => out.push_str("| fresh `SlabArena` ≥ 1.2x faster than a fresh bumpalo arena | not measured (needs slab-fresh and bumpalo-fresh) | |\n"),
    }
    let slab_rows: Vec<&ReportRow> = rows
        .iter()
        .filter(|r| r.row.strategy.starts_with("slab-") && r.row.error.is_none())
        .collect();
    if slab_rows.is_empty() {
        out.push_str(
            "| zero chunk-pool OS calls per document once warm | not measured (no slab rows) | |\n",
        );
    } else {
        for strategy in ["slab-fresh", "slab-reused"] {
            let rows = || slab_rows.iter().filter(|r| r.row.strategy == strategy);
            // The pool's calls: the row's OS calls less the scratch stack's page releases,
            // which a large sequence makes by design (at most one per 2 MiB it moves).
            let pool = rows()
                .filter_map(|r| {
                    let scratch = r.row.scratch_releases_per_doc.unwrap_or(0);
                    Some(r.row.os_calls_per_doc?.saturating_sub(scratch))
                })
                .max();
            let scratch = rows()
                .filter_map(|r| r.row.scratch_releases_per_doc)
                .max()
                .unwrap_or(0);
            if let Some(pool) = pool {
                let _ = writeln!(
                    out,
                    "| zero chunk-pool OS calls per document once warm ({strategy}) | at most {pool} per document over every cell (and at most {scratch} scratch-stack page releases) | {} |",
                    verdict(pool == 0)
                );
            }
        }
    }
    for l in &figures.latency {
        if l.arena.starts_with("slab") {
            let ratio = l.p999_ns / l.p50_ns.max(f64::MIN_POSITIVE);
            let u = &l.unbatched;
            let _ = writeln!(
                out,
                "| `alloc` p999 ≤ 2x p50 ({}), read on the batched figure, warm | {} calls per sample: p50 {:.2} ns, p999 {:.2} ns per call: {ratio:.2}x (timer {:.1} ns per batch included, {:.2} ns per call){}; each call timed alone (timer-bound): p50 {:.1} ns, p999 {:.1} ns | {} |",
                l.arena,
                l.batch,
                l.p50_ns,
                l.p999_ns,
                l.timer_ns,
                l.timer_ns / l.batch.max(1) as f64,
                coarse(l),
                u.p50_ns,
                u.p999_ns,
                verdict(ratio <= 2.0)
            );
        }
    }
    if let Some(l) = figures.latency.first() {
        let _ = writeln!(
            out,
            "\n`alloc` latency per call (a mix of short strings and small slices, {} calls per document, chunk refills included), batched: each sample times {} consecutive calls and counts as its time / {}, so a batch holding a refill is a slow sample. Each batch's time includes the timer once (timer ns: two reads, nothing subtracted), i.e. timer / {} in every per-call figure. The quantiles are warm: {} documents after a first one, which each figure's process reads first, from an empty pool or allocator, and which is shown on its own (first document: where the mapping and first touches of a cold process land):\n",
            ALLOCS_PER_DOC, l.batch, l.batch, l.batch, LATENCY_DOCS
        );
    }
    out.push_str("| arena | batches | calls | p50 ns | p99 ns | p999 ns | max ns | timer ns per batch | first document: p50 / p999 / max ns | create a fresh arena: p50 / max ns |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for l in &figures.latency {
        let f = &l.first_document;
        let create = l.create.as_ref().map_or_else(
            || "reused".to_owned(),
            |c| format!("{:.0} / {:.0}", c.p50_ns, c.max_ns),
        );
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.1} | {:.1} | {:.2} / {:.1} / {:.1} | {create} |",
            l.arena,
            l.batches,
            l.calls,
            l.p50_ns,
            l.p99_ns,
            l.p999_ns,
            l.max_ns,
            l.timer_ns,
            f.p50_ns,
            f.p999_ns,
            f.max_ns
        );
    }
    if let Some(l) = figures.latency.first() {
        let _ = writeln!(
            out,
            "\nThe same mix of calls each timed alone, bound by the timer (two back-to-back reads differ by at least {:.1} ns and by {:.1} ns at the median, more than a call costs: these show the clock more than the arena; every figure includes the whole timer):\n",
            l.timer_step_ns, l.timer_ns
        );
    }
    out.push_str(
        "| arena | calls | p50 ns | p99 ns | p999 ns | max ns |\n|---|--:|--:|--:|--:|--:|\n",
    );
    for l in &figures.latency {
        let u = &l.unbatched;
        let _ = writeln!(
            out,
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.0} |",
            l.arena, u.calls, u.p50_ns, u.p99_ns, u.p999_ns, u.max_ns
        );
    }
    out.push_str("\nResident memory after a spike (one large city, then small ones, a fresh arena per document; MB):\n\n");
    out.push_str("| arena | spike input | start | peak | after the spike | after 50 small | pool still mapped |\n|---|--:|--:|--:|--:|--:|--:|\n");
    let mb = |b: u64| b as f64 / 1e6;
    for s in &figures.spike {
        let _ = writeln!(
            out,
            "| {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {} |",
            s.arena,
            mb(s.spike_input_bytes),
            mb(s.rss_start),
            mb(s.rss_peak),
            mb(s.rss_after_spike),
            mb(s.rss_after_small),
            s.pool_mapped
                .map_or_else(|| "n/a".to_owned(), |p| format!("{:.1}", mb(p)))
        );
    }
    for e in &figures.errors {
        let _ = writeln!(out, "\nnot measured: {e}");
    }
    out
}
