"""Why a TAT-QA prediction missed: one typed reason per question, found by trying the usual fixes.

The official metric says only 0 or 1. Here a miss is re-scored with the one
change a reader would suspect first (the gold scale, x100 or /100, the other
sign, fewer decimal places, the span items as sets) and named after the first
change that would have made it right. Reasons explain; they never change a
score, and they never stop one: the fixes re-read answer items one by one, which
the official metric never does, so an item it scores through (a number of over
308 digits inside a longer answer, one past CPython's int() digit limit) can make
the official text rules raise here. Such a miss is named from its decision alone
(`wrong_count`, `partial_span` or `wrong_answer`), its detail saying why no fix
was tried.
"""

# No `from __future__ import annotations`: Reason is made at every run's start-up, and a
# NamedTuple's annotations given as text each cost a compile() when its class is made.

from typing import Any, NamedTuple

from finscore.scoring.reasons import (
    CORRECT, MISSING_PREDICTION, EXCLUDED_PREDICTION, EMPTY_PREDICTION, SCALE_MISMATCH, PERCENT_VS_RATIO, SIGN,
    ROUNDING, WRONG_COUNT, MISSING_SPAN_ITEMS, EXTRA_SPAN_ITEMS, PARTIAL_SPAN, WRONG_NUMBER, WRONG_ANSWER,
    UNREADABLE_PREDICTION,
)
from finscore.tatqa.metric import Decision, decide
from finscore.tatqa.normalize import normalize_answer
from finscore.tatqa.numbers import NOT_A_NUMBER, OfficialCrash, number_reading

__all__ = [
    "CORRECT", "MISSING_PREDICTION", "EXCLUDED_PREDICTION", "EMPTY_PREDICTION", "SCALE_MISMATCH",
    "PERCENT_VS_RATIO", "SIGN", "ROUNDING", "WRONG_COUNT", "MISSING_SPAN_ITEMS", "EXTRA_SPAN_ITEMS", "PARTIAL_SPAN",
    "WRONG_NUMBER", "WRONG_ANSWER", "UNREADABLE_PREDICTION", "REASON_DESCRIPTIONS", "Reason", "explain",
]

#: Every reason, in the order reports list them, with what it means.
REASON_DESCRIPTIONS: dict[str, str] = {
    CORRECT: "exact match",
    MISSING_PREDICTION: "no prediction for this uid (scored 0, as officially)",
    EXCLUDED_PREDICTION: "its prediction was excluded (--exclude-bad-ids) and scored 0",
    EMPTY_PREDICTION: "the answer is empty, or the official script takes it as no answer",
    SCALE_MISMATCH: "right with the gold scale",
    PERCENT_VS_RATIO: "right x100 or /100, the gold or the prediction a percentage (written as a ratio or the reverse)",
    SIGN: "right with the other sign",
    ROUNDING: "equal to the gold answer at fewer decimal places",
    WRONG_COUNT: "a count question answered with another count",
    MISSING_SPAN_ITEMS: "some gold span items, none extra",
    EXTRA_SPAN_ITEMS: "every gold span item, and more",
    PARTIAL_SPAN: "some words right (0 < F1 < 1)",
    WRONG_NUMBER: "a number, not the gold one",
    WRONG_ANSWER: "nothing in common with the gold answer (F1 = 0)",
    UNREADABLE_PREDICTION: "the official metric raises on it (scored 0 here)",
}

#: Fewer decimal places tried for ROUNDING (the official comparison keeps 2).
_FEWER_PLACES = (1, 0)


class Reason(NamedTuple):
    kind: str
    detail: str


#: The reason of most answers, made once.
_RIGHT = Reason(CORRECT, "")


def _items(answer: Any) -> list[Any]:
    return answer if isinstance(answer, list) else [answer]


def _right(question: dict[str, Any], answer: Any, scale: Any, gold: Decision) -> bool:
    """Would this answer and scale be an exact match? (`gold` is a decision on the question, for its strings.)"""
    try:
        return decide(question, answer, scale, gold.gold_strings or None).em == 1.0
    except OfficialCrash:
        return False


def _lone_number(answer: Any) -> tuple[str, float] | None:
    """(text, value) when the answer is one item that the official reader takes as a number."""
    items = _items(answer)
    if len(items) != 1:
        return None
    text = str(items[0])
    try:
        value = number_reading(text)
        # not NOT_A_NUMBER: a number
        return None if value is None or value is NOT_A_NUMBER else (text, float(value))  # type: ignore[arg-type]
    except (OfficialCrash, OverflowError):  # unreadable, or an integer too large for a float
        return None


def _numeric_reason(question: dict[str, Any], answer: Any, scale: Any, decision: Decision) -> Reason | None:
    predicted, gold = _lone_number(answer), _lone_number(question["answer"])
    if predicted is None or gold is None:
        return None
    text, value = predicted
    scales = [scale] if scale == question["scale"] else [scale, question["scale"]]
    hundredfold = next((name for factor, name in ((100, "x100"), (0.01, "/100"))
                        if any(_right(question, repr(value * factor), s, decision) for s in scales)), None)
    if hundredfold is not None and _percentage(question, gold[0], text, scale):
        return Reason(PERCENT_VS_RATIO, f"{text!r} is right {hundredfold}")
    if value != 0 and any(_right(question, repr(-value), s, decision) for s in scales):
        return Reason(SIGN, f"{text!r} has the other sign")
    gold_value = gold[1]
    for places in _FEWER_PLACES:
        if round(value, places) == round(gold_value, places):
            return Reason(ROUNDING, f"{text!r} and the gold {gold[0]!r} are equal at {places} decimal place(s)")
    # A x100 miss on a year or an amount is no percent written as a ratio: said in the detail only.
    aside = "" if hundredfold is None else f" (right {hundredfold}, but neither is a percentage)"
    if question["answer_type"] == "count":
        return Reason(WRONG_COUNT, f"predicted {text!r}, gold {gold[0]!r}{aside}")
    return Reason(WRONG_NUMBER, f"predicted {text!r}, gold {gold[0]!r}{aside}")


def _percentage(question: dict[str, Any], gold_text: str, text: str, scale: Any) -> bool:
    """Is the gold or the prediction a percentage (the scale `percent`, or a `%` in the answer)?"""
    return question["scale"] == "percent" or scale == "percent" or "%" in gold_text or "%" in text


def _span_reason(question: dict[str, Any], answer: Any, decision: Decision) -> Reason:
    gold_items = {normalize_answer(str(item)) for item in _items(question["answer"])}
    predicted_items = {normalize_answer(str(item)) for item in _items(answer)}
    if predicted_items < gold_items:
        return Reason(MISSING_SPAN_ITEMS, f"{len(gold_items - predicted_items)} of {len(gold_items)} gold item(s) "
                                          "missing")
    if predicted_items > gold_items:
        return Reason(EXTRA_SPAN_ITEMS, f"{len(predicted_items - gold_items)} item(s) more than the gold "
                                        f"{len(gold_items)}")
    if 0.0 < decision.f1 < 1.0:
        return Reason(PARTIAL_SPAN, f"F1 {decision.f1!r}")
    return Reason(WRONG_ANSWER, "F1 0.0")


def _undiagnosed(question: dict[str, Any], decision: Decision, crash: OfficialCrash) -> Reason:
    """A miss whose fixes cannot be tried, named from its decision alone."""
    why = (f"F1 {decision.f1!r}; no fix tried: the official text rules raise on an item read alone "
           f"({crash})")
    if question["answer_type"] == "count":
        return Reason(WRONG_COUNT, why)
    return Reason(PARTIAL_SPAN if 0.0 < decision.f1 < 1.0 else WRONG_ANSWER, why)


def explain(question: dict[str, Any], answer: Any, scale: Any, decision: Decision) -> Reason:
    """The reason for one decided prediction (`question` needs answer, answer_type and scale).

    Never raises OfficialCrash: a reason explains the decision, it cannot stop it.
    """
    if decision.empty:
        return Reason(EMPTY_PREDICTION, f"the answer is {answer!r}")
    if decision.em == 1.0:
        return _RIGHT if decision.scale_match else Reason(
            CORRECT, f"but the scale {scale!r} is not the gold {question['scale']!r}")
    try:
        return _diagnosed(question, answer, scale, decision)
    except OfficialCrash as crash:
        return _undiagnosed(question, decision, crash)


def _diagnosed(question: dict[str, Any], answer: Any, scale: Any, decision: Decision) -> Reason:
    """The first usual fix that would have made a miss right, or its kind of miss."""
    if not any(normalize_answer(str(item)) for item in _items(answer)):
        return Reason(EMPTY_PREDICTION, f"the answer {answer!r} has no words once normalized")
    if scale != question["scale"] and _right(question, answer, question["scale"], decision):
        return Reason(SCALE_MISMATCH, f"predicted scale {scale!r}, gold {question['scale']!r}")
    numeric = _numeric_reason(question, answer, scale, decision)
    if numeric is not None:
        return numeric
    if question["answer_type"] == "count":
        return Reason(WRONG_COUNT, f"predicted {answer!r}, gold {question['answer']!r}")
    return _span_reason(question, answer, decision)
