// CPython as the oracle: a Python process computes what the binding must reproduce.
import { spawnSync } from "node:child_process";

export const PYTHON = process.env.FINSCORE_PYTHON ?? "python3";

/** Run `code` (Python reading JSON from stdin, printing JSON) on `input`; the parsed output. */
export function python(code, input) {
  const done = spawnSync(PYTHON, ["-c", code], { input: JSON.stringify(input), encoding: "utf-8", maxBuffer: 1 << 28 });
  if (done.error) throw new Error(`could not run ${PYTHON} (set FINSCORE_PYTHON): ${done.error.message}`);
  if (done.status !== 0) throw new Error(`${PYTHON} failed: ${done.stderr}`);
  return JSON.parse(done.stdout);
}
