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
