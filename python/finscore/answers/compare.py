"""Comparing a number read from an answer with the gold, under the declared tolerance.

All arithmetic is exact decimal arithmetic (a context far wider than any number
the reader accepts), so a decision never depends on binary rounding. A miss is
diagnosed in a fixed order; the value is only ever scaled to name a miss, never
to make it pass.
"""

from __future__ import annotations

from decimal import Context, Decimal
from typing import NamedTuple

from finscore.answers.gold import Gold
from finscore.answers.numbers import Reading
from finscore.answers.protocol import Protocol, Tolerance
from finscore.answers import reasons as R

#: Wide enough for the difference of any two values the reader accepts (|exponent| <= 308 + 24 + 12).
EXACT = Context(prec=1200, Emax=10_000, Emin=-10_000)
MAX_SCALE_K = 24


class Verdict(NamedTuple):
    passed: bool
    reason: str
    k: int | None
    value: Decimal  # the value compared, in the gold's unit
    detail: str


def _shown(value: Decimal) -> str:
    return format(value, "f")


# The detail of each verdict (the core's decisions, in_core.py, write the same texts).
EQUAL_DETAIL = "equal to the gold"
NEGATED_DETAIL = "the negated value passes"


def within_detail(tolerance: Tolerance) -> str:
    return f"within the tolerance ({tolerance.text})"


def scaled_detail(k: int) -> str:
    """k as the reason names it (`k=6`: the value is a million times the gold), the same sign as the
    conformance files' labels ("the gold times 10^6"): one convention wherever k is shown."""
    return f"the value is the gold times 10^{k}, within the tolerance"


def rounding_detail(shown: int) -> str:
    return f"the gold correctly rounded to the {shown} places shown, but not within the tolerance"


def wrong_value_detail(value: str, gold: Gold) -> str:
    return f"{value} is not the gold {gold.text}"


def _bound(gold: Gold, tolerance: Tolerance) -> Decimal:
    """The largest |value - gold| the tolerance accepts (the same for every value tried against this gold)."""
    if tolerance.kind == "relative":
        assert tolerance.value is not None and gold.value is not None
        return EXACT.multiply(tolerance.value, gold.value.copy_abs())
    if tolerance.kind == "absolute":
        assert tolerance.value is not None
        return tolerance.value
    if tolerance.kind == "relative_or_half_unit":
        assert tolerance.value is not None and gold.value is not None
        return max(EXACT.multiply(tolerance.value, gold.value.copy_abs()), gold.half_unit)
    return gold.half_unit


def compared_value(reading: Reading, gold: Gold, protocol: Protocol) -> Decimal:
    """The number read, in the gold's unit: the declared percent and scale readings, nothing else."""
    value = reading.value
    if reading.percent:
        return value if gold.points else value.scaleb(-2, EXACT)
    if reading.scale is not None:
        return value.scaleb(reading.scale, EXACT) if protocol.scale_words_applied else value
    if protocol.bare_number_scale == "gold_scale":
        return value.scaleb(gold.scale, EXACT)
    return value


def _scale_miss(value: Decimal, gold: Gold, bound: Decimal, percent_read: bool) -> tuple[str, int] | None:
    target = gold.value
    assert target is not None
    if not value or not target or value.is_signed() != target.is_signed():
        return None
    guess = value.adjusted() - target.adjusted()
    for k in (guess, guess - 1, guess + 1):
        if k and abs(k) <= MAX_SCALE_K and EXACT.subtract(value.scaleb(-k, EXACT), target).copy_abs() <= bound:
            percent = abs(k) == 2 and (gold.percentage or percent_read)
            return (R.PERCENT_VS_RATIO if percent else R.SCALE_OFF), k
    return None


def compare_number(reading: Reading, gold: Gold, protocol: Protocol) -> Verdict:
    """Pass or miss, with its reason, for a number read against a number gold."""
    target = gold.value
    assert target is not None
    value = compared_value(reading, gold, protocol)
    tolerance = protocol.tolerance
    if value == target:
        return Verdict(True, R.PERCENT_DECLARED if reading.percent else R.EXACT, None, value, EQUAL_DETAIL)
    bound = _bound(gold, tolerance)  # computed once: every test below is |something - gold| <= bound
    if EXACT.subtract(value, target).copy_abs() <= bound:
        return Verdict(True, R.PERCENT_DECLARED if reading.percent else R.WITHIN_TOLERANCE, None, value,
                       within_detail(tolerance))
    if target and EXACT.subtract(-value, target).copy_abs() <= bound:
        return Verdict(False, R.SIGN_FLIPPED, None, value, NEGATED_DETAIL)
    scaled = _scale_miss(value, gold, bound, reading.percent)
    if scaled is not None:
        reason, k = scaled
        return Verdict(False, reason, k, value, scaled_detail(k))
    shown = -int(value.as_tuple().exponent)
    if EXACT.subtract(value, target).copy_abs() <= Decimal(5).scaleb(-shown - 1, EXACT):
        return Verdict(False, R.ROUNDING, shown, value, rounding_detail(shown))
    return Verdict(False, R.WRONG_VALUE, None, value, wrong_value_detail(_shown(value), gold))
