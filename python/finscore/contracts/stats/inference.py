"""Honest uncertainty for small evaluation sets.

Pass rates on a few dozen cases need intervals that hold at that size: Wilson
and the exact Clopper-Pearson interval (finscore.stats.binomial: by inverting the binomial
tail with high-precision decimals, so no statistics library is needed at run
time), the upper bound of the failure rate when no failure was seen, a seeded
cluster bootstrap over families and cluster-robust standard errors (both only
diagnostics when families are few), an exact paired test and pass^k.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence, TypeVar

# One owner per function: the intervals and the exact test live in finscore.stats (the benchmark
# commands use them too) and are re-exported here under their names.
from finscore.stats.binomial import CONFIDENCE as CONFIDENCE
from finscore.stats.binomial import MAX_EXACT_TRIALS as MAX_EXACT_TRIALS
from finscore.stats.binomial import binomial_cdf as binomial_cdf
from finscore.stats.binomial import check_counts as _check_counts
from finscore.stats.binomial import clopper_pearson_interval as clopper_pearson_interval
from finscore.stats.binomial import mcnemar_exact as mcnemar_exact
from finscore.stats.binomial import wilson_interval as wilson_interval
from finscore.stats.clusters import percentile_interval as _percentile_interval

#: The seeded family bootstrap: the same seed gives the same intervals on every machine.
from finscore.stats.defaults import DEFAULT_SEED as DEFAULT_SEED  # noqa: E402

DEFAULT_REPLICATES = 2000
MAX_REPLICATES = 100_000
T = TypeVar("T")
#: Below this many families a cluster bootstrap or cluster-robust SE is a diagnostic only.
FEW_FAMILIES = 30
#: Fewer families than this and no cluster-robust SE is reported at all.
MIN_FAMILIES_FOR_SE = 5


@dataclass(frozen=True)
class RateSummary:
    """A pass rate with its intervals; with no failures, the failure rate's upper bound.

    `unit` names what was counted (family, row, trial); `independent_units` is
    how many independent units the interval rests on. When it is smaller than
    `trials`, the counted units are not independent and the interval, computed
    as if they were, is too narrow: the statement says so.
    """

    passed: int
    trials: int
    estimate: float | None
    wilson: tuple[float, float]
    clopper_pearson: tuple[float, float] | None
    failure_rate_upper: float | None
    statement: str
    unit: str = "trial"
    independent_units: int = 0


def summarize_rate(
    passed: int,
    trials: int,
    confidence: float = CONFIDENCE,
    *,
    unit: str = "trial",
    independent_units: int | None = None,
) -> RateSummary:
    """Intervals of `passed` of `trials` units; `independent_units` defaults to `trials`."""
    wilson = wilson_interval(passed, trials, confidence)
    exact = clopper_pearson_interval(passed, trials, confidence)
    level = f"{confidence:.0%}"
    independent = trials if independent_units is None else independent_units
    if trials == 0:
        return RateSummary(0, 0, None, wilson, exact, None, "no trials", unit, independent)
    estimate = passed / trials
    interval = exact or wilson
    method = "Clopper-Pearson" if exact else "Wilson"
    failure_upper = 1 - interval[0]
    units = "families" if unit == "family" else f"{unit}s"
    if independent == trials:
        counted = f"{trials} independent {units}"
        prefix = ""
        basis = f"over {counted}"
    else:
        counted = f"{trials} {units}"
        prefix = f"{unit}-level, not independent ({trials} {units} from {independent} independent families): "
        basis = f"computed as if the {trials} {units} were independent, so too narrow"
    if passed == trials:
        statement = (
            f"{prefix}0 failures in {counted}: the failure rate is at most {failure_upper:.1%} "
            f"({level} {method} upper bound {basis}), not 0%"
        )
    else:
        statement = (
            f"{prefix}{passed} of {counted} passed ({estimate:.1%}); {level} {method} interval "
            f"{interval[0]:.1%} to {interval[1]:.1%} ({basis})"
        )
    return RateSummary(passed, trials, estimate, wilson, exact, failure_upper, statement, unit, independent)


@dataclass(frozen=True)
class ClusterCounts:
    passed: int
    trials: int


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
