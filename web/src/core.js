// The WebAssembly core on the page's own thread, through the JavaScript binding (js/, copied
// into the built page as binding/): compiled at page load, usable before Python is. It is the
// very module the Python package ships; the page does no arithmetic of its own.
import { loadCore as loadBinding, floatHex } from "./binding/index.js";

/** Fetch and compile the module, check its ABI, run its `_initialize`: a binding Core (.module is shared with the worker). */
export function loadCore(url) {
  return loadBinding(url);
}

/** CPython's round(x, places) by the core, every bit (the sign of -0.0 included) the core's. */
export function roundHalfEven(core, x, places) {
  const rounded = core.roundHalfEven(x, places);
  return rounded.ok ? { ok: true, value: rounded.value, hex: rounded.valueHex }
    : { ok: false, status: rounded.status, statusName: rounded.statusName };
}

/** A double's exact bits, spelled as Python's float.hex() spells them. */
export const doubleHex = floatHex;

/** JavaScript's shortest round-trip digits, keeping the sign of zero. */
export function doubleText(value) {
  return Object.is(value, -0) ? "-0" : String(value);
}
