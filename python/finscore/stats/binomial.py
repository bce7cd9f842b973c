"""Exact and score intervals of a proportion, the exact one-sided bound, and the exact McNemar test.

Pure Python (math, decimal, fractions), so the benchmark commands can use them without a
statistics library: the Wilson score interval in closed form, the exact Clopper-Pearson interval
by inverting the binomial tail at 60 digits, the exact one-sided bound of a subset with no
failures (or no successes), and McNemar's exact test as the two-sided sign test on the discordant
pairs. `finscore.contracts.stats` uses these same functions.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from decimal import Context, Decimal

CONFIDENCE = 0.95
#: The exact interval sums binomial terms; above this many trials it is not computed.
MAX_EXACT_TRIALS = 20_000
_BISECTION_STEPS = 64
#: The two-sided 95% standard normal quantile, NormalDist().inv_cdf(1 - (1 - 0.95) / 2) (checked by the tests), so the
#: usual level loads no `statistics`.
_Z95 = 1.9599639845400536


def check_counts(successes: int, trials: int) -> None:
    """ValueError unless 0 <= successes <= trials."""
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"invalid counts: {successes} of {trials}")


def normal_quantile(confidence: float) -> float:
    """The two-sided standard normal quantile z of a confidence level (1.959963984540054 for 0.95)."""
    if confidence == 0.95:
        return _Z95
    from statistics import NormalDist  # loaded only for another level

    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def wilson_interval(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval (no continuity correction); (0, 1) when there are no trials."""
    check_counts(successes, trials)
    if trials == 0:
        return 0.0, 1.0
    z = normal_quantile(confidence)
    p = successes / trials
    denominator = 1 + z * z / trials
    center = (p + z * z / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, center - half), min(1.0, center + half)


def binomial_cdf(k: int, n: int, p: Decimal) -> Decimal:
    """P(X <= k) for X ~ Binomial(n, p), summed exactly term by term at 60 digits."""
    from decimal import Decimal

    ctx = _precision()
    if k < 0:
        return Decimal(0)
    if k >= n:
        return Decimal(1)
    q = ctx.subtract(Decimal(1), p)
    term = ctx.power(q, n)
    total = term
    ratio = ctx.divide(p, q)
    for i in range(k):
        term = ctx.multiply(term, ctx.multiply(ratio, ctx.divide(Decimal(n - i), Decimal(i + 1))))
        total = ctx.add(total, term)
    return total


def _precision() -> Context:
    """The 60-digit decimal context (decimal is loaded only for the exact interval)."""
    from decimal import Context

    return Context(prec=60, Emax=10**9, Emin=-(10**9))


def _solve_decreasing(target: Decimal, function: Callable[[Decimal], Decimal]) -> Decimal:
    """The p in (0, 1) where a decreasing function of p crosses `target`, by bisection."""
    from decimal import Decimal

    ctx = _precision()
    low, high = Decimal(0), Decimal(1)
    half = Decimal("0.5")
    for _ in range(_BISECTION_STEPS):
        middle = ctx.multiply(ctx.add(low, high), half)
        if function(middle) > target:
            low = middle
        else:
            high = middle
    return ctx.multiply(ctx.add(low, high), half)


def clopper_pearson_interval(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """The exact (Clopper-Pearson) interval; None above MAX_EXACT_TRIALS trials."""
    from decimal import Decimal

    check_counts(successes, trials)
    if trials == 0:
        return 0.0, 1.0
    if trials > MAX_EXACT_TRIALS:
        return None
    tail = (1 - Decimal(repr(confidence))) / 2
    lower = Decimal(0)
    if successes > 0:
        # P(X >= x) = 1 - cdf(x - 1) increases with p: solve cdf(x - 1; p) = 1 - tail.
        lower = _solve_decreasing(1 - tail, lambda p: binomial_cdf(successes - 1, trials, p))
    upper = Decimal(1)
    if successes < trials:
        upper = _solve_decreasing(tail, lambda p: binomial_cdf(successes, trials, p))
    return float(lower), float(upper)


def zero_events_upper_bound(trials: int, confidence: float = CONFIDENCE) -> float:
    """The exact one-sided upper bound of a rate when none of `trials` showed the event:
    the p with (1 - p)^trials = 1 - confidence, i.e. 1 - (1 - confidence)^(1/trials)
    (about 3/trials at 95%, the "rule of three"); 1.0 with no trials."""
    check_counts(0, trials)
    if trials == 0:
        return 1.0
    return -math.expm1(math.log1p(-confidence) / trials)


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar (sign) test on discordant pairs: 2 * P(X <= min) for X ~ Bin(m, 1/2)."""
    from fractions import Fraction

    check_counts(0, only_a)
    check_counts(0, only_b)
    discordant = only_a + only_b
    if discordant == 0:
        return 1.0
    smaller = min(only_a, only_b)
    tail = Fraction(sum(math.comb(discordant, i) for i in range(smaller + 1)), 2**discordant)
    return float(min(Fraction(1), 2 * tail))
