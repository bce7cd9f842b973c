// finscore for JavaScript: the finscore core (finscore_core.wasm, the very module the Python
// package ships) behind a typed API, in Node and in browsers. Written from docs/abi.md alone.
//
// The binding does no arithmetic of its own: every value is the core's, read back from its
// linear memory with its bits. A program the core does not read itself comes back deferred
// (status 1419): it is not decided, neither right nor wrong, and no value is guessed for it.
// Nor is a program the core stopped at a complex power (1414, negative_base_fractional_exponent):
// the official evaluator carries Python's complex value on, and whether the program is valid
// depends on what later steps do with it, so its official outcome is left undecided as well.

import {
  ABI_VERSION, ANSWER_FORMAT, ANSWER_REASON, ANSWER_ROW, ANSWER_SIZE, ARG_KIND, FIELD_OFFSET, OP, RECORD_SIZE, STATUS,
  STATUS_DESCRIPTION, STATUS_NAME_LIMIT, SUM_RULE, VALUE_TYPE,
} from "./abi_generated.js";
import { bitsHex, bitsOf, floatHex, fromBits, hexOfBits } from "./float.js";

export { ABI_VERSION, ANSWER_FORMAT, ANSWER_REASON, ARG_KIND, OP, STATUS, SUM_RULE, VALUE_TYPE };
export { bitsHex, bitsOf, floatHex, fromBits, hexOfBits };

const TOKEN_SEPARATOR = "\x1f";
const RECORD_SEPARATOR = "\x1e";
const STEP = RECORD_SIZE.fs_step;
const ARG = RECORD_SIZE.fs_arg;
const RESULT = RECORD_SIZE.fs_result;
const R = FIELD_OFFSET.fs_result;
const A = FIELD_OFFSET.fs_arg;
/** Programs per call of fs_read_execute_batch at most; a call's memory is bounded apart (CALL_BYTES). */
const CHUNK = 8192;
/** Bytes of linear memory one fs_read_execute_batch call may take: a chunk needing more is halved,
 * and a single program needing more (a table of millions of cells) is deferred, not sent. */
const CALL_BYTES = 64 << 20;
/** The most one block may ask fs_alloc for (its size is an i32; the module's memory stops at 1 GiB). */
const MAX_BLOCK_BYTES = 1 << 30;
const INT32_MIN = -(2 ** 31);
const OUTCOME = RECORD_SIZE.fs_answer_outcome;
const O = FIELD_OFFSET.fs_answer_outcome;
const VALUE_BYTES = ANSWER_SIZE.VALUE_BYTES;
/** Completion bytes per fs_decide_answers call, and rows per call (Python's answers/in_core.py uses the same). */
const ANSWER_CALL_TEXT = 8 << 20;
const ANSWER_CALL_ROWS = 65536;
const REASON_NAMES = Object.freeze(Object.keys(ANSWER_REASON).map((name) => name.toLowerCase()));
const FORMAT_CODES = Object.freeze({ "answer-line": ANSWER_FORMAT.ANSWER_LINE, whole: ANSWER_FORMAT.WHOLE });
const INT32_MAX = 2 ** 31 - 1;

const OP_NAMES = Object.freeze(Object.keys(OP).map((name) => name.toLowerCase()));
const KIND_NAMES = Object.freeze(Object.keys(ARG_KIND).map((name) => name.toLowerCase()));
const TYPE_NAMES = Object.freeze(Object.keys(VALUE_TYPE).map((name) => name.toLowerCase()));
const NAME_OF_STATUS = new Map(Object.entries(STATUS).map(([name, code]) => [code, name.toLowerCase()]));
const REQUIRED_EXPORTS = Object.freeze([
  "memory", "_initialize", "fs_execute", "fs_read_execute_batch", "fs_decide_answers", "fs_round_half_even_scaled",
  "fs_status_name", "fs_abi_version", "fs_sizeof_step", "fs_sizeof_program", "fs_sizeof_result", "fs_alloc", "fs_free",
]);

/** A refusal of a whole call, a module that is not the one expected, or input the binding cannot send. */
export class FinscoreError extends Error {
  constructor(message, status = null) {
    super(message);
    this.name = "FinscoreError";
    this.status = status;
    this.statusName = status === null ? null : statusName(status);
  }
}

/** The name of a status code ("ok", "deferred", ...), as the core names it; "unknown_status" otherwise. */
export function statusName(code) {
  return NAME_OF_STATUS.get(code) ?? "unknown_status";
}

/** What a status means, as docs/abi.md says it ("division by zero" for 1412); null for an unknown code. */
export function statusDescription(code) {
  return STATUS_DESCRIPTION[code] ?? null;
}

/** The code of a status name ("divide_by_zero" is 1412); throws on a name the ABI does not have. */
export function statusCode(name) {
  const code = STATUS[String(name).toUpperCase()];
  if (code === undefined) throw new FinscoreError(`no status is named ${JSON.stringify(name)}`);
  return code;
}

/** A literal argument (a number, or its 64 bits as a BigInt so that a NaN's payload travels too). */
export const literal = (number) => ({ kind: "literal", number });
/** A reference to an earlier step of the same program. */
export const reference = (step) => ({ kind: "reference", step });
/** Cells [index, index + length) of the table values, the first argument of a table op. */
export const tableRow = (index, length) => ({ kind: "table_row", index, length });

function sumRuleCode(rule) {
  if (rule === undefined) return SUM_RULE.PY311;
  if (rule === SUM_RULE.PY311 || rule === SUM_RULE.PY312) return rule;
  const code = SUM_RULE[String(rule).toUpperCase()];
  if (code === undefined) throw new FinscoreError(`sumRule must be "py311" or "py312", not ${JSON.stringify(rule)}`);
  return code;
}

function isNode() {
  return typeof process !== "undefined" && process.versions != null && process.versions.node != null;
}

async function wasmBytes(source) {
  if (source === undefined) source = new URL("../finscore_core.wasm", import.meta.url);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const text = source instanceof URL ? source.href : String(source);
  const hasScheme = /^[a-z][a-z0-9+.-]+:/i.test(text);
  if (isNode() && (!hasScheme || text.startsWith("file:"))) {
    const { readFile } = await import("node:fs/promises");
    return readFile(hasScheme ? new URL(text) : text);
  }
  const response = await fetch(text);
  if (!response.ok) throw new FinscoreError(`could not fetch ${text}: HTTP ${response.status}`);
  return response.arrayBuffer(); // not compileStreaming: any static server will do, whatever its MIME type
}

/**
 * Load the core: from the package's own finscore_core.wasm by default, or from a path, a URL,
 * the module's bytes, or a compiled WebAssembly.Module. Checks the ABI before returning.
 */
export async function loadCore(source) {
  const module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(await wasmBytes(source));
  const instance = await WebAssembly.instantiate(module, {});
  return new Core(instance, module);
}

/** The core of one WebAssembly instance. One call at a time (JavaScript is single-threaded anyway). */
export class Core {
  constructor(instance, module = null) {
    const missing = REQUIRED_EXPORTS.filter((name) => !(name in instance.exports));
    if (missing.length) throw new FinscoreError(`not the finscore core: it exports no ${missing.join(", ")}`);
    this.module = module;
    this.exports = instance.exports;
    this.exports._initialize();
    const e = this.exports;
    const found = [e.fs_abi_version(), e.fs_sizeof_step(), e.fs_sizeof_program(), e.fs_sizeof_result()];
    const wanted = [ABI_VERSION, STEP, RECORD_SIZE.fs_program, RESULT];
    if (found.some((value, k) => value !== wanted[k])) {
      throw new FinscoreError(`the module's ABI (version ${found[0]}, record sizes ${found.slice(1).join("/")}) ` +
        `is not the one this binding was written for (version ${wanted[0]}, ${wanted.slice(1).join("/")})`);
    }
    /** The ABI version of the loaded module (ABI_VERSION: the version this package was written for, checked when the module is loaded). */
    this.abiVersion = found[0];
  }

  /** The name of any status code, as the module itself spells it (fs_status_name). */
  statusName(code) {
    const at = this.exports.fs_status_name(code);
    const bytes = new Uint8Array(this.exports.memory.buffer, at, STATUS_NAME_LIMIT);
    const end = bytes.indexOf(0);
    return new TextDecoder("ascii").decode(bytes.subarray(0, end < 0 ? STATUS_NAME_LIMIT : end));
  }

  /** A block of `bytes` bytes of linear memory, handed to `use(address)` and given back afterwards. */
  _withBlock(bytes, use) {
    const e = this.exports;
    if (!Number.isSafeInteger(bytes) || bytes > MAX_BLOCK_BYTES) {
      throw new FinscoreError(`the call needs ${bytes} bytes of the core's memory, more than the ${MAX_BLOCK_BYTES} ` +
        "one call may take");
    }
    const at = e.fs_alloc(Math.max(8, bytes));
    if (at === 0) throw new FinscoreError(`the core could not reserve ${bytes} bytes`);
    try {
      return use(at);
    } finally {
      const freed = e.fs_free(at);
      if (freed !== STATUS.OK) throw new FinscoreError("fs_free refused a block fs_alloc gave", freed); // eslint-disable-line no-unsafe-finally
    }
  }

  /**
   * CPython's round(x, places), half-even, by the core (places 0 to 22; others are refused as
   * bad_scale). `x` may be a number or its 64 bits as a BigInt.
   */
  roundHalfEven(x, places) {
    if (!Number.isInteger(places)) throw new FinscoreError(`places must be an integer, not ${places}`);
    if (typeof x !== "number" && typeof x !== "bigint") {
      throw new FinscoreError(`x must be a number or a BigInt of its bits, not ${typeof x}`);
    }
    const scale = Number(`1e${places}`); // parsed, so exactly 10**places for 0..22
    const e = this.exports;
    return this._withBlock(16, (at) => {
      const input = new DataView(e.memory.buffer);
      input.setBigUint64(at + 8, typeof x === "bigint" ? BigInt.asUintN(64, x) : bitsOf(x), true);
      const status = e.fs_round_half_even_scaled(input.getFloat64(at + 8, true), scale, at);
      const view = new DataView(e.memory.buffer);
      if (status !== STATUS.OK) {
        return { ok: false, status, statusName: statusName(status), value: null, valueBits: null, valueHex: null };
      }
      return { ok: true, status, statusName: "ok", ...number(view, at, "value") };
    });
  }

  /**
   * Execute one resolved program (fs_execute). `steps`: [{op, args: [arg, arg]}] with op a name
   * ("add", "table_sum", ...) or a code, and args made by literal(), reference(), tableRow().
   * Options: `table` (the table values, numbers), `sumRule` ("py311", the default, or "py312").
   */
  execute(steps, options = {}) {
    if (!Array.isArray(steps)) throw new FinscoreError("execute: steps must be an array");
    if (options === null || typeof options !== "object") throw new FinscoreError("execute: options must be an object");
    const table = options.table ?? [];
    if (!Array.isArray(table)) throw new FinscoreError("execute: options.table must be an array of numbers");
    const rule = sumRuleCode(options.sumRule);
    const n = steps.length;
    const encoded = [];
    for (let i = 0; i < n; i++) { // a plain loop: a hole in a sparse array is refused, not skipped
      if (!(i in steps)) throw new FinscoreError(`step ${i} is missing (a hole in the array)`);
      encoded.push(encodeStep(steps[i], i));
    }
    const bits = [];
    for (let i = 0; i < table.length; i++) {
      if (!(i in table)) throw new FinscoreError(`table[${i}] is missing (a hole in the array)`);
      bits.push(numberBits(table[i], `table[${i}]`));
    }
    const stepsAt = 0, tableAt = n * STEP, valuesAt = tableAt + table.length * 8, typesAt = valuesAt + n * 8;
    const resultAt = align8(typesAt + n * 4);
    const e = this.exports;
    return this._withBlock(resultAt + RESULT, (base) => {
      let view = new DataView(e.memory.buffer);
      encoded.forEach((step, i) => writeStep(view, base + stepsAt + i * STEP, step));
      bits.forEach((cell, i) => view.setBigUint64(base + tableAt + i * 8, cell, true));
      e.fs_execute(base + stepsAt, n, n, table.length ? base + tableAt : 0, table.length, rule,
        base + valuesAt, n, base + typesAt, n, base + resultAt);
      view = new DataView(e.memory.buffer);
      const result = readResult(view, base + resultAt, (step) => encoded[step]?.op);
      const cell = (k) => view.getFloat64(base + tableAt + 8 * k, true); // as the core holds it
      result.steps = encoded.map((step, i) => ({
        op: OP_NAMES[step.op] ?? null,
        args: step.args.map((arg) => describeArg(arg, cell, table.length)),
        ...stepValue(view, base + valuesAt + i * 8, view.getInt32(base + typesAt + i * 4, true)),
      }));
      return result;
    });
  }

  /**
   * Read and execute plain token programs with the core's own reader (fs_read_execute_batch).
   * `programs`: [{tokens, table}] with tokens as the official evaluator's token list (["add(",
   * "1", "2", ")", "EOF"]) and table as rows of text ([["revenue", "$ 13,053", ...], ...]) or null.
   * A program the core does not read itself, or one that cannot be framed for it, comes back
   * with status 1419 (deferred): not decided. Options: `sumRule`.
   */
  readExecute(programs, options = {}) {
    if (!Array.isArray(programs)) throw new FinscoreError("readExecute: programs must be an array");
    const rule = sumRuleCode(options.sumRule);
    for (let i = 0; i < programs.length; i++) {
      if (!(i in programs)) throw new FinscoreError(`program ${i} is missing (a hole in the array)`);
    }
    const results = [];
    for (let start = 0; start < programs.length; start += CHUNK) {
      results.push(...this._readChunk(programs.slice(start, start + CHUNK), rule, start));
    }
    return results;
  }

  /** readExecute of one program. */
  readExecuteOne(tokens, table = null, options = {}) {
    return this.readExecute([{ tokens, table }], options)[0];
  }

  /**
   * Decide free-text answers under a protocol's rules with the core's common answer path
   * (fs_decide_answers, docs/abi.md). `rules`: the protocol's rules text as docs/abi.md lays it
   * out (finscore's Python package writes it: finscore.answers.in_core.core_rules); `format`:
   * "answer-line" or "whole"; `rows`: [{text, gold}] with gold an index into `golds` or -1
   * (a gold the core does not read, such as yes / no); `golds`: gold texts (`value` 0x1F `half unit`
   * 0x1F `flags` 0x1F `scale`). A row the core does not decide with certainty comes back with
   * `decided: false`, as does a completion that is not ASCII (`sent: false`: the core reads ASCII
   * only): decide those by the protocol's full rules. Offsets are those of the row's own text:
   * `span` the answer as the core's reader took it (for several_numbers, the located answer),
   * `read` the number read (several_numbers: the first, `other` the second), `value` the value
   * compared as Python's format(Decimal, "f") writes it, `equal` whether it equals the gold.
   */
  decideAnswers(rules, format, rows, golds = []) {
    const rulesBytes = asciiBytes(rules, "rules");
    if (rulesBytes === null) throw new FinscoreError("rules must be ASCII text (docs/abi.md lays them out)");
    const code = typeof format === "number" ? int32(format, "format") : FORMAT_CODES[format];
    if (code === undefined) {
      throw new FinscoreError(`format must be "answer-line" or "whole", not ${JSON.stringify(format)}`);
    }
    if (!Array.isArray(rows)) throw new FinscoreError("decideAnswers: rows must be an array of {text, gold}");
    if (!Array.isArray(golds)) throw new FinscoreError("decideAnswers: golds must be an array of gold texts");
    const goldBytes = [];
    for (let g = 0; g < golds.length; g++) {
      if (!(g in golds)) throw new FinscoreError(`gold ${g} is missing (a hole in the array)`);
      const bytes = asciiBytes(golds[g], `gold ${g}`);
      if (bytes === null) throw new FinscoreError(`gold ${g} must be ASCII text (docs/abi.md lays golds out)`);
      goldBytes.push(bytes);
    }
    const outcomes = rows.map(() => null);
    let chunk = [], size = 0;
    for (let i = 0; i < rows.length; i++) {
      if (!(i in rows)) throw new FinscoreError(`row ${i} is missing (a hole in the array)`);
      const row = rows[i];
      if (row === null || typeof row !== "object" || typeof row.text !== "string") {
        throw new FinscoreError(`row ${i} must be {text, gold} with text a string`);
      }
      const gold = int32(row.gold ?? -1, `row ${i}: gold`);
      if (gold < -1 || gold >= golds.length) {
        throw new FinscoreError(`row ${i}: gold ${gold} is neither -1 nor one of the ${golds.length} golds`);
      }
      const text = asciiBytes(row.text, `row ${i}`);
      if (text === null || text.length > ANSWER_CALL_TEXT) { outcomes[i] = notSent(); continue; }
      if (size + text.length > ANSWER_CALL_TEXT || chunk.length === ANSWER_CALL_ROWS) {
        this._decideChunk(rulesBytes, code, chunk, goldBytes, outcomes);
        chunk = []; size = 0;
      }
      chunk.push({ index: i, text, gold });
      size += text.length;
    }
    this._decideChunk(rulesBytes, code, chunk, goldBytes, outcomes);
    return outcomes;
  }

  /** decideAnswers of one completion against one gold text (null: a gold the core does not read). */
  decideAnswer(rules, format, text, gold) {
    return this.decideAnswers(rules, format, [{ text, gold: gold === null ? -1 : 0 }], gold === null ? [] : [gold])[0];
  }

  _decideChunk(rules, code, chunk, golds, outcomes) {
    const n = chunk.length;
    if (n === 0) return;
    const textLength = chunk.reduce((total, row) => total + row.text.length, 0);
    const goldLength = golds.reduce((total, gold) => total + gold.length, 0);
    const sizes = [rules.length, textLength, 12 * n, goldLength, 8 * golds.length, OUTCOME * n, VALUE_BYTES * n];
    const at = [];
    let total = 0;
    for (const size of sizes) { at.push(total); total += align8(size); }
    const e = this.exports;
    this._withBlock(total, (base) => {
      const [rulesAt, textAt, rowsAt, goldsAt, spansAt, outAt, valuesAt] = at.map((k) => base + k);
      let bytes = new Uint8Array(e.memory.buffer);
      let view = new DataView(e.memory.buffer);
      bytes.set(rules, rulesAt);
      let offset = 0;
      chunk.forEach((row, r) => {
        bytes.set(row.text, textAt + offset);
        view.setInt32(rowsAt + 12 * r, offset, true);
        view.setInt32(rowsAt + 12 * r + 4, row.text.length, true);
        view.setInt32(rowsAt + 12 * r + 8, row.gold, true);
        offset += row.text.length;
      });
      offset = 0;
      golds.forEach((gold, g) => {
        bytes.set(gold, goldsAt + offset);
        view.setInt32(spansAt + 8 * g, offset, true);
        view.setInt32(spansAt + 8 * g + 4, gold.length, true);
        offset += gold.length;
      });
      const status = e.fs_decide_answers(rulesAt, rules.length, code, textAt, textLength, rowsAt, 3 * n, n,
        goldsAt, goldLength, spansAt, golds.length, outAt, n, valuesAt, VALUE_BYTES * n);
      if (status !== STATUS.OK) {
        throw new FinscoreError(`fs_decide_answers refused the call: ${statusName(status)} (${status})`, status);
      }
      bytes = new Uint8Array(e.memory.buffer);
      view = new DataView(e.memory.buffer);
      const ascii = new TextDecoder("latin1");
      chunk.forEach((row, r) => {
        const o = outAt + OUTCOME * r;
        const field = (name) => view.getInt32(o + O[name], true);
        if (field("row") !== ANSWER_ROW.DECIDED) { outcomes[row.index] = deferredAnswer(true); return; }
        const reason = REASON_NAMES[field("reason")] ?? null;
        if (reason === null) throw new FinscoreError(`fs_decide_answers gave an unknown reason ${field("reason")}`);
        const noAnswer = reason === "no_final_answer";
        const several = reason === "several_numbers";
        const length = field("value_length");
        const read = noAnswer ? null : [field("read_start"), field("read_end")];
        outcomes[row.index] = {
          decided: true, sent: true, reason, reasonCode: field("reason"),
          k: field("has_k") ? field("k") : null,
          span: noAnswer ? null : [field("span_start"), field("span_end")],
          read, other: several ? [field("other_start"), field("other_end")] : null,
          value: noAnswer || several ? null
            : ascii.decode(bytes.subarray(valuesAt + VALUE_BYTES * r, valuesAt + VALUE_BYTES * r + length)),
          equal: field("equal") === 1,
        };
      });
    });
  }

  _readChunk(programs, rule, offset) {
    const layout = layOut(programs, offset);
    const results = programs.map(() => null);
    const n = layout.sent.length;
    if (n > 0) {
      const S = Math.floor(layout.tokenCount / 4);
      const C = layout.valueCells;
      const tables = layout.tableBytes;
      const sizes = [layout.text.length, tables.length, 8 * layout.tableCount, 4 * n, STEP * S, 8 * C, 8 * S, 4 * S,
        8 * n, RESULT * n];
      const at = [];
      let total = 0;
      for (const size of sizes) { at.push(total); total += align8(size); }
      if (total > CALL_BYTES) { // halve the chunk; a single program this large is not sent (deferred)
        if (programs.length === 1) return [notFramed()];
        const half = Math.ceil(programs.length / 2);
        return [...this._readChunk(programs.slice(0, half), rule, offset),
          ...this._readChunk(programs.slice(half), rule, offset + half)];
      }
      const e = this.exports;
      this._withBlock(total, (base) => {
        const [textAt, tablesAt, spansAt, ptAt, stepsAt, tvAt, svAt, stAt, pspAt, resAt] = at.map((k) => base + k);
        let bytes = new Uint8Array(e.memory.buffer);
        bytes.set(layout.text, textAt);
        bytes.set(tables, tablesAt);
        let view = new DataView(e.memory.buffer);
        layout.tableSpans.forEach((v, k) => view.setInt32(spansAt + 4 * k, v, true));
        layout.programTables.forEach((v, k) => view.setInt32(ptAt + 4 * k, v, true));
        const status = e.fs_read_execute_batch(textAt, layout.text.length, n, tablesAt, tables.length, spansAt,
          layout.tableCount, ptAt, n, rule, stepsAt, S, tvAt, C, svAt, S, stAt, S, pspAt, 2 * n, resAt, n);
        if (status !== STATUS.OK) {
          throw new FinscoreError(`fs_read_execute_batch refused the call: ${statusName(status)} (${status}); ` +
            "the binding laid the programs out wrongly (a bug: please report it)", status);
        }
        view = new DataView(e.memory.buffer);
        const cell = (k) => view.getFloat64(tvAt + 8 * k, true);
        layout.sent.forEach((position, p) => {
          const first = view.getInt32(pspAt + 8 * p, true);
          const count = view.getInt32(pspAt + 8 * p + 4, true);
          const result = readResult(view, resAt + p * RESULT,
            (step) => (step >= 0 && step < count ? view.getInt32(stepsAt + (first + step) * STEP, true) : undefined));
          if (layout.tableUnframed[p]) result.framed = false; // sent without its table: the core deferred it
          result.steps = [];
          for (let i = 0; i < count; i++) {
            const stepAt = stepsAt + (first + i) * STEP;
            result.steps.push({
              op: OP_NAMES[view.getInt32(stepAt, true)] ?? null,
              args: [0, 1].map((k) => describeArg(readArg(view, stepAt + FIELD_OFFSET.fs_step.args + k * ARG), cell, C)),
              ...stepValue(view, svAt + 8 * (first + i), view.getInt32(stAt + 4 * (first + i), true)),
            });
          }
          results[position] = result;
        });
      });
    }
    return results.map((result) => result ?? notFramed());
  }
}

/** A row fs_decide_answers did not decide (deferred by the core), or one not sent to it (not ASCII). */
function deferredAnswer(sent) {
  return { decided: false, sent, reason: null, reasonCode: null, k: null, span: null, read: null, other: null,
    value: null, equal: false };
}

function notSent() {
  return deferredAnswer(false);
}

/** The bytes of ASCII text (a string, or bytes given as they are), or null when it holds another character. */
function asciiBytes(text, what) {
  if (text instanceof Uint8Array) return text.every((byte) => byte < 0x80) ? text : null;
  if (typeof text !== "string") throw new FinscoreError(`${what} must be a string, not ${typeof text}`);
  if (!/^[\x00-\x7f]*$/.test(text)) return null;
  return encoder.encode(text);
}

function align8(n) {
  return Math.ceil(n / 8) * 8; // not (n + 7) & ~7: 32-bit operators wrap sizes of 2 GiB and more
}

/** An integer field of a record (an i32 in the core's memory), or a FinscoreError naming it. */
function int32(value, what) {
  if (!Number.isSafeInteger(value) || value < INT32_MIN || value > INT32_MAX) {
    const shown = typeof value === "bigint" ? `${value}n` : typeof value === "number" ? String(value) : typeof value;
    throw new FinscoreError(`${what} must be an integer that fits 32 bits, not ${shown}`);
  }
  return value;
}

function numberBits(x, what) {
  if (typeof x === "bigint") return BigInt.asUintN(64, x);
  if (typeof x !== "number") throw new FinscoreError(`${what} must be a number or a BigInt of its bits, not ${typeof x}`);
  return bitsOf(x);
}

function encodeStep(step, i) {
  if (step === null || typeof step !== "object" || !Array.isArray(step.args) || step.args.length !== 2) {
    throw new FinscoreError(`step ${i} must be {op, args: [arg, arg]}`);
  }
  const op = typeof step.op === "number" ? int32(step.op, `step ${i}: op`) : OP[String(step.op).toUpperCase()];
  if (op === undefined) throw new FinscoreError(`step ${i}: unknown op ${JSON.stringify(step.op)}`);
  const args = [0, 1].map((k) => {
    const arg = step.args[k];
    const where = `step ${i}, argument ${k}`;
    if (arg === null || typeof arg !== "object") throw new FinscoreError(`${where} must be an argument object`);
    const kind = typeof arg.kind === "number" ? int32(arg.kind, `${where}: kind`) : ARG_KIND[String(arg.kind).toUpperCase()];
    if (kind === undefined) throw new FinscoreError(`${where}: unknown kind ${JSON.stringify(arg.kind)}`);
    if (kind === ARG_KIND.LITERAL) return { kind, index: 0, length: 0, bits: numberBits(arg.number, where) };
    if (kind === ARG_KIND.REFERENCE) return { kind, index: int32(arg.step, `${where}: step`), length: 0, bits: 0n };
    return { // a table row, or a kind the core will refuse with its status
      kind, index: int32(arg.index ?? 0, `${where}: index`), length: int32(arg.length ?? 0, `${where}: length`), bits: 0n,
    };
  });
  return { op, args };
}

function writeStep(view, at, step) {
  view.setInt32(at, step.op, true);
  view.setInt32(at + 4, 0, true);
  step.args.forEach((arg, k) => {
    const argAt = at + FIELD_OFFSET.fs_step.args + k * ARG;
    view.setInt32(argAt + A.kind, arg.kind, true);
    view.setInt32(argAt + A.index, arg.index, true);
    view.setInt32(argAt + A.length, arg.length, true);
    view.setInt32(argAt + A.reserved, 0, true);
    view.setBigUint64(argAt + A.number, arg.bits, true);
  });
}

function readArg(view, at) {
  return {
    kind: view.getInt32(at + A.kind, true), index: view.getInt32(at + A.index, true),
    length: view.getInt32(at + A.length, true), bits: view.getBigUint64(at + A.number, true),
  };
}

/** An argument for the result; a table row's cells read from the core's `cells` table values (null
 * for a slice outside them, which the core refused: the caller's length is never looped over). */
function describeArg(arg, cell, cells) {
  const kind = KIND_NAMES[arg.kind] ?? null;
  if (arg.kind === ARG_KIND.LITERAL) {
    return { kind, number: fromBits(arg.bits), bits: bitsHex(arg.bits), hex: hexOfBits(arg.bits) };
  }
  if (arg.kind === ARG_KIND.REFERENCE) return { kind, step: arg.index };
  if (arg.kind === ARG_KIND.TABLE_ROW) {
    const inside = arg.index >= 0 && arg.length >= 0 && arg.index + arg.length <= cells;
    const values = inside ? Array.from({ length: arg.length }, (_, k) => cell(arg.index + k)) : null;
    return { kind, index: arg.index, length: arg.length, cells: values };
  }
  return { kind, index: arg.index, length: arg.length };
}

function number(view, at, name) {
  const bits = view.getBigUint64(at, true);
  return { [name]: view.getFloat64(at, true), [`${name}Bits`]: bitsHex(bits), [`${name}Hex`]: hexOfBits(bits) };
}

function stepValue(view, at, type) {
  if (type === VALUE_TYPE.NONE) return { type: "none", value: null, valueBits: null, valueHex: null };
  return { type: TYPE_NAMES[type] ?? "unknown", ...number(view, at, "value") };
}

/**
 * Whether a status is the official outcome (docs/abi.md, "From a result to the official evaluator's
 * outcome"): not for 1419 deferred, 1414 (a complex power), 1409 (arithmetic on greater's text) or
 * 1411 of a table_sum (officially sum() of an empty row is 0 and the program goes on).
 */
function isOfficialOutcome(status, failedOp) {
  if (status === STATUS.DEFERRED || status === STATUS.NEGATIVE_BASE_FRACTIONAL_EXPONENT) return false;
  if (status === STATUS.REFERENCE_TO_BOOLEAN) return false;
  return !(status === STATUS.EMPTY_ROW && failedOp === OP.TABLE_SUM);
}

/** A result record; `opOfStep(k)` gives the op code of step k (for 1411's table_sum). */
function readResult(view, at, opOfStep) {
  const status = view.getInt32(at + R.status, true);
  const hasValue = view.getInt32(at + R.has_value, true) === 1;
  const valueType = TYPE_NAMES[view.getInt32(at + R.value_type, true)] ?? "unknown";
  const failedStep = view.getInt32(at + R.failed_step, true);
  const deferred = status === STATUS.DEFERRED;
  const decided = isOfficialOutcome(status, failedStep >= 0 ? opOfStep(failedStep) : undefined);
  const result = {
    status, statusName: statusName(status), ok: status === STATUS.OK, deferred, decided, framed: true,
    // no steps is officially valid, with the answer "n/a"
    invalid: decided ? (status === STATUS.OK || status === STATUS.NO_STEPS ? 0 : 1) : null,
    valueType, failedStep: failedStep < 0 ? null : failedStep,
    stepsExecuted: view.getInt32(at + R.steps_executed, true),
    answer: null, value: null, valueBits: null, valueHex: null, unrounded: null, unroundedBits: null, unroundedHex: null,
    steps: [],
  };
  if (status === STATUS.NO_STEPS) result.answer = "n/a";
  if (hasValue) {
    Object.assign(result, number(view, at + R.value, "value"), number(view, at + R.unrounded, "unrounded"));
    result.answer = valueType === "bool" ? (result.value !== 0 ? "yes" : "no") : result.value;
  }
  return result;
}

function notFramed() {
  return {
    status: STATUS.DEFERRED, statusName: "deferred", ok: false, deferred: true, decided: false, framed: false,
    invalid: null,
    valueType: "none", failedStep: null, stepsExecuted: 0, answer: null, value: null, valueBits: null, valueHex: null,
    unrounded: null, unroundedBits: null, unroundedHex: null, steps: [],
  };
}

// -- laying programs out as docs/abi.md frames them ------------------------------------------

/** The program's text (tokens separated by 0x1F), or null when the framing cannot express it. */
function programText(tokens, position) {
  if (!Array.isArray(tokens)) throw new FinscoreError(`program ${position}: tokens must be an array of strings`);
  if (tokens.length === 0) return null;
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k];
    if (typeof token !== "string") {
      throw new FinscoreError(`program ${position}: token ${k} is ${token === undefined && !(k in tokens) ? "missing" :
        typeof token}, not a string`);
    }
    if (token.includes(TOKEN_SEPARATOR) || token.includes(RECORD_SEPARATOR)) return null;
  }
  return tokens[tokens.length - 1] === "" ? null : tokens.join(TOKEN_SEPARATOR);
}

/** {text, valueCells} of a table (rows 0x1E, cells 0x1F), or null when it cannot be framed. */
function tableText(table) {
  if (!Array.isArray(table) || table.length === 0) return null;
  const rows = [];
  let valueCells = 0;
  for (const row of table) {
    if (!Array.isArray(row) || row.length === 0 || (row.length === 1 && row[0] === "")) return null;
    for (const cell of row) {
      if (typeof cell !== "string" || cell.includes(TOKEN_SEPARATOR) || cell.includes(RECORD_SEPARATOR)) return null;
    }
    rows.push(row.join(TOKEN_SEPARATOR));
    valueCells += row.length - 1;
  }
  return { text: rows.join(RECORD_SEPARATOR), valueCells };
}

function layOut(programs, offset) {
  const sent = [], texts = [], programTables = [], tableSpans = [], tablePieces = [];
  const tableUnframed = []; // per program sent: its table steps have a table the framing cannot hold
  const tableIndex = new Map(); // table object -> its index, or -1 when it cannot be framed
  const tableCells = [];
  let tokenCount = 0, valueCells = 0, tableBytes = 0;
  programs.forEach((item, position) => {
    if (item === null || typeof item !== "object") {
      throw new FinscoreError(`program ${offset + position} must be {tokens, table}`);
    }
    const text = programText(item.tokens, offset + position);
    if (text === null) return;
    sent.push(position);
    texts.push(text);
    tokenCount += item.tokens.length;
    let which = -1;
    const table = item.table ?? null;
    if (table !== null && text.includes("table_")) { // only a table step reads a table
      which = tableIndex.get(table);
      if (which === undefined) {
        const laid = tableText(table);
        which = -1;
        if (laid !== null) {
          const piece = encodeWtf8(laid.text);
          which = tablePieces.length;
          tableSpans.push(tableBytes, piece.length);
          tableBytes += piece.length;
          tablePieces.push(piece);
          tableCells.push(laid.valueCells);
        }
        tableIndex.set(table, which);
      }
      if (which >= 0) valueCells += tableCells[which];
    }
    programTables.push(which);
    tableUnframed.push(which < 0 && table !== null && text.includes("table_"));
  });
  const joinedTables = new Uint8Array(tableBytes);
  let at = 0;
  for (const piece of tablePieces) { joinedTables.set(piece, at); at += piece.length; }
  return {
    sent, tableUnframed, text: encodeWtf8(texts.join(RECORD_SEPARATOR)), tokenCount, programTables,
    tableBytes: joinedTables, tableSpans, tableCount: tablePieces.length, valueCells,
  };
}

const encoder = new TextEncoder();

/**
 * UTF-8, except that a lone surrogate is written in three bytes (as Python's "surrogatepass"
 * writes it, and as the core accepts it) rather than replaced: two different lone surrogates
 * must stay two different names.
 */
export function encodeWtf8(text) {
  if (typeof text.isWellFormed === "function" ? text.isWellFormed() : !/[\ud800-\udfff]/.test(text)) {
    return encoder.encode(text);
  }
  const out = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}
