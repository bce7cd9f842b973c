// The WebAssembly core on the page's own thread: compiled at page load, usable
// before Python is. It is the very module the Python package ships; the page
// does no arithmetic of its own, it only calls the core and shows the bits.

import { STATUS, STATUS_NAME_LIMIT as NAME_LIMIT } from "./abi_generated.js";

const STATUS_OK = STATUS.OK; // the ABI's constants are generated from core/abi.toml

/** Fetch and compile the module, instantiate it, and run its `_initialize`. */
export async function loadCore(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`could not fetch ${url}: HTTP ${response.status}`);
  }
  // compile from bytes, not compileStreaming: any static server will do,
  // whatever MIME type it gives .wasm files
  const module = await WebAssembly.compile(await response.arrayBuffer());
  const instance = await WebAssembly.instantiate(module, {});
  instance.exports._initialize();
  return { module, instance, abiVersion: instance.exports.fs_abi_version() };
}

function statusName(exports, status) {
  const address = exports.fs_status_name(status);
  const bytes = new Uint8Array(exports.memory.buffer, address, NAME_LIMIT);
  const end = bytes.indexOf(0);
  return new TextDecoder("ascii").decode(bytes.subarray(0, end < 0 ? NAME_LIMIT : end));
}

/**
 * CPython's round(x, places) by the core. The result is read back through
 * linear memory, so every bit (the sign of -0.0 included) is the core's.
 */
export function roundHalfEven(instance, x, places) {
  const exports = instance.exports;
  const scale = Number(`1e${places}`); // parsed, so exactly 10**places for 0..22
  const out = exports.fs_alloc(8);
  if (out === 0) {
    throw new Error("the core could not reserve 8 bytes");
  }
  try {
    const status = exports.fs_round_half_even_scaled(x, scale, out);
    const value = new DataView(exports.memory.buffer).getFloat64(out, true);
    return status === STATUS_OK
      ? { ok: true, value }
      : { ok: false, status, statusName: statusName(exports, status) };
  } finally {
    exports.fs_free(out);
  }
}

/** A double's exact bits, spelled as Python's float.hex() spells them. */
export function doubleHex(value) {
  if (Number.isNaN(value)) return "nan";
  if (value === Infinity) return "inf";
  if (value === -Infinity) return "-inf";
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value, false);
  const high = view.getUint32(0, false);
  const low = view.getUint32(4, false);
  const sign = high >>> 31 ? "-" : "";
  const biased = (high >>> 20) & 0x7ff;
  const mantissa = (high & 0xfffff).toString(16).padStart(5, "0") + low.toString(16).padStart(8, "0");
  if (biased === 0) {
    return /^0+$/.test(mantissa) ? `${sign}0x0.0p+0` : `${sign}0x0.${mantissa}p-1022`;
  }
  const exponent = biased - 1023;
  return `${sign}0x1.${mantissa}p${exponent < 0 ? "-" : "+"}${Math.abs(exponent)}`;
}

/** JavaScript's shortest round-trip digits, keeping the sign of zero. */
export function doubleText(value) {
  return Object.is(value, -0) ? "-0" : String(value);
}
