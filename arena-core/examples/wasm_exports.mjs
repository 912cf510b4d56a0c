// Calls the `wasm_exports` example module from JavaScript (Node here; in a browser, take the
// module from `WebAssembly.instantiateStreaming(fetch(url))` instead of the file).
import { readFile } from "node:fs/promises";

const { instance } = await WebAssembly.instantiate(await readFile(process.argv[2]));
const { memory, input_buffer, largest, answer_ptr, answer_len } = instance.exports;

const city = { name: "Lyon", districts: [{ n: "1er", population: 29000 }, { n: "3e", population: 103000 }] };
const bytes = new TextEncoder().encode(JSON.stringify(city));
const ptr = input_buffer(bytes.length); // a buffer in the module's linear memory
new Uint8Array(memory.buffer, ptr, bytes.length).set(bytes);
const population = largest(ptr, bytes.length); // read into a SlabArena; the buffer is freed
// `memory.buffer` is taken again: a grow during the call replaced the old one.
const answer = new TextDecoder().decode(new Uint8Array(memory.buffer, answer_ptr(), answer_len()));

console.log(`${answer}: ${population}`);
if (answer !== "3e of Lyon" || population !== 132000) process.exit(1);
