"""A program past finscore's declared bounds is counted apart in the finqa report."""

from __future__ import annotations

from finscore.engine.bounds import MAX_INTEGER_BITS
from finscore.finqa.scoring import score_predictions
from finscore.finqa.terminal import render_report

# 2 ** (2 ** 20) from an empty row's integer 0: more bits than the bound
STEPS = [("table_sum(", "empty", "none"), ("exp(", "#0", "#0"), ("add(", "#1", "#1"), ("exp(", "#2", "#2"),
         ("exp(", "#3", "#2"), ("exp(", "#2", "#4"), ("multiply(", "#4", "#5"), ("exp(", "#2", "#6")]
PAST_BOUNDS = [token for step in STEPS for token in (*step, ")")] + ["EOF"]


def test_the_report_counts_programs_past_the_bounds_apart() -> None:
    assert (2 ** (2 ** 20)).bit_length() > MAX_INTEGER_BITS
    gold = [{"id": "a", "table": [["empty"]], "qa": {"program": "add(1, 2)", "exe_ans": 3.0}},
            {"id": "b", "table": [["x", "1"]], "qa": {"program": "add(1, 1)", "exe_ans": 2.0}}]
    predictions = [{"id": "a", "predicted": PAST_BOUNDS}, {"id": "b", "predicted": ["add(", "1", "1", ")", "EOF"]}]
    report = score_predictions(predictions, gold)
    assert report.exceeded_bounds == 1
    assert report.to_json()["counts"]["exceeded_bounds"] == 1
    assert report.categories.get("exceeded_bounds") == 1
    assert "1 programs exceeded finscore's declared bounds" in render_report(report)
