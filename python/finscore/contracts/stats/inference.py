"""Honest uncertainty for small evaluation sets.

Pass rates on a few dozen cases need intervals that hold at that size: Wilson
and the exact Clopper-Pearson interval (computed here by inverting the binomial
tail with high-precision decimals, so no statistics library is needed at run
time), the upper bound of the failure rate when no failure was seen, a seeded
cluster bootstrap over families and cluster-robust standard errors (both only
diagnostics when families are few), an exact paired test and pass^k.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from statistics import NormalDist
from typing import Any, Callable, Mapping, Sequence, TypeVar

CONFIDENCE = 0.95
#: The seeded family bootstrap: the same seed gives the same intervals on every machine.
DEFAULT_SEED = 20260901
DEFAULT_REPLICATES = 2000
MAX_REPLICATES = 100_000
T = TypeVar("T")
#: Below this many families a cluster bootstrap or cluster-robust SE is a diagnostic only.
FEW_FAMILIES = 30
#: Fewer families than this and no cluster-robust SE is reported at all.
MIN_FAMILIES_FOR_SE = 5
#: The exact interval sums binomial terms; above this many trials it is not computed.
MAX_EXACT_TRIALS = 20_000
_BISECTION_STEPS = 64
_PRECISION = Context(prec=60, Emax=10**9, Emin=-(10**9))


def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def wilson_interval(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval (no continuity correction); (0, 1) when there are no trials."""
    _check_counts(successes, trials)
    if trials == 0:
        return 0.0, 1.0
    z = _z(confidence)
    p = successes / trials
    denominator = 1 + z * z / trials
    center = (p + z * z / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, center - half), min(1.0, center + half)


def binomial_cdf(k: int, n: int, p: Decimal) -> Decimal:
    """P(X <= k) for X ~ Binomial(n, p), summed exactly term by term at 60 digits."""
    ctx = _PRECISION
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


def _solve_decreasing(target: Decimal, function: Callable[[Decimal], Decimal]) -> Decimal:
    """The p in (0, 1) where a decreasing function of p crosses `target`, by bisection."""
    low, high = Decimal(0), Decimal(1)
    half = Decimal("0.5")
    for _ in range(_BISECTION_STEPS):
        middle = _PRECISION.multiply(_PRECISION.add(low, high), half)
        if function(middle) > target:
            low = middle
        else:
            high = middle
    return _PRECISION.multiply(_PRECISION.add(low, high), half)


def clopper_pearson_interval(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """The exact (Clopper-Pearson) interval; None above MAX_EXACT_TRIALS trials."""
    _check_counts(successes, trials)
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


@dataclass(frozen=True)
class RateSummary:
    """A pass rate with its intervals; with no failures, the failure rate's upper bound."""

    passed: int
    trials: int
    estimate: float | None
    wilson: tuple[float, float]
    clopper_pearson: tuple[float, float] | None
    failure_rate_upper: float | None
    statement: str


def summarize_rate(passed: int, trials: int, confidence: float = CONFIDENCE) -> RateSummary:
    wilson = wilson_interval(passed, trials, confidence)
    exact = clopper_pearson_interval(passed, trials, confidence)
    level = f"{confidence:.0%}"
    if trials == 0:
        return RateSummary(0, 0, None, wilson, exact, None, "no trials")
    estimate = passed / trials
    interval = exact or wilson
    method = "Clopper-Pearson" if exact else "Wilson"
    failure_upper = 1 - interval[0]
    if passed == trials:
        statement = (
            f"0 failures in {trials}: the failure rate is at most {failure_upper:.1%} "
            f"({level} {method} upper bound), not 0%"
        )
    else:
        statement = (
            f"{passed} of {trials} passed ({estimate:.1%}); {level} {method} interval "
            f"{interval[0]:.1%} to {interval[1]:.1%}"
        )
    return RateSummary(passed, trials, estimate, wilson, exact, failure_upper, statement)


@dataclass(frozen=True)
class ClusterCounts:
    passed: int
    trials: int


def _percentile_interval(values: list[float], confidence: float) -> tuple[float, float]:
    """Percentile interval: the values at ranks floor(a*B) and ceil((1-a)*B)-1 of B sorted draws."""
    ordered = sorted(values)
    tail = (1 - confidence) / 2
    low = ordered[min(len(ordered) - 1, math.floor(tail * len(ordered)))]
    high = ordered[max(0, math.ceil((1 - tail) * len(ordered)) - 1)]
    return low, high


def _few_families_note(families: int) -> str:
    if families < FEW_FAMILIES:
        return (
            f"diagnostic only: {families} families is too few for cluster resampling or "
            f"cluster-robust errors to be reliable (they tend to be too narrow below {FEW_FAMILIES})"
        )
    return ""


def _family_bootstrap(
    clusters: Mapping[str, T], statistic: Callable[[list[T]], float], seed: int, replicates: int, confidence: float
) -> dict[str, Any]:
    """Resample whole families with replacement (seeded); percentile interval of `statistic`."""
    names = sorted(clusters)
    if not names or replicates < 1:
        return {"computed": False, "note": "no families with trials"}
    rng = random.Random(seed)
    draws = [statistic([clusters[rng.choice(names)] for _ in names]) for _ in range(replicates)]
    low, high = _percentile_interval(draws, confidence)
    notes = [_few_families_note(len(names))]
    if min(draws) == max(draws):
        notes.append(
            "every resample gives the same value, so resampling shows no spread at all; read the exact interval instead"
        )
    return {
        "computed": True,
        "families": len(names),
        "seed": seed,
        "replicates": replicates,
        "confidence": confidence,
        "interval": [low, high],
        "diagnostic": len(names) < FEW_FAMILIES,
        "note": "; ".join(note for note in notes if note),
    }


def cluster_bootstrap(
    clusters: Mapping[str, ClusterCounts],
    seed: int,
    replicates: int = DEFAULT_REPLICATES,
    confidence: float = CONFIDENCE,
) -> dict[str, Any]:
    """Seeded family bootstrap of the pooled pass rate."""
    with_trials = {name: counts for name, counts in clusters.items() if counts.trials > 0}

    def pooled_rate(sample: list[ClusterCounts]) -> float:
        return sum(c.passed for c in sample) / sum(c.trials for c in sample)

    return _family_bootstrap(with_trials, pooled_rate, seed, replicates, confidence)


def clustered_standard_error(clusters: Mapping[str, ClusterCounts]) -> dict[str, Any]:
    """Cluster-robust (CR1) standard error of the pooled pass rate, families as clusters.

    SE^2 = G/(G-1) * sum_g (passed_g - p * trials_g)^2 / N^2, with G families, N trials.
    """
    groups = [counts for counts in clusters.values() if counts.trials > 0]
    g = len(groups)
    if g < MIN_FAMILIES_FOR_SE:
        return {
            "computed": False,
            "families": g,
            "note": f"not computed: {g} families, fewer than {MIN_FAMILIES_FOR_SE}",
        }
    total = sum(c.trials for c in groups)
    rate = Fraction(sum(c.passed for c in groups), total)
    residual_squares = sum((c.passed - rate * c.trials) ** 2 for c in groups)
    variance = Fraction(g, g - 1) * residual_squares / (total * total)
    return {
        "computed": True,
        "families": g,
        "estimate": float(rate),
        "standard_error": math.sqrt(variance),
        "diagnostic": g < FEW_FAMILIES,
        "note": _few_families_note(g),
    }


@dataclass(frozen=True)
class PairedCounts:
    a_passed: int
    b_passed: int
    trials: int


def paired_cluster_bootstrap(
    clusters: Mapping[str, PairedCounts],
    seed: int,
    replicates: int = DEFAULT_REPLICATES,
    confidence: float = CONFIDENCE,
) -> dict[str, Any]:
    """Seeded family bootstrap of rate(B) - rate(A), each family keeping both candidates' outcomes."""
    with_trials = {name: counts for name, counts in clusters.items() if counts.trials > 0}

    def difference(sample: list[PairedCounts]) -> float:
        return (sum(c.b_passed for c in sample) - sum(c.a_passed for c in sample)) / sum(c.trials for c in sample)

    return _family_bootstrap(with_trials, difference, seed, replicates, confidence)


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar (sign) test on discordant pairs: 2 * P(X <= min) for X ~ Bin(m, 1/2)."""
    _check_counts(0, only_a)
    _check_counts(0, only_b)
    discordant = only_a + only_b
    if discordant == 0:
        return 1.0
    smaller = min(only_a, only_b)
    tail = Fraction(sum(math.comb(discordant, i) for i in range(smaller + 1)), 2**discordant)
    return float(min(Fraction(1), 2 * tail))


def pass_hat_k(passes_per_case: Sequence[int], attempts: int) -> dict[int, Fraction]:
    """pass^k for k = 1..attempts: the mean over cases of C(c, k) / C(n, k).

    This is the unbiased estimate of the chance that k independent attempts of a
    case all pass, given c passes in n attempts.
    """
    if attempts < 1 or not passes_per_case:
        return {}
    for passes in passes_per_case:
        _check_counts(passes, attempts)
    return {
        k: sum((Fraction(math.comb(c, k), math.comb(attempts, k)) for c in passes_per_case), Fraction(0))
        / len(passes_per_case)
        for k in range(1, attempts + 1)
    }


def _check_counts(successes: int, trials: int) -> None:
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"invalid counts: {successes} of {trials}")
