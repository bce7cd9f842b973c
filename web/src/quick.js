// The step view's first path: plain programs read and run by the core itself, through the
// JavaScript binding (js/, copied into the page as binding/), as soon as the module is compiled.
//
// Nothing is computed here: the core reads the tokens and runs them (fs_read_execute_batch),
// and this file only spells its answer the way the Python side spells it (repr, float.hex) in
// the shape run_program returns. Whatever the core does not decide itself (deferred, a complex
// power, text the page cannot hand it as is) waits for Python, which decides it.
import { STATUS, statusDescription } from "./binding/index.js";

/** Whether a UTF-16 code unit is one of Python's str.isspace() characters, which str.strip()
 * removes (JavaScript's trim() differs); all of them are single code units. */
function isPythonSpace(c) {
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c === 0x85 || c === 0xa0 || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** Python's str.strip(), in one pass from each end (a trailing-space regular expression is quadratic
 * on a long run of spaces that does not reach the end). */
export function pythonStrip(text) {
  let start = 0, end = text.length;
  while (start < end && isPythonSpace(text.charCodeAt(start))) start++;
  while (end > start && isPythonSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/** What Python reads (finscore.engine.text_input's MAX_PROGRAM_CHARS, MAX_TABLE_CHARS and
 * TABLE_FORMATS; a browser test compares them): longer text, or another table format, is Python's
 * to refuse. */
export const PYTHON_READS = Object.freeze({
  maxProgramChars: 1_000_000, maxTableChars: 20_000_000, tableFormats: Object.freeze(["auto", "json", "tab", "pipe"]),
});

/** Text Python reads differently, or refuses, before any token: a byte-order mark (dropped), a lone
 * surrogate (not UTF-8), or more than the characters allowed. */
function pythonsAlone(text, limit) {
  const wellFormed = typeof text.isWellFormed === "function" ? text.isWellFormed()
    : !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
  return text.length > limit || text.startsWith("\ufeff") || !wellFormed;
}

/**
 * A gold program string as the official evaluator tokenizes it (split on ", "; "(" ends a token,
 * ")" is a token of its own; EOF appended), with each token's [start, end) in the text.
 */
export function tokenizeGoldProgram(program) {
  const tokens = [];
  const spans = [];
  let offset = 0;
  for (const piece of program.split(", ")) {
    let current = "";
    let start = offset;
    let at = offset;
    for (const char of piece) {
      if (char === ")" && current) {
        tokens.push(current);
        spans.push([start, at]);
        current = "";
        start = at;
      }
      if (!current) start = at;
      current += char;
      at += char.length;
      if (char === "(" || char === ")") {
        tokens.push(current);
        spans.push([start, at]);
        current = "";
        start = at;
      }
    }
    if (current) {
      tokens.push(current);
      spans.push([start, at]);
    }
    offset += piece.length + 2;
  }
  tokens.push("EOF");
  spans.push(null);
  return { tokens, spans };
}

/** Python's repr() of a float: the shortest digits that read back, in Python's layout. */
export function pythonFloatRepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, exponentText] = Math.abs(x).toExponential().split("e"); // shortest round-trip digits
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  const point = exponent + 1; // the value is 0.DIGITS x 10**point
  let text;
  if (point <= -4 || point > 16) {
    const sign = exponent < 0 ? "-" : "+";
    text = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ""}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  } else if (point <= 0) {
    text = `0.${"0".repeat(-point)}${digits}`;
  } else if (point >= digits.length) {
    text = `${digits}${"0".repeat(point - digits.length)}.0`;
  } else {
    text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  return x < 0 ? `-${text}` : text;
}

const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** Python's repr() of a str (quotes chosen and characters escaped as Python does). */
export function pythonStrRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\t") out += "\\t";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code >= 0x80 && NOT_PRINTABLE.test(char)) {
      out += code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}`
        : code < 0x10000 ? `\\u${code.toString(16).padStart(4, "0")}` : `\\U${code.toString(16).padStart(8, "0")}`;
    } else out += char;
  }
  return out + quote;
}

/** JSON cannot hold inf and nan: the Python side writes their repr there. */
function jsonValue(x) {
  return Number.isFinite(x) ? x : pythonFloatRepr(x);
}

function literalText(text, value) {
  const plain = Number(text.replaceAll(",", "")); // the core's plain literals are decimals both languages read alike
  return /^[+-]?(\d|\.\d)/.test(text.replaceAll(",", "")) && plain === value ? text : `${text} (${pythonFloatRepr(value)})`;
}

function argumentView(read, text) {
  if (read.kind === "literal") {
    return { json: { kind: "literal", text, value: jsonValue(read.number), hex: read.hex }, text: literalText(text, read.number) };
  }
  if (read.kind === "reference") {
    return { json: { kind: "reference", text, step: read.step }, text: text === `#${read.step}` ? text : `${text} (#${read.step})` };
  }
  const cells = read.cells.map(pythonFloatRepr).join(", ");
  return {
    json: { kind: "row", text, row: text, values: read.cells.map(jsonValue), reused_from: null },
    text: `${pythonStrRepr(text)} (row ${pythonStrRepr(text)}: [${cells}])`,
  };
}

function stepView(step, index, tokens) {
  const table = step.op.startsWith("table_");
  const args = step.args.map((read, k) => {
    const text = tokens[4 * index + 1 + k];
    return table && k === 1 ? { json: { kind: "ignored", text }, text } : argumentView(read, text);
  });
  const ran = step.type !== "none";
  const bool = step.type === "bool";
  const value = !ran ? null : bool ? (step.value !== 0 ? "yes" : "no") : step.value;
  return {
    index, op: step.op, arguments: args.map((a) => a.json),
    value: typeof value === "number" ? jsonValue(value) : value, value_type: step.type,
    hex: ran && !bool ? step.valueHex : null,
    value_text: value === null ? null : typeof value === "number" ? pythonFloatRepr(value) : value,
    arguments_text: args.map((a) => a.text),
  };
}

const REFERENCE_STOPS = [STATUS.SELF_REFERENCE, STATUS.FORWARD_REFERENCE, STATUS.REFERENCE_OUT_OF_RANGE];

/** Why a read-stopping refusal stopped, in words (the core says which step, not which argument).
 * A reference to no earlier step and the position check are spelled as Python's reader spells them:
 * the failing argument is the step's first reference #j with j at or past the step. */
function readMessage(result, tokens) {
  if (result.status === STATUS.BAD_NUMBER) return `step #${result.failedStep}: an argument is not a number`;
  if (result.status === STATUS.UNKNOWN_ROW) return `step #${result.failedStep}: no row of the table has that name`;
  if (result.status === STATUS.MALFORMED_STRUCTURE) return "tokens are not op(, arg, arg, ) groups";
  if (REFERENCE_STOPS.includes(result.status)) {
    const at = result.failedStep;
    const failing = [tokens[4 * at + 1], tokens[4 * at + 2]].find((t) => /^#\d{1,9}$/.test(t) && Number(t.slice(1)) >= at);
    if (failing !== undefined) return `${pythonStrRepr(failing)} names no earlier result`;
  }
  return result.statusName;
}

/** The run_program answer for a result the core decided, spelled as the Python side spells it. */
export function answerOf(result, tokens, request, program) {
  const steps = result.failedStep === null ? result.steps : result.steps.slice(0, result.failedStep + 1);
  const valid = result.invalid === 0;
  const execution = {
    invalid: result.invalid,
    result: !valid ? { str: "n/a" } : result.valueType === "float" ? { float: result.valueHex } : { str: result.answer },
    status: result.status, status_name: result.statusName, failed_step: result.failedStep,
    message: valid ? "" : readMessage(result, tokens),
    unrounded: valid && result.valueType === "float" ? jsonValue(result.unrounded) : valid ? result.answer : null,
    unrounded_hex: valid && result.valueType === "float" ? result.unroundedHex : null,
    steps: steps.map((step, index) => stepView(step, index, tokens)),
    quirks: [], skipped_steps: [], profile: request.profile, python: request.python,
    status_description: statusDescription(result.status),
    result_text: !valid ? "n/a" : result.valueType === "float" ? pythonFloatRepr(result.value) : result.answer,
    result_hex: valid && result.valueType === "float" ? result.valueHex : null,
    unrounded_text: !valid ? null : result.valueType === "float" ? pythonFloatRepr(result.unrounded) : result.answer,
  };
  return {
    ok: true, path: "core", execution, program_kind: program.kind,
    table_format: program.tableFormat, table_format_text: program.tableFormat === "none" ? "no table" : "JSON rows",
    table_rows: Array.isArray(program.table) ? program.table.length : 0,
  };
}

/**
 * What the page can hand the core as is: {tokens, spans, kind, table, tableFormat}, or
 * {wait: reason} when only Python can read the request (its messages for bad input included).
 */
export function readRequest(request) {
  if (!["official", "strict"].includes(request.profile) || !["3.11", "3.12"].includes(request.python)) {
    return { wait: "options" };
  }
  if (typeof request.program !== "string" || typeof request.table !== "string" ||
      !PYTHON_READS.tableFormats.includes(request.table_format)) {
    return { wait: "options" };
  }
  if (pythonsAlone(request.program, PYTHON_READS.maxProgramChars) ||
      pythonsAlone(request.table, PYTHON_READS.maxTableChars)) {
    return { wait: "text Python reads itself" };
  }
  const text = pythonStrip(request.program);
  if (!text) return { wait: "empty program" };
  let tokens, spans = null, kind;
  if (text.startsWith("[")) {
    try {
      tokens = JSON.parse(text);
    } catch {
      return { wait: "not JSON" };
    }
    if (!Array.isArray(tokens) || !tokens.every((t) => typeof t === "string")) return { wait: "not a token list" };
    kind = "tokens";
  } else {
    const offset = request.program.indexOf(text);
    ({ tokens, spans } = tokenizeGoldProgram(text));
    spans = spans.map((span) => span && [span[0] + offset, span[1] + offset]);
    kind = "string";
  }
  let table = null, tableFormat = "none";
  if (pythonStrip(request.table)) {
    const stripped = pythonStrip(request.table);
    const json = request.table_format === "json" || (request.table_format === "auto" && /^[[{]/.test(stripped));
    if (!json) return { wait: "pasted table" }; // tab and | rows are read by Python
    try {
      table = JSON.parse(request.table);
    } catch {
      return { wait: "table not JSON" };
    }
    // Only a list of rows of text is the core's: an object may repeat a key (which Python refuses and
    // JSON.parse quietly keeps the last of), and a row that is not a list is Python's error to give.
    if (!Array.isArray(table) || !table.every((row) => Array.isArray(row) && row.every((cell) => typeof cell === "string"))) {
      return { wait: "table not rows of text" };
    }
    tableFormat = "json";
  }
  return { tokens, spans, kind, table, tableFormat };
}

/** The answer for a request the core decides at once, or {wait: reason}. */
export function quickRun(core, request) {
  const program = readRequest(request);
  if (program.wait) return program;
  const result = core.readExecuteOne(program.tokens, program.table, { sumRule: request.python === "3.12" ? "py312" : "py311" });
  if (!result.decided) return { wait: result.framed ? result.statusName : "not framed", program };
  return { answer: answerOf(result, program.tokens, request, program), program };
}

/** Vector rows ({program, table, python}) through the core: {invalid, result} per row, null where it does not decide. */
export function quickRows(core, rows) {
  const groups = { "3.11": [], "3.12": [] };
  rows.forEach((row, position) => groups[row.python === "3.12" ? "3.12" : "3.11"].push(position));
  const answers = rows.map(() => null);
  for (const [python, positions] of Object.entries(groups)) {
    if (!positions.length) continue;
    const results = core.readExecute(positions.map((p) => ({ tokens: rows[p].program, table: rows[p].table ?? null })),
      { sumRule: python === "3.12" ? "py312" : "py311" });
    results.forEach((result, k) => {
      if (!result.decided) return;
      answers[positions[k]] = {
        invalid: result.invalid,
        result: result.invalid ? { str: "n/a" } : result.valueType === "float" ? { float: result.valueHex } : { str: result.answer },
      };
    });
  }
  return answers;
}
