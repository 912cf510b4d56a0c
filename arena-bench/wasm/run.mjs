#!/usr/bin/env node
// arena-bench on Wasm, one command (from the workspace root):
//
//   node arena-bench/wasm/run.mjs                 # build, run in Node, Chromium and Firefox, write docs/wasm.md
//   node arena-bench/wasm/run.mjs --quick         # the same on small documents, short cells (a smoke run)
//   node arena-bench/wasm/run.mjs --check         # CI: --quick in Node only, default build, every result checked, no file written
//   node arena-bench/wasm/run.mjs --no-browsers   # Node only
//   node arena-bench/wasm/run.mjs --cells='postcard/city*/*' --builds=default,talc
//   node arena-bench/wasm/run.mjs --no-browsers --clock=cpu   # timed by Node's CPU time (a shared machine)
//
// It builds the module (src/) for wasm32-unknown-unknown in release three times (`default`:
// the target's allocator, dlmalloc; `talc`: talc as the global allocator; `simd128`: with
// `-C target-feature=+simd128`), copies them and the json-benchmark corpus into pkg/, runs
// harness.mjs in this Node process (V8), then in headless Chromium and Firefox through
// browsers.mjs (which serves this directory on 127.0.0.1 and opens index.html), and writes
// arena-bench/docs/wasm.md (report.mjs) and target/arena-bench/wasm.json. A browser that
// cannot start is said so, on the terminal and in wasm.md, and the run goes on.
//
// Options: --quick, --check, --no-build, --no-browsers, --out=FILE (instead of docs/wasm.md),
// --timeout-min=N (per browser, default 30), and the harness's own (harness.mjs DEFAULTS:
// --size, --large, --rounds, --builds, --formats, --datasets, --cells, --min-ms, ...), which
// are passed to the browsers as the page's query string.

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, hostname } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { BUILDS, parseOptions, runMatrix } from './harness.mjs';
import { renderReport, targetLines } from './report.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const pkg = join(here, 'pkg');

// Each build: its cargo flags, its target directory (one each: the cdylib's file has no hash in
// its name, so two builds in one directory overwrite each other's and rebuild the crate every
// time; simd128's RUSTFLAGS would rebuild every crate) and how wasm.md names its flags.
const BUILD_SPECS = {
  default: { features: [], rustflags: '', dir: 'target/wasm-bench', flags: '`--release --target wasm32-unknown-unknown` (dlmalloc)' },
  talc: { features: ['talc'], rustflags: '', dir: 'target/wasm-bench-talc', flags: '`--release --target wasm32-unknown-unknown --features talc` (talc\'s `WasmDynamicTalc` as the global allocator)' },
  simd128: { features: [], rustflags: '-C target-feature=+simd128', dir: 'target/wasm-bench-simd128', flags: '`--release --target wasm32-unknown-unknown`, `RUSTFLAGS="-C target-feature=+simd128"` (dlmalloc)' },
};

function parseArgs(argv) {
  const flags = { quick: false, check: false, build: true, browsers: true, out: null, timeoutMin: 30 };
  const harness = [];
  for (const arg of argv) {
    const [key, value = '1'] = arg.replace(/^--/, '').split(/=(.*)/s);
    const camel = key.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if (camel === 'quick') flags.quick = true;
    else if (camel === 'check') flags.check = true;
    else if (camel === 'noBuild') flags.build = false;
    else if (camel === 'noBrowsers') flags.browsers = false;
    else if (camel === 'out') flags.out = value;
    else if (camel === 'timeoutMin') flags.timeoutMin = Number(value);
    else if (camel === 'help' || camel === 'h') {
      console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n'));
      process.exit(0);
    } else harness.push([camel, value]);
  }
  if (flags.check) {
    flags.quick = true;
    flags.browsers = false;
    // One build: CI checks that the module builds and every strategy reads every document as
    // the owned types do; the talc and simd128 builds are the same code with another allocator
    // or scan, and each a release build of its own.
    if (!harness.some(([k]) => k === 'builds')) harness.push(['builds', 'default']);
  }
  if (flags.quick) harness.unshift(['quick', '1']);
  return { flags, harness };
}

function build(names) {
  mkdirSync(pkg, { recursive: true });
  for (const name of names) {
    const spec = BUILD_SPECS[name];
    const t0 = performance.now();
    const args = ['build', '--release', '--target', 'wasm32-unknown-unknown',
      '--manifest-path', 'arena-bench/wasm/Cargo.toml', '--target-dir', spec.dir, '--locked'];
    if (spec.features.length) args.push('--features', spec.features.join(','));
    const env = { ...process.env };
    const rustflags = [process.env.RUSTFLAGS, spec.rustflags].filter(Boolean).join(' ');
    if (rustflags) env.RUSTFLAGS = rustflags;
    console.log(`building ${name}: cargo ${args.join(' ')}${spec.rustflags ? ` (RUSTFLAGS="${rustflags}")` : ''}`);
    const r = spawnSync('cargo', args, { cwd: root, env, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`cargo build of the ${name} module failed`);
    copyFileSync(join(root, spec.dir, 'wasm32-unknown-unknown/release/arena_bench_wasm.wasm'), join(pkg, BUILDS[name]));
    console.log(`built ${name} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const data = join(here, '..', 'data');
  for (const file of readdirSync(data).filter((f) => f.endsWith('.json'))) copyFileSync(join(data, file), join(pkg, file));
}

// The machine as arena-bench's `provenance` module states it: CPU model, logical CPUs, memory,
// OS and kernel, from the same files.
function machine() {
  const read = (p) => { try { return readFileSync(p, 'utf8'); } catch { return ''; } };
  const cpu = read('/proc/cpuinfo').split('\n').find((l) => l.startsWith('model name'))?.split(':')[1]?.trim() ?? 'unknown CPU';
  const kb = Number(read('/proc/meminfo').match(/^MemTotal:\s+(\d+)/m)?.[1] ?? 0);
  const os = `${process.platform} ${read('/proc/sys/kernel/osrelease').trim()}`.trim();
  return `${cpu}, ${availableParallelism()} logical CPU(s), ${(kb * 1024 / 2 ** 30).toFixed(1)} GiB of memory, ${os}`;
}

function utcNow() {
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function rustc() {
  try { return execFileSync('rustc', ['--version'], { encoding: 'utf8' }).trim(); } catch { return 'unknown rustc'; }
}

async function main() {
  const started = performance.now();
  const { flags, harness } = parseArgs(process.argv.slice(2));
  const options = parseOptions(harness);
  if (options.clock === 'cpu' && flags.browsers) throw new Error('--clock=cpu times with Node\'s process CPU time, which browsers do not have: add --no-browsers');
  if (flags.build) build(options.builds);
  for (const name of options.builds) {
    if (!existsSync(join(pkg, BUILDS[name]))) throw new Error(`${relative(process.cwd(), join(pkg, BUILDS[name]))} is missing: run without --no-build`);
  }

  const engines = [];
  console.log(`node ${process.version} (V8 ${process.versions.v8}): running the matrix`);
  const fetchWasm = (name) => readFileSync(join(pkg, name));
  try {
    const results = await runMatrix(options, { log: (line) => console.log(`node: ${line}`), fetchWasm });
    engines.push({ engine: 'node', version: `${process.version} (V8 ${process.versions.v8})`, results, error: null });
  } catch (e) {
    console.log(`node: FAILED: ${e.stack ?? e}`);
    engines.push({ engine: 'node', version: process.version, results: null, error: String(e.message ?? e) });
  }

  if (flags.browsers) {
    const query = new URLSearchParams(harness).toString();
    let runInBrowsers = null;
    try {
      ({ runInBrowsers } = await import('./browsers.mjs'));
    } catch (e) {
      const error = `browsers.mjs cannot be loaded (${e.message})`;
      console.log(error);
      for (const engine of ['chromium', 'firefox']) engines.push({ engine, version: '', results: null, error });
    }
    if (runInBrowsers) {
      const entries = await runInBrowsers({ root: here, query, timeoutMs: flags.timeoutMin * 60_000, log: (line) => console.log(line) });
      for (const e of entries) {
        if (e.error) console.log(`${e.engine}: did not run: ${e.error}`);
        engines.push({ engine: e.engine, version: e.version || e.binary || '', results: e.results, error: e.error });
      }
    }
  }

  const elapsedS = (performance.now() - started) / 1000;
  for (const e of engines) {
    if (!e.results) continue;
    console.log(`\n${e.engine} ${e.version}:`);
    for (const line of targetLines(e.results, e.engine)) console.log(line);
    for (const x of e.results.errors) console.log(`FAILED ${x.cell}: ${x.error}`);
  }
  const command = `node arena-bench/wasm/run.mjs${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`;
  const failed = engines.some((e) => e.results?.errors.length) || !engines[0].results;
  if (!flags.check) {
    const json = join(root, 'target', 'arena-bench', 'wasm.json');
    mkdirSync(dirname(json), { recursive: true });
    writeFileSync(json, JSON.stringify({ engines, elapsedS }, null, 1));
    const out = flags.out ?? join(here, '..', 'docs', 'wasm.md');
    const builds = Object.fromEntries(options.builds.map((b) => [b, BUILD_SPECS[b].flags]));
    writeFileSync(out, renderReport({ date: utcNow(), machine: machine(), compiler: rustc(), command, builds, elapsedS, engines }));
    console.log(`\nwrote ${relative(process.cwd(), out)} and ${relative(process.cwd(), json)} (${elapsedS.toFixed(0)} s, on ${hostname()})`);
  } else {
    console.log(`\ncheck: ${failed ? 'FAILED' : 'every result equals the owned one'} (${elapsedS.toFixed(0)} s)`);
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
