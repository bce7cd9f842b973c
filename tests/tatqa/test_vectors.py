"""Every recorded decision of the official TAT-QA metric, through the API and through decide-jsonl.

tests/data/vectors/tatqa.jsonl.gz holds 26,648 pairs with the official em, f1
(Python repr) and scale point, and the file totals of get_overall_metric()
(see its README). Zero mismatches are required, bit for bit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from finscore.tatqa import decide, overall
from support.shared import REPOSITORY, vector_rows

EXPECTED_ROWS = 26648


def _recorded() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rows = list(vector_rows("tatqa"))
    totals = rows.pop()["file_totals"]
    assert len(rows) == EXPECTED_ROWS == totals["rows"]
    return rows, totals


def test_every_recorded_pair_through_the_api() -> None:
    rows, totals = _recorded()
    mismatches = []
    decisions = []
    for index, row in enumerate(rows):
        answer, scale = row["pred"]
        decision = decide(row["gold"], answer, scale)
        decisions.append(decision)
        got = (repr(decision.em), repr(decision.f1), decision.scale_match)
        if got != (row["em"], row["f1"], row["scale_match"]):
            mismatches.append((index, got, row))
    assert mismatches == []
    ours = overall(decisions)
    assert (ours.rows, repr(ours.em), repr(ours.f1), repr(ours.scale)) == (
        totals["rows"], totals["em"], totals["f1"], totals["scale"])


def test_every_recorded_pair_through_decide_jsonl() -> None:
    rows, totals = _recorded()
    lines = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    lines += json.dumps({"file_totals": {"rows": 0}}) + "\n"
    env = dict(os.environ, PYTHONPATH=str(REPOSITORY / "python"))
    done = subprocess.run([sys.executable, "-m", "finscore", "tatqa", "decide-jsonl"], input=lines,
                          capture_output=True, text=True, encoding="utf-8", env=env, check=False)
    assert done.returncode == 0, done.stderr
    written = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(written) == len(rows) + 1
    mismatches = [(index, row, out) for index, (row, out) in enumerate(zip(rows, written))
                  if (out["em"], out["f1"], out["scale_match"]) != (row["em"], row["f1"], row["scale_match"])
                  or out["uid"] != row["uid"] or not out["reason"]]
    assert mismatches == []
    assert written[-1]["file_totals"] == {key: totals[key] for key in ("rows", "em", "f1", "scale")}

