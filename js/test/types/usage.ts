// Compiled (never run) by `tsc --noEmit` in test/pack.test.js, against the packed package's own
// declarations: the documented uses type-check, and misuses are rejected.
import { loadCore, literal, reference, floatHex, STATUS, type AnswerOutcome, type Result, type TokenProgram } from "finscore";

const core = await loadCore();
const programs: TokenProgram[] = [{ tokens: ["add(", "1", "2", ")", "EOF"], table: null }];
const results: Result[] = core.readExecute(programs, { sumRule: "py312" });
const first: Result = results[0];
const answer: number | "yes" | "no" | "n/a" | null = first.answer;
const hex: string | null = first.valueHex;
const undecided: boolean = first.deferred || !first.decided;
const executed = core.execute([{ op: "divide", args: [literal(1), reference(0)] }], { table: [1, 2n] });
const rounded = core.roundHalfEven(2.675, 2);
const version: number = core.abiVersion;
const ok: boolean = first.status === STATUS.OK;
console.log(answer, hex, undecided, executed.invalid, rounded.valueHex, version, ok, floatHex(-0));
const outcomes: AnswerOutcome[] = core.decideAnswers("W\x1er\x1e0.005", "answer-line", [{ text: "Answer: 94", gold: 0 }],
  ["94\x1f0.5\x1f\x1f0"]);
const reason: string | null = outcomes[0].reason;
const one: AnswerOutcome = core.decideAnswer(new Uint8Array(0), "whole", "yes", null);
console.log(reason, one.span);

// @ts-expect-error: an unknown sum rule
core.readExecute(programs, { sumRule: "py27" });
// @ts-expect-error: tokens are text
core.readExecuteOne([1, 2, 3]);
// @ts-expect-error: an op the core does not have
core.execute([{ op: "modulo", args: [literal(1), literal(2)] }]);
// @ts-expect-error: a format the core does not locate answers in
core.decideAnswers("", "boxed", []);
