"""The inputs of the issue #30 families, recorded under the official scorer in data/official_families.json.

Made the same way on every run, so the recording (tools/tatqa/record_families.py
runs the official tatqa_metric.py / tatqa_eval.py and pandas on them) and the
tests (which run finscore) see the same inputs:

- PAIRS: one (gold, [answer, scale]) per official TaTQAEmAndF1() call, whose
  answer items the official metric scores through but a reason re-reads alone
  (a 310-digit number with a percent sign: a float overflow; a 4,301-digit
  integer: past CPython's int() digit limit), and golds whose answer type is
  none of the dataset's four (other text, a capitalised one, null);
- FILES: whole gold and prediction files for tatqa_eval.py: those answers in
  the shipped example, pivot cells whose mean F1 is below 1e-6 (pandas prints
  the column in scientific notation), gold files with labels outside the known
  answer types and sources (other text, null, missing), and a gold file that
  repeats uids;
- FRAMES: pivot-shaped tables given to pandas directly, for the formatting
  rules no real file reaches (values above 1e6 whose fixed text is too long).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE = REPOSITORY / "examples" / "tatqa"

OVERFLOW = "5 million " + "1" * 310 + "%"  # the 310-digit integer times 0.01 overflows a float
DIGITS = "5 million " + "1" * 4301  # int() refuses more than 4,300 digits


def _gold(answer: Any, answer_type: str | None, scale: str = "") -> dict[str, Any]:
    return {"answer": answer, "answer_type": answer_type, "scale": scale}


PAIRS: list[tuple[dict[str, Any], list[Any]]] = [
    (_gold(["50000"], "span"), [[OVERFLOW, "x"], ""]),
    (_gold(["5 million"], "span"), [[DIGITS, "x"], ""]),
    (_gold(["6 million"], "span"), [DIGITS, ""]),
    (_gold(["6 million"], "span"), [OVERFLOW, ""]),
    (_gold(["5 million"], "span"), [DIGITS, ""]),
    (_gold(7, "arithmetic", "million"), [DIGITS, ""]),
    (_gold(7, "arithmetic", "million"), [DIGITS, "thousand"]),
    (_gold("3", "count"), [DIGITS, ""]),
    (_gold([DIGITS, "y"], "multi-span"), [["z"], ""]),
    (_gold([DIGITS, "y"], "multi-span"), [["5 million", "y", "w"], ""]),
    (_gold(["net income rose", "y"], "multi-span"), [["net income fell", OVERFLOW], ""]),
    # answer types outside the four the dataset uses: the official metric scores each pair all the same
    (_gold(["net income rose"], "table"), [["net income rose"], ""]),
    (_gold(["net income rose"], "table"), [["net income fell"], ""]),
    (_gold(["12.5"], "Span", "million"), [["12.5"], "million"]),
    (_gold(7, None, "million"), [["7"], "million"]),
    (_gold([1.5, "y"], "other"), [["1.5", "z"], ""]),
]


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _example() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    return _load(EXAMPLE / "gold.json"), _load(EXAMPLE / "predictions.json")


def _questions(gold: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [question for document in gold for question in document["questions"]]


def _reason_overflow() -> tuple[Any, Any]:
    """The example, with the first span, multi-span and arithmetic predictions replaced by those answers."""
    gold, predictions = _example()
    replaced = {"span": [[DIGITS, "x"], ""], "multi-span": [[OVERFLOW, "x"], ""], "arithmetic": [DIGITS, ""]}
    for question in _questions(gold):
        value = replaced.pop(question["answer_type"], None)
        if value is not None:
            predictions[question["uid"]] = value
    return gold, predictions


#: 199 distinct words: one of them predicted has F1 2 * (1/199) / (1 + 1/199) = 0.01.
_WORDS = [f"w{index}" for index in range(199)]


def _small_cell(prefix: str, answer_type: str, source: str, size: int,
                predictions: dict[str, Any]) -> list[dict[str, Any]]:
    """`size` questions in one cell; one of them scores F1 0.01, the rest have no prediction."""
    cell = [{"uid": f"{prefix}-0", "answer": [" ".join(_WORDS)], "answer_type": answer_type,
             "answer_from": source, "scale": ""}]
    cell += [{"uid": f"{prefix}-{index}", "answer": [f"gold {index}"], "answer_type": answer_type,
              "answer_from": source, "scale": ""} for index in range(1, size)]
    predictions[f"{prefix}-0"] = [[_WORDS[0]], ""]
    return cell


def _small_means() -> tuple[Any, Any]:
    """Mean F1 0.01/20001 (4.99975e-07), 0.01/10001 (9.999e-07) and 0.01/10000 (1e-06, not below it),
    beside cells of ordinary means."""
    predictions: dict[str, Any] = {}
    questions = _small_cell("t", "span", "table", 20001, predictions)
    questions += _small_cell("x", "span", "text", 10001, predictions)
    questions += _small_cell("m", "multi-span", "table-text", 10000, predictions)
    questions += [{"uid": f"a-{index}", "answer": 12.5 + index, "answer_type": "arithmetic",
                   "answer_from": source, "scale": ""} for index, source in enumerate(["table", "text", "text"])]
    predictions.update({"a-0": ["12.5", ""], "a-1": ["13.5", ""], "a-2": ["1", ""]})
    return [{"table": {"uid": "table-0"}, "paragraphs": [], "questions": questions}], predictions


def _relabelled(changes: dict[int, dict[str, str | None]]) -> tuple[Any, Any]:
    """The example with some questions (by position in file order) given other labels."""
    gold, predictions = _example()
    questions = _questions(gold)
    for position, change in changes.items():
        questions[position].update(change)
    return gold, predictions


def _repeated_uids() -> tuple[Any, Any]:
    """The example with its first question again at the end, and its sixth again with another answer."""
    gold, predictions = _example()
    questions = _questions(gold)
    again = copy.deepcopy(questions[5])
    again["answer"] = ["a different answer"] if again["answer_type"] in ("span", "multi-span") else 1
    extra = {"table": gold[0]["table"], "paragraphs": [], "questions": [copy.deepcopy(questions[0]), again]}
    return gold + [extra], predictions


def file_inputs(name: str) -> tuple[Any, Any]:
    """(gold, predictions) of a recorded file case, as decoded JSON."""
    if name == "reason-overflow":
        return _reason_overflow()
    if name == "pivot-small-means":
        return _small_means()
    if name == "gold-answer-type-date":
        return _relabelled({0: {"answer_type": "date"}, 7: {"answer_type": "date"}})
    if name == "gold-answer-from-image":
        return _relabelled({1: {"answer_from": "image"}, 30: {"answer_from": "table-text-image"}})
    if name == "gold-labels-odd":
        return _relabelled({2: {"answer_from": "tablé"}, 3: {"answer_type": "Span"}, 4: {"answer_from": "0"}})
    if name == "gold-repeated-uids":
        return _repeated_uids()
    if name == "gold-labels-null":
        gold, predictions = _relabelled({0: {"answer_from": None}, 2: {"answer_type": None},
                                         9: {"answer_type": None, "answer_from": None}})
        del _questions(gold)[5]["answer_from"]
        return gold, predictions
    raise KeyError(name)


FILES = ("reason-overflow", "pivot-small-means", "gold-answer-type-date", "gold-answer-from-image",
         "gold-labels-odd", "gold-repeated-uids", "gold-labels-null")

#: (value name, {answer_type: {answer_from: value}}) laid out as a pivot table; a missing cell prints 0.
FRAMES: list[tuple[str, dict[str, dict[str, float]]]] = [
    ("em", {"arithmetic": {"table": 1234567.5, "text": 0.5}, "span": {"table": 0.25, "text": 1.0}}),
    ("em", {"arithmetic": {"table": 1000000.0, "text": 0.5}, "span": {"table": 0.25}}),
    ("em", {"arithmetic": {"table": 1000001.0}, "span": {"table": 2.0}}),
    ("f1", {"arithmetic": {"table": 99999.125, "text": 9.5e-07}, "span": {"table": 0.5, "text": 0.0}}),
    ("f1", {"count": {"table": 1e-06, "text": 2e-06}, "span": {"table": 0.999999}}),
    ("f1", {"count": {"table": 12345678.0, "text": 0.333333333}}),
    ("em", {"arithmetic": {"table": 12345678.1234}, "span": {"table": 0.5}}),
    ("em", {"arithmetic": {"table": 1234567.123}, "span": {"table": 0.5}}),
]
