"""The cluster bootstrap against the exact bootstrap distribution (enumerated), scipy's bootstrap,
and the design effect against its formula written out by hand."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from finscore.stats import bootstrap_draws, design_effect, group, percentile_interval
from finscore.stats.clusters import bootstrap_draws_together

#: Three tiny clustered data sets: (values, unit keys).
TINY = [
    ([1, 1, 0, 1, 0, 0], ["a", "a", "b", "c", "c", "c"]),
    ([1, 0, 1, 1], ["x", "y", "y", "z"]),
    ([0, 1, 1, 0, 1], ["p", "q", "r", "s", "s"]),
]


def _exact_distribution(values: list[int], keys: list[str]) -> dict[Fraction, Fraction]:
    """Every ordered draw of G clusters out of G, each with probability 1/G^G: the exact bootstrap law."""
    names = sorted(set(keys))
    sums = {k: sum(v for v, key in zip(values, keys) if key == k) for k in names}
    sizes = Counter(keys)
    law: Counter[Fraction] = Counter()
    for draw in itertools.product(names, repeat=len(names)):
        law[Fraction(sum(sums[k] for k in draw), sum(sizes[k] for k in draw))] += 1
    total = len(names) ** len(names)
    return {value: Fraction(count, total) for value, count in law.items()}


@pytest.mark.parametrize(("values", "keys"), TINY)
def test_the_bootstrap_draws_follow_the_exact_bootstrap_distribution(values: list[int], keys: list[str]) -> None:
    law = _exact_distribution(values, keys)
    resamples = 40_000
    seen = Counter(Fraction(d).limit_denominator(1000) for d in bootstrap_draws(group(values, keys), 7, resamples))
    assert set(seen) <= set(law)
    for value, probability in law.items():
        p = float(probability)
        sigma = math.sqrt(p * (1 - p) / resamples)
        assert abs(seen[value] / resamples - p) <= 5 * sigma + 1e-9, value


def test_the_percentile_interval_matches_the_exact_quantiles() -> None:
    values, keys = TINY[0]
    law = sorted(_exact_distribution(values, keys).items())
    cumulative, quantiles = Fraction(0), {}
    for value, probability in law:
        cumulative += probability
        for q in (Fraction(1, 40), Fraction(39, 40)):
            if q not in quantiles and cumulative >= q:
                quantiles[q] = value
    low, high = percentile_interval(bootstrap_draws(group(values, keys), 11, 40_000))
    # the exact 2.5% and 97.5% quantiles, unless a cumulative probability lies right at the cut
    assert (Fraction(low).limit_denominator(1000), Fraction(high).limit_denominator(1000)) == \
        (quantiles[Fraction(1, 40)], quantiles[Fraction(39, 40)])


def test_paired_draws_resample_both_systems_together() -> None:
    a, b, keys = [1, 0, 0, 1], [1, 1, 0, 0], ["u", "u", "v", "w"]
    clusters = group(a, keys, b)
    names = sorted(set(keys))
    diffs = {k: sum(y - x for x, y, key in zip(a, b, keys) if key == k) for k in names}
    sizes = Counter(keys)
    possible = {Fraction(sum(diffs[k] for k in d), sum(sizes[k] for k in d))
                for d in itertools.product(names, repeat=len(names))}
    draws = bootstrap_draws(clusters, 3, 5000)
    assert {Fraction(d).limit_denominator(1000) for d in draws} <= possible


def test_same_seed_same_draws_other_seed_other_draws() -> None:
    clusters = group(*TINY[2])
    assert bootstrap_draws(clusters, 5, 300) == bootstrap_draws(clusters, 5, 300)
    assert bootstrap_draws(clusters, 5, 300) != bootstrap_draws(clusters, 6, 300)


@pytest.mark.parametrize("seed", [0, 99, 20260901, -7, 2**64 + 3])
@pytest.mark.parametrize("values", [[1, 0, 1, 1, 0], [0.5, 0.25, 1.0, 0.75, 0.0]])
def test_the_documented_generator_is_the_one_used(seed: int, values: list[float]) -> None:
    """Module docstring: clusters in key order, cluster int(u * G) for u from random.Random(seed).random()
    (the stdlib's class itself here; the module draws from its C base without importing `random`)."""
    keys = ["k2", "k1", "k1", "k3", "k3"]
    order = sorted(set(keys))
    u = random.Random(seed).random
    expected = []
    for _ in range(50):
        picked = [order[int(u() * len(order))] for _ in order]
        passed = math.fsum(v for k in picked for v, key in zip(values, keys) if key == k)
        expected.append(passed / sum(keys.count(k) for k in picked))
    assert bootstrap_draws(group(values, keys), seed, 50) == expected


def test_singleton_clusters_agree_with_scipys_percentile_bootstrap() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    numpy = pytest.importorskip("numpy")
    rng = random.Random(4)
    values = [1 if rng.random() < 0.64 else 0 for _ in range(300)]
    keys = [f"row{i:03d}" for i in range(300)]
    ours = percentile_interval(bootstrap_draws(group(values, keys), 1, 20_000))
    theirs = scipy_stats.bootstrap((numpy.array(values),), numpy.mean, n_resamples=20_000, method="percentile",
                                   random_state=numpy.random.default_rng(1)).confidence_interval
    # two Monte Carlo estimates of the same quantiles: equal within the bootstrap's own noise
    assert ours == pytest.approx((theirs.low, theirs.high), abs=0.012)


def test_design_effect_is_the_cluster_variance_over_the_independent_one() -> None:
    values, keys = [1, 1, 0, 1, 0, 0, 1, 1], ["a", "a", "b", "b", "c", "c", "d", "d"]
    n, g = 8, 4
    p = Fraction(5, 8)
    # cluster sums 2, 1, 0, 2 over sizes 2: CR1 variance and the independent-rows variance
    clustered = Fraction(g, g - 1) * sum((s - p * 2) ** 2 for s in (2, 1, 0, 2)) / (n * n)
    independent = sum((y - p) ** 2 for y in values) / (n * (n - 1))
    effect = design_effect(values, keys)
    assert (effect.clusters, effect.rows) == (4, 8)
    assert effect.design_effect == pytest.approx(float(clustered / independent), rel=1e-12)
    assert effect.effective_rows == pytest.approx(float(n / (clustered / independent)), rel=1e-12)


def test_design_effect_is_one_for_singleton_clusters_and_undefined_without_variance() -> None:
    values = [1, 0, 1, 1, 0]
    assert design_effect(values, list("abcde")).design_effect == pytest.approx(1.0, rel=1e-12)
    assert design_effect([1, 1, 1], list("abc")).design_effect is None


def test_bad_resamples_are_refused() -> None:
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_draws(group([1], ["a"]), 1, 0)


def _documented_draws(clusters_values: list[float], keys: list[str], seed: int, resamples: int,
                      second: list[float] | None = None) -> list[float]:
    """The module docstring's resampling written out with random.Random: each cluster's sum added row
    by row (as floats), the picked clusters' sums totalled exactly (one rounding: exact integers for
    integral values, math.fsum otherwise)."""
    order = sorted(set(keys))
    u = random.Random(seed).random
    integral = all(float(v).is_integer() for v in clusters_values + (second or []))
    first_sums = {k: sum(v for v, key in zip(clusters_values, keys) if key == k) for k in order}
    second_sums = {k: sum(v for v, key in zip(second or [], keys) if key == k) for k in order}
    expected = []
    for _ in range(resamples):
        picked = [order[int(u() * len(order))] for _ in order]
        rows = sum(keys.count(k) for k in picked)
        firsts = [first_sums[k] for k in picked]
        seconds = [second_sums[k] for k in picked]
        if integral:
            a, b = sum(int(v) for v in firsts), sum(int(v) for v in seconds)
            expected.append((b - a if second is not None else a) / rows)
        else:
            a_sum = math.fsum(firsts)
            expected.append(a_sum / rows if second is None else (math.fsum(seconds) - a_sum) / rows)
    return expected


#: Values whose cluster sums exercise the exact packing: counts above 1 a row, floats with far apart
#: exponents (a subnormal beside 1e200), values with no short binary form, negative ones (not packed).
AWKWARD = [
    [3, 0, 4, 1, 2, 7, 0, 5],
    [0.1, 0.2, 0.3, 1 / 3, 0.7, 2 / 3, 0.0, 1.0],
    [5e-324, 1e200, 1.0, 1e-300, 0.5, 3.0, 2.0**-1074 * 3, 1e-10],
    [-0.25, 0.5, -1.0, 0.125, 0.0, 0.75, -0.5, 1.0],
    [-1, 2, 0, -3, 1, 1, 0, 2],
]


@pytest.mark.parametrize("values", AWKWARD)
@pytest.mark.parametrize("second_index", [None, 0, 1, 2])
def test_awkward_values_draw_as_documented(values: list[float], second_index: int | None) -> None:
    keys = ["c", "a", "a", "b", "d", "d", "d", "b"]
    second = None if second_index is None else AWKWARD[second_index]
    for seed in (1, 20260901):
        expected = _documented_draws(values, keys, seed, 60, second)
        drawn = bootstrap_draws(group(values, keys, second), seed, 60)
        assert [repr(d) for d in drawn] == [repr(d) for d in expected]  # bit for bit, the sign of zero too


def test_figures_drawn_together_are_each_figures_documented_draws() -> None:
    """TAT-QA's exact match and F1 are drawn together (one set of picks): each list is still the
    figure's own documented draws."""
    keys = ["t2", "t1", "t1", "t3", "t3", "t3", "t2", "t4"]
    em = [1, 0, 1, 1, 0, 1, 0, 1]
    f1 = [1.0, 0.4, 1.0, 1.0, 0.0, 1.0, 2 / 3, 1.0]
    figures = [group(em, keys), group(f1, keys), group(AWKWARD[3], keys), group(em, keys, f1)]
    together = bootstrap_draws_together(figures, 20260901, 80)
    assert together[0] == _documented_draws(em, keys, 20260901, 80)
    assert together[1] == _documented_draws(f1, keys, 20260901, 80)
    assert together[2] == _documented_draws(AWKWARD[3], keys, 20260901, 80)
    assert together[3] == _documented_draws(em, keys, 20260901, 80, f1)


def test_figures_over_other_clusters_are_not_drawn_together() -> None:
    with pytest.raises(ValueError, match="same clusters"):
        bootstrap_draws_together([group([1, 0], ["a", "b"]), group([1, 0], ["a", "c"])], 1, 10)


def test_draws_past_one_chunk_of_picks_continue_the_sequence() -> None:
    """More picks than one chunk lists at once (the memory bound): the draws go on as documented."""
    from finscore.stats import clusters as module

    values, keys = [1, 0, 1, 1, 0.5, 0], ["a", "b", "b", "c", "a", "c"]
    resamples = module._CHUNK_PICKS // 3 * 2 + 7  # three clusters: two whole chunks and part of a third
    assert bootstrap_draws(group(values, keys), 20260901, resamples) == \
        _documented_draws(values, keys, 20260901, resamples)
