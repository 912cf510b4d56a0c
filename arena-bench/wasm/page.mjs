// The browser side of the Wasm bench: runs harness.mjs with the page's query string as its
// options and reports to the server browsers.mjs runs: progress lines to POST /log, the
// results object to POST /results, a fatal error to POST /error.

import { parseOptions, runMatrix } from './harness.mjs';

const pre = document.getElementById('log');

function log(line) {
  pre.textContent += `\n${line}`;
  // Fire and forget: progress must not slow the run down or stop it.
  fetch('/log', { method: 'POST', body: line }).catch(() => {});
}

async function fetchWasm(name) {
  const response = await fetch(`pkg/${name}`);
  if (!response.ok) throw new Error(`pkg/${name}: HTTP ${response.status} (run \`node arena-bench/wasm/run.mjs\` to build it)`);
  return response.arrayBuffer();
}

try {
  const options = parseOptions(new URLSearchParams(location.search));
  const results = await runMatrix(options, { log, fetchWasm });
  await fetch('/results', { method: 'POST', body: JSON.stringify(results) });
  pre.textContent += '\ndone';
} catch (e) {
  const message = e?.stack ? `${e.message}\n${e.stack}` : String(e);
  pre.textContent += `\nerror: ${message}`;
  await fetch('/error', { method: 'POST', body: message });
}
