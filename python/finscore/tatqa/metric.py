"""One TAT-QA decision: exact match, F1 and the scale point, as `TaTQAEmAndF1` scores a pair.

Gold and predicted answers become one comparison string each (numbers
rescaled and printed with 4 decimals, other text with the scale word
appended); a bare number predicted without a scale is also tried as a
percentage. EM and a DROP-style bag F1 (rounded as numpy rounds) are taken
for the best of those strings; for arithmetic and count questions F1 is set
to EM. A prediction the official code would crash on raises OfficialCrash.
"""

# No `from __future__ import annotations`: OfficialDecision is made at every run's start-up, and a
# NamedTuple's annotations given as text each cost a compile() when its class is made.

from functools import lru_cache
from typing import Any, NamedTuple, Sequence

from finscore.tatqa.alignment import aligned_scores, numpy_mean, numpy_round
from finscore.tatqa.normalize import normalize_answer
from finscore.tatqa.numbers import NOT_A_NUMBER, OfficialCrash, number_reading, scale_factor

ANSWER_TYPES = ("arithmetic", "count", "multi-span", "span")
ANSWER_SOURCES = ("table", "table-text", "text")
SCALES = ("", "thousand", "million", "billion", "percent")
#: Answer types whose F1 is their exact match.
F1_IS_EXACT_MATCH = ("arithmetic", "count")


class OfficialDecision(NamedTuple):
    """What one official call adds: em and f1 as the floats it adds, the scale point (0/1)."""

    em: float
    f1: float
    scale_match: int
    gold_strings: tuple[str, ...]  # the compared strings ("" when the prediction is empty)
    predicted_strings: tuple[str, ...]
    empty: bool  # the official "no prediction" branch was taken


#: The public name (finscore.tatqa.Decision); the class has its own so that Decision names one
#: class, the answers decision.
Decision = OfficialDecision


def _format_4(value: Any) -> str:
    try:
        return "%.4f" % value
    except OverflowError as error:
        raise OfficialCrash(f"OverflowError: {error}") from None


def _item_string(text: str, scale: Any) -> str:
    """One answer item as get_answer_str writes it (a number rescaled to 4 decimals, else text + scale)."""
    number = number_reading(text)
    if number is None or number is NOT_A_NUMBER:
        return text + " " + str(scale) if scale else text
    if "%" in text:
        return _format_4(number)
    try:
        # a number: NOT_A_NUMBER and None returned above
        return _format_4(round(number, 2) * scale_factor(scale))  # type: ignore[arg-type]
    except OverflowError as error:  # an integer of over 308 digits times the float 0.01 ("percent")
        raise OfficialCrash(f"OverflowError: {error}") from None


#: Each (item, scale) is written once: gold strings, and the predictions that repeat them.
_written_item = lru_cache(maxsize=1 << 16)(_item_string)


def _answer_string(answers: Sequence[Any], scale: Any) -> str:
    """get_answer_str's one string: the items sorted, each written, joined by spaces."""
    if type(scale) is str:
        if len(answers) == 1 and type(answers[0]) is str:
            return _written_item(answers[0], scale)
        if all(type(answer) is str for answer in answers):
            return " ".join([_written_item(text, scale) for text in sorted(answers)])
    try:
        ordered = sorted(answers)
    except TypeError as error:
        raise OfficialCrash(f"TypeError in sorted(): {error}") from None
    return " ".join([_item_string(str(answer), scale) for answer in ordered])


def answer_strings(answers: Sequence[Any], scale: Any) -> list[str]:
    """The official get_answer_str: sorted answers, numbers rescaled to 4 decimals, one string."""
    return [_answer_string(answers, scale)]


def _with_percent_reading(strings: list[str], scale: Any, answers: list[Any]) -> list[str]:
    """The official add_percent_pred: a lone bare number without scale is also read as a ratio."""
    if len(answers) > 1:
        return strings
    text = str(answers[0])
    if not scale and "%" not in text:
        number = number_reading(text)
        if number is not None and number is not NOT_A_NUMBER:
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


#: Both scores of a span compared with itself, or with one that normalizes to the same text:
#: equal bags give precision and recall 1.0 (also when empty), so F1 1.0.
_SAME = (1.0, 1.0)


def _one_span_em_f1(predicted: str, gold: str) -> tuple[float, float]:
    """drop_em_f1 of two single spans: a 1 x 1 alignment, whose mean (0.0 + score) / 1 is the score."""
    if predicted == gold:
        return _SAME
    predicted_span, gold_span = normalize_answer(predicted), normalize_answer(gold)
    if predicted_span == gold_span:
        return _SAME
    score = bag_f1(set(predicted_span.split()), set(gold_span.split()))
    return 0.0, numpy_round(score, 2)


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
    return (_answer_string(answers, question["scale"]),) if answers else ()


#: What an empty prediction, or one against an empty gold answer, adds (the official "no prediction" branch).
_EMPTY = OfficialDecision(0.0, 0.0, 0, (), (), True)


def decide(question: dict[str, Any], prediction: Any, scale: Any,
           gold_strings: Sequence[str] | None = None) -> OfficialDecision:
    """Score one prediction (`answer`, `scale` as a prediction file holds them) against a gold question.

    `question` needs answer, answer_type and scale; `gold_strings`, if given, are its
    gold_strings_of (read once per question). Raises OfficialCrash where the official code raises.
    """
    if not prediction:
        return _EMPTY
    if gold_strings is None:
        gold_strings = gold_strings_of(question)
    if not gold_strings:
        return _EMPTY
    scale_match = 1 if question["scale"] == scale else 0
    predicted = prediction if isinstance(prediction, list) else [prediction]
    predicted_strings = _with_percent_reading([_answer_string(predicted, scale)], scale, predicted)
    best = (-1.0, -1.0)  # below any pair of scores
    for predicted_string in predicted_strings:
        for gold_string in gold_strings:
            pair = _one_span_em_f1(predicted_string, gold_string)
            if pair > best:
                best = pair
    em, f1 = best
    if question["answer_type"] in F1_IS_EXACT_MATCH:
        f1 = em
    return OfficialDecision(em, f1, scale_match, tuple(gold_strings), tuple(predicted_strings), False)
