"""Gold answers in the form the comparison needs, from FinQA, ConvFinQA and TAT-QA data.

A gold is built once (a whole gold file, or one mapping given to `decide`) and
carries what the protocol's comparison rules read: the exact decimal value, its
percent convention, the places it shows and its scale, or the word yes / no.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from functools import lru_cache
from typing import Any, Mapping, NamedTuple

from finscore.answers.numbers import NumberReader, Reading
from finscore.answers.protocol import Protocol, QuestionWords

SCALES: dict[str, int] = {"": 0, "thousand": 3, "million": 6, "billion": 9, "percent": 0}
_LAST_STEP_TIMES_100 = re.compile(r"multiply\(\s*(?:#\d+\s*,\s*const_100|const_100\s*,\s*#\d+)\s*\)\s*$")
_ASKS_PERCENT = re.compile(r"percent|%", re.IGNORECASE)


class GoldError(ValueError):
    """A gold that cannot be compared with (malformed, or not a number under the protocol)."""


class OutOfProtocolGold(GoldError):
    """A well-formed TAT-QA gold that the protocol does not cover (a text or multi-span answer,
    not one number): reports count it apart, where a malformed gold is an error."""


#: The answer types of TAT-QA (any other is a malformed gold).
TATQA_ANSWER_TYPES = ("arithmetic", "count", "multi-span", "span")


class Gold(NamedTuple):
    """One gold answer: a number (`value`) or the word yes / no (`yes_no`)."""

    value: Decimal | None  # in the compared unit: TAT-QA answers times their scale
    yes_no: str | None
    text: str  # the gold as it shows, for reports
    points: bool  # in percentage points: a % in the answer is a label
    percentage: bool  # a percentage at all (points, or asked as a percentage)
    half_unit: Decimal  # half a unit of the last place the gold shows, times its scale
    scale: int  # the power of ten of the gold's scale (TAT-QA), 0 otherwise
    question: str


def _number_gold(number: Decimal, text: str, *, points: bool, percentage: bool, scale: int,
                 question: str) -> Gold:
    places = max(0, -int(number.as_tuple().exponent))
    return Gold(number.scaleb(scale), None, text, points, percentage, Decimal(5).scaleb(scale - places - 1),
                scale, question)


def _yes_no_gold(word: str, question: str) -> Gold:
    return Gold(None, word, word, False, False, Decimal(0), 0, question)


def _float_text(number: Any, what: str) -> str:
    """The decimal text a JSON number shows: its shortest text (94.0 shows 94)."""
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise GoldError(f"{what} is a {type(number).__name__}, not a number")
    if isinstance(number, float) and not math.isfinite(number):
        raise GoldError(f"{what} is {number!r}, not a finite number")
    text = repr(number)
    return text[:-2] if text.endswith(".0") else text


def _float_decimal(number: Any, what: str) -> Decimal:
    """The decimal a JSON number shows (`_float_text`)."""
    return Decimal(_float_text(number, what))


def finqa_gold(exe_ans: Any, program: str = "", question: str = "", answer: str = "") -> Gold:
    """A FinQA or ConvFinQA gold from exe_ans, its program (for the percent convention) and question."""
    if isinstance(exe_ans, str):
        word = exe_ans.strip().lower()
        if word not in ("yes", "no"):
            raise GoldError(f"exe_ans is the text {exe_ans!r}, neither a number nor yes / no")
        return _yes_no_gold(word, question)
    number = _float_decimal(exe_ans, "exe_ans")
    points = bool(_LAST_STEP_TIMES_100.search(program))
    percentage = points or bool(_ASKS_PERCENT.search(question)) or answer.rstrip().endswith("%")
    return _number_gold(number, format(number, "f") if abs(number.adjusted()) < 20 else str(number),
                        points=points, percentage=percentage, scale=0, question=question)


def tatqa_gold(answer: Any, scale: Any, answer_type: Any, question: str, reader: NumberReader) -> Gold:
    """A TAT-QA gold whose answer is one number; OutOfProtocolGold for text and multi-span answers,
    GoldError for a malformed one (unknown scale or answer type, an answer of the wrong JSON type)."""
    if not isinstance(scale, str) or scale not in SCALES:
        raise GoldError(f"scale {scale!r} is not one of {', '.join(repr(s) for s in SCALES)}")
    if answer_type not in TATQA_ANSWER_TYPES:
        raise GoldError(f"answer_type {answer_type!r} is not one of {', '.join(map(repr, TATQA_ANSWER_TYPES))}")
    points = scale == "percent"
    shown = f" {scale}" if scale and scale != "percent" else ("%" if points else "")
    if answer_type in ("arithmetic", "count") and not isinstance(answer, (str, list)):
        number = _float_decimal(answer, "the answer")
        return _number_gold(number, f"{number}{shown}", points=points, percentage=points,
                            scale=SCALES[scale], question=question)
    spans = answer if isinstance(answer, list) else [answer]
    odd = [item for item in spans if not isinstance(item, str)]
    if odd:
        raise GoldError(f"a {answer_type} answer holds {odd[0]!r}, not text")
    if len(spans) != 1:
        raise OutOfProtocolGold(f"a {answer_type} answer of {len(spans)} items is not one number")
    read = reader.read(spans[0])
    if not isinstance(read, Reading) or read.scale is not None:
        raise OutOfProtocolGold(f"the {answer_type} answer {spans[0]!r} is not one plain number")
    return _number_gold(read.value, f"{spans[0]}{'' if read.percent else shown}", points=points or read.percent,
                        percentage=points or read.percent, scale=SCALES[scale], question=question)


def _first_phrase(question: str, phrases: tuple[tuple[str, int], ...], anchors: tuple[str, ...]) -> int | None:
    """The value of the first declared phrase (they come longest first) found in the question, or None.
    Each phrase holds one of the anchor words: a question without any holds no phrase."""
    if not any(anchor in question for anchor in anchors):
        return None
    for phrase, value in phrases:
        if phrase in question:
            return value
    return None


#: How many FinanceMath golds are kept, each a question and its number (a question of a few kilobytes
#: each: a few megabytes at most).
GOLDS_KEPT = 1024


def financemath_gold(ground_truth: Any, question: str, words: QuestionWords) -> Gold:
    """A gold of FinanceMath, FinanceReasoning or FinMMR: the result of the question's Python
    solution (a number, or a boolean read as yes / no), with what the question's own words say:
    a percentage asked for (the gold is then in percentage points), decimal places, the unit."""
    if isinstance(ground_truth, bool):
        return _yes_no_gold("yes" if ground_truth else "no", question)
    return _financemath_number_gold(_float_text(ground_truth, "ground_truth"), question, words)


@lru_cache(maxsize=GOLDS_KEPT)
def _financemath_number_gold(text: str, question: str, words: QuestionWords) -> Gold:
    """financemath_gold of the number whose shortest text is `text` (the key keeps 0 and -0, 1e+16
    and 10000000000000000 apart). Kept for the last golds read: every model's completions of one
    question (a benchmark's outputs, a trainer's group) share it, and a Gold is immutable."""
    number = Decimal(text)
    asked = " ".join(question.lower().split())
    points = any(phrase in asked for phrase in words.percent)
    # _ASKS_PERCENT's test without the pattern: under IGNORECASE a character matches a letter of
    # "percent" exactly when its lower() is that letter (tests/answers/test_financemath.py)
    percentage = points or "%" in asked or "percent" in asked
    places = _first_phrase(asked, words.places, words.places_anchors)
    scale = _first_phrase(asked, words.scales, words.scales_anchors) or 0
    shown = format(number, "f") if abs(number.adjusted()) < 20 else str(number)
    unit = {3: " thousand", 6: " million", 9: " billion"}.get(scale, f" x 10^{scale}" if scale else "")
    half_places = words.stored_places if places is None else places
    return Gold(number.scaleb(scale), None, f"{shown}{'%' if points else unit}", points, percentage,
                Decimal(5).scaleb(scale - half_places - 1), scale, question)


def gold_from_mapping(data: Mapping[str, Any], protocol: Protocol, reader: NumberReader) -> Gold:
    """A gold from a JSON object: {exe_ans, program?, question?, answer?} (FinQA, ConvFinQA)
    or {answer, scale, answer_type?, question?} (TAT-QA), as the protocol's gold reader expects."""
    if not isinstance(data, Mapping):
        raise GoldError(f"a gold is a JSON object, not a {type(data).__name__}")
    question = data.get("question", "")
    if not isinstance(question, str):
        raise GoldError('"question" is not text')
    if protocol.gold_reader == "financemath_ground_truth":
        if "ground_truth" not in data:
            raise GoldError('a FinanceMath gold has no "ground_truth"')
        assert protocol.question_words is not None  # the reader's protocols declare them (protocol.py)
        return financemath_gold(data["ground_truth"], question, protocol.question_words)
    if protocol.gold_reader == "tatqa_answer":
        if "answer" not in data:
            raise GoldError('a TAT-QA gold has no "answer"')
        return tatqa_gold(data["answer"], data.get("scale", ""), data.get("answer_type", "arithmetic"), question,
                          reader)
    if "exe_ans" not in data:
        raise GoldError('a FinQA gold has no "exe_ans"')
    program, answer = data.get("program", ""), data.get("answer", "")
    if not isinstance(program, str) or not isinstance(answer, str):
        raise GoldError('"program" and "answer" are text')
    return finqa_gold(data["exe_ans"], program, question, answer)
