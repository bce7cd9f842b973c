"""Decide TAT-QA pairs from a stream of JSON lines, one pair per line.

Each input line is an object `{"gold": {answer, answer_type, scale, ...},
"pred": [answer, scale], ...}` (the rows of tests/data/vectors/tatqa.jsonl.gz);
it is written back, in order and with its other keys kept, with what one
official `TaTQAEmAndF1()` call adds: `em` and `f1` as Python `repr` strings of
the floats it adds, `scale_match` (0/1), and `reason` / `reason_detail`. A
line `{"file_totals": ...}` is written back with the official totals of the
lines decided so far (`get_overall_metric()`: rows, em, f1, scale as `repr`).

Every line read is written back as one line. A line that cannot be decided is
never dropped and never stops the stream: it is written back with an `"error"`
naming its line number (an object keeps its keys; anything else, an empty line
included, becomes `{"line", "error", "text"}`), and the summary counts it so the
command exits 1. The lines are read by the reading layer (`finscore.inputs.lines`:
not UTF-8 named by byte, a key given twice refused). A prediction whose answer
or scale is NaN or an infinity is refused with the words of `finscore tatqa`'s
own check (`tatqa.inputs.entry_problem`), which refuses it there too.
"""

from __future__ import annotations

import json
import math
from typing import Any, BinaryIO, NamedTuple, TextIO

from finscore.inputs.lines import MAX_LINE, json_lines, row_stream_problem
from finscore.inputs.naming import PYTHON_TYPES, json_type
from finscore.tatqa.inputs import entry_problem, question_problem
from finscore.tatqa.metric import Decision, decide
from finscore.tatqa.numbers import OfficialCrash
from finscore.tatqa.official import overall, unpack
from finscore.tatqa.reasons import explain

#: Longest line read; a longer one is reported (its text is not kept).
MAX_LINE_CHARS = MAX_LINE


class DecideSummary(NamedTuple):
    decided: int
    errors: list[str]  # "line N: message", in order

    @property
    def exit_code(self) -> int:
        return 1 if self.errors else 0


def _row_problem(row: Any) -> str | None:
    if not isinstance(row, dict):
        return f"expected a JSON object, got {json_type(row, PYTHON_TYPES)}"
    if "gold" not in row or "pred" not in row:
        return 'needs "gold" and "pred"'
    problem = question_problem(row["gold"], whole=False, official_pair=True)
    return None if problem is None else f'"gold" {problem}'


def _repr_totals(decisions: list[Decision]) -> dict[str, Any]:
    totals = overall(decisions)
    return {"rows": totals.rows, "em": repr(totals.em), "f1": repr(totals.f1), "scale": repr(totals.scale)}


def _non_finite(pred: Any) -> bool:
    """Whether a prediction's answer, an item of it or its scale is NaN or an infinity."""
    if not isinstance(pred, list):
        return False
    items = [*pred, *(pred[0] if pred and isinstance(pred[0], list) else ())]
    return any(isinstance(item, float) and not math.isfinite(item) for item in items)


def stream_decisions(source: TextIO | BinaryIO, sink: TextIO) -> DecideSummary:
    """Read pairs from `source`, write them back decided to `sink`, one line for each line read."""
    decisions: list[Decision] = []
    errors: list[str] = []
    for line in json_lines(source, MAX_LINE_CHARS, chars=True):
        number = line.number
        if line.problem is not None:
            errors.append(f"line {number}: {row_stream_problem(line, MAX_LINE_CHARS)}")
            text = None if line.text is None else line.text.rstrip("\r\n")
            sink.write(json.dumps({"line": number, "error": errors[-1], "text": text},
                                  ensure_ascii=text is None) + "\n")
            continue
        row = line.value
        if isinstance(row, dict) and "file_totals" in row:
            row["file_totals"] = _repr_totals(decisions)
            sink.write(json.dumps(row, ensure_ascii=False) + "\n")
            continue
        problem = _row_problem(row)
        if problem is None and _non_finite(row["pred"]):
            problem = f'"pred": {entry_problem(row["pred"])}'  # refused as `finscore tatqa` refuses it
        if problem is None:
            try:
                answer, scale = unpack(row["pred"])
                decision = decide(row["gold"], answer, scale)
                reason = explain(row["gold"], answer, scale, decision)
            except OfficialCrash as crash:
                problem = f"the official metric raises here: {crash}"
        if problem is not None:
            errors.append(f"line {number}: {problem}")
            out = row if isinstance(row, dict) else {"line": number, "text": row}
            out["error"] = errors[-1]
            sink.write(json.dumps(out, ensure_ascii=False) + "\n")
            continue
        decisions.append(decision)
        row.update(em=repr(decision.em), f1=repr(decision.f1), scale_match=decision.scale_match,
                   reason=reason.kind, reason_detail=reason.detail)
        sink.write(json.dumps(row, ensure_ascii=False) + "\n")
    return DecideSummary(len(decisions), errors)
