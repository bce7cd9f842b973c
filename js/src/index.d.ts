// Types of the finscore package (src/index.js). Written by hand; `tsc --noEmit` checks them
// against a usage file in the tests.

/** The ABI version this binding follows (docs/abi.md). */
export const ABI_VERSION: 8;
export const OP: Readonly<Record<"ADD" | "SUBTRACT" | "MULTIPLY" | "DIVIDE" | "EXP" | "GREATER" | "TABLE_MAX" |
  "TABLE_MIN" | "TABLE_SUM" | "TABLE_AVERAGE", number>>;
export const ARG_KIND: Readonly<Record<"LITERAL" | "REFERENCE" | "TABLE_ROW", number>>;
export const SUM_RULE: Readonly<Record<"PY311" | "PY312", number>>;
export const VALUE_TYPE: Readonly<Record<"NONE" | "FLOAT" | "BOOL", number>>;
export const ANSWER_FORMAT: Readonly<Record<"ANSWER_LINE" | "WHOLE", number>>;
export const ANSWER_REASON: Readonly<Record<"EXACT" | "WITHIN_TOLERANCE" | "PERCENT_DECLARED" | "NO_FINAL_ANSWER" |
  "UNPARSEABLE" | "SEVERAL_NUMBERS" | "SCALE_OFF" | "PERCENT_VS_RATIO" | "SIGN_FLIPPED" | "ROUNDING" | "WRONG_VALUE" |
  "WRONG_YES_NO" | "MISSING_PREDICTION", number>>;
/** Every status of the ABI, by upper-case name: STATUS.OK is 1400, STATUS.DEFERRED 1419. */
export const STATUS: Readonly<Record<string, number>> & {
  readonly OK: 1400; readonly DEFERRED: 1419; readonly BAD_NUMBER: 1422; readonly UNKNOWN_ROW: 1425;
};

export type OpName = "add" | "subtract" | "multiply" | "divide" | "exp" | "greater" | "table_max" | "table_min" |
  "table_sum" | "table_average";
export type SumRule = "py311" | "py312" | 0 | 1;
export type ValueType = "none" | "float" | "bool";

/** A literal argument: a number, or its 64 bits as a BigInt (so a NaN's payload travels too). */
export interface LiteralArg { kind: "literal"; number: number | bigint }
/** A reference to an earlier step of the same program. */
export interface ReferenceArg { kind: "reference"; step: number }
/** Cells [index, index + length) of the table values: the first argument of a table op. */
export interface TableRowArg { kind: "table_row"; index: number; length: number }
export type Arg = LiteralArg | ReferenceArg | TableRowArg;
export interface Step { op: OpName | number; args: [Arg, Arg] }

export function literal(number: number | bigint): LiteralArg;
export function reference(step: number): ReferenceArg;
export function tableRow(index: number, length: number): TableRowArg;

/** An argument as the core read or received it. */
export type ArgRead =
  | { kind: "literal"; number: number; bits: string; hex: string }
  | { kind: "reference"; step: number }
  /** cells: the values as the core holds them; null for a slice outside the table (refused, 1410). */
  | { kind: "table_row"; index: number; length: number; cells: number[] | null }
  | { kind: string | null; index: number; length: number };

/** One step: what it was, and its value when it ran. */
export interface StepResult {
  op: OpName | null;
  args: ArgRead[];
  type: ValueType | "unknown";
  value: number | null;
  /** The 64 bits, 16 hex digits ("3ff0000000000000"), read from the core's memory. */
  valueBits: string | null;
  /** CPython's float.hex() of the value ("0x1.e7851eb851eb8p+5"). */
  valueHex: string | null;
}

/** The outcome of one program. */
export interface Result {
  status: number;
  statusName: string;
  ok: boolean;
  /** Not decided by the core (status 1419): send it to a full reader, or count it apart. */
  deferred: boolean;
  /**
   * Whether the core's outcome is the official one: false when deferred, and for the statuses
   * docs/abi.md calls "not an outcome": 1414 (negative_base_fractional_exponent, where the
   * official evaluator goes on with Python's complex value), and from execute() 1409
   * (reference_to_boolean: arithmetic on greater's "yes"/"no" text) and 1411 (empty_row) of a
   * table_sum (officially the integer 0, and the program goes on). Only a full reader can say what
   * such a program answers.
   */
  decided: boolean;
  /** False when the program or its table could not even be framed for the core (then deferred). */
  framed: boolean;
  /** The official evaluator's flag: 0 when ok or without steps (1401), 1 for any other decided status,
   * null when not decided. */
  invalid: 0 | 1 | null;
  valueType: ValueType | "unknown";
  /** The official answer: the rounded float, "yes"/"no" for greater, "n/a" for a program without
   * steps (1401); null without a value. */
  answer: number | "yes" | "no" | "n/a" | null;
  /** The last step rounded half-even to 5 places (1.0 / 0.0 for a bool). */
  value: number | null;
  valueBits: string | null;
  valueHex: string | null;
  /** The last step's own value. */
  unrounded: number | null;
  unroundedBits: string | null;
  unroundedHex: string | null;
  /** The step that was refused, or null. */
  failedStep: number | null;
  stepsExecuted: number;
  steps: StepResult[];
}

export interface Rounded {
  ok: boolean;
  status: number;
  statusName: string;
  value: number | null;
  valueBits: string | null;
  valueHex: string | null;
}

/** A token program as the official evaluator holds it, and its table (rows of text) or null. */
export interface TokenProgram {
  tokens: readonly string[];
  table?: readonly (readonly string[])[] | null;
}

export interface RunOptions { sumRule?: SumRule }

/** Where fs_decide_answers finds the answer. */
export type AnswerFormat = "answer-line" | "whole" | 0 | 1;
export type AnswerReason = "exact" | "within_tolerance" | "percent_declared" | "no_final_answer" | "unparseable" |
  "several_numbers" | "scale_off" | "percent_vs_ratio" | "sign_flipped" | "rounding" | "wrong_value" | "wrong_yes_no" |
  "missing_prediction";
/** One completion and its gold: an index into the golds, or -1 for a gold the core does not read (yes / no). */
export interface AnswerRow { text: string; gold?: number }

/** The core's decision on one answer, or `decided: false` where the host's full rules decide. */
export interface AnswerOutcome {
  /** False when the core deferred the row, or the row was not sent (`sent: false`: not ASCII). */
  decided: boolean;
  sent: boolean;
  reason: AnswerReason | null;
  reasonCode: number | null;
  /** scale_off and percent_vs_ratio: the power of ten; rounding: the places. */
  k: number | null;
  /** The answer as the core's reader took it (several_numbers: the located answer); null for no_final_answer. */
  span: [number, number] | null;
  /** The number read (several_numbers: the first). */
  read: [number, number] | null;
  /** several_numbers: the second number. */
  other: [number, number] | null;
  /** The value compared, as Python's format(Decimal, "f") writes it. */
  value: string | null;
  /** The value equals the gold (a pass not by the tolerance). */
  equal: boolean;
}
export interface ExecuteOptions extends RunOptions { table?: readonly (number | bigint)[] }

export class FinscoreError extends Error {
  readonly status: number | null;
  readonly statusName: string | null;
  constructor(message: string, status?: number | null);
}

export class Core {
  constructor(instance: WebAssembly.Instance, module?: WebAssembly.Module | null);
  readonly module: WebAssembly.Module | null;
  readonly exports: WebAssembly.Exports;
  readonly abiVersion: number;
  /** The name of a status code as the module spells it (fs_status_name). */
  statusName(code: number): string;
  /** CPython's round(x, places), half-even, for places 0 to 22. */
  roundHalfEven(x: number | bigint, places: number): Rounded;
  /** Execute one resolved program (fs_execute). */
  execute(steps: readonly Step[], options?: ExecuteOptions): Result;
  /** Read and execute token programs with the core's own reader (fs_read_execute_batch). */
  readExecute(programs: readonly TokenProgram[], options?: RunOptions): Result[];
  readExecuteOne(tokens: readonly string[], table?: readonly (readonly string[])[] | null, options?: RunOptions): Result;
  /**
   * Decide free-text answers with the core's common answer path (fs_decide_answers): `rules` as
   * docs/abi.md lays a protocol's rules out, golds as `value` 0x1F `half unit` 0x1F `flags` 0x1F `scale`.
   */
  decideAnswers(rules: string | Uint8Array, format: AnswerFormat, rows: readonly AnswerRow[],
    golds?: readonly (string | Uint8Array)[]): AnswerOutcome[];
  /** decideAnswers of one completion; gold null for one the core does not read. */
  decideAnswer(rules: string | Uint8Array, format: AnswerFormat, text: string, gold: string | Uint8Array | null): AnswerOutcome;
}

/** Load the core: the package's own finscore_core.wasm by default, or a path, URL, bytes or compiled module. */
export function loadCore(source?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module): Promise<Core>;

export function statusName(code: number): string;
export function statusCode(name: string): number;
/** What a status means, as docs/abi.md says it; null for a code the ABI does not have. */
export function statusDescription(code: number): string | null;

/** CPython's float.hex(): floatHex(60.94) is "0x1.e7851eb851eb8p+5", floatHex(-0) "-0x0.0p+0". */
export function floatHex(value: number): string;
export function hexOfBits(bits: bigint | number): string;
export function bitsOf(value: number): bigint;
export function fromBits(bits: bigint | number): number;
export function bitsHex(bits: bigint | number): string;
/** UTF-8 that writes a lone surrogate in three bytes, as Python's "surrogatepass" does. */
export function encodeWtf8(text: string): Uint8Array;
