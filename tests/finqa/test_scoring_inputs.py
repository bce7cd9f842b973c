"""Bad prediction and gold data: a clear error, or with the flag a reported exclusion; never a lost row."""

from __future__ import annotations

from typing import Any

import pytest

from finscore.finqa.inputs import FinqaInputError
from finscore.finqa.joining import PredictionsRejected
from finscore.finqa.report import FinqaReport
from finscore.finqa.scoring import score_predictions

from .fixtures import gold_file, good_predictions, prediction


def _accounted(report: FinqaReport, entries: int) -> None:
    """Every prediction entry is scored or excluded, once; every gold example has one row."""
    assert report.prediction_entries == entries
    assert report.scored_predictions + len(report.exclusions) == entries
    positions = [row.position for row in report.examples if row.position is not None]
    positions += [exclusion.position for exclusion in report.exclusions]
    assert sorted(positions) == list(range(entries))
    assert [row.id for row in report.examples] == [e["id"] for e in gold_file()]


def test_clean_file() -> None:
    report = score_predictions(good_predictions(), gold_file())
    _accounted(report, 3)
    figures = report.headline
    assert (figures.execution_per_prediction.correct, figures.execution_per_prediction.total) == (3, 3)
    assert (figures.program_per_gold_example.correct, figures.program_per_gold_example.total) == (3, 3)


def test_missing_prediction_counts_against_the_gold_denominator() -> None:
    report = score_predictions(good_predictions()[:2], gold_file())
    _accounted(report, 2)
    assert report.missing_ids == ("C",)
    assert report.headline.execution_per_prediction.value == 1.0  # 2/2, the official denominator
    assert (report.headline.execution_per_gold_example.correct,
            report.headline.execution_per_gold_example.total) == (2, 3)
    assert report.categories["missing_prediction"] == 1


def test_unknown_id_is_an_error_naming_it() -> None:
    predictions = good_predictions() + [prediction("ZZZ-unknown", "add(", "1", "2", ")")]
    with pytest.raises(PredictionsRejected) as caught:
        score_predictions(predictions, gold_file())
    assert "'ZZZ-unknown'" in str(caught.value)
    assert [(e.position, e.kind) for e in caught.value.exclusions] == [(3, "unknown_id")]


def test_unknown_id_excluded_with_the_flag() -> None:
    predictions = good_predictions() + [prediction("ZZZ-unknown", "add(", "1", "2", ")")]
    report = score_predictions(predictions, gold_file(), exclude_bad_ids=True)
    _accounted(report, 4)
    assert [(e.id, e.kind) for e in report.exclusions] == [("ZZZ-unknown", "unknown_id")]
    assert report.headline.execution_per_prediction.total == 3


def test_duplicate_id_is_an_error_naming_the_entries() -> None:
    predictions = good_predictions() + [prediction("A", "subtract(", "100", "80", ")")]
    with pytest.raises(PredictionsRejected) as caught:
        score_predictions(predictions, gold_file())
    assert "'A' (entries 0, 3)" in str(caught.value)


def test_identical_duplicates_count_once_with_the_flag() -> None:
    predictions = good_predictions() + [prediction("A", "subtract(", "100", "80", ")")]
    report = score_predictions(predictions, gold_file(), exclude_bad_ids=True)
    _accounted(report, 4)
    assert [(e.position, e.kind) for e in report.exclusions] == [(3, "duplicate_id")]
    row = report.examples[0]
    assert row.position == 0 and row.execution_correct
    assert (report.headline.execution_per_prediction.correct, report.headline.execution_per_prediction.total) == (3, 3)


def test_conflicting_duplicates_are_all_excluded_with_the_flag() -> None:
    predictions = good_predictions() + [prediction("A", "subtract(", "80", "100", ")")]
    report = score_predictions(predictions, gold_file(), exclude_bad_ids=True)
    _accounted(report, 4)
    assert [(e.position, e.kind) for e in report.exclusions] == [(0, "duplicate_id"), (3, "duplicate_id")]
    assert report.excluded_ids == ("A",)
    assert report.examples[0].category == "excluded_prediction"
    assert (report.headline.execution_per_gold_example.correct,
            report.headline.execution_per_gold_example.total) == (2, 3)
    assert report.headline.execution_per_prediction.total == 2


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ("not an object", "not an object"),
        ({"predicted": ["add(", "1", "2", ")", "EOF"]}, 'no "id"'),
        ({"id": 7, "predicted": ["add(", "1", "2", ")", "EOF"]}, '"id" is a JSON int'),
        ({"id": "C"}, 'no "predicted"'),
        ({"id": "C", "predicted": "table_max(revenue, none)"}, '"predicted" is a JSON text'),
        ({"id": "C", "predicted": ["table_max(", 5, "none", ")", "EOF"]}, "token 1 of \"predicted\" is a JSON int"),
        ({"id": "C", "predicted": ["table_max(", None, "none", ")", "EOF"]}, "token 1 of \"predicted\" is a JSON null"),
    ],
)
def test_malformed_entry(entry: Any, reason: str) -> None:
    predictions = good_predictions()[:2] + [entry]
    with pytest.raises(PredictionsRejected) as caught:
        score_predictions(predictions, gold_file())
    assert "entry 2" in str(caught.value) and reason in str(caught.value)
    report = score_predictions(predictions, gold_file(), exclude_bad_ids=True)
    _accounted(report, 3)
    assert [(e.position, e.kind) for e in report.exclusions] == [(2, "malformed_entry")]
    expected = "excluded_prediction" if isinstance(entry, dict) and entry.get("id") == "C" else "missing_prediction"
    assert report.examples[2].category == expected


def test_malformed_copy_of_a_duplicate_excludes_both() -> None:
    predictions = good_predictions() + [{"id": "B", "predicted": [1, 2]}]
    report = score_predictions(predictions, gold_file(), exclude_bad_ids=True)
    _accounted(report, 4)
    assert [(e.position, e.kind) for e in report.exclusions] == [(1, "duplicate_id"), (3, "malformed_entry")]
    assert report.excluded_ids == ("B",)


@pytest.mark.parametrize(
    ("predictions", "message"),
    [
        ({"id": "A", "predicted": []}, "not a JSON object"),
        ([], "no predictions"),
        ("text", "not a JSON text"),
        (None, "not a JSON null"),
    ],
)
def test_unusable_prediction_file(predictions: Any, message: str) -> None:
    with pytest.raises(FinqaInputError, match=message):
        score_predictions(predictions, gold_file(), exclude_bad_ids=True)


@pytest.mark.parametrize(
    ("gold", "message"),
    [
        ({"data": []}, "not FinQA"),
        ([], "no examples"),
        ([{"id": "A", "qa": {"program": "add(1, 2)", "exe_ans": 3.0}}], 'entry 0 has no "table" list'),
        ([{"id": "A", "table": [], "program": "add(1, 2)", "exe_ans": 3.0}], 'entry 0 has no "qa" object'),
        ([{"id": "A", "table": [], "qa": {"exe_ans": 3.0}}], 'no text "qa.program"'),
        ([{"id": "A", "table": [], "qa": {"program": "add(1, 2)"}}], 'no "qa.exe_ans"'),
        ([{"table": [], "qa": {"program": "add(1, 2)", "exe_ans": 3.0}}], 'no text "id"'),
        (gold_file() + gold_file()[:1], "repeats 1 id"),
    ],
)
def test_gold_file_that_is_not_finqa(gold: Any, message: str) -> None:
    with pytest.raises(FinqaInputError, match=message):
        score_predictions(good_predictions(), gold, exclude_bad_ids=True)


def test_bad_options_are_input_errors() -> None:
    with pytest.raises(FinqaInputError, match="profile"):
        score_predictions(good_predictions(), gold_file(), profile="lenient")
    with pytest.raises(FinqaInputError, match="python version"):
        score_predictions(good_predictions(), gold_file(), python="three")
