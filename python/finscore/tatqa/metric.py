"""One TAT-QA decision: exact match, F1 and the scale point, as `TaTQAEmAndF1` scores a pair.

Gold and predicted answers become one comparison string each (numbers
rescaled and printed with 4 decimals, other text with the scale word
appended); a bare number predicted without a scale is also tried as a
percentage. EM and a DROP-style bag F1 (rounded as numpy rounds) are taken
for the best of those strings; for arithmetic and count questions F1 is set
to EM. A prediction the official code would crash on raises OfficialCrash.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from finscore.tatqa.alignment import aligned_scores, numpy_mean, numpy_round
from finscore.tatqa.normalize import normalize_answer
from finscore.tatqa.numbers import OfficialCrash, looks_numeric, read_number, scale_factor

ANSWER_TYPES = ("arithmetic", "count", "multi-span", "span")
ANSWER_SOURCES = ("table", "table-text", "text")
SCALES = ("", "thousand", "million", "billion", "percent")
#: Answer types whose F1 is their exact match.
F1_IS_EXACT_MATCH = ("arithmetic", "count")


class Decision(NamedTuple):
    """What one official call adds: em and f1 as the floats it adds, the scale point (0/1)."""

    em: float
    f1: float
    scale_match: int
    gold_strings: tuple[str, ...]  # the compared strings ("" when the prediction is empty)
    predicted_strings: tuple[str, ...]
    empty: bool  # the official "no prediction" branch was taken


def _format_4(value: Any) -> str:
    try:
        return "%.4f" % value
    except OverflowError as error:
        raise OfficialCrash(f"OverflowError: {error}") from None


def answer_strings(answers: Sequence[Any], scale: Any) -> list[str]:
    """The official get_answer_str: sorted answers, numbers rescaled to 4 decimals, one string."""
    try:
        ordered = sorted(answers)
    except TypeError as error:
        raise OfficialCrash(f"TypeError in sorted(): {error}") from None
    parts = []
    for answer in ordered:
        text = str(answer)
        number = read_number(text) if looks_numeric(text) else None
        if number is None:
            if scale:
                text = text + " " + str(scale)
        elif "%" in text:
            text = _format_4(number)
        else:
            text = _format_4(round(number, 2) * scale_factor(scale))
        parts.append(text)
    return [" ".join(parts)]


def _with_percent_reading(strings: list[str], scale: Any, answers: list[Any]) -> list[str]:
    """The official add_percent_pred: a lone bare number without scale is also read as a ratio."""
    if len(answers) > 1:
        return strings
    text = str(answers[0])
    if not scale and "%" not in text and looks_numeric(text):
        number = read_number(text)
        if number is not None:
            strings.append(_format_4(number))
    return strings


def bag_f1(predicted: frozenset[str] | set[str], gold: frozenset[str] | set[str]) -> float:
    """F1 of two token bags; an empty bag has precision (or recall) 1.0."""
    shared = len(gold & predicted)
    precision = 1.0 if not predicted else shared / float(len(predicted))
    recall = 1.0 if not gold else shared / float(len(gold))
    if precision == 0.0 and recall == 0.0:
        return 0.0
    return (2 * precision * recall) / (precision + recall)


def _spans(answer: str | Sequence[str]) -> list[str]:
    return [answer] if isinstance(answer, str) else list(answer)


def drop_em_f1(predicted: str | Sequence[str], gold: str | Sequence[str]) -> tuple[float, float]:
    """The official get_metrics: exact match of the normalized spans, aligned bag F1 rounded to 2 places."""
    if isinstance(predicted, str) and isinstance(gold, str):
        return _one_span_em_f1(predicted, gold)
    predicted_spans = [normalize_answer(span) for span in _spans(predicted)]
    gold_spans = [normalize_answer(span) for span in _spans(gold)]
    exact = 1.0 if set(predicted_spans) == set(gold_spans) and len(predicted_spans) == len(gold_spans) else 0.0
    predicted_bags = [set(span.split()) for span in predicted_spans]
    gold_bags = [set(span.split()) for span in gold_spans]
    scores = [[bag_f1(p, g) for p in predicted_bags] for g in gold_bags]
    f1 = numpy_round(numpy_mean(aligned_scores(scores, len(predicted_bags))), 2)
    return exact, f1


def _one_span_em_f1(predicted: str, gold: str) -> tuple[float, float]:
    """drop_em_f1 of two single spans: a 1 x 1 alignment, whose mean is the one score."""
    predicted_span, gold_span = normalize_answer(predicted), normalize_answer(gold)
    exact = 1.0 if predicted_span == gold_span else 0.0
    score = bag_f1(set(predicted_span.split()), set(gold_span.split()))
    return exact, numpy_round(score / 1, 2)


def gold_answers(question: dict[str, Any]) -> list[Any]:
    """The official extract_gold_answers: span lists as they are, other answers as one text."""
    answer_type, answer = question["answer_type"], question["answer"]
    if answer_type in ("multi-span", "span"):
        if not isinstance(answer, list):
            raise OfficialCrash(f"AssertionError: a {answer_type} answer must be a list, not {answer!r}")
        return answer
    if answer_type == "count":
        try:
            return [str(int(answer))]
        except (TypeError, ValueError) as error:
            raise OfficialCrash(f"{type(error).__name__} in int(): {error}") from None
    return [str(answer)]


def gold_strings_of(question: dict[str, Any]) -> tuple[str, ...]:
    """The gold comparison strings of a question; () when its answer is empty (it then scores 0)."""
    answers = gold_answers(question)
    return tuple(answer_strings(answers, question["scale"])) if answers else ()


def decide(question: dict[str, Any], prediction: Any, scale: Any,
           gold_strings: Sequence[str] | None = None) -> Decision:
    """Score one prediction (`answer`, `scale` as a prediction file holds them) against a gold question.

    `question` needs answer, answer_type and scale; `gold_strings`, if given, are its
    gold_strings_of (read once per question). Raises OfficialCrash where the official code raises.
    """
    if not prediction:
        return Decision(0.0, 0.0, 0, (), (), True)
    if gold_strings is None:
        gold_strings = gold_strings_of(question)
    if not gold_strings:
        return Decision(0.0, 0.0, 0, (), (), True)
    gold_scale = question["scale"]
    scale_match = 1 if gold_scale == scale else 0
    predicted = prediction if isinstance(prediction, list) else [prediction]
    predicted_strings = _with_percent_reading(answer_strings(predicted, scale), scale, predicted)
    best: tuple[float, float] | None = None
    for predicted_string in predicted_strings:
        for gold_string in gold_strings:
            pair = drop_em_f1(predicted_string, gold_string)
            if best is None or pair > best:
                best = pair
    assert best is not None  # both lists hold one string at least
    em, f1 = best
    if question["answer_type"] in F1_IS_EXACT_MATCH:
        f1 = em
    return Decision(em, f1, scale_match, tuple(gold_strings), tuple(predicted_strings), False)
