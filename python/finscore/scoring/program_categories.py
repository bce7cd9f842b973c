"""Failure categories of an executed program: one coarse reason per gold example, for counting.

Shared by every scorer of programs (`finscore finqa`, `finscore convfinqa`, the program
rewards); `finscore.finqa.categories` re-exports it.

The status name says exactly what happened; the category groups statuses and
wrong values into the few kinds of failure a researcher acts on (a model that
writes malformed programs needs different work from one that picks the wrong
row or gets the percentage scale wrong).
"""

from __future__ import annotations

import math
from typing import Any

from finscore.engine.explanation import Execution
from finscore.engine.status import Status
from finscore.scoring.reasons import (
    CORRECT, MISSING_PREDICTION, EXCLUDED_PREDICTION, MALFORMED_PROGRAM, BAD_ARGUMENT, TABLE_LOOKUP,
    ARITHMETIC_ERROR, STRICT_REFUSAL, INVALID_OTHER, EXCEEDED_BOUNDS, NO_ANSWER, WRONG_YES_NO, WRONG_ANSWER_TYPE,
    NEAR_MISS, WRONG_SIGN, PERCENT_SCALE, WRONG_VALUE,
)

__all__ = [
    "CORRECT", "MISSING_PREDICTION", "EXCLUDED_PREDICTION", "MALFORMED_PROGRAM", "BAD_ARGUMENT", "TABLE_LOOKUP",
    "ARITHMETIC_ERROR", "STRICT_REFUSAL", "INVALID_OTHER", "EXCEEDED_BOUNDS", "NO_ANSWER", "WRONG_YES_NO",
    "WRONG_ANSWER_TYPE", "NEAR_MISS", "WRONG_SIGN", "PERCENT_SCALE", "WRONG_VALUE", "CATEGORY_DESCRIPTIONS",
    "execution_category", "refusal_category", "wrong_answer_category",
]

#: Every category with what it means, in report order.
CATEGORY_DESCRIPTIONS: dict[str, str] = {
    CORRECT: "executed to the gold answer",
    MISSING_PREDICTION: "the prediction file has no entry for this gold example",
    EXCLUDED_PREDICTION: "its prediction entries were excluded (malformed or conflicting duplicates)",
    MALFORMED_PROGRAM: "tokens or steps that do not read as op(arg, arg) groups",
    BAD_ARGUMENT: "an argument that is not a number or not a valid step reference",
    TABLE_LOOKUP: "a table step on an unknown row, a non-numeric cell or an empty row",
    ARITHMETIC_ERROR: "division by zero, an impossible power, or values of the wrong type",
    STRICT_REFUSAL: "a quirk the official evaluator tolerates, refused by the strict profile",
    INVALID_OTHER: "refused for another reason",
    EXCEEDED_BOUNDS: "past finscore's declared bounds (engine/bounds.py): not an official outcome",
    NO_ANSWER: "a valid program without steps (answer n/a)",
    WRONG_YES_NO: "yes where the gold answer is no, or the reverse",
    WRONG_ANSWER_TYPE: "a yes/no answer for a numeric question, or the reverse",
    NEAR_MISS: "within 0.1% (or 1e-5) of the gold answer, but not equal",
    WRONG_SIGN: "the gold answer with the opposite sign",
    PERCENT_SCALE: "the gold answer times or divided by 100 (within 0.1%)",
    WRONG_VALUE: "another number",
}

_STATUS_GROUPS: dict[Status, str] = {
    **{s: MALFORMED_PROGRAM for s in (Status.MALFORMED_STRUCTURE, Status.MALFORMED_STEP,
                                      Status.NOT_A_TOKEN_LIST, Status.NO_STEPS, Status.UNKNOWN_OP)},
    **{s: BAD_ARGUMENT for s in (Status.BAD_NUMBER, Status.BAD_REFERENCE, Status.REFERENCE_TO_MISSING_STEP,
                                 Status.FORWARD_REFERENCE, Status.SELF_REFERENCE,
                                 Status.REFERENCE_OUT_OF_RANGE, Status.BAD_ARGUMENT_KIND)},
    **{s: TABLE_LOOKUP for s in (Status.UNKNOWN_ROW, Status.BAD_CELL, Status.MALFORMED_TABLE,
                                 Status.NO_EARLIER_TABLE_STEP, Status.EMPTY_ROW)},
    **{s: ARITHMETIC_ERROR for s in (Status.DIVIDE_BY_ZERO, Status.ZERO_TO_NEGATIVE_POWER,
                                     Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT, Status.EXP_OVERFLOW,
                                     Status.EXP_COMPLEX_OVERFLOW, Status.TYPE_ERROR,
                                     Status.RESULT_NOT_A_NUMBER, Status.VALUE_TOO_LARGE,
                                     Status.REFERENCE_TO_BOOLEAN)},
    Status.EXCEEDS_BOUNDS: EXCEEDED_BOUNDS,
}

_RELATIVE = 1e-3
_ABSOLUTE = 1e-5
_YES_NO = ("yes", "no")


def _close(value: float, target: float) -> bool:
    return math.isclose(value, target, rel_tol=_RELATIVE, abs_tol=_ABSOLUTE)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def refusal_category(status: Status) -> str:
    if status.is_strict_quirk:
        return STRICT_REFUSAL
    return _STATUS_GROUPS.get(status, INVALID_OTHER)


def wrong_answer_category(result: Any, gold: Any) -> str:
    """The kind of a valid answer that is not `==` the gold answer."""
    if type(result) is float and type(gold) is float:  # the common case: neither text nor of another type
        value, target = result, gold
    else:
        if result == "n/a":
            return NO_ANSWER
        if result in _YES_NO and gold in _YES_NO:
            return WRONG_YES_NO
        if not (_is_number(result) and _is_number(gold)):
            return WRONG_ANSWER_TYPE
        value, target = float(result), float(gold)
    if not (math.isfinite(value) and math.isfinite(target)):
        return WRONG_VALUE
    if _close(value, target):
        return NEAR_MISS
    if target != 0 and _close(value, -target):
        return WRONG_SIGN
    if target != 0 and (_close(value, target * 100) or _close(value, target / 100)):
        return PERCENT_SCALE
    return WRONG_VALUE


def execution_category(execution: Execution, gold: Any, correct: bool) -> str:
    """The category of a scored prediction (`correct` is the official `==` decision)."""
    if correct:
        return CORRECT
    if execution.invalid:
        return refusal_category(execution.status)
    return wrong_answer_category(execution.result, gold)
