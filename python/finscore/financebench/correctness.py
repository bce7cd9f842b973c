"""`financebench-answer/1`: is an answer's claim the numeric gold of a metrics-generated question?

The claim (financebench.claims) is put in the gold's terms, then compared at the gold's precision:

- USD: a claim with a scale word ("$1.577 billion") is converted to the scale the question asks
  for ("in USD millions"); a bare amount ("$1,577") is taken in the question's scale.
- percent: a claim written with `%` or "percent" is compared as written; a ratio gold answered in
  percent ("ROA of 1.2%") is divided by 100, a declared equivalence (the question asks for a
  ratio, the answer gives the same quantity as a percentage), reported as `percent_declared`.
- Tolerance: less than half a unit in the last decimal the gold shows, once the trailing zeros the
  dataset writes are dropped ("$1577.00" is 1577 ± 0.5; "$8.70" is 8.7 ± 0.05; "0.66" is 0.66 ±
  0.005; a claim exactly half a unit away, 0.45 for 0.4, rounds half up away from the gold), or
  within 0.2% of the gold. Why: every USD gold carries ".00" whatever its precision, and the human
  graders accept an answer that rounds to the gold ("$389 million" for "$0.40" billion); the 0.2%
  is the graders' own: every answer of the 16 results files within 0.2% of its gold (a computation
  whose intermediate rounding moves the last digit: 93.88 days for 93.86) was labelled correct,
  and the first one further away (0.21%) was not (benchmarks/financebench.md).
- "cents" is a scale (10^-2): "68 cents of current assets per dollar" is a ratio of 0.68.

A miss is typed by the one fix that would make it right: `no_claim`/`refusal` (no value),
`several_numbers` (the conclusion states alternatives), `sign_flipped`, `scale_off` (a power of
ten of 1,000), `percent_vs_ratio` (× or ÷ 100), `rounding` (the claim shows fewer decimals than
the gold and the gold rounds to it), else `wrong_value`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from finscore.financebench.claims import Claim, NoClaim, read_claim
from finscore.financebench.gold import GoldNumber
from finscore.scoring.reasons import (EXACT, PARENTHESIZED_AMOUNT, PERCENT_DECLARED, SCALE_UNSTATED, PERCENT_VS_RATIO, ROUNDING, SCALE_OFF, SEVERAL_NUMBERS,
                                      SIGN_FLIPPED, WITHIN_TOLERANCE, WRONG_VALUE)

PROTOCOL = "financebench-answer/1"

#: The reasons of a correct answer and of a miss, with their descriptions (the report's words).
CORRECT_REASONS: dict[str, str] = {
    EXACT: "the claim equals the gold at the gold's precision",
    WITHIN_TOLERANCE: "the claim, converted to the question's scale, rounds to the gold",
    PERCENT_DECLARED: "a ratio gold answered as the same quantity in percent",
    PARENTHESIZED_AMOUNT: "an amount in parentheses (a filing's outflow) whose magnitude is the gold",
    SCALE_UNSTATED: "an amount without a scale word that is the gold written in dollars or thousands",
}
MISS_REASONS: dict[str, str] = {
    SEVERAL_NUMBERS: "the conclusion states alternatives, not one value",
    SIGN_FLIPPED: "the claim is the gold negated",
    SCALE_OFF: "the claim is the gold times a power of 1,000 (thousands, millions, billions confused)",
    PERCENT_VS_RATIO: "the claim is the gold times or divided by 100 (percent written as ratio or the reverse)",
    ROUNDING: "the claim shows fewer decimals than the gold, and the gold rounds to it",
    WRONG_VALUE: "another value: none of the fixes above makes it right",
}


class Correctness(NamedTuple):
    """One decision: `correct`, the reason word, the claim (or NoClaim) and the compared value."""

    correct: bool
    reason: str
    claim: Claim | NoClaim
    compared: Decimal | None


def _half_unit(decimals: int) -> Decimal:
    return Decimal(5).scaleb(-decimals - 1)


#: The relative closeness accepted beyond the gold's precision (0.2%).
RELATIVE_TOLERANCE = Decimal("0.002")


def _close(value: Decimal, gold: GoldNumber) -> bool:
    gap = abs(value - gold.value)
    return gap < _half_unit(gold.decimals) or gap <= RELATIVE_TOLERANCE * abs(gold.value)


def in_gold_terms(claim: Claim, gold: GoldNumber) -> tuple[Decimal, bool]:
    """The claim's value in the gold's unit and scale, and whether a percent-to-ratio step was taken."""
    value = claim.value
    if gold.unit != "USD" and claim.scale < 0:  # "68 cents" of current assets per dollar: a ratio of 0.68
        return value.scaleb(claim.scale), False
    if gold.unit == "USD" and claim.scale:
        return value.scaleb(claim.scale - gold.scale), False
    if gold.unit == "ratio" and claim.number.percent:
        return value.scaleb(-2), True
    return value, False


def decide_claim(claim: Claim | NoClaim, gold: GoldNumber) -> Correctness:
    """The decision of a claim already read against a numeric gold."""
    if isinstance(claim, NoClaim):
        return Correctness(False, claim.reason, claim, None)
    if claim.several:
        return Correctness(False, SEVERAL_NUMBERS, claim, None)
    value, declared = in_gold_terms(claim, gold)
    if _close(value, gold):
        reason = PERCENT_DECLARED if declared else EXACT if value == gold.value else WITHIN_TOLERANCE
        return Correctness(True, reason, claim, value)
    if gold.unit == "USD" and claim.number.parenthesized and gold.value > 0 and _close(-value, gold):
        return Correctness(True, PARENTHESIZED_AMOUNT, claim, -value)
    if gold.unit == "USD" and not claim.scale:
        for power in (gold.scale, gold.scale - 3):
            if power > 0 and _close(abs(value).scaleb(-power) if claim.number.parenthesized else
                                    value.scaleb(-power), gold):
                return Correctness(True, SCALE_UNSTATED, claim, value.scaleb(-power))
    if gold.value and _close(-value, gold):
        return Correctness(False, SIGN_FLIPPED, claim, value)
    if any(_close(value.scaleb(power), gold) for power in (-9, -6, -3, 3, 6, 9)):
        return Correctness(False, SCALE_OFF, claim, value)
    if any(_close(value.scaleb(power), gold) for power in (-2, 2)):
        return Correctness(False, PERCENT_VS_RATIO, claim, value)
    shown = claim.number.decimals - (claim.scale - gold.scale if gold.unit == "USD" and claim.scale else 0)
    if shown < gold.decimals and abs(gold.value - value) <= _half_unit(max(shown, 0)):
        return Correctness(False, ROUNDING, claim, value)
    return Correctness(False, WRONG_VALUE, claim, value)


def decide_answer(answer: str, gold: GoldNumber) -> Correctness:
    """Read an answer's claim and decide it against a numeric gold."""
    return decide_claim(read_claim(answer), gold)
