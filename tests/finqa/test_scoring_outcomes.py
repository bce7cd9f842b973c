"""Per-example outcomes on hand-computed programs: quirks, official crashes, sum rules, categories."""

from __future__ import annotations

import pytest
from support.pythons import require_python, run_python

from finscore.finqa.categories import wrong_answer_category
from finscore.finqa.scoring import score_predictions

from .fixtures import example, gold_file, good_predictions, prediction


def test_a_quirk_that_decides_an_outcome_is_counted() -> None:
    # table_max(#0, none) officially reuses the row of the previous table step (revenue: 100, 80),
    # so the answer is max(100, 80) = 100.0, the gold answer of C; strict refuses the reuse.
    predictions = good_predictions()[:2] + [
        prediction("C", "table_min(", "revenue", "none", ")", "table_max(", "#0", "none", ")")]
    report = score_predictions(predictions, gold_file())
    row = report.examples[2]
    assert row.execution is not None and row.execution.result == 100.0 and row.execution_correct
    assert row.other_execution is not None and row.other_execution.status_name == "table_row_reuse"
    assert not row.other_execution_correct
    counts = {q.status: (q.relied_on, q.decided) for q in report.quirks}
    assert counts == {"table_row_reuse": (1, 1)}
    assert report.figures["strict"].execution_per_prediction.correct == 2


def test_a_quirk_relied_on_without_deciding() -> None:
    # the last token is dropped though it is not EOF: 30 / 50 = 0.6 is still right for B,
    # but C's answer is wrong (min 80 != 100), so the reuse quirk there decides nothing.
    predictions = [
        good_predictions()[0],
        {"id": "B", "predicted": ["divide(", "30", "50", ")", "STOP"]},
        prediction("C", "table_max(", "costs", "none", ")", "table_min(", "#0", "none", ")"),
    ]
    report = score_predictions(predictions, gold_file(), profile="strict")
    counts = {q.status: (q.relied_on, q.decided) for q in report.quirks}
    assert counts == {"last_token_not_eof": (1, 1), "table_row_reuse": (1, 0)}
    assert report.examples[1].execution is not None
    assert report.examples[1].execution.status_name == "last_token_not_eof"
    assert report.examples[1].category == "strict_refusal"
    assert report.figures["official"].execution_per_prediction.correct == 2


def test_equivalent_program_with_a_different_answer_is_where_the_official_run_crashes() -> None:
    # evaluate.py asserts exe_res == gold_res for every equivalent program; a gold file whose
    # exe_ans is not what its program computes (100 - 80 is 20, not 99) stops the official run.
    gold = [example("A", "subtract(100, 80)", 99.0), *gold_file()[1:]]
    report = score_predictions(good_predictions(), gold)
    row = report.examples[0]
    assert row.program_equivalent and not row.execution_correct
    assert row.official_stop is not None and row.official_stop.startswith("AssertionError")
    assert [stop_id for stop_id, _ in report.official_stops] == ["A"]
    assert report.headline.program_per_prediction.correct == 3  # counted, as the official code would


def test_unreadable_gold_step_is_reported_not_raised() -> None:
    # "net income (loss)" tokenizes into a piece with two '(' and official equal_program asserts on it.
    table = [["", "2019"], ["net income (loss)", "5"]]
    gold = [example("N", "table_sum(net income (loss), none)", 5.0, table)]
    predictions = [prediction("N", "table_sum(", "net income (loss)", "none", ")")]
    report = score_predictions(predictions, gold)
    row = report.examples[0]
    assert row.official_stop is not None and row.official_stop.startswith("equal_program:")
    # officially the prediction's ')' re-splits it too: "table_sum(|net income (loss" has two '('
    assert row.execution is not None and row.execution.status_name == "malformed_step"
    assert not row.execution_correct
    assert report.official_stops[0][0] == "N"


def _sum_in(minor: int, values: list[float]) -> float:
    """round(sum(values), 5) as CPython 3.<minor> itself computes it (found by tests/support/pythons.py)."""
    return float(run_python(require_python(minor), f"print(repr(round(sum({values!r}), 5)))", "", non_fma=False))


@pytest.mark.essential  # the two sum() rules are checked against the two CPythons themselves
def test_sum_rule_follows_the_python_option() -> None:
    values = [1e16, 1.0, -1e16]
    table = [["", "a", "b", "c"], ["swing", "10000000000000000", "1", "-10000000000000000"]]
    gold_311 = _sum_in(11, values)  # left to right: 0.0
    gold_312 = _sum_in(12, values)  # compensated: 1.0
    assert gold_311 != gold_312
    predictions = [prediction("S", "table_sum(", "swing", "none", ")")]
    for python, answer in (("3.11", gold_311), ("3.12", gold_312)):
        gold = [example("S", "table_sum(swing, none)", answer, table)]
        assert score_predictions(predictions, gold, python=python).examples[0].execution_correct
        other = "3.12" if python == "3.11" else "3.11"
        assert not score_predictions(predictions, gold, python=other).examples[0].execution_correct


def test_official_comparison_is_python_equality() -> None:
    # exe_ans 20 (an int in JSON) == 20.0; "20.0" (text) is not; a yes/no answer compares as text
    gold = [example("A", "subtract(100, 80)", 20), example("B", "divide(30, 50)", "0.6"),
            example("C", "greater(100, 80)", "yes")]
    predictions = [prediction("A", "subtract(", "100", "80", ")"), prediction("B", "divide(", "30", "50", ")"),
                   prediction("C", "greater(", "100", "80", ")")]
    report = score_predictions(predictions, gold)
    assert [row.execution_correct for row in report.examples] == [True, False, True]
    assert report.examples[1].category == "wrong_answer_type"


@pytest.mark.parametrize(
    ("result", "gold", "category"),
    [
        (-94.0, 94.0, "wrong_sign"),
        (94.0, -94.0, "wrong_sign"),  # a negative gold answer too
        (25.0, 0.25, "percent_scale"),
        (0.0025, 0.25, "percent_scale"),
        (94.05, 94.0, "near_miss"),  # 0.05 / 94 is about 5e-4, under 1e-3
        (50.0, 94.0, "wrong_value"),
        ("no", "yes", "wrong_yes_no"),
        ("yes", 1.0, "wrong_answer_type"),
        ("n/a", 1.0, "no_answer"),
        (float("nan"), 1.0, "wrong_value"),
        (float("inf"), 1e307, "wrong_value"),  # inf is not 100 times 1e307, though 1e307 * 100 overflows to inf
        (float("-inf"), float("inf"), "wrong_value"),
    ],
)
def test_wrong_answer_categories(result: object, gold: object, category: str) -> None:
    assert wrong_answer_category(result, gold) == category


def test_refusal_categories() -> None:
    predictions = [
        prediction("A", "subtract(", "100", "eighty", ")"),  # not a number
        prediction("B", "divide(", "30", "0", ")"),  # division by zero
        prediction("C", "table_max(", "profit", "none", ")"),  # no such row
    ]
    report = score_predictions(predictions, gold_file())
    assert [row.category for row in report.examples] == ["bad_argument", "arithmetic_error", "table_lookup"]
    assert [row.execution.status_name for row in report.examples if row.execution] == [
        "bad_number", "divide_by_zero", "unknown_row"]
    assert report.examples[1].execution is not None and report.examples[1].execution.failed_step == 0


def test_progress_reports_every_stage() -> None:
    calls: list[tuple[str, int, int]] = []
    score_predictions(good_predictions(), gold_file(), progress=lambda *call: calls.append(call))
    assert {stage for stage, _, _ in calls} == {"read", "execute official", "execute strict", "equivalence"}
    assert all(done == total == 3 for _, done, total in calls if done == total)
    assert ("equivalence", 3, 3) in calls
