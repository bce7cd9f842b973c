// The binding's API against external oracles: CPython's float.hex() and round(), CPython's own
// arithmetic on the worked example of docs/abi.md, and the module's own status names.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ABI_VERSION, FinscoreError, STATUS, bitsHex, encodeWtf8, floatHex, fromBits, hexOfBits, literal, loadCore, reference,
  statusCode, statusDescription, statusName, tableRow,
} from "../src/index.js";
import { python } from "./oracle.js";

const core = await loadCore();

/** Deterministic pseudo-random 64-bit patterns (xorshift), so a failure is reproducible. */
function* randomBits(count, seed = 0x9e3779b97f4a7c15n) {
  let x = seed;
  for (let i = 0; i < count; i++) {
    x ^= (x << 13n) & 0xffffffffffffffffn;
    x ^= x >> 7n;
    x ^= (x << 17n) & 0xffffffffffffffffn;
    yield x;
  }
}

const SPECIAL = [
  0n, 1n << 63n, 1n, (1n << 63n) | 1n, (1n << 52n) - 1n, 1n << 52n, 0x3ff0000000000000n, 0xbff0000000000000n,
  0x7fefffffffffffffn, 0x7ff0000000000000n, 0xfff0000000000000n, 0x7ff8000000000000n, 0xfff8000000000000n,
  0x7ff0000000000001n, 0x404e7851eb851eb8n, 0x3fb999999999999an,
];

test("hex is CPython's float.hex() for special and random bit patterns", () => {
  const patterns = [...SPECIAL, ...randomBits(5000)];
  const expected = python(
    "import json, struct, sys\n" +
    "print(json.dumps([struct.unpack('<d', struct.pack('<Q', int(b, 16)))[0].hex() for b in json.load(sys.stdin)]))",
    patterns.map((b) => bitsHex(b)));
  assert.deepEqual(patterns.map(hexOfBits), expected);
  assert.deepEqual(patterns.map((b) => floatHex(fromBits(b))), expected);
  assert.equal(floatHex(60.94), "0x1.e7851eb851eb8p+5");
});

test("roundHalfEven is CPython's round(x, n), bit for bit, -0.0, NaN and subnormals included", () => {
  const cases = [[2.675, 2], [0.125, 2], [-0.5, 0], [0.5, 0], [1.5, 0], [-0.0, 3], [5e-324, 22], [-5e-324, 0],
    [1e308, 5], [Infinity, 2], [-Infinity, 0], [NaN, 5], [123456.789, 22], [96.55172413793103, 5]];
  let k = 0;
  for (const bits of randomBits(3000, 12345n)) {
    const x = fromBits(bits);
    if (!Number.isFinite(x)) continue;
    cases.push([x * (k % 3 === 0 ? 1 : 1e-300 / Math.max(Math.abs(x), 1e-300)), k % 23]); // tiny and huge alike
    k++;
  }
  const input = cases.map(([x, n]) => [bitsHex(BigInt.asUintN(64, new BigUint64Array(new Float64Array([x]).buffer)[0])), n]);
  const expected = python(
    "import json, struct, sys\n" +
    "f = lambda b: struct.unpack('<d', struct.pack('<Q', int(b, 16)))[0]\n" +
    "print(json.dumps([round(f(b), n).hex() for b, n in json.load(sys.stdin)]))", input);
  const got = cases.map(([x, n]) => {
    const rounded = core.roundHalfEven(x, n);
    assert.ok(rounded.ok, `round(${x}, ${n}): ${rounded.statusName}`);
    return rounded.valueHex;
  });
  assert.deepEqual(got, expected);
  assert.equal(core.roundHalfEven(-0.4, 0).valueBits, "8000000000000000"); // -0.0 keeps its sign
  const refused = core.roundHalfEven(1.5, 23);
  assert.deepEqual([refused.ok, refused.statusName, refused.value], [false, "bad_scale", null]);
});

test("execute runs the worked example of docs/abi.md as CPython computes it", () => {
  const result = core.execute([
    { op: "subtract", args: [literal(34.8), literal(1.2)] },
    { op: "divide", args: [reference(0), literal(34.8)] },
    { op: "multiply", args: [reference(1), literal(100)] },
  ]);
  const expected = python(
    "import json\nv = [34.8 - 1.2]; v.append(v[0] / 34.8); v.append(v[1] * 100.0)\n" +
    "print(json.dumps([x.hex() for x in v] + [round(v[2], 5).hex()]))", null);
  assert.deepEqual([...result.steps.map((s) => s.valueHex), result.valueHex], expected);
  assert.equal(result.unroundedHex, expected[2]);
  assert.deepEqual([result.ok, result.invalid, result.answer, result.failedStep, result.stepsExecuted], [true, 0, 96.55172, null, 3]);
});

test("execute keeps -0.0, subnormals and NaN, and reports refusals with their step", () => {
  const run = (op, a, b, options) => core.execute([{ op, args: [literal(a), literal(b)] }], options);
  const expected = python(
    "import json\nprint(json.dumps([(-0.0 * 1.0).hex(), (5e-324 * 3.0).hex(), (2.2250738585072014e-308 / 4.0).hex()," +
    " (float('inf') + float('-inf')).hex()]))", null);
  assert.deepEqual([run("multiply", -0, 1).unroundedHex, run("multiply", 5e-324, 3).unroundedHex,
    run("divide", 2.2250738585072014e-308, 4).unroundedHex, run("add", Infinity, -Infinity).unroundedHex], expected);
  assert.ok(Object.is(run("multiply", -0, 1).unrounded, -0));
  const refused = run("divide", 1, 0);
  assert.deepEqual([refused.status, refused.statusName, refused.failedStep, refused.invalid, refused.answer],
    [STATUS.DIVIDE_BY_ZERO, "divide_by_zero", 0, 1, null]);
  const yes = run("greater", 5, 3);
  assert.deepEqual([yes.valueType, yes.answer], ["bool", "yes"]);
  const sum = core.execute([{ op: "table_sum", args: [tableRow(0, 10), literal(0)] }], { table: Array(10).fill(0.1) });
  const sum312 = core.execute([{ op: "table_sum", args: [tableRow(0, 10), literal(0)] }],
    { table: Array(10).fill(0.1), sumRule: "py312" });
  const sums = python("import json\nprint(json.dumps([sum([0.1] * 10).hex()]))", null); // this CPython's own rule
  const [major, minor] = python("import json, sys\nprint(json.dumps(list(sys.version_info[:2])))", null);
  assert.equal((major === 3 && minor >= 12 ? sum312 : sum).unroundedHex, sums[0]);
  assert.notEqual(sum.unroundedHex, sum312.unroundedHex);
  assert.throws(() => core.execute([{ op: "modulo", args: [literal(1), literal(2)] }]), FinscoreError);
  assert.throws(() => core.execute([], { sumRule: "py27" }), /sumRule/);
});

test("status names and codes are the module's own; the ABI version is checked", () => {
  assert.equal(core.abiVersion, ABI_VERSION);
  assert.equal(core.abiVersion, 8);
  for (const [name, code] of Object.entries(STATUS)) {
    assert.equal(core.statusName(code), name.toLowerCase());
    assert.equal(statusName(code), core.statusName(code));
    assert.equal(statusCode(name.toLowerCase()), code);
  }
  assert.equal(statusDescription(STATUS.DIVIDE_BY_ZERO), "division by zero");
  assert.equal(statusDescription(1434), null);  // a code the ABI does not name
  assert.equal(core.statusName(1434), "unknown_status");
  assert.equal(statusName(1434), "unknown_status");
  assert.throws(() => statusCode("no_such_status"), FinscoreError);
});

test("readExecute: plain programs are read by the core; others are deferred, never computed", () => {
  const table = [["", "2019", "2018"], ["revenue", "$ 13,053", "18,874 ( a )"]];
  const [plain, withTable, notPlain, noTokens, separator, complexPower, unknownRow] = core.readExecute([
    { tokens: ["subtract(", "5829", "5735", ")", "EOF"] },
    { tokens: ["table_average(", "revenue", "none", ")", "EOF"], table },
    { tokens: ["add(", "1e3", "1", ")", "EOF"] },
    { tokens: [] },
    { tokens: ["add(", "1\x1f2", "1", ")", "EOF"] },
    { tokens: ["exp(", "-8", "0.5", ")", "add(", "1", "2", ")", "EOF"] },
    { tokens: ["table_max(", "profit", "none", ")", "EOF"], table },
  ]);
  assert.deepEqual([plain.answer, plain.valueHex], [94, python("print('\"%s\"' % (5829.0 - 5735.0).hex())", null)]);
  assert.deepEqual(withTable.steps[0].args[0], { kind: "table_row", index: 2, length: 2, cells: [13053, 18874] });
  assert.equal(withTable.answer, (13053 + 18874) / 2);
  for (const deferred of [notPlain, noTokens, separator]) {
    assert.deepEqual([deferred.status, deferred.deferred, deferred.decided, deferred.invalid, deferred.answer],
      [STATUS.DEFERRED, true, false, null, null]);
  }
  assert.deepEqual([notPlain.framed, noTokens.framed, separator.framed], [true, false, false]);
  assert.deepEqual([complexPower.statusName, complexPower.decided, complexPower.invalid], ["negative_base_fractional_exponent", false, null]);
  assert.deepEqual([unknownRow.statusName, unknownRow.failedStep, unknownRow.invalid], ["unknown_row", 0, 1]);
});

test("text is encoded as Python's surrogatepass encodes it, so two lone surrogates stay two names", () => {
  const texts = ["plain", "caf\u00e9", "\ud83d\ude00", "a\ud800b", "a\udc00b", "\udfff\ud800", "x\ud83d"];
  const expected = python(
    "import json, sys\nprint(json.dumps([list(t.encode('utf-8', 'surrogatepass')) for t in json.load(sys.stdin)]))", texts);
  assert.deepEqual(texts.map((t) => [...encodeWtf8(t)]), expected);
  const table = [["a\ud800b", "1", "2"], ["x", "5", "6"]];
  const [same, other] = core.readExecute([
    { tokens: ["table_max(", "a\ud800b", "none", ")", "EOF"], table },
    { tokens: ["table_max(", "a\udc00b", "none", ")", "EOF"], table },
  ]);
  assert.deepEqual([same.statusName, same.answer], ["ok", 2]);
  assert.equal(other.statusName, "unknown_row"); // a replacement character would have named the row
});

test("readExecute batches larger than one call give the same results", () => {
  const programs = Array.from({ length: 20000 }, (_, i) => ({ tokens: ["add(", String(i), "0.5", ")", "EOF"] }));
  const results = core.readExecute(programs);
  assert.equal(results.length, 20000);
  results.forEach((result, i) => assert.equal(result.answer, i + 0.5));
});

test("a field that is no 32-bit integer is refused with its place named, never wrapped or truncated", () => {
  const step = (op, first, second = literal(0)) => [{ op, args: [first, second] }];
  const refused = [
    [step("add", reference(2 ** 32)), /step 0, argument 0: step must be an integer that fits 32 bits, not 4294967296/],
    [step("add", reference(0.9)), /step must be an integer .* not 0\.9/],
    [step("add", reference(NaN)), /not NaN/],
    [step("add", { kind: "reference" }), /step must be an integer .* not undefined/],
    [step(2 ** 32 + 3, literal(1), literal(2)), /step 0: op must be an integer/],
    [step("table_sum", tableRow(0.5, 2.7)), /index must be an integer .* not 0\.5/],
    [step("table_sum", tableRow(0, 2 ** 32 + 2)), /length must be an integer/],
    [step("add", null), /step 0, argument 0 must be an argument object/],
  ];
  for (const [steps, message] of refused) {
    assert.throws(() => core.execute(steps, { table: [1, 2] }), (error) => error instanceof FinscoreError &&
      message.test(error.message), String(message));
  }
  const sparse = [];
  sparse[1] = { op: "add", args: [literal(1), literal(2)] };
  assert.throws(() => core.execute(sparse), /step 0 is missing/);
  assert.throws(() => core.readExecute([, { tokens: ["add(", "1", "2", ")", "EOF"] }]), /program 0 is missing/); // eslint-disable-line no-sparse-arrays
  assert.throws(() => core.execute([], { table: {} }), FinscoreError);
  assert.throws(() => core.execute([], null), FinscoreError);
  assert.throws(() => core.readExecute([{ tokens: "add(1, 2)" }]), /program 0: tokens must be an array/);
  assert.throws(() => core.readExecute([{ tokens: ["add(", 1, "2", ")", "EOF"] }]), /program 0: token 1 is number/);
  assert.throws(() => core.roundHalfEven("2.675", 2), /x must be a number or a BigInt/);
  assert.deepEqual(Object.keys(core.roundHalfEven(1, 23)).sort(), ["ok", "status", "statusName", "value", "valueBits",
    "valueHex"]);
});

test("a table slice outside the table is the core's refusal; its cells are never looped over", () => {
  const huge = core.execute([{ op: "table_sum", args: [tableRow(0, 2 ** 31 - 1), literal(0)] }], { table: [1, 2] });
  assert.equal(huge.statusName, "table_slice_out_of_bounds");
  assert.deepEqual(huge.steps[0].args[0], { kind: "table_row", index: 0, length: 2 ** 31 - 1, cells: null });
  const inside = core.execute([{ op: "table_max", args: [tableRow(1, 2), literal(0)] }], { table: [1, 2n ** 62n, 3] });
  assert.deepEqual(inside.steps[0].args[0].cells, [fromBits(2n ** 62n), 3]); // read from the core's memory
});

test("decided means the official outcome: no steps is valid, text and empty sums are not outcomes", () => {
  // docs/abi.md, "From a result to the official evaluator's outcome"; CPython: sum([]) == 0
  assert.equal(python("print(sum([]))", null), 0);
  const none = core.execute([]);
  assert.deepEqual([none.statusName, none.decided, none.invalid, none.answer], ["no_steps", true, 0, "n/a"]);
  const text = core.execute([{ op: "greater", args: [literal(5), literal(3)] },
    { op: "add", args: [reference(0), literal(1)] }]);
  assert.deepEqual([text.statusName, text.decided, text.invalid], ["reference_to_boolean", false, null]);
  const emptySum = core.execute([{ op: "table_sum", args: [tableRow(0, 0), literal(0)] }], { table: [] });
  assert.deepEqual([emptySum.statusName, emptySum.decided, emptySum.invalid], ["empty_row", false, null]);
  const emptyMax = core.execute([{ op: "table_max", args: [tableRow(0, 0), literal(0)] }], { table: [] });
  assert.deepEqual([emptyMax.statusName, emptyMax.decided, emptyMax.invalid], ["empty_row", true, 1]);
});

test("a table the framing cannot hold leaves its program deferred and says it was not framed", () => {
  const tokens = ["table_max(", "revenue", "none", ")", "EOF"];
  const results = core.readExecute([{ tokens, table: [["revenue", "1\x1f2", "3"]] }, { tokens, table: [["revenue", "1"], []] },
    { tokens, table: [["revenue", "1", "3"]] }]);
  assert.deepEqual(results.map((r) => [r.statusName, r.decided, r.framed]),
    [["deferred", false, false], ["deferred", false, false], ["ok", true, true]]);
});

test("a call too large for one block of memory is halved, and one program too large is deferred", () => {
  const row = ["r", ...Array(4_500_000).fill("1")]; // 4.5 million value cells: 36 MB each program
  const table = [row];
  const program = { tokens: ["table_max(", "r", "none", ")", "EOF"], table };
  const [first, second] = core.readExecute([program, program]); // 72 MB together: two calls
  assert.deepEqual([first.statusName, first.answer, second.statusName, second.answer], ["ok", 1, "ok", 1]);
  const [alone] = core.readExecute([{ tokens: program.tokens, table: [["r", ...Array(9_000_000).fill("1")]] }]);
  assert.deepEqual([alone.deferred, alone.framed], [true, false]);
});
