"""A typed reason for every miss, on cases whose reason is plain from the answers themselves."""

from __future__ import annotations

from typing import Any

import pytest

from finscore.tatqa import decide, explain


def _reason(answer: Any, answer_type: str, gold_scale: str, predicted: Any, scale: str) -> tuple[str, str]:
    question = {"answer": answer, "answer_type": answer_type, "scale": gold_scale}
    why = explain(question, predicted, scale, decide(question, predicted, scale))
    return why.kind, why.detail


@pytest.mark.parametrize(
    ("gold", "predicted", "kind", "detail"),
    [
        ((12.5, "arithmetic", "million"), ("12.5", "million"), "correct", ""),
        ((12.5, "arithmetic", "million"), ("12500000", ""), "correct", "but the scale '' is not the gold 'million'"),
        ((12.5, "arithmetic", "million"), ("12.5", "thousand"), "scale_mismatch",
         "predicted scale 'thousand', gold 'million'"),
        ((22.12, "arithmetic", "percent"), ("0.2212", "percent"), "percent_vs_ratio", "'0.2212' is right x100"),
        # issue #35: a x100 miss is percent_vs_ratio only when the gold or the prediction is a percentage
        # (this row was percent_vs_ratio); a year or an amount gets the reason the rest of its tests give
        ((0.25, "arithmetic", ""), ("25", ""), "wrong_number",
         "predicted '25', gold '0.25' (right /100, but neither is a percentage)"),
        ((["2018"], "span", ""), ("201800.0", ""), "wrong_number",
         "predicted '201800.0', gold '2018' (right /100, but neither is a percentage)"),
        ((12.5, "arithmetic", "million"), ("1250", "million"), "wrong_number",
         "predicted '1250', gold '12.5' (right /100, but neither is a percentage)"),
        ((12.5, "arithmetic", "million"), ("17.4", "million"), "wrong_number", "predicted '17.4', gold '12.5'"),
        (("5", "count", ""), ("500", ""), "wrong_count", "predicted '500', gold '5' (right /100, but neither is a "
                                                         "percentage)"),
        ((12.5, "arithmetic", "percent"), ("1250", ""), "percent_vs_ratio", "'1250' is right /100"),
        ((-3.5, "arithmetic", ""), ("3.5", ""), "sign", "'3.5' has the other sign"),
        ((-3.5, "arithmetic", ""), ("(3.5)", ""), "correct", ""),
        ((123.22, "arithmetic", ""), ("123.2", ""), "rounding",
         "'123.2' and the gold '123.22' are equal at 1 decimal place(s)"),
        ((123.2, "arithmetic", ""), ("123", ""), "rounding", "'123' and the gold '123.2' are equal at 0 decimal place(s)"),
        ((123.2, "arithmetic", ""), ("456", ""), "wrong_number", "predicted '456', gold '123.2'"),
        (("5", "count", ""), ("6", ""), "wrong_count", "predicted '6', gold '5'"),
        (("5", "count", ""), ("five", ""), "wrong_count", "predicted 'five', gold '5'"),
        ((["x", "y", "z"], "multi-span", ""), (["y", "z"], ""), "missing_span_items", "1 of 3 gold item(s) missing"),
        ((["x", "y"], "multi-span", ""), (["y", "x", "w"], ""), "extra_span_items", "1 item(s) more than the gold 2"),
        ((["net income rose"], "span", ""), (["net income fell"], ""), "partial_span", "F1 0.67"),
        ((["net income rose"], "span", ""), (["revenue"], ""), "wrong_answer", "F1 0.0"),
        ((["Paris"], "span", ""), ("", ""), "empty_prediction", "the answer is ''"),
        ((["Paris"], "span", ""), ([], ""), "empty_prediction", "the answer is []"),
        ((["Paris"], "span", ""), (["the"], ""), "empty_prediction", "the answer ['the'] has no words once normalized"),
        ((["Paris"], "span", ""), (0, ""), "empty_prediction", "the answer is 0"),
    ],
)
def test_reason(gold: tuple[Any, str, str], predicted: tuple[Any, str], kind: str, detail: str) -> None:
    assert _reason(*gold, *predicted) == (kind, detail)


def test_an_article_alone_is_no_span_officially() -> None:
    """The official normalization drops "a" even as a whole span: ["a", "b", "c"] equals ["b", "c"]."""
    assert _reason(["a", "b", "c"], "multi-span", "", ["b", "c"], "") == ("correct", "")
