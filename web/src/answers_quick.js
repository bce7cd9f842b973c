// The answer view's first path: a free-text answer decided by the core itself (fs_decide_answers,
// through the JavaScript binding), as soon as the module is compiled, without Python.
//
// The core decides; this file only hands it what finscore's Python side would hand it and
// spells the decision as finscore_playground.decide_answer spells it. The protocols' rules, the
// lists the view offers and the words of a decision come from web/src/answers.json, written from
// the Python package (tools/answers/make_web_answers.py). A gold is read here only where Python's
// gold reader (finscore/answers/gold.py) is plain text work on a JSON number: FinQA's and
// ConvFinQA's exe_ans, and TAT-QA's arithmetic and count answers; the rest (a yes / no gold, a
// TAT-QA span, text Python reads by its Unicode rules, a format or protocol the core does not
// hold, any input Python refuses, a row the core defers) waits for Python, which decides it.
import { pythonFloatRepr, pythonStrip, pythonStrRepr } from "./quick.js";

/** Digits of an integer gold read here at most (safe integers); a longer one is Python's. */
const MAX_INT_DIGITS = 15;
/** Characters of a gold number read here at most. */
const MAX_NUMBER_CHARS = 64;
/** Program and question text searched here at most (a longer one is Python's to read). */
const MAX_GOLD_TEXT = 100_000;
const ASCII = /^[\x00-\x7f]*$/;

// -- decimals, as Python's decimal module writes them ----------------------------------------
// {sign, digits, exp}: the value (-1)**sign * digits * 10**exp, digits without leading zeros
// ("0" for zero), exactly Decimal's (sign, _int, _exp). Only what gold.py does with a gold is here.

const DECIMAL_TEXT = /^(-)?([0-9]+)(?:\.([0-9]+))?(?:[eE]([-+]?[0-9]+))?$/;

/** Decimal(text) for the text repr() gives a float or an int. */
function decimalOf(text) {
  const [, minus, whole, fraction = "", exponent = "0"] = DECIMAL_TEXT.exec(text);
  const digits = (whole + fraction).replace(/^0+/, "") || "0";
  return { sign: minus ? 1 : 0, digits, exp: Number(exponent) - fraction.length };
}

const scaleb = (d, n) => ({ ...d, exp: d.exp + n });
const adjusted = (d) => d.exp + d.digits.length - 1;

/** str(Decimal): Decimal.__str__ (scientific notation when the exponent is positive or the value small). */
function decimalStr(d) {
  const left = d.exp + d.digits.length;
  const dot = d.exp <= 0 && left > -6 ? left : 1;
  let text;
  if (dot <= 0) text = `0.${"0".repeat(-dot)}${d.digits}`;
  else if (dot >= d.digits.length) text = d.digits + "0".repeat(dot - d.digits.length);
  else text = `${d.digits.slice(0, dot)}.${d.digits.slice(dot)}`;
  if (left !== dot) text += `E${left - dot >= 0 ? "+" : ""}${left - dot}`;
  return (d.sign ? "-" : "") + text;
}

/** format(Decimal, "f"): Decimal.__format__ with type f and no precision. */
function decimalF(d) {
  const value = d.digits === "0" && d.exp > 0 ? { ...d, exp: 0 } : d; // a zero with a positive exponent is 0
  const dot = value.exp + value.digits.length;
  let whole, fraction;
  if (dot < 0) { whole = "0"; fraction = "0".repeat(-dot) + value.digits; }
  else if (dot > value.digits.length) { whole = value.digits + "0".repeat(dot - value.digits.length); fraction = ""; }
  else { whole = value.digits.slice(0, dot) || "0"; fraction = value.digits.slice(dot); }
  return (value.sign ? "-" : "") + whole + (fraction ? `.${fraction}` : "");
}

// -- the gold, as finscore_playground.answer_gold and finscore.answers.gold read it ---------------

const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

/**
 * A gold field as Python's json.loads reads it when it is one JSON number: {json, repr} (the value
 * the page's gold mapping holds, and its repr() text), or null when Python must read it (not a
 * number, a number Python's json reads otherwise, or beyond what is read here).
 */
function jsonNumber(text) {
  if (text.length > MAX_NUMBER_CHARS) return null;
  const match = JSON_NUMBER.exec(text);
  if (match === null) return null;
  if (match[1] === undefined && match[2] === undefined) { // an int in Python
    const digits = text.replace("-", "");
    if (digits.length > MAX_INT_DIGITS) return null;
    return { json: Number(text), repr: digits === "0" ? "0" : text };
  }
  const value = Number(text); // correctly rounded, as Python's float() is
  if (!Number.isFinite(value)) return null; // Python's GoldError names it
  return { json: value, repr: pythonFloatRepr(value) };
}

/** gold._float_decimal: the decimal a JSON number shows, its shortest text (94.0 shows 94). */
function shownDecimal(number) {
  return decimalOf(number.repr.endsWith(".0") ? number.repr.slice(0, -2) : number.repr);
}

// Python's \s on ASCII text (str.isspace(): \x1c-\x1f too) and \d on ASCII text
const S = "[\\t\\n\\v\\f\\r\\x1c-\\x1f ]";
const LAST_STEP_TIMES_100 = new RegExp(
  `multiply\\(${S}*(?:#[0-9]+${S}*,${S}*const_100|const_100${S}*,${S}*#[0-9]+)${S}*\\)${S}*$`);

/** gold._number_gold: the Gold of a number, in the compared unit. */
function numberGold(number, text, points, percentage, scale) {
  const places = Math.max(0, -number.exp);
  return { value: scaleb(number, scale), text, points, percentage,
    half: scaleb({ sign: 0, digits: "5", exp: 0 }, scale - places - 1), scale };
}

/** gold.finqa_gold of a number exe_ans (FinQA, ConvFinQA), or null for Python. */
function finqaGold(exeAns, program, question) {
  if (program.length > MAX_GOLD_TEXT || question.length > MAX_GOLD_TEXT || !ASCII.test(program)) return null;
  const number = shownDecimal(exeAns);
  const points = LAST_STEP_TIMES_100.test(program);
  const asks = /percent|%/i.test(question);
  if (!asks && !ASCII.test(question)) return null; // Python's IGNORECASE folds Unicode case: its to say
  const text = Math.abs(adjusted(number)) < 20 ? decimalF(number) : decimalStr(number);
  return numberGold(number, text, points, points || asks, 0);
}

/** gold.tatqa_gold of an arithmetic or count answer that is a number, or null for Python. */
function tatqaGold(answer, scale, power) {
  const number = shownDecimal(answer);
  const points = scale === "percent";
  const shown = scale && scale !== "percent" ? ` ${scale}` : points ? "%" : "";
  return numberGold(number, `${decimalStr(number)}${shown}`, points, points, power);
}

/** {mapping, gold} as finscore_playground.answer_gold and as_gold make them, or {wait} for Python. */
function readGold(request, protocol, data) {
  const fields = ["gold_answer", "gold_program", "gold_question", "gold_scale", "gold_answer_type"];
  if (!fields.every((name) => typeof (request[name] ?? "") === "string")) return { wait: "a gold Python refuses" };
  const field = (name) => request[name] ?? "";
  const stripped = pythonStrip(field("gold_answer"));
  if (protocol.gold_reader === "tatqa_answer") {
    const type = field("gold_answer_type") || "arithmetic";
    const scale = field("gold_scale");
    const number = data.numeric_answer_types.includes(type) ? jsonNumber(stripped) : null;
    if (!Object.hasOwn(data.tatqa_scales, scale) || !data.tatqa_answer_types.includes(type)) {
      return { wait: "a gold Python refuses" };
    }
    if (number === null) return { wait: "a gold Python reads" }; // a span, or text: Python's number reader
    return {
      mapping: { answer: number.json, scale, answer_type: type, question: field("gold_question") },
      gold: tatqaGold(number, scale, data.tatqa_scales[scale]),
    };
  }
  if (!["finqa_exe_ans", "convfinqa_exe_ans"].includes(protocol.gold_reader)) return { wait: "a gold Python reads" };
  const number = jsonNumber(stripped);
  if (number === null) return { wait: "a gold Python reads" }; // yes / no, or text Python refuses
  const gold = finqaGold(number, field("gold_program"), field("gold_question"));
  if (gold === null) return { wait: "a gold Python reads" };
  return { mapping: { exe_ans: number.json, program: field("gold_program"), question: field("gold_question") }, gold };
}

/** The gold as the core reads it (in_core._gold_text): value, half unit, flags, scale. */
function goldText(gold) {
  const flags = (gold.points ? "p" : "") + (gold.percentage ? "c" : "");
  return `${decimalStr(gold.value)}\x1f${decimalStr(gold.half)}\x1f${flags}\x1f${gold.scale}`;
}

// -- where the answer is, as finscore.answers.locate finds it in ASCII text ------------------------

const LAST_ANSWER_LINE = /^(?:[\s\S]*\n)?[ \t*_#>]{0,8}(?:final[ \t]{1,4})?answer[ \t*_]{0,4}:/i;
const EMPHASIS = " \t\r*_";

/** locate._stripped: the text between start and end without the emphasis around it. */
function stripped(completion, start, end, marker = null) {
  while (start < end && EMPHASIS.includes(completion[start])) start++;
  while (end > start && EMPHASIS.includes(completion[end - 1])) end--;
  return { text: completion.slice(start, end), start, end, verbatim: true, marker };
}

const LINE_LEAD = " \t*_#>"; // locate._LINE_LEAD: the marks that may come before the word Answer (at most 8)

/** LOCATORS[format](completion) for answer-line and whole: Located's fields, or null (no answer line). */
function locate(completion, format) {
  if (format === "whole") return stripped(completion, 0, completion.length);
  const last = LAST_ANSWER_LINE.exec(completion);
  if (last === null) return null;
  const at = last[0].length;
  const end = completion.indexOf("\n", at);
  // the marker runs from the word (after the marks that lead its line) to the colon, as locate.answer_line's
  let lead = completion.lastIndexOf("\n", at - 1) + 1;
  for (let marks = 0; marks < 8 && lead < at && LINE_LEAD.includes(completion[lead]); marks++) lead++;
  return stripped(completion, at, end < 0 ? completion.length : end, [lead, at]);
}

/** finscore_playground._marked_parts: the completion cut at the located answer and the number read. */
function markedParts(completion, answer, number, marker) {
  const cuts = [...new Set([0, completion.length, ...(answer ?? []), ...(number ?? []), ...(marker ?? [])])]
    .sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [start, end] = [cuts[i], cuts[i + 1]];
    const role = number && number[0] <= start && end <= number[1] ? "number"
      : answer && answer[0] <= start && end <= answer[1] ? "answer"
        : marker && marker[0] <= start && end <= marker[1] ? "marker" : "";
    if (end > start) parts.push([completion.slice(start, end), role]);
  }
  return parts;
}

// -- the decision ----------------------------------------------------------------------------

/** What the core needs for this request: {protocol, format, completion, gold, mapping, rules}, or {wait: reason}. */
export function readAnswerRequest(request, data) {
  if (request === null || typeof request !== "object") return { wait: "a request Python refuses" };
  const { completion, protocol: name, format } = request;
  if (typeof completion !== "string" || typeof name !== "string" || typeof format !== "string") {
    return { wait: "a request Python refuses" };
  }
  if ([...JSON.stringify(request)].length > data.max_request_chars) return { wait: "a request Python refuses" };
  const protocol = data.protocols.find((p) => p.name === name);
  if (!protocol || protocol.core_rules === null) return { wait: "a protocol the core does not hold" };
  if (!data.core_formats.includes(format) || !Object.hasOwn(protocol.formats, format)) {
    return { wait: "a format the core does not read" };
  }
  if (!ASCII.test(completion)) return { wait: "text outside ASCII" };
  const read = readGold(request, protocol, data);
  if (read.wait) return read;
  return { protocol, format, completion, gold: read.gold, mapping: read.mapping };
}

const fill = (template, values) => template.replace(/\{(k|value|gold)\}/g, (_, name) => String(values[name]));

/**
 * The answer finscore_playground.decide_answer gives for this request, from the core: {answer},
 * or {wait: reason} when Python decides it (the core deferred it, or it is not the core's to read).
 */
export function quickDecide(core, request, data) {
  const read = readAnswerRequest(request, data);
  if (read.wait) return read;
  const { protocol, format, completion, gold } = read;
  const outcome = core.decideAnswer(protocol.core_rules, format, completion, goldText(gold));
  if (!outcome.decided) return { wait: outcome.sent ? "deferred" : "text outside ASCII" };
  const located = locate(completion, format);
  if ((located === null) !== (outcome.reason === "no_final_answer")) return { wait: "an answer Python locates otherwise" };
  const details = data.details;
  const base = { gold: gold.text };
  let decision;
  if (outcome.reason === "no_final_answer") {
    decision = { passed: false, reason: outcome.reason, k: null, value: null, read: null, ...base, span: null,
      detail: details.no_answer_line };
  } else if (outcome.reason === "several_numbers") {
    const [first, second] = [outcome.read, outcome.other].map((span) => pythonStrRepr(completion.slice(...span)));
    decision = { passed: false, reason: outcome.reason, k: null, value: null, read: null, ...base, span: outcome.span,
      detail: `${first} and ${second}` };
  } else {
    const passed = data.pass_reasons.includes(outcome.reason);
    const detail = outcome.equal ? details.equal : passed ? protocol.within_detail
      : outcome.reason === "sign_flipped" ? details.negated
        : outcome.reason === "rounding" ? fill(details.rounding, { k: outcome.k })
          : outcome.reason === "wrong_value" ? fill(details.wrong_value, { value: outcome.value, gold: gold.text })
            : fill(details.scaled, { k: outcome.k });
    decision = { passed, reason: outcome.reason, k: outcome.k, value: outcome.value,
      read: completion.slice(...outcome.read), ...base, span: outcome.read, detail };
  }
  const answerSpan = located ? [located.start, located.end] : null;
  const markerSpan = located ? located.marker : null;
  const spanned = (span) => span === null ? null : { start: span[0], end: span[1], text: completion.slice(...span) };
  return {
    answer: {
      ok: true, path: "core", protocol: protocol.name, format, tolerance: protocol.tolerance, decision,
      located, not_located: located ? null : { reason: "no_final_answer", detail: details.no_answer_line },
      // finscore_playground._reading: answer-line and whole are not lenient formats
      reading: { format, marker: spanned(markerSpan), span: spanned(answerSpan), lenient: null },
      gold_mapping: read.mapping,
      gold_read: { value: decimalF(gold.value), yes_no: null, text: gold.text, points: gold.points,
        percentage: gold.percentage, half_unit: decimalF(gold.half), scale: gold.scale },
      parts: markedParts(completion, answerSpan, decision.read !== null ? decision.span : null, markerSpan),
    },
  };
}

/** The answer view's choices as finscore_playground.answer_options gives them: {protocols, formats}. */
export function answerOptionsOf(data) {
  return {
    ok: true, formats: data.formats,
    protocols: data.protocols.map(({ name, title, gold_reader, tolerance, formats }) =>
      ({ name, title, gold_reader, tolerance, formats })),
  };
}

/** Fetch web/src/answers.json (the protocols' rules and words, written from the Python package). */
export async function loadAnswerData(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not fetch answers.json: HTTP ${response.status}`);
  return response.json();
}
