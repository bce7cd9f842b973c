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

# No `from __future__ import annotations`: Clusters and DesignEffect are made at every run's
# start-up, and a NamedTuple's annotations given as text each cost a compile() when its class is made.

import math
from _random import Random as MersenneTwister  # random.Random's own C base (see bootstrap_draws)
from itertools import repeat
from typing import Callable, Mapping, NamedTuple, Sequence

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


def _column(sums: Sequence[float], integral: bool) -> tuple[list[int], int] | None:
    """A column of cluster sums as exact non-negative integers and the power of two that divides them
    back (1 for an integral figure's sums, taken as int), or None when some sum is negative (-0.0 too,
    unless integral) or not finite."""
    if integral:
        numbers = [int(s) for s in sums]
        return (numbers, 1) if all(n >= 0 for n in numbers) else None
    ratios = []
    for value in sums:
        number = float(value)
        if not (math.isfinite(number) and number >= 0) or math.copysign(1.0, number) < 0:
            return None  # math.fsum keeps a sum of -0.0 negative; the packed sum would not
        ratios.append(number.as_integer_ratio())  # a float's denominator is a power of two
    denominator = max(d for _, d in ratios)
    return [n * (denominator // d) for n, d in ratios], denominator


#: The most picks `bootstrap_draws_together` lists at once (its memory bound: a chunk of resamples).
_CHUNK_PICKS = 1 << 16

#: Where one column of a packed figure sits in a code, and how it is read back: (shift, mask, divisor);
#: mask 0 for the second column of an unpaired figure.
_Field = tuple[int, int, int]


def _packed(figures: Sequence[Clusters]) -> tuple[list[int], int, list[tuple[bool, _Field, _Field]]] | None:
    """Every figure's cluster sums (and the rows, once) packed in one int per cluster, so that one sum()
    of a resample's picked codes gives all its totals exactly: (codes, the rows' shift, per figure
    (integral, first's field, second's field)), or None when some sum cannot be packed."""
    g = len(figures[0].keys)
    layout: list[tuple[bool, _Field, _Field]] = []
    shift = 0
    codes = [0] * g
    for figure in figures:
        integral = all(float(s).is_integer() for s in figure.sums) and (
            figure.second is None or all(float(s).is_integer() for s in figure.second))
        fields: list[_Field] = []
        for sums in (figure.sums, figure.second):
            if sums is None:
                fields.append((0, 0, 1))
                continue
            column = _column(sums, integral)
            if column is None:
                return None
            numbers, divisor = column
            width = (max(1, max(numbers, default=0)) * max(1, g)).bit_length() + 1  # a resample's total fits
            for i in range(g):
                codes[i] += numbers[i] << shift
            fields.append((shift, (1 << width) - 1, divisor))
            shift += width
        layout.append((integral, fields[0], fields[1]))
    for i, rows in enumerate(figures[0].rows):
        codes[i] += rows << shift
    return codes, shift, layout


def bootstrap_draws(clusters: Clusters, seed: int, resamples: int) -> list[float]:
    """The statistic of each of `resamples` cluster resamples (the order above): the rate, or for
    paired clusters the difference second - first."""
    return bootstrap_draws_together([clusters], seed, resamples)[0]


def bootstrap_draws_together(figures: Sequence[Clusters], seed: int, resamples: int) -> list[list[float]]:
    """`bootstrap_draws` of each of several figures over the same clusters (TAT-QA's exact match and
    F1 over its tables): one seed draws the same clusters for each, so they are drawn once per resample
    and every figure's statistic is taken from them; each list equals that figure's draws alone."""
    check_resamples(resamples)
    if not figures:
        return []
    keys, rows = figures[0].keys, figures[0].rows
    if any(figure.keys != keys or figure.rows != rows for figure in figures):
        raise ValueError("figures drawn together must have the same clusters (the same unit keys and rows)")
    g = len(keys)
    if g == 0:
        raise ValueError("no clusters to resample")
    # random.Random(seed) seeds its C base class with the int as it is and inherits random() from it,
    # so the C class gives the same sequence, without importing `random` (a few ms of every run's
    # start-up; tests/stats/test_clusters.py checks the two sequences agree)
    uniform = MersenneTwister(seed).random
    floor, size = math.floor, float(g)  # floor(u * G) is int(u * G) for u >= 0, spelled the faster way
    draws: list[list[float]] = [[] for _ in figures]
    packed = _packed(figures)
    if packed is None:
        _draws_summed(figures, uniform, resamples, draws)
        return draws
    # Exact: an integral figure's totals are ints, divided as ints (one rounding); another's are its
    # float sums times a power of two, and total / divisor (int true division, correctly rounded) is
    # the correctly rounded sum of the picked floats, which is what math.fsum returns.
    codes, rows_shift, layout = packed
    # A chunk of resamples at a time (at most _CHUNK_PICKS picks listed at once): one comprehension
    # draws every pick of the chunk, one adds each resample's codes, one per figure reads them back.
    per_chunk = max(1, _CHUNK_PICKS // g)
    for start in range(0, resamples, per_chunk):
        picks = min(per_chunk, resamples - start) * g
        picked = [codes[floor(uniform() * size)] for _ in repeat(None, picks)]
        totals = [sum(picked[i:i + g]) for i in range(0, picks, g)]
        for (integral, (shift_a, mask_a, divisor_a), (shift_b, mask_b, divisor_b)), out in zip(layout, draws):
            if integral and mask_b:
                out.extend([(((t >> shift_b) & mask_b) - ((t >> shift_a) & mask_a)) / (t >> rows_shift)
                            for t in totals])
            elif integral:
                out.extend([((t >> shift_a) & mask_a) / (t >> rows_shift) for t in totals])
            elif mask_b:
                out.extend([(((t >> shift_b) & mask_b) / divisor_b - ((t >> shift_a) & mask_a) / divisor_a)
                             / (t >> rows_shift) for t in totals])
            else:
                out.extend([((t >> shift_a) & mask_a) / divisor_a / (t >> rows_shift) for t in totals])
    return draws


def _draws_summed(figures: Sequence[Clusters], uniform: Callable[[], float], resamples: int,
                  draws: list[list[float]]) -> None:
    """The draws of figures whose sums cannot be packed (a negative or non-finite sum): each resample's
    picks listed, every figure's sums added by math.fsum."""
    g = len(figures[0].keys)
    floor, size, rows = math.floor, float(g), figures[0].rows
    for _ in range(resamples):
        picked = [floor(uniform() * size) for _ in repeat(None, g)]
        drawn_rows = sum([rows[i] for i in picked])
        for figure, out in zip(figures, draws):
            a_sum = math.fsum([figure.sums[i] for i in picked])
            second = figure.second
            out.append(a_sum / drawn_rows if second is None else
                       (math.fsum([second[i] for i in picked]) - a_sum) / drawn_rows)


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
