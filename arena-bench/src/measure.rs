//! Measuring one cell (format × dataset × strategy) inside its own child process.

use std::time::Duration;

use crate::cell::Cell;
use crate::counting;
use crate::strategy::{ArenaBytes, Observed, OsCalls, Sample};

/// How long and how often a cell is timed.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Time to spend on timed documents, per cell. The number of runs is this budget divided
    /// by the (cold) time of the check pass, within `min_runs..=max_runs`.
    pub budget: Duration,
    /// Fewest timed documents: a median of fewer than 5 says little about the spread.
    pub min_runs: u32,
    /// Most timed documents: past this the median no longer moves.
    pub max_runs: u32,
    /// Workers deserializing concurrently (`--threads`).
    pub threads: u32,
    /// The digest of the owned result, which every strategy must reproduce.
    pub expect_digest: u64,
}

/// One row of the report: a strategy on one format and dataset.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Row {
    /// Format name.
    pub format: String,
    /// Dataset name.
    pub dataset: String,
    /// Strategy name.
    pub strategy: String,
    /// Size of the document in this format.
    pub input_bytes: u64,
    /// Concurrent workers.
    pub threads: u32,
    /// Timed documents (rounds, with several threads).
    pub runs: u32,
    /// Median deserialization time (with several threads: of the slowest worker per round).
    pub median_ns: u64,
    /// 25th percentile of the deserialization time.
    pub p25_ns: u64,
    /// 75th percentile of the deserialization time.
    pub p75_ns: u64,
    /// Fastest run.
    pub min_ns: u64,
    /// Slowest run.
    pub max_ns: u64,
    /// Median time of the drop (or arena reset) on its own.
    pub drop_median_ns: u64,
    /// Median time of the replay inside the deserialization, for the strategy that parses a
    /// dynamic value and replays it into the typed model ([`Sample::replay`]).
    #[serde(default)]
    pub replay_median_ns: Option<u64>,
    /// Median time of a whole document: its deserialization plus its drop (or arena reset),
    /// what a program pays per document. Speedups are computed from it.
    pub total_median_ns: u64,
    /// Global-allocator `alloc` calls for one document (warm), from the counting pass.
    pub allocs_per_doc: u64,
    /// Global-allocator `realloc` calls for one document.
    pub reallocs_per_doc: u64,
    /// Global-allocator `dealloc` calls for one document.
    pub deallocs_per_doc: u64,
    /// OS calls (map, unmap, advise) for one warm document outside the global allocator, by
    /// the arena strategies: `SlabArena`'s pool maps and unmaps plus the page releases of
    /// arena_core's scratch stack ([`OsCalls`]); `None` for strategies whose memory all comes
    /// from the global allocator (whose calls are in `allocs_per_doc`).
    pub os_calls_per_doc: Option<u64>,
    /// The part of `os_calls_per_doc` made by the scratch stack (page releases).
    #[serde(default)]
    pub scratch_releases_per_doc: Option<u64>,
    /// Peak resident memory of the child while timing (VmHWM, reset before timing).
    pub peak_rss_bytes: u64,
    /// Resident memory when timing started: the input and the process itself.
    pub baseline_rss_bytes: u64,
    /// `peak_rss_bytes` less the file-backed pages resident when timing started (`RssFile`:
    /// the binary's code and read-only data, the shared libraries): the peak of the process's
    /// data, the input and the allocators' retained memory included. The binary holds every
    /// strategy's code, and how many of its pages a strategy's code touches depends on where
    /// the linker put it (the kernel maps code in 64 KiB windows), so this is the figure that
    /// compares what strategies hold. Code first run while timing only adds file pages, so
    /// this is an upper bound of the data's peak, unless the kernel reclaims file pages while
    /// timing (a machine short of memory).
    #[serde(default)]
    pub peak_data_rss_bytes: u64,
    /// Live data of the document (arena and multitude strategies): the exactly-sized deep heap
    /// footprint of its arena model.
    pub live_bytes: Option<u64>,
    /// The arena after one document, for arena strategies: the first of the process (a fresh
    /// `SlabArena` grows from small chunks while its pool knows nothing yet).
    pub arena: Option<ArenaBytes>,
    /// The arena after a warm document (the fifth), for arena strategies: what a steady stream
    /// of documents holds.
    #[serde(default)]
    pub arena_warm: Option<ArenaBytes>,
    /// The bytes a warm document's value holds, for the value table's strategies: the arena's
    /// reserved bytes, or the heap bytes its parse leaves allocated (see
    /// [`value`](crate::value)).
    #[serde(default)]
    pub held_bytes: Option<u64>,
    /// Set when the cell could not be measured, saying why; the numbers are then zero.
    pub error: Option<String>,
}

impl Row {
    /// Half the interquartile range of the deserialization time over the cell's documents,
    /// relative to its median, in percent: the table's `± %`, and the noise the verdicts state.
    #[must_use]
    pub fn spread_percent(&self) -> f64 {
        self.p75_ns.saturating_sub(self.p25_ns) as f64 / 2.0 / self.median_ns.max(1) as f64 * 100.0
    }

    /// The row's entry in a results table: `failed` when the cell failed, else `entry()`.
    #[must_use]
    pub fn table_entry(&self, entry: impl FnOnce() -> String) -> String {
        if self.error.is_some() {
            "failed".to_owned()
        } else {
            entry()
        }
    }
}

/// Reads a field of `/proc/self/status` in bytes (`VmHWM`, `VmRSS`), or 0 off Linux.
#[must_use]
pub fn proc_status_bytes(field: &str) -> u64 {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return 0;
    };
    status
        .lines()
        .find_map(|line| {
            let rest = line.strip_prefix(field)?.strip_prefix(':')?;
            let kb: u64 = rest.trim().trim_end_matches("kB").trim().parse().ok()?;
            Some(kb * 1024)
        })
        .unwrap_or(0)
}

/// Resets the peak resident memory (VmHWM) to the current resident memory (Linux 4.0+) and
/// returns what is resident now, as `(VmRSS, RssFile)`: the baseline of the timed documents and
/// its file-backed part, which [`Row::peak_data_rss_bytes`] leaves out.
fn start_peak_window() -> (u64, u64) {
    // "5" clears the peak RSS; failing (another OS, a restricted /proc) leaves the peak of the
    // whole child, which still includes the timed documents.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    (proc_status_bytes("VmRSS"), proc_status_bytes("RssFile"))
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// The `q`-quantile (0..=1) of sorted `values`, by nearest rank.
#[must_use]
pub fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Measures `cell` on `input`: checks its result against the owned digest, counts its
/// allocator calls on one warm document, then times it.
///
/// # Errors
///
/// The format's error, or a result that differs from the owned one.
pub fn measure(cell: &Cell, input: &[u8], plan: &Plan) -> Result<Row, String> {
    // 1. Check: the result must equal the owned result, before anything is timed.
    let mut state = cell.code.start();
    let mut observed = Observed::default();
    let first = state.once(input, Some(&mut observed))?;
    if observed.digest != plan.expect_digest {
        return Err(format!(
            "the result differs from the owned result (digest {:016x}, expected {:016x})",
            observed.digest, plan.expect_digest
        ));
    }
    // 2. Count allocator calls on a warm document, untimed. Two more documents first: a reused
    // arena's first reset changes what it holds (one chunk for all it used), and a fresh
    // `SlabArena` sizes its first chunk by the last two arenas of its pool (each cell runs in a
    // process of its own, so the pool starts empty): the second document maps the chunk the
    // first one taught it, and the third may still differ; the fourth is the steady state.
    for _ in 0..2 {
        state.once(input, None)?;
    }
    let os_before = cell.code.os_calls();
    let (counted, calls) = counting::count(|| state.once(input, None));
    counted?;
    let os_calls = cell
        .code
        .os_calls()
        .zip(os_before)
        .map(|(after, before)| after.since(before));
    // The arena a warm document leaves (the check above saw the cold first one).
    let mut warm = Observed::default();
    state.once(input, Some(&mut warm))?;

    // How many documents fit the budget, judged from the cold first one.
    let per_doc = first.decode.max(Duration::from_micros(1));
    let runs = u32::try_from(plan.budget.as_nanos() / per_doc.as_nanos())
        .unwrap_or(u32::MAX)
        .clamp(plan.min_runs, plan.max_runs);

    // 3. Time: one warm state per worker, peak memory from here on.
    let threads = plan.threads.max(1);
    let (decode, drops, replays, baseline, file, peak) = if threads == 1 {
        let (baseline, file) = start_peak_window();
        let mut samples = Vec::with_capacity(runs as usize);
        for _ in 0..runs {
            samples.push(state.once(input, None)?);
        }
        let peak = proc_status_bytes("VmHWM");
        let decode = samples.iter().map(|s| nanos(s.decode)).collect();
        let drops = samples.iter().map(|s| nanos(s.drop)).collect();
        let replays = samples.iter().map(|s| s.replay.map(nanos)).collect();
        (decode, drops, replays, baseline, file, peak)
    } else {
        drop(state);
        time_threads(cell, input, runs, threads)?
    };
    let mut decode: Vec<u64> = decode;
    let mut drops: Vec<u64> = drops;
    let replays: Option<Vec<u64>> = replays;
    let replay_median_ns = replays.map(|mut r| {
        r.sort_unstable();
        quantile(&r, 0.5)
    });
    let mut totals: Vec<u64> = decode.iter().zip(&drops).map(|(d, r)| d + r).collect();
    totals.sort_unstable();
    decode.sort_unstable();
    drops.sort_unstable();
    Ok(Row {
        format: cell.format.name().to_owned(),
        dataset: cell.dataset.name().to_owned(),
        strategy: cell.strategy.name().to_owned(),
        input_bytes: input.len() as u64,
        threads,
        runs,
        median_ns: quantile(&decode, 0.5),
        p25_ns: quantile(&decode, 0.25),
        p75_ns: quantile(&decode, 0.75),
        min_ns: decode.first().copied().unwrap_or(0),
        max_ns: decode.last().copied().unwrap_or(0),
        drop_median_ns: quantile(&drops, 0.5),
        replay_median_ns,
        total_median_ns: quantile(&totals, 0.5),
        allocs_per_doc: calls.allocs,
        reallocs_per_doc: calls.reallocs,
        deallocs_per_doc: calls.deallocs,
        os_calls_per_doc: os_calls.map(OsCalls::total),
        scratch_releases_per_doc: os_calls.map(|c| c.scratch),
        peak_rss_bytes: peak,
        baseline_rss_bytes: baseline,
        peak_data_rss_bytes: peak.saturating_sub(file),
        live_bytes: observed.live_bytes,
        arena: observed.arena,
        arena_warm: warm.arena,
        held_bytes: warm.held_bytes,
        ..Row::default()
    })
}

/// Per round: the deserialization, the drop and the replay (when the strategy has one) times,
/// then the baseline resident memory, its file-backed part and the peak resident memory.
type Timings = (Vec<u64>, Vec<u64>, Option<Vec<u64>>, u64, u64, u64);

/// `threads` workers, each with its own copy of the document and its own state, deserialize
/// `runs` rounds in step (a barrier starts each round); a round takes as long as its slowest
/// worker (each of its parts, the slowest worker's at that part).
fn time_threads(cell: &Cell, input: &[u8], runs: u32, threads: u32) -> Result<Timings, String> {
    let copies: Vec<Vec<u8>> = (0..threads).map(|_| input.to_vec()).collect();
    let barrier = std::sync::Barrier::new(threads as usize);
    let (baseline, file) = start_peak_window();
    let per_worker: Vec<Result<Vec<Sample>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = copies
            .iter()
            .map(|copy| {
                let barrier = &barrier;
                scope.spawn(move || {
                    let mut state = cell.code.start();
                    // One untimed document to warm the worker's state, as on one thread (an
                    // error here shows again in the timed loop).
                    let _ = state.once(copy, None);
                    let mut samples = Vec::with_capacity(runs as usize);
                    let mut failed = None;
                    for _ in 0..runs {
                        // Every worker reaches every barrier, even after an error, so that
                        // none waits forever.
                        barrier.wait();
                        match state.once(copy, None) {
                            Ok(sample) => samples.push(sample),
                            Err(e) => failed = Some(e),
                        }
                    }
                    failed.map_or(Ok(samples), Err)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a worker panicked".to_owned()))
            })
            .collect()
    });
    let peak = proc_status_bytes("VmHWM");
    let per_worker = per_worker.into_iter().collect::<Result<Vec<_>, _>>()?;
    let round = |i: usize, f: fn(&Sample) -> Duration| {
        per_worker
            .iter()
            .map(|w| nanos(f(&w[i])))
            .max()
            .unwrap_or(0)
    };
    let decode = (0..runs as usize).map(|i| round(i, |s| s.decode)).collect();
    let drops = (0..runs as usize).map(|i| round(i, |s| s.drop)).collect();
    let replays = (0..runs as usize)
        .map(|i| {
            per_worker
                .iter()
                .map(|w| w[i].replay.map(nanos))
                .max()
                .flatten()
        })
        .collect();
    Ok((decode, drops, replays, baseline, file, peak))
}
