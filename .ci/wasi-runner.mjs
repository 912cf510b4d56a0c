// Runs a wasm32-wasip1 program (a test binary) under Node's WASI: cargo's runner for the target,
// `CARGO_TARGET_WASM32_WASIP1_RUNNER="node .ci/wasi-runner.mjs"`, called as
// `node .ci/wasi-runner.mjs PROGRAM.wasm ARGS...`.
//
// The program sees its arguments, this process's environment and the workspace: preopened at
// its own absolute path (the `env!("CARGO_MANIFEST_DIR")` paths tests read, such as
// tests/tests/fuzz_regressions) and as `.`, which WASI's libc resolves relative paths against
// (its working directory is `/`): proptest finds its regression files by joining the
// workspace-relative `file!()` to the working directory. It exits with the program's exit code;
// a trap (a panic, which aborts on this target, or a stack overflow) prints the engine's error
// and exits with 134, as an abort does natively.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { WASI } from "node:wasi";

const [program, ...args] = process.argv.slice(2);
if (program === undefined) {
  console.error("usage: node wasi-runner.mjs PROGRAM.wasm [ARGS...]");
  process.exit(2);
}
const workspace = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

const wasi = new WASI({
  version: "preview1",
  args: [program, ...args],
  env: process.env,
  preopens: { ".": workspace, [workspace]: workspace },
  returnOnExit: true,
});

// Each WASI function is called through a JS wrapper: called straight from wasm, Node 20 takes
// V8's fast-call path into its WASI functions, which crashes Node (SIGSEGV, no trap, no message)
// on the first WASI call after linear memory has grown past about 32 MiB (nodejs/node#46777,
// #53087). Through a wrapper, each call takes the ordinary path, which has no such crash.
const imports = wasi.getImportObject?.() ?? { wasi_snapshot_preview1: wasi.wasiImport };
for (const [namespace, functions] of Object.entries(imports)) {
  imports[namespace] = Object.fromEntries(
    Object.entries(functions).map(([name, f]) => [name, (...args) => f(...args)]),
  );
}

try {
  const module = await WebAssembly.compile(await readFile(program));
  const instance = await WebAssembly.instantiate(module, imports);
  process.exitCode = wasi.start(instance);
} catch (error) {
  console.error(`${program}: ${error?.stack ?? error}`);
  process.exitCode = 134;
}
