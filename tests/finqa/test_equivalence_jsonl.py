"""`equal-jsonl` streaming: recorded decisions come back, bad lines never stop the stream."""

from __future__ import annotations

import io
import itertools
import json

import pytest
from support.shared import vector_rows

from finscore.finqa import equal_jsonl
from finscore.finqa.equal_jsonl import EqualJsonlLineError, stream_equal_jsonl

ADD = ["add(", "1", "2", ")", "EOF"]


def run(text: str, **options: bool) -> tuple[list[dict], equal_jsonl.EqualJsonlSummary]:
    sink = io.StringIO()
    summary = stream_equal_jsonl(io.StringIO(text), sink, **options)
    return [json.loads(line) for line in sink.getvalue().splitlines()], summary


def test_recorded_rows_come_back_in_order_with_the_recorded_decision() -> None:
    rows = list(itertools.islice(vector_rows("equal"), 400))
    out, summary = run("".join(json.dumps(row) + "\n" for row in rows))
    assert [r["id"] for r in out] == [r["id"] for r in rows]
    assert [r["equal"] for r in out] == [r["equal"] for r in rows]
    assert all(set(o) == set(r) for o, r in zip(out, rows))
    assert (summary.decided, summary.errors, summary.exit_code) == (400, [], 0)


def test_explain_adds_the_method() -> None:
    out, _ = run(json.dumps({"gold": ADD, "pred": ["add(", "2", "1", ")", "EOF"]}) + "\n", explain=True)
    assert out == [{"gold": ADD, "pred": ["add(", "2", "1", ")", "EOF"], "equal": True,
                    "equal_method": "canonical-form", "used_sympy": False}]


def test_a_gold_crash_is_reported_on_its_line() -> None:
    gold = ["add(", "1", "2", ")", "subtract(", "#5", "1", ")", "EOF"]
    pred = ["add(", "1", "2", ")", "subtract(", "#0", "1", ")", "EOF"]
    out, summary = run(json.dumps({"gold": gold, "pred": pred}) + "\n")
    assert out[0]["equal"] is False and "official evaluator crashes" in out[0]["divergence"]
    assert summary.divergences == 1 and summary.exit_code == 0


def test_bad_lines_are_reported_and_the_rest_decided() -> None:
    good = json.dumps({"gold": ADD, "pred": ADD, "k": 1})
    lines = [
        good,                                   # 1
        "",                                     # 2: blank, written back as an error (issue #30)
        "not json",                             # 3
        "[1, 2]",                               # 4
        json.dumps({"pred": ADD}),              # 5
        json.dumps({"gold": "add(1, 2)", "pred": ADD}),   # 6
        json.dumps({"gold": ADD, "pred": ["add(", 1, ")"]}),  # 7
        "[" * 100_000,                          # 8: deeper than the JSON parser goes
        good,                                   # 9
    ]
    out, summary = run("\n".join(lines) + "\n")
    assert len(out) == 9
    assert out[0] == {"gold": ADD, "pred": ADD, "k": 1, "equal": True}
    assert out[-1] == out[0]
    assert [e.line_number for e in summary.errors] == [2, 3, 4, 5, 6, 7, 8]
    assert all(isinstance(e, EqualJsonlLineError) for e in summary.errors)
    assert out[1] == {"line": 2, "error": "line 2: an empty line (no JSON value)", "text": ""}
    assert out[2] == {"line": 3, "error": summary.errors[1].args[0], "text": "not json"}
    assert out[4] == {"pred": ADD, "error": "line 5: missing 'gold'"}
    assert out[5]["error"] == "line 6: gold must be a list of strings, got str"
    assert out[6]["error"] == "line 7: pred[1] must be a string, got int"
    assert (summary.decided, summary.exit_code) == (2, 1)


def test_an_overlong_line_is_reported_without_its_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(equal_jsonl, "MAX_LINE_CHARS", 120)
    long_row = json.dumps({"gold": ADD * 20, "pred": ADD})
    short_row = json.dumps({"gold": ADD, "pred": ADD})
    out, summary = run(f"{long_row}\n{short_row}\n{long_row}")
    assert [e.line_number for e in summary.errors] == [1, 3]
    assert out[0] == {"line": 1, "error": "line 1: longer than 120 characters", "text": None}
    assert out[1]["equal"] is True and len(out) == 3
