// Run a FinQA program through the raw ABI of the finscore core, from Node.js.
//
//   node examples/node/run.mjs [path/to/finscore_core.wasm]
//
// The very module the Python package ships, loaded with Node's own WebAssembly API:
// no finscore code but this file, only what docs/abi.md says (its first worked example). It runs
//   subtract(34.8, 1.2), divide(#0, 34.8), multiply(#1, const_100)
// and prints each step's unrounded value and the answer (96.55172).
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const wasmPath = process.argv[2] ?? path.join(here, "..", "..", "python", "finscore", "finscore_core.wasm");

const OP = { add: 0, subtract: 1, multiply: 2, divide: 3 };
const LITERAL = 0, REFERENCE = 1;
const STEP_SIZE = 56, RESULT_SIZE = 40; // fs_step and fs_result, as docs/abi.md documents
const ABI_VERSION = 8, STATUS_OK = 1400;

const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {});
const core = instance.exports;
core._initialize();
if (core.fs_abi_version() !== ABI_VERSION || core.fs_sizeof_step() !== STEP_SIZE ||
    core.fs_sizeof_result() !== RESULT_SIZE) {
  throw new Error("this module's ABI is not the one this example was written for");
}

const literal = (number) => ({ kind: LITERAL, index: 0, number });
const reference = (step) => ({ kind: REFERENCE, index: step, number: 0 });
const program = [
  [OP.subtract, literal(34.8), literal(1.2)],
  [OP.divide, reference(0), literal(34.8)],
  [OP.multiply, reference(1), literal(100)],
];
const n = program.length;

// One block of linear memory (fs_alloc counts bytes; 0 means no memory): steps, step values
// (f64), step types (i32), the result, each 8-aligned. fs_alloc may grow the memory, which
// detaches every view of it: views are taken after it, and afresh after any later fs_alloc.
const stepsAt = core.fs_alloc(n * STEP_SIZE + n * 8 + n * 4 + RESULT_SIZE + 8);
if (stepsAt === 0) throw new Error("fs_alloc: no memory");
const valuesAt = stepsAt + n * STEP_SIZE;
const typesAt = valuesAt + n * 8;
const resultAt = (typesAt + n * 4 + 7) & ~7;

let view = new DataView(core.memory.buffer);
program.forEach(([op, a, b], i) => {
  const at = stepsAt + i * STEP_SIZE;
  view.setInt32(at, op, true);
  view.setInt32(at + 4, 0, true);
  [a, b].forEach((arg, k) => {
    const argAt = at + 8 + k * 24; // fs_arg: kind, index, length, reserved, number
    view.setInt32(argAt, arg.kind, true);
    view.setInt32(argAt + 4, arg.index, true);
    view.setInt32(argAt + 8, 0, true);
    view.setInt32(argAt + 12, 0, true);
    view.setFloat64(argAt + 16, arg.number, true);
  });
});

const status = core.fs_execute(stepsAt, n, n, 0, 0, 0 /* CPython 3.11 sum */, valuesAt, n, typesAt, n, resultAt);
view = new DataView(core.memory.buffer); // a fresh view, as a host should after any call that may allocate
const statusName = (code) => {
  const at = core.fs_status_name(code); // static NUL-terminated ASCII, under 64 bytes
  const bytes = new Uint8Array(core.memory.buffer, at, 64);
  return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
};
const hex = (x) => {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x);
  return "0x" + b.getBigUint64(0).toString(16).padStart(16, "0");
};

for (let i = 0; i < n; i++) {
  const value = view.getFloat64(valuesAt + i * 8, true);
  console.log(`#${i} = ${value} (bits ${hex(value)})`);
}
const result = {
  status: view.getInt32(resultAt, true),
  hasValue: view.getInt32(resultAt + 4, true),
  failedStep: view.getInt32(resultAt + 12, true),
  value: view.getFloat64(resultAt + 16, true),
};
console.log(`status ${status} (${statusName(status)}), answer ${result.value} (bits ${hex(result.value)})`);
if (core.fs_free(stepsAt) !== STATUS_OK) throw new Error("fs_free refused the block");
if (result.status !== STATUS_OK || result.value !== 96.55172) process.exit(1);
