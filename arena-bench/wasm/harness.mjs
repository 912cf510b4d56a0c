// The Wasm matrix, engine-independent: the same module runs in Node (run.mjs) and in
// browsers (index.html + page.mjs), and returns a plain JSON-able results object.
//
// The module (src/, built three times by run.mjs: `default` with the target's allocator,
// dlmalloc; `talc` with talc; `simd128` with `-C target-feature=+simd128`) exports buffers and
// one JSON call (src/abi.rs) and imports one function, `env.now` (the clock: performance.now(),
// or the Node process's CPU time with `clock=cpu`). Each
// dataset's documents are generated in one instance of the default build and copied out; each
// cell (format x dataset x strategy, on one build) then runs in a fresh instance of its own,
// whose linear memory starts with nothing but the module's data and the input document: the
// memory at the end of the cell, which never shrinks, is the cell's peak, and no other cell's
// memory is in it.
//
// Which build runs what: the whole matrix runs on `default` (what a plain
// `cargo build --target wasm32-unknown-unknown` gives); `talc` runs the two strategies whose
// allocator it changes (`owned-talc`, `in-place-talc`) on every cell; `simd128` runs the JSON
// cells again with every strategy, so JSON is reported with arena-core's u64 scan and its
// simd128 scan, each strategy of a build measured within that build.

/** Strategies of the default build, in report order (arena-bench's names). */
export const STRATEGIES = [
  'owned-system',
  'in-place-system',
  'borrowed',
  'bumpalo-fresh',
  'bumpalo-reused',
  'bump-scope-fresh',
  'bump-scope-reused',
  'slab-fresh',
  'slab-reused',
];
/** Strategies of the talc build: the owned and in-place ones, whose allocator it changes. */
export const TALC_STRATEGIES = ['owned-talc', 'in-place-talc'];
/** Formats and datasets, in report order; the event streams have no postcard or bincode. */
export const FORMATS = ['postcard', 'bincode', 'msgpack', 'json'];
export const DATASETS = ['city', 'twitter', 'citm_catalog', 'canada', 'events', 'events-tag-last', 'city-large'];
const CORPUS = new Set(['twitter', 'citm_catalog', 'canada']);
const EVENTS = new Set(['events', 'events-tag-last']);
/** The module's file per build, in pkg/. */
export const BUILDS = {
  default: 'arena_bench_wasm-default.wasm',
  talc: 'arena_bench_wasm-talc.wasm',
  simd128: 'arena_bench_wasm-simd128.wasm',
};

// Measurement settings, each with why.
export const DEFAULTS = {
  // Postcard bytes of the city and MessagePack bytes of the event streams: the native bench's
  // default `--size`.
  size: 2_000_000,
  // The large city, in postcard bytes: the problem as posed (200 MB of binary data in the
  // browser). Postcard only: the other formats of it would be 200 MB to 440 MB more to hold.
  large: 200_000_000,
  // At least 5 samples and 100 ms of them per cell, in each of 3 rounds: the whole matrix
  // (285 cells per engine) takes about 4 minutes per engine on 2 shared cores.
  minSamples: 5,
  minMs: 100,
  // A sample is a batch of documents at least 10 ms long: performance.now() steps by 5 us to
  // 1 ms depending on the engine and cross-origin isolation, at most 10% of a sample.
  batchMs: 10,
  // The large city: a document takes 0.5 to 3 s, so 3 samples of one document each.
  largeMinSamples: 3,
  // Warm-up rounds before the measured ones: every cell but the large city's once, briefly,
  // unmeasured. Engines compile Wasm with a baseline compiler first and tier hot functions up
  // in the background (V8's Liftoff to TurboFan, SpiderMonkey's baseline to Ion); the code is
  // the module's, shared by its instances, so after this round every cell runs optimized code
  // whatever its place in the order. The large city reads the city's code.
  warmup: 1,
  // Rounds of the whole matrix, each cell in a new instance every round; a row is its cell's
  // median round (by time per document), as the native bench's rounds: one round of one cell
  // moved by 20% and more from one run to the next, on this shared machine. The large city runs
  // in the first round only: each of its cells is already the median of 3 documents of 0.3 to
  // 1.5 s, and three rounds of it would take 2 minutes more per engine.
  rounds: 3,
  builds: ['default', 'talc', 'simd128'],
  formats: FORMATS,
  datasets: DATASETS,
  // `format/dataset/strategy` patterns with `*`, comma-separated; empty: every cell.
  cells: '',
  // What the module's `env.now` reads: `wall`, performance.now(), what a user waits; or `cpu`,
  // the process's user and system CPU time (Node only, `process.cpuUsage`, in microseconds).
  // On a machine shared with other jobs a wall-clock round of one cell moves by 2x and more as
  // the scheduler takes the core away; CPU time leaves out the time the process waits. It
  // counts every thread of the process (V8's background compiles and GC too), which after the
  // warm-up round are a small part of a cell: the module allocates no JS objects.
  clock: 'wall',
};

/** The `env.now` of `clock` (see DEFAULTS), in milliseconds. */
function clockFn(clock) {
  if (clock === 'wall') return () => performance.now();
  if (clock === 'cpu') {
    if (typeof globalThis.process?.cpuUsage !== 'function') throw new Error('clock `cpu` needs Node (`process.cpuUsage`); browsers have the wall clock only');
    return () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
  }
  throw new Error(`unknown clock \`${clock}\` (one of wall, cpu)`);
}

/** The settings of a `--quick` run (`?quick=1`): small documents, short cells. */
export const QUICK = {
  size: 200_000,
  large: 2_000_000,
  minSamples: 3,
  minMs: 10,
  largeMinSamples: 2,
  warmup: 0,
  rounds: 1,
};

/**
 * Options from `key=value` pairs (a query string's, or `--key=value` flags'): numbers for the
 * numeric settings, lists for `builds`, `formats`, `datasets`; `quick` applies QUICK first.
 */
export function parseOptions(pairs) {
  const given = Object.fromEntries(pairs);
  const options = { ...DEFAULTS };
  if (given.quick !== undefined && given.quick !== '0' && given.quick !== 'false') {
    Object.assign(options, QUICK);
    options.quick = true;
  }
  for (const [key, value] of Object.entries(given)) {
    if (key === 'quick') continue;
    if (!(key in DEFAULTS)) throw new Error(`unknown option \`${key}\` (one of quick, ${Object.keys(DEFAULTS).join(', ')})`);
    if (Array.isArray(DEFAULTS[key])) options[key] = value.split(',').filter(Boolean);
    else if (typeof DEFAULTS[key] === 'number') {
      const n = Number(value.replace(/MB$/i, 'e6').replace(/KB$/i, 'e3'));
      if (!Number.isFinite(n) || n < 0) throw new Error(`option \`${key}\` takes a number, got \`${value}\``);
      options[key] = n;
    } else options[key] = value;
  }
  return options;
}

function matcher(patterns) {
  const res = patterns.split(',').filter(Boolean).map((p) =>
    new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`));
  return (id) => res.length === 0 || res.some((re) => re.test(id));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An instance of `module` with the JSON call around its exports, timed by `now`. */
async function instantiate(module, now) {
  const instance = await WebAssembly.instantiate(module, { env: { now } });
  const ex = instance.exports;
  const bytes = (ptr, len) => new Uint8Array(ex.memory.buffer, ptr, len);
  return {
    memory: ex.memory,
    call(request) {
      const body = encoder.encode(JSON.stringify(request));
      bytes(ex.ab_request(body.length), body.length).set(body);
      let code;
      try {
        code = ex.ab_call();
      } catch (e) {
        const message = decoder.decode(bytes(ex.ab_panic_ptr(), ex.ab_panic_len()));
        throw new Error(`the module trapped (${e.message})${message ? `: ${message}` : ''}`);
      }
      const response = JSON.parse(decoder.decode(bytes(ex.ab_response_ptr(), ex.ab_response_len())));
      if (code !== 0) throw new Error(response.error);
      return response;
    },
    /** Copies `data` into the input buffer, allocated at its exact size. */
    setInput(data) {
      bytes(ex.ab_input(data.length), data.length).set(data);
    },
    bytes,
  };
}

/** The engine the harness runs in, as the page or process sees it. */
function engineInfo() {
  const info = {};
  if (globalThis.navigator?.userAgent) info.userAgent = navigator.userAgent;
  if (globalThis.process?.versions?.node) {
    info.node = process.versions.node;
    info.v8 = process.versions.v8;
  }
  info.crossOriginIsolated = globalThis.crossOriginIsolated ?? null;
  return info;
}

/** The middle of `values`, the lower of the two middles for an even count: always one of
 * them, so that a cell's median round is one of its rounds. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Runs the matrix. `fetchWasm(name)` returns the bytes (ArrayBuffer or typed array) of
 * `pkg/<name>`: the built modules (BUILDS) and the corpus files copied beside them
 * (`twitter.json`, ...). `log(line)` gets one progress line per step.
 */
export async function runMatrix(options, { log = () => {}, fetchWasm }) {
  const started = performance.now();
  const o = { ...DEFAULTS, ...options };
  const wanted = matcher(o.cells);
  const now = clockFn(o.clock);
  const modules = {};
  const builds = {};
  for (const build of o.builds) {
    if (!BUILDS[build]) throw new Error(`unknown build \`${build}\` (one of ${Object.keys(BUILDS).join(', ')})`);
    const bytes = await fetchWasm(BUILDS[build]);
    modules[build] = await WebAssembly.compile(bytes);
    const probe = await instantiate(modules[build], now);
    builds[build] = { file: BUILDS[build], bytes: bytes.byteLength, ...probe.call({ op: 'info' }) };
  }
  if (!modules.default) throw new Error('the default build is needed: it generates the documents');

  // The cells of each dataset, and its documents (generated only if a cell reads them).
  const plan = [];
  const documents = [];
  for (const dataset of o.datasets) {
    if (!DATASETS.includes(dataset)) throw new Error(`unknown dataset \`${dataset}\``);
    const size = dataset === 'city-large' ? o.large : o.size;
    if (size === 0) continue;
    const formats = o.formats.filter((f) =>
      !(EVENTS.has(dataset) && (f === 'postcard' || f === 'bincode'))
      && !(dataset === 'city-large' && f !== 'postcard'));
    const cells = [];
    for (const format of formats) {
      for (const build of o.builds) {
        const strategies = build === 'talc' ? TALC_STRATEGIES
          : build === 'simd128' ? (format === 'json' ? STRATEGIES : []) : STRATEGIES;
        for (const strategy of strategies) {
          if (wanted(`${format}/${dataset}/${strategy}`)) cells.push({ build, format, dataset, strategy });
        }
      }
    }
    if (cells.length === 0) continue;
    const needed = [...new Set(cells.map((c) => c.format))];
    const t0 = performance.now();
    const generator = await instantiate(modules.default, now);
    if (CORPUS.has(dataset)) generator.setInput(new Uint8Array(await fetchWasm(`${dataset}.json`)));
    const listed = generator.call({ op: 'generate', dataset, size, formats: needed }).documents;
    const docs = {};
    for (const d of listed) {
      docs[d.format] = { bytes: generator.bytes(d.ptr, d.len).slice(), digest: d.digest };
      documents.push({ dataset, format: d.format, bytes: d.len, digest: d.digest });
    }
    log(`${dataset}: ${listed.map((d) => `${d.format} ${(d.len / 1e6).toFixed(2)} MB`).join(', ')}`
      + ` (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    plan.push({ dataset, cells, docs });
  }

  const warmupStarted = performance.now();
  for (let round = 0; round < o.warmup; round++) {
    for (const { dataset, cells, docs } of plan) {
      if (dataset === 'city-large') continue;
      for (const cell of cells) {
        try {
          const instance = await instantiate(modules[cell.build], now);
          instance.setInput(docs[cell.format].bytes);
          instance.call({
            op: 'cell', format: cell.format, dataset, strategy: cell.strategy,
            digest: docs[cell.format].digest, min_samples: 1, min_ms: 0, batch_ms: 0,
          });
        } catch {
          // The measured round reports it.
        }
      }
    }
    log(`warm-up round ${round + 1}: ${((performance.now() - warmupStarted) / 1000).toFixed(1)} s`);
  }

  const total = plan.reduce((n, p) => n + p.cells.length * (p.dataset === 'city-large' ? 1 : o.rounds), 0);
  const rows = new Map();
  const errors = [];
  let done = 0;
  for (let round = 0; round < o.rounds; round++) {
    for (const { dataset, cells, docs } of plan) {
      const large = dataset === 'city-large';
      if (large && round > 0) continue;
      for (const cell of cells) {
        const id = `${cell.format}/${dataset}/${cell.strategy}${cell.build === 'simd128' ? ' (simd128)' : ''}`;
        done++;
        const doc = docs[cell.format];
        try {
          const instance = await instantiate(modules[cell.build], now);
          instance.setInput(doc.bytes);
          const result = instance.call({
            op: 'cell',
            format: cell.format,
            dataset,
            strategy: cell.strategy,
            digest: doc.digest,
            min_samples: large ? o.largeMinSamples : o.minSamples,
            min_ms: large ? 0 : o.minMs,
            batch_ms: o.batchMs,
          });
          // Linear memory never shrinks: its size now is the cell's peak.
          result.memory_end = instance.memory.buffer.byteLength;
          result.build = cell.build;
          if (!rows.has(id)) rows.set(id, []);
          rows.get(id).push(result);
          log(`[${done}/${total}] ${id}: ${result.ms_per_doc.toFixed(3)} ms/doc, `
            + `${(result.memory_end / 2 ** 20).toFixed(1)} MiB, `
            + `${(result.first.alloc_grows + result.first.pool_grows).toFixed(0)} grows first doc`);
        } catch (e) {
          errors.push({ cell: id, round, error: String(e.message ?? e) });
          log(`[${done}/${total}] ${id}: FAILED: ${e.message ?? e}`);
        }
      }
    }
  }

  const cells = [];
  for (const results of rows.values()) {
    const mid = median(results.map((r) => r.ms_per_doc));
    const row = results.find((r) => r.ms_per_doc === mid);
    cells.push({ ...row, rounds: results.map((r) => r.ms_per_doc) });
  }
  return {
    harness: 1,
    engine: engineInfo(),
    options: o,
    builds,
    documents,
    cells,
    errors,
    elapsed_ms: performance.now() - started,
  };
}
