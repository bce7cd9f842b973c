// decideAnswers (fs_decide_answers) against two oracles: the conformance files' labels (the reason,
// pass and k each row was written to show, python/finscore/answers/conformance/) and finscore's
// Python decision of the same row (finscore.answers.decide, which decides a single completion in
// Python, never in the core) for the value compared, the text read and its span, and the answer
// Python's locator finds (finscore.answers.locate), which holds the answer's span. Python only lays
// the inputs out as docs/abi.md says (the protocol's rules, each gold's text); the decisions it
// prints are its own. Rows the core defers, or that are not ASCII, are counted, never guessed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { FinscoreError, loadCore } from "../src/index.js";
import { python } from "./oracle.js";

const core = await loadCore();

const ORACLE = String.raw`
import gzip, json, sys
from pathlib import Path
import finscore.answers as answers
from finscore.answers import decide, get_protocol, protocol_names
from finscore.answers.decide import as_gold
from finscore.answers.in_core import _gold_text, core_rules
from finscore.answers.locate import LOCATORS, Located

folder = Path(answers.__file__).parent / "conformance"
out = {}
for name in protocol_names():
    protocol = get_protocol(name)
    rules = core_rules(protocol)
    if rules is None:
        continue
    rows = []
    with gzip.open(folder / (name.replace("/", "-") + ".jsonl.gz"), "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["format"] not in ("answer-line", "whole") or not isinstance(row["completion"], str):
                continue
            gold = as_gold(row["gold"], protocol)
            decision = decide(row["completion"], gold, protocol=protocol, format=row["format"])
            located = LOCATORS[row["format"]](row["completion"])
            rows.append({"completion": row["completion"], "format": row["format"], "gold": _gold_text(gold),
                         "expect": row["expect"], "label": row["label"], "decision": decision.to_json(),
                         "located": [located.start, located.end] if isinstance(located, Located) else None})
    out[name] = {"rules": rules.decode("ascii"), "rows": rows}
print(json.dumps(out))
`;

const oracle = python(ORACLE, null);

/** The least share of the ASCII rows the core must decide itself, so that a binding deferring everything fails. */
const LEAST_DECIDED = 0.5;

test("the protocols the core holds are the three of FinQA, ConvFinQA and TAT-QA", () => {
  assert.deepEqual(Object.keys(oracle).sort(), ["convfinqa-answer/1", "finqa-answer/1", "tatqa-answer/1"]);
});

for (const [name, { rules, rows }] of Object.entries(oracle)) {
  test(`${name}: every conformance row the core decides has its label and Python's reading`, () => {
    const failures = [];
    let decided = 0, deferred = 0, notAscii = 0;
    for (const format of ["answer-line", "whole"]) {
      const mine = rows.filter((row) => row.format === format);
      const golds = [...new Set(mine.map((row) => row.gold).filter((gold) => gold !== null))];
      const outcomes = core.decideAnswers(rules, format, mine.map((row) => ({
        text: row.completion, gold: row.gold === null ? -1 : golds.indexOf(row.gold),
      })), golds);
      assert.equal(outcomes.length, mine.length);
      outcomes.forEach((outcome, i) => {
        const row = mine[i];
        if (!outcome.sent) { notAscii += 1; assert.ok(/[^\x00-\x7f]/.test(row.completion)); return; }
        if (!outcome.decided) { deferred += 1; return; }
        decided += 1;
        const python = row.decision;
        const text = row.completion;
        const read = outcome.read && outcome.reason !== "several_numbers" ? text.slice(...outcome.read) : null;
        const span = outcome.reason === "several_numbers" ? outcome.span : outcome.read;
        const got = { passed: ["exact", "within_tolerance", "percent_declared"].includes(outcome.reason),
          reason: outcome.reason, k: outcome.k };
        const why = [];
        if (JSON.stringify(got) !== JSON.stringify({ passed: row.expect.passed, reason: row.expect.reason, k: row.expect.k })) {
          why.push(`label ${JSON.stringify(row.expect)}, core ${JSON.stringify(got)}`);
        }
        if (outcome.value !== python.value) why.push(`value ${outcome.value}, Python ${python.value}`);
        if (read !== python.read) why.push(`read ${JSON.stringify(read)}, Python ${JSON.stringify(python.read)}`);
        if (JSON.stringify(span) !== JSON.stringify(python.span)) {
          why.push(`span ${JSON.stringify(span)}, Python ${JSON.stringify(python.span)}`);
        }
        // the answer's span is the located answer for several_numbers (Python's Decision.span then);
        // otherwise it lies inside the located answer and holds the number read
        const inside = outcome.reason === "several_numbers"
          ? JSON.stringify(outcome.span) === JSON.stringify(row.located)
          : outcome.span === null ? row.located === null
            : row.located[0] <= outcome.span[0] && outcome.span[0] <= outcome.read[0] &&
              outcome.read[0] <= outcome.read[1] && outcome.read[1] <= outcome.span[1] && outcome.span[1] <= row.located[1];
        if (!inside) {
          why.push(`answer span ${JSON.stringify(outcome.span)}, read ${JSON.stringify(outcome.read)}, Python located ` +
            `${JSON.stringify(row.located)}`);
        }
        if (why.length) failures.push(`${format} ${JSON.stringify(text).slice(0, 80)} (${row.label}): ${why.join("; ")}`);
      });
    }
    const ascii = rows.length - notAscii;
    console.log(`${name}: ${rows.length} answer-line and whole rows, decided by the core ${decided}, deferred ` +
      `${deferred}, not ASCII (not sent) ${notAscii}, mismatches ${failures.length}`);
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} rows differ from the label or from Python`);
    assert.ok(decided >= LEAST_DECIDED * ascii, `the core decided only ${decided} of ${ascii} ASCII rows`);
  });
}

test("decideAnswers refuses what the core cannot be sent, naming it", () => {
  const { rules } = oracle["finqa-answer/1"];
  assert.throws(() => core.decideAnswers(rules, "boxed", []), FinscoreError);
  assert.throws(() => core.decideAnswers(rules, "whole", [{ text: "1", gold: 2 }], ["94\x1f0.5\x1f\x1f0"]),
    /row 0: gold 2 is neither -1 nor one of the 1 golds/);
  assert.throws(() => core.decideAnswers(rules, "whole", [{ text: 1, gold: 0 }], ["94\x1f0.5\x1f\x1f0"]), /row 0/);
  assert.throws(() => core.decideAnswers("bad rules", "whole", [{ text: "1", gold: -1 }]),
    (error) => error instanceof FinscoreError && error.statusName === "bad_answer_rules");
  const [yesNo] = core.decideAnswers(rules, "whole", [{ text: "yes", gold: -1 }]);
  assert.deepEqual([yesNo.decided, yesNo.sent], [false, true]); // a yes / no gold is the host's
  assert.equal(core.decideAnswer(rules, "whole", "94 €", "94\x1f0.5\x1f\x1f0").sent, false);
});
