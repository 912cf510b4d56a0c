// Runs a page of the Wasm benchmark in headless Chromium and headless Firefox.
//
// A static server on 127.0.0.1 serves `root`; the page reports back over
// three POST routes: `/log` (a progress line), `/results` (one JSON object,
// the end of the run) and `/error` (a fatal error, also the end). Each browser
// is driven by puppeteer-core: Chromium over CDP, Firefox over WebDriver BiDi.
// The browsers are Debian's (`install-browsers.sh`); nothing is downloaded.
//
// `node browsers.mjs --selftest` runs selftest.html in both browsers and
// prints one line per engine (`--verbose` adds the page's progress lines).

import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  // instantiateStreaming accepts only this type.
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

// Cross-origin isolation: with it, performance.now() has its fine resolution
// (5 us in Chromium, 20 us in Firefox, against 100 us and 1 ms without) and
// SharedArrayBuffer exists. Every resource is same-origin, so require-corp
// costs nothing.
const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

// A results document is a few hundred cells of JSON; 64 MiB is far past any
// real one and still stops a runaway page from filling this process.
const MAX_BODY = 64 * 1024 * 1024;

// Debian's /usr/bin/chromium is a shell wrapper that adds flags of its own
// (`--enable-gpu-rasterization`, `--load-extension=...`); the binary behind it
// takes only ours. ARENA_BENCH_CHROMIUM / ARENA_BENCH_FIREFOX name another.
const CHROMIUM_PATHS = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];
const FIREFOX_PATHS = ['/usr/lib/firefox-esr/firefox-esr', '/usr/bin/firefox-esr', '/usr/bin/firefox'];

// Starting either browser takes a few seconds here; a minute means it hangs.
const LAUNCH_TIMEOUT_MS = 60_000;
// Closing waits this long before the process is killed.
const CLOSE_TIMEOUT_MS = 10_000;

const CHROMIUM_ARGS = [
  // The machine runs everything as root, where Chromium's sandbox cannot start.
  '--no-sandbox',
  '--disable-gpu',
  // No network beyond 127.0.0.1 here: without these Chromium opens
  // connections to its services, and they are refused many at a time.
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-domain-reliability',
  '--no-first-run',
  '--no-default-browser-check',
  '--no-pings',
  // /dev/shm may be small in a container; Chromium falls back to /tmp.
  '--disable-dev-shm-usage',
  // A benchmark page runs for minutes without input: keep its timers and
  // renderer at full speed.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  // No memory flag: linear memory and ArrayBuffers live outside the JS heap,
  // and a page that fetched a 200 MB document into a 1.7 GiB memory and
  // filled it ran with the defaults.
];

const FIREFOX_PREFS = {
  'app.update.enabled': false,
  'app.update.auto': false,
  'app.update.checkInstallTime': false,
  'extensions.update.enabled': false,
  'extensions.getAddons.cache.enabled': false,
  'browser.shell.checkDefaultBrowser': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'browser.safebrowsing.downloads.enabled': false,
  'browser.safebrowsing.blockedURIs.enabled': false,
  'browser.search.update': false,
  'browser.region.update.enabled': false,
  'browser.region.network.url': '',
  'services.settings.server': 'http://127.0.0.1:1/',
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'network.dns.disablePrefetch': true,
  'network.prefetch-next': false,
  'network.http.speculative-parallel-limit': 0,
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.healthreport.uploadEnabled': false,
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.unified': false,
  'toolkit.telemetry.server': '',
  'browser.ping-centre.telemetry': false,
  'browser.newtabpage.activity-stream.feeds.telemetry': false,
  'browser.newtabpage.activity-stream.telemetry': false,
  'app.normandy.enabled': false,
  'app.shield.optoutstudies.enabled': false,
  'browser.discovery.enabled': false,
  // A benchmark page runs for minutes: no slow-script dialog.
  'dom.max_script_run_time': 0,
  'dom.max_chrome_script_run_time': 0,
};

const ENGINES = {
  chromium: {
    env: 'ARENA_BENCH_CHROMIUM',
    paths: CHROMIUM_PATHS,
    options: () => ({ browser: 'chrome', headless: true, args: CHROMIUM_ARGS }),
  },
  firefox: {
    env: 'ARENA_BENCH_FIREFOX',
    paths: FIREFOX_PATHS,
    options: () => ({ browser: 'firefox', headless: true, extraPrefsFirefox: FIREFOX_PREFS }),
  },
};

/**
 * Serves `root` on 127.0.0.1 and runs `page?query` in each engine in turn.
 *
 * @param {object} options
 * @param {string} options.root directory served at `/`
 * @param {string} [options.query] query string without `?`, passed to the page
 * @param {number} [options.timeoutMs] how long one engine may run before it
 *   counts as failed (from navigation to the `/results` POST)
 * @param {(line: string) => void} [options.log] progress, one line at a time
 * @param {string} [options.page] the page to open, relative to `root`
 * @param {Array<'chromium'|'firefox'>} [options.engines] which engines, in order
 * @returns {Promise<Array<{engine: 'chromium'|'firefox', version: string,
 *   binary: string|null, results: object|null, error: string|null,
 *   log: string[], launchMs: number|null, runMs: number|null}>>} one entry per
 *   engine, in order: `version` is the driver's `browser.version()` (empty if
 *   the browser did not start), `binary` the executable's `--version` line,
 *   `log` the page's `/log` lines and the driver's notes, `launchMs` the
 *   browser's start, `runMs` navigation to outcome. A browser that cannot
 *   start, crashes, reports `/error` or times out has `error` set and
 *   `results` null. It rejects only if the server cannot start or
 *   `timeoutMs` is not a positive number.
 */
export async function runInBrowsers({
  root,
  query = '',
  timeoutMs = 30 * 60_000,
  log = (line) => console.error(line),
  page = 'index.html',
  engines = ['chromium', 'firefox'],
}) {
  if (!(timeoutMs > 0)) throw new TypeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
  // Node's and puppeteer's timers fire at once past 2^31 - 1 ms (24.8 days),
  // and the protocol timeout below is a minute longer.
  timeoutMs = Math.min(timeoutMs, 2 ** 31 - 1 - 60_000);
  const server = await serve(root);
  const out = [];
  try {
    for (const engine of engines) {
      out.push(await runOne(engine, server, { query, timeoutMs, log, page }));
    }
  } finally {
    await server.close();
  }
  return out;
}

async function runOne(engine, server, { query, timeoutMs, log, page }) {
  const entry = {
    engine, version: '', binary: null, results: null, error: null, log: [], launchMs: null, runMs: null,
  };
  const note = (line) => {
    entry.log.push(line);
    log(`${engine}: ${line}`);
  };
  const fail = (message) => {
    entry.error = message;
    log(`${engine}: ${message}`);
    return entry;
  };

  const spec = ENGINES[engine];
  if (!spec) return fail(`unknown engine \`${engine}\`, expected chromium or firefox`);
  const paths = process.env[spec.env] ? [process.env[spec.env]] : spec.paths;
  const executablePath = paths.find((p) => existsSync(p));
  if (!executablePath) {
    return fail(`${engine} is not installed (looked for ${paths.join(', ')}); run arena-bench/wasm/install-browsers.sh`);
  }
  entry.binary = await binaryVersion(executablePath);

  let puppeteer;
  try {
    ({ default: puppeteer } = await import('puppeteer-core'));
  } catch (e) {
    return fail(`puppeteer-core is not installed (${e.message}); run \`npm ci\` in arena-bench/wasm`);
  }

  const profile = await mkdtemp(join(tmpdir(), `arena-bench-${engine}-`));
  let browser;
  try {
    const t0 = performance.now();
    try {
      browser = await puppeteer.launch({
        ...spec.options(),
        executablePath,
        userDataDir: profile,
        timeout: LAUNCH_TIMEOUT_MS,
        protocolTimeout: timeoutMs + 60_000,
        // Puppeteer's own SIGINT/SIGTERM handlers would kill the browser
        // under the caller's feet; the finally below closes it.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      entry.version = await browser.version();
    } catch (e) {
      return fail(`${engine} could not start (${executablePath}): ${firstLines(e.message, 6)}`);
    }
    entry.launchMs = Math.round(performance.now() - t0);
    note(`started ${entry.version} in ${entry.launchMs} ms`);

    const tab = await browser.newPage();
    const done = server.expect(note);
    let lastPageError = null;
    tab.on('console', (m) => note(`console.${m.type()}: ${m.text()}`));
    tab.on('pageerror', (e) => {
      lastPageError = e?.message ?? String(e);
      note(`uncaught in page: ${lastPageError}`);
    });
    const crashed = new Promise((resolveCrash) => {
      tab.on('error', (e) => resolveCrash({ error: `the page crashed: ${e?.message ?? e}` }));
      browser.on('disconnected', () => resolveCrash({ error: `${engine} exited during the run` }));
    });
    let timer;
    const timedOut = new Promise((resolveTimeout) => {
      timer = setTimeout(() => resolveTimeout({
        error: `no results after ${timeoutMs} ms` + (lastPageError ? ` (last uncaught error: ${lastPageError})` : ''),
      }), timeoutMs);
    });

    const url = `${server.origin}/${page}${query ? `?${query}` : ''}`;
    const t1 = performance.now();
    note(`opening ${url}`);
    // The page may run synchronously for a long time; the outcome comes from
    // the POSTs, so navigation is not awaited on its own.
    const navigated = tab.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs })
      .then(() => new Promise(() => {}), (e) => ({ error: `could not open ${url}: ${firstLine(e.message)}` }));
    const outcome = await Promise.race([done.promise, crashed, timedOut, navigated]);
    clearTimeout(timer);
    done.cancel();
    entry.runMs = Math.round(performance.now() - t1);

    if (outcome.error != null) return fail(outcome.error);
    entry.results = outcome.results;
    note(`results after ${entry.runMs} ms`);
    return entry;
  } catch (e) {
    return fail(`${engine} failed: ${firstLine(e.message)}`);
  } finally {
    if (browser) await closeBrowser(browser);
    await rm(profile, { recursive: true, force: true, maxRetries: 3 });
  }
}

async function closeBrowser(browser) {
  let timer;
  const closed = browser.close().then(() => true, () => false);
  const late = new Promise((r) => { timer = setTimeout(() => r(false), CLOSE_TIMEOUT_MS); });
  const ok = await Promise.race([closed, late]);
  clearTimeout(timer);
  if (!ok) browser.process()?.kill('SIGKILL');
}

// What the executable says of itself (`Mozilla Firefox 153.8.0esr`, where the
// driver's version() says `firefox/153.8.0`), or null.
function binaryVersion(path) {
  return new Promise((ok) => {
    execFile(path, ['--version'], { timeout: 10_000 }, (err, stdout) => {
      ok(err ? null : stdout.trim() || null);
    });
  });
}

function firstLine(message) {
  return firstLines(message, 1);
}

// A launch failure's first line is only "Failed to launch the browser
// process"; the browser's own stderr (a missing library, a bad flag) follows.
function firstLines(message, n) {
  const lines = String(message).split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const text = lines.slice(0, n).join(' | ') || String(message);
  return text.length > 600 ? `${text.slice(0, 600)}...` : text;
}

/**
 * The static server behind runInBrowsers, on 127.0.0.1 at an ephemeral port:
 * `{ origin, expect(note), close() }`. One run listens at a time (`expect`);
 * POSTs that come while none listens (a page closing late) are answered and
 * dropped.
 */
export async function serve(root) {
  root = resolve(root);
  let listener = null;
  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(e));
    });
  });

  async function handle(req, res) {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (req.method === 'POST') {
      const route = url.pathname;
      if (!['/results', '/log', '/error'].includes(route)) {
        res.writeHead(404, ISOLATION_HEADERS).end();
        return;
      }
      const body = await readBody(req);
      res.writeHead(204, ISOLATION_HEADERS).end();
      listener?.(route, body);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...ISOLATION_HEADERS, Allow: 'GET, HEAD, POST' }).end();
      return;
    }
    let rel;
    try {
      rel = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400, ISOLATION_HEADERS).end();
      return;
    }
    if (rel === '/favicon.ico') {
      // Browsers ask for it unprompted; a 404 would show as a console error.
      res.writeHead(204, ISOLATION_HEADERS).end();
      return;
    }
    if (rel.endsWith('/')) rel += 'index.html';
    const file = resolve(root, `.${rel}`);
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403, ISOLATION_HEADERS).end();
      return;
    }
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      res.writeHead(404, { ...ISOLATION_HEADERS, 'Content-Type': 'text/plain' }).end(`not found: ${rel}`);
      return;
    }
    res.writeHead(200, {
      ...ISOLATION_HEADERS,
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Content-Length': info.size,
      'Cache-Control': 'no-store',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  }

  await new Promise((ok, err) => {
    server.once('error', err);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();

  return {
    origin: `http://127.0.0.1:${port}`,
    // The outcome of one run: resolves with `{results}` or `{error}` at the
    // first `/results` or `/error`; `/log` lines go to `note` meanwhile.
    expect(note) {
      let settle;
      const promise = new Promise((r) => { settle = r; });
      listener = (route, body) => {
        if (route === '/log') {
          for (const line of body.split('\n')) if (line.trim() !== '') note(line);
        } else if (route === '/error') {
          listener = null;
          settle({ error: `the page reported: ${body.trim() || '(empty error)'}` });
        } else {
          listener = null;
          try {
            settle({ results: JSON.parse(body) });
          } catch (e) {
            settle({ error: `the results POST is not JSON: ${e.message}` });
          }
        }
      };
      return { promise, cancel: () => { listener = null; } };
    },
    close() {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function readBody(req) {
  return new Promise((ok, err) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        req.destroy();
        err(new Error(`request body over ${MAX_BODY} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
    req.on('error', err);
  });
}

// The self-test: selftest.html in each engine, one line per engine on
// stdout, exit status 1 if any failed.
async function selftest() {
  const here = dirname(fileURLToPath(import.meta.url));
  const flag = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const verbose = process.argv.includes('--verbose');
  const t0 = performance.now();
  const entries = await runInBrowsers({
    root: here,
    page: 'selftest.html',
    // selftest.html?mode=error|throw|hang exercises the failure paths.
    query: flag('query') ?? '',
    // Both browsers finish in seconds here; two minutes means stuck.
    timeoutMs: Number(flag('timeout') ?? 120_000),
    engines: flag('engines')?.split(',') ?? ['chromium', 'firefox'],
    log: verbose ? (line) => console.error(line) : () => {},
  });
  let failed = 0;
  for (const e of entries) {
    const r = e.results;
    let line;
    if (e.error != null) {
      line = `failed: ${e.error}`;
    } else if (!r?.ok) {
      line = `failed: ${describe(r)}`;
    } else {
      line = `ok: ${describe(r)}`;
    }
    if (!line.startsWith('ok')) failed += 1;
    const timing = e.launchMs == null ? '' : `; start ${e.launchMs} ms, run ${e.runMs ?? '-'} ms`;
    console.log(`${e.engine} ${e.version || '(no version)'}${e.binary ? ` (${e.binary})` : ''} ${line}${timing}`);
  }
  console.log(`selftest: ${entries.length - failed} passed, ${failed} failed in ${Math.round(performance.now() - t0)} ms`);
  process.exitCode = failed ? 1 : 0;
}

function describe(r) {
  if (r == null) return 'no results';
  const mem = (m) => (m?.ok ? `ok in ${m.ms.toFixed(1)} ms` : `FAILED (${m?.error ?? 'not run'})`);
  return [
    `wasm sum ${r.sum?.ok ? 'ok' : 'WRONG'} (${r.sum?.ms?.toFixed(1)} ms)`,
    `crossOriginIsolated ${r.crossOriginIsolated}`,
    `clock step ${r.clockStepMs?.toFixed(3)} ms`,
    `JS Memory 2 GiB ${mem(r.jsMemory2GiB)}`,
    `module memory 2 GiB ${mem(r.moduleMemory2GiB)}`,
    `2 GiB filled ${mem(r.moduleMemory2GiBFilled)}`,
    `JS Memory 4 GiB ${mem(r.jsMemory4GiB)}`,
  ].join(', ');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--selftest')) {
    await selftest();
  } else {
    console.error('usage: node browsers.mjs --selftest [--verbose] [--engines=chromium,firefox] [--timeout=MS] [--query=QUERY]');
    process.exitCode = 2;
  }
}
