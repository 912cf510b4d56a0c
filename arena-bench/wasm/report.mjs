// Writes arena-bench/docs/wasm.md from the results of each engine (run.mjs): the run's
// provenance, the verdicts the Wasm issue's targets ask about, and per engine the table of
// every cell.

import { median } from './harness.mjs';

const MiB = 2 ** 20;

/** Strategies `slab-fresh` is judged against: what a user would pick instead of an arena
 * (owned and in-place under either allocator, borrowed), as the native verdicts; not the
 * toolkit's other arenas. */
const COMPETITORS = new Set(['owned-system', 'owned-talc', 'in-place-system', 'in-place-talc', 'borrowed']);
/** "Within 3%": at most this many times the fastest competitor's time. */
const WITHIN = 1.03;
/** The large city's memory target: input + 1.15x the arena + 16 MiB, and at most 64 grows. */
const ARENA_FACTOR = 1.15;
const SLACK = 16 * MiB;
const MAX_GROWS = 64;
/** The speedup targets: postcard city 3x owned-system; JSON city with simd128 3x. */
const TARGET_SPEEDUP = 3;

const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const fmtMiB = (b) => `${(b / MiB).toFixed(1)}`;
const fmtX = (x) => `${x.toFixed(2)}x`;
const grows = (c) => c.alloc_grows + c.pool_grows;
const fmtN = (n) => (Number.isInteger(n) ? `${n}` : n < 10 ? n.toFixed(2) : n.toFixed(0));

/** A cell's key: format/dataset, with the build when it is simd128's. */
const cellKey = (r) => `${r.format}/${r.dataset}${r.build === 'simd128' ? ' (simd128)' : ''}`;

/** The rows of one engine's results grouped by cell, in the harness's order. */
function byCell(results) {
  const cells = new Map();
  for (const r of results.cells) {
    const key = cellKey(r);
    if (!cells.has(key)) cells.set(key, []);
    cells.get(key).push(r);
  }
  return cells;
}

/**
 * `a`'s time over `b`'s, and its noise (relative). Where both rows have a time for every round,
 * the ratio is the median of the two rows' ratios in each round: the rows of one cell are
 * measured one after the other, seconds apart, so a round in which the machine ran slow (on a
 * shared VM a stretch of tens of seconds can run 25% to 60% slower) slows both of a round's
 * pair, where the ratio of each row's median round could pair a slow round of one with a fast
 * round of the other. The noise is then half the range of the rounds' ratios, or the larger of
 * the two rows' spread in their median rounds if that is larger. A row of one round (the large
 * city, a run of `--rounds=1`) or with a failed round gives the ratio of the two medians, its
 * noise the larger of the rows' (each the larger of its spread and half its rounds' range).
 */
export function pairedRatio(a, b) {
  const ra = a.rounds ?? [];
  const rb = b.rounds ?? [];
  const spread = Math.max(a.spread_ms / a.ms_per_doc, b.spread_ms / b.ms_per_doc);
  if (ra.length > 1 && ra.length === rb.length) {
    const ratios = ra.map((x, i) => x / rb[i]);
    const ratio = median(ratios);
    const across = (Math.max(...ratios) - Math.min(...ratios)) / 2 / ratio;
    return { ratio, noise: Math.max(spread, across) };
  }
  const across = (r) => {
    const rounds = r.rounds ?? [];
    return rounds.length > 1 ? (Math.max(...rounds) - Math.min(...rounds)) / 2 / r.ms_per_doc : 0;
  };
  return { ratio: a.ms_per_doc / b.ms_per_doc, noise: Math.max(spread, across(a), across(b)) };
}

/** Per cell: slab-fresh against the fastest competitor of its build (the default build's
 * cells take the talc build's strategies too: the allocator is the only difference). */
export function verdicts(results) {
  const out = [];
  for (const [key, rows] of byCell(results)) {
    const slab = rows.find((r) => r.strategy === 'slab-fresh');
    const rivals = rows.filter((r) => COMPETITORS.has(r.strategy));
    if (!slab || rivals.length === 0) continue;
    // The rival slab-fresh compares worst with, pair by pair.
    const [best, { ratio, noise: gapNoise }] = rivals
      .map((r) => [r, pairedRatio(slab, r)])
      .reduce((a, b) => (b[1].ratio > a[1].ratio ? b : a));
    const owned = rows.find((r) => r.strategy === 'owned-system');
    const inNoise = ratio - 1 <= gapNoise;
    out.push({
      cell: key,
      slab: slab.ms_per_doc,
      best: best.strategy,
      bestMs: best.ms_per_doc,
      speedup: owned ? pairedRatio(owned, slab).ratio : null,
      verdict: ratio <= 1 ? 'fastest' : ratio <= WITHIN ? 'within 3%'
        : `lost: ${best.strategy} is ${((ratio - 1) * 100).toFixed(0)}% faster (noise ±${(gapNoise * 100).toFixed(0)}%${inNoise ? ', the gap inside it' : ''})`,
      ok: ratio <= WITHIN,
      inNoise: ratio > WITHIN && inNoise,
    });
  }
  return out;
}

function find(results, format, dataset, strategy, build = 'default') {
  return results.cells.find((r) => r.format === format && r.dataset === dataset && r.strategy === strategy
    && (r.build === build || (build === 'default' && r.build === 'talc')));
}

/** The issue's targets, each a line: what was measured, and whether it meets the target. */
export function targetLines(results, engine = '') {
  const lines = [];
  const v = verdicts(results);
  const ok = v.filter((x) => x.ok).length;
  const lostInNoise = v.filter((x) => x.inNoise).length;
  const lostNote = ok === v.length ? '' : `; of the ${v.length - ok} lost, ${lostInNoise} by a gap inside their noise, which one run does not settle`;
  lines.push(`- \`slab-fresh\` fastest or within 3%: **${ok} of ${v.length} cells**${ok === v.length ? ' (met)' : ' (missed)'}${lostNote}`);
  const speedup = (format, dataset, build) => {
    const owned = find(results, format, dataset, 'owned-system', build);
    const slab = find(results, format, dataset, 'slab-fresh', build);
    return owned && slab ? pairedRatio(owned, slab).ratio : null;
  };
  const pc = speedup('postcard', 'city', 'default');
  if (pc !== null) {
    lines.push(`- postcard city: \`slab-fresh\` is **${fmtX(pc)}** \`owned-system\` (target ≥ 3x: ${pc >= TARGET_SPEEDUP ? 'met' : 'missed'})`);
  }
  const large = find(results, 'postcard', 'city-large', 'slab-fresh');
  if (large) {
    const bound = large.input_bytes + ARENA_FACTOR * (large.arena_reserved ?? 0) + SLACK;
    const g = grows(large.first);
    const memOk = large.memory_end <= bound;
    const growsOk = g <= MAX_GROWS;
    lines.push(`- postcard city-large (${(large.input_bytes / 1e6).toFixed(0)} MB): \`slab-fresh\` peak linear memory **${fmtMiB(large.memory_end)} MiB**`
      + ` against input ${fmtMiB(large.input_bytes)} MiB + 1.15 x arena ${fmtMiB(large.arena_reserved ?? 0)} MiB + 16 MiB = ${fmtMiB(bound)} MiB`
      + ` (${memOk ? 'met' : 'missed'}); **${fmtN(g)} \`memory.grow\` calls** in its first document`
      + ` (${fmtN(large.first.alloc_grows)} by the global allocator, ${fmtN(large.first.pool_grows)} by the pool), ${fmtN(grows(large.warm))} per warm document`
      + ` (target ≤ 64: ${growsOk ? 'met' : 'missed'}); ${fmtMs(large.ms_per_doc)} ms per document`);
  } else {
    lines.push('- postcard city-large: not measured in this run');
  }
  const js = speedup('json', 'city', 'simd128');
  const jd = speedup('json', 'city', 'default');
  if (js !== null || jd !== null) {
    lines.push(`- JSON city: \`slab-fresh\` is **${js === null ? 'not measured' : fmtX(js)}** \`owned-system\` (serde_json) in the simd128 build`
      + ` (${engine === 'firefox' ? 'the target is V8\'s; SpiderMonkey shown beside it' : `target ≥ 3x in V8: ${js === null ? 'not measured' : js >= TARGET_SPEEDUP ? 'met' : 'missed'}`}), ${jd === null ? 'not measured' : fmtX(jd)} in the default build (u64 scan)`);
  }
  return lines;
}

function cellTable(results) {
  const out = [];
  out.push('| cell | strategy | build | ms/doc | ± | x owned-system | peak memory MiB | input MiB | grows, first doc | grows/doc, warm | allocs/doc | arena MiB |');
  out.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [key, rows] of byCell(results)) {
    const owned = rows.find((r) => r.strategy === 'owned-system');
    for (const r of rows) {
      out.push(`| ${key} | ${r.strategy} | ${r.build} | ${fmtMs(r.ms_per_doc)} | ${fmtMs(r.spread_ms)} | ${owned ? fmtX(pairedRatio(owned, r).ratio) : '-'}`
        + ` | ${fmtMiB(r.memory_end)} | ${fmtMiB(r.input_bytes)} | ${fmtN(grows(r.first))} | ${fmtN(grows(r.warm))} | ${fmtN(r.warm.alloc_calls)}`
        + ` | ${r.arena_reserved == null ? '-' : fmtMiB(r.arena_reserved)} |`);
    }
  }
  return out;
}

function verdictTable(results) {
  const out = ['| cell | slab-fresh ms/doc | x owned-system | fastest competitor | its ms/doc | verdict |', '|---|---:|---:|---|---:|---|'];
  for (const v of verdicts(results)) {
    out.push(`| ${v.cell} | ${fmtMs(v.slab)} | ${v.speedup === null ? '-' : fmtX(v.speedup)} | ${v.best} | ${fmtMs(v.bestMs)} | ${v.verdict} |`);
  }
  return out;
}

/**
 * The whole file. `run`: { date, machine, compiler, command, builds: {name: flags}, elapsedS,
 * engines: [{ engine, version, results, error }] }.
 */
export function renderReport(run) {
  const md = [];
  md.push('# arena-bench on Wasm');
  md.push('');
  md.push('Written by `node arena-bench/wasm/run.mjs` from one run: regenerate it with that command instead of editing it. How a cell is measured: arena-bench\'s README, section "Wasm".');
  md.push('');
  md.push('| | |');
  md.push('|---|---|');
  md.push(`| date | ${run.date} |`);
  md.push(`| machine | ${run.machine} |`);
  md.push(`| compiler | ${run.compiler} |`);
  md.push(`| command | \`${run.command}\` |`);
  for (const [name, flags] of Object.entries(run.builds)) md.push(`| build \`${name}\` | ${flags} |`);
  for (const e of run.engines) {
    md.push(`| engine | ${e.engine} ${e.version || ''}${e.error ? ` — **did not run: ${e.error.split('\n')[0]}**` : ''} |`);
  }
  const first = run.engines.find((e) => e.results)?.results;
  if (first) {
    const o = first.options;
    md.push(`| run | ${o.rounds} round(s) (the large city: 1) after ${o.warmup} warm-up round(s); per cell at least ${o.minSamples} samples and ${o.minMs} ms of them (the large city: ${o.largeMinSamples} samples), each sample a batch of documents at least ${o.batchMs} ms long; the city and event streams of ${(o.size / 1e6).toFixed(1)} MB, the large city of ${(o.large / 1e6).toFixed(0)} MB of postcard; timed by ${o.clock === 'cpu' ? 'the process\'s CPU time (`--clock=cpu`)' : 'the wall clock'}; ${run.elapsedS.toFixed(0)} s in all |`);
  }
  md.push('');
  md.push('Builds: the whole matrix runs on `default` (`cargo build --release --target wasm32-unknown-unknown`: dlmalloc, arena-core\'s JSON scan 8 bytes at a time in a `u64`); `talc` runs `owned-talc` and `in-place-talc` on every cell; `simd128` runs every strategy again on the JSON cells, marked `(simd128)`, each compared within its build. Times are per document (deserialization and drop), the median sample, in the cell\'s median round; `x owned-system` is `owned-system`\'s time over the row\'s, in the same build and engine, and a verdict compares `slab-fresh` with each competitor, both as the median over rounds of the two rows\' ratio in each round (the rows of a cell run seconds apart, so a slow stretch of the machine slows both of a round\'s pair), so they can differ from the ratio of the two times shown. Peak memory is the cell\'s own instance\'s linear memory at its end (it never shrinks), input included; grows are `memory.grow` calls, by the global allocator and by `SlabArena`\'s pool. A lost verdict gives its noise: half the range of the rounds\' ratios, or the two rows\' spread in their median rounds (the `±` column) if larger, and says when the gap is inside it, which one run does not settle.');
  for (const e of run.engines) {
    md.push('');
    md.push(`## ${e.engine} ${e.version || ''}`);
    md.push('');
    if (!e.results) {
      md.push(`Did not run: ${e.error ?? 'no results'}`);
      continue;
    }
    if (e.results.engine?.userAgent) md.push(`User agent: \`${e.results.engine.userAgent}\`${e.results.engine.crossOriginIsolated ? ' (cross-origin isolated)' : ''}.`);
    md.push('');
    md.push('### Targets');
    md.push('');
    md.push(...targetLines(e.results, e.engine));
    if (e.results.errors.length) {
      md.push('');
      md.push('Cells that failed:');
      md.push('');
      for (const x of e.results.errors) md.push(`- ${x.cell}: ${x.error}`);
    }
    md.push('');
    md.push('### Verdicts per cell');
    md.push('');
    md.push(...verdictTable(e.results));
    md.push('');
    md.push('### Every cell');
    md.push('');
    md.push(...cellTable(e.results));
  }
  md.push('');
  return md.join('\n');
}
