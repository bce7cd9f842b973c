"""Exact evaluation at rational points: a proof that two programs differ.

Why a difference at one point proves the official answer is False: the
official answer is ``simplify(E_gold) == simplify(E_pred)``. ``simplify``
preserves the value of an expression wherever it is analytic (it rewrites,
it does not change the function), so structurally equal results mean equal
functions on a dense open set. Each point used here is one where both
programs are analytic: every divisor is non-zero and every power has a
positive base and an integer exponent (so ``exp(e*log(b))`` needs no branch
cut nearby). Two analytic functions equal on a dense open set are equal on
such a neighbourhood, hence at the point. So exact, different values at a
point rule out equal simplified forms. A comparison (``greater``) is used
only where its two sides differ, so its truth value is constant nearby, and
``simplify`` keeps truth values of real comparisons.

When a point is unusable (a zero divisor, a fractional or large exponent, a
non-positive base, numbers too long) the next point is tried; no point, no
decision. The points come from a fixed seed, so decisions are reproducible.
"""

from __future__ import annotations

import random
from functools import lru_cache
from fractions import Fraction
from typing import Sequence, Union

from finscore.finqa.equivalence.graph import SYMBOL, ExpressionTable

Value = Union[Fraction, bool]

#: Bit length above which a value is dropped (the point is then skipped).
MAX_BITS = 4096
#: Largest integer exponent evaluated exactly.
MAX_EXPONENT = 64
SEED = 20211107
ATTEMPTS = 8


class UnusablePoint(Exception):
    """This point cannot decide anything (see module docstring)."""


def _checked(value: Fraction) -> Fraction:
    if value.numerator.bit_length() > MAX_BITS or value.denominator.bit_length() > MAX_BITS:
        raise UnusablePoint("value too long")
    return value


def _power(base: Value, exponent: Value) -> Fraction:
    if isinstance(base, bool) or isinstance(exponent, bool):
        raise UnusablePoint("comparison used as a number")
    if base <= 0 or exponent.denominator != 1 or abs(exponent) > MAX_EXPONENT:
        raise UnusablePoint("power off the positive reals or not an integer power")
    longest = max(base.numerator.bit_length(), base.denominator.bit_length())
    if longest * abs(int(exponent)) > MAX_BITS:
        raise UnusablePoint("power too long")
    return _checked(base ** int(exponent))


def _apply(op: str, left: Value, right: Value) -> Value:
    if op == "greater":
        if isinstance(left, bool) or isinstance(right, bool) or left == right:
            raise UnusablePoint("comparison on its boundary")
        return left > right
    if isinstance(left, bool) or isinstance(right, bool):
        raise UnusablePoint("comparison used as a number")
    if op == "add":
        return _checked(left + right)
    if op == "subtract":
        return _checked(left - right)
    if op == "multiply":
        return _checked(left * right)
    if op == "divide":
        if right == 0:
            raise UnusablePoint("zero divisor")
        return _checked(left / right)
    if op == "exp":
        return _power(left, right)
    raise UnusablePoint(f"op {op!r}")  # pragma: no cover - graph holds the six ops


@lru_cache(maxsize=512)
def _point(attempt: int, symbol_count: int) -> tuple[Fraction, ...]:
    """Alternate generic positive rationals with small integers (for exponents).
    The same for every pair with as many symbols, so made once for them."""
    rng = random.Random(SEED + attempt)
    if attempt % 2 == 0:
        return tuple(Fraction(rng.randint(1, 10**6), rng.randint(1, 997)) for _ in range(symbol_count))
    return tuple(Fraction(rng.randint(2, 9)) for _ in range(symbol_count))


def evaluate_at(
    table: ExpressionTable, roots: Sequence[int], point: Sequence[Fraction]
) -> list[Value]:
    """The exact value of each root at ``point``; raises UnusablePoint."""
    values: dict[int, Value] = {}
    for number in table.reachable(roots):
        node = table.nodes[number]
        if node.op == SYMBOL:
            values[number] = point[node.index]
        else:
            values[number] = _apply(node.op, values[node.left], values[node.right])
    return [values[root] for root in roots]


def values_differ(table: ExpressionTable, gold: int, pred: int, symbol_count: int) -> bool:
    """True only when some usable point gives the two programs different values."""
    for attempt in range(ATTEMPTS):
        try:
            gold_value, pred_value = evaluate_at(
                table, (gold, pred), _point(attempt, symbol_count)
            )
        except UnusablePoint:
            continue
        if type(gold_value) is not type(pred_value) or gold_value != pred_value:
            return True
    return False
