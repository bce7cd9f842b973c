"""The seeded cluster bootstrap over a benchmark's independence unit, and the design effect.

Rows that share a unit (a FinQA filing, a ConvFinQA page's conversations, a TAT-QA table) are
not independent, so the rows are grouped into clusters and whole clusters are resampled.

The resampling is fixed and documented so that any process gives the same interval for the
same seed: the clusters are ordered by their key (Python string order); the generator is
`random.Random(seed).random()` (Python's Mersenne Twister, whose sequence for an int seed Python
keeps across versions; Pyodide is CPython, so the playground draws the same); each resample
draws G clusters, the i-th being cluster `int(u * G)` for the next draw u; its statistic is
sum(values) / sum(rows) over the drawn clusters (the paired one resamples each cluster with
both systems' values, and its statistic is the difference B - A). The percentile interval is
the draws at ranks floor(a/2 * B) and ceil((1 - a/2) * B) - 1 of the B sorted draws.

The design effect is the ratio of the cluster-robust variance of the rate (CR1:
G/(G-1) * sum_g (s_g - p n_g)^2 / N^2) to the variance computed as if rows were independent
(sum_i (y_i - p)^2 / (N (N - 1))); it is 1 when every cluster holds one row. The effective
sample size is N / design effect.
"""

from __future__ import annotations

import math
from _random import Random as MersenneTwister  # random.Random's own C base (see bootstrap_draws)
from itertools import repeat
from typing import Mapping, NamedTuple, Sequence

from finscore.stats.binomial import CONFIDENCE
from finscore.stats.defaults import DEFAULT_RESAMPLES as DEFAULT_RESAMPLES
from finscore.stats.defaults import DEFAULT_SEED as DEFAULT_SEED
from finscore.stats.defaults import MAX_RESAMPLES as MAX_RESAMPLES



class Clusters(NamedTuple):
    """Rows grouped by unit, in key order: each cluster's key, row count and sum of values
    (`second` the other system's sums, for paired data)."""

    keys: tuple[str, ...]
    rows: tuple[int, ...]
    sums: tuple[float, ...]
    second: tuple[float, ...] | None = None

    @property
    def total_rows(self) -> int:
        return sum(self.rows)


def group(values: Sequence[float], keys: Sequence[str], second: Sequence[float] | None = None) -> Clusters:
    """Group row values (and a second system's, paired) by their unit keys, clusters in key order."""
    if len(values) != len(keys) or (second is not None and len(second) != len(keys)):
        raise ValueError(f"{len(values)} values for {len(keys)} unit keys")
    rows: dict[str, int] = {}
    sums: dict[str, float] = {}
    others: dict[str, float] = {}
    for index, key in enumerate(keys):
        rows[key] = rows.get(key, 0) + 1
        sums[key] = sums.get(key, 0) + values[index]
        if second is not None:
            others[key] = others.get(key, 0) + second[index]
    ordered = tuple(sorted(rows))
    return Clusters(ordered, tuple(rows[k] for k in ordered), tuple(sums[k] for k in ordered),
                    None if second is None else tuple(others[k] for k in ordered))


def check_resamples(resamples: int) -> None:
    """ValueError unless 1 <= resamples <= MAX_RESAMPLES."""
    if not 1 <= resamples <= MAX_RESAMPLES:
        raise ValueError(f"the number of resamples must be 1..{MAX_RESAMPLES}, not {resamples}")


def percentile_interval(draws: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The values at ranks floor(a/2 * B) and ceil((1 - a/2) * B) - 1 of the B sorted draws."""
    ordered = sorted(draws)
    tail = (1 - confidence) / 2
    low = ordered[min(len(ordered) - 1, math.floor(tail * len(ordered)))]
    high = ordered[max(0, math.ceil((1 - tail) * len(ordered)) - 1)]
    return low, high


def bootstrap_draws(clusters: Clusters, seed: int, resamples: int) -> list[float]:
    """The statistic of each of `resamples` cluster resamples (the order above): the rate, or for
    paired clusters the difference second - first."""
    check_resamples(resamples)
    g = len(clusters.keys)
    if g == 0:
        raise ValueError("no clusters to resample")
    # random.Random(seed) seeds its C base class with the int as it is and inherits random() from it,
    # so the C class gives the same sequence, without importing `random` (a few ms of every run's
    # start-up; tests/stats/test_clusters.py checks the two sequences agree)
    uniform = MersenneTwister(seed).random
    floor, size = math.floor, float(g)  # floor(u * G) is int(u * G) for u >= 0, spelled the faster way
    rows, sums, second = clusters.rows, clusters.sums, clusters.second
    integral = all(float(s).is_integer() for s in sums) and (second is None or all(float(s).is_integer() for s in second))
    draws: list[float] = []
    if integral:
        # exact integer sums packed in one int per cluster: one sum() per resample gives them all
        shift = max(1, sum(rows)).bit_length() + max(1, g).bit_length() + 1
        first = [int(s) for s in sums]
        other = [0] * g if second is None else [int(s) for s in second]
        codes = [first[i] + (other[i] << shift) + (rows[i] << (2 * shift)) for i in range(g)]
        mask = (1 << shift) - 1
        for _ in range(resamples):
            total = sum([codes[floor(uniform() * size)] for _ in repeat(None, g)])
            drawn_rows = total >> (2 * shift)
            a, b = total & mask, (total >> shift) & mask
            draws.append((b - a) / drawn_rows if second is not None else a / drawn_rows)
        return draws
    for _ in range(resamples):
        picked = [floor(uniform() * size) for _ in repeat(None, g)]
        drawn_rows = sum([rows[i] for i in picked])
        a_sum = math.fsum([sums[i] for i in picked])
        if second is None:
            draws.append(a_sum / drawn_rows)
        else:
            draws.append((math.fsum([second[i] for i in picked]) - a_sum) / drawn_rows)
    return draws


class DesignEffect(NamedTuple):
    """The design effect of a rate over clusters and the effective sample size (None when the rows
    show no variance at all: every value equal, or a single row or cluster)."""

    clusters: int
    rows: int
    design_effect: float | None
    effective_rows: float | None


def design_effect(values: Sequence[float], keys: Sequence[str]) -> DesignEffect:
    """CR1 cluster variance over the independent-rows variance (module docstring)."""
    clusters = group(values, keys)
    g, n = len(clusters.keys), len(values)
    if g < 2 or n < 2:
        return DesignEffect(g, n, None, None)
    p = math.fsum(values) / n
    independent = math.fsum((y - p) ** 2 for y in values) / (n * (n - 1))
    if independent == 0:
        return DesignEffect(g, n, None, None)
    clustered = g / (g - 1) * math.fsum((s - p * m) ** 2 for s, m in zip(clusters.sums, clusters.rows)) / (n * n)
    effect = clustered / independent
    return DesignEffect(g, n, effect, n / effect if effect > 0 else None)
