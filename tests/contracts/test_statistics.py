"""Statistics against SciPy (the reference library, tests only) and hand-computable cases."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from scipy.stats import binomtest

from finscore.contracts.stats.inference import (
    ClusterCounts,
    PairedCounts,
    binomial_cdf,
    clopper_pearson_interval,
    cluster_bootstrap,
    clustered_standard_error,
    mcnemar_exact,
    paired_cluster_bootstrap,
    pass_hat_k,
    summarize_rate,
    wilson_interval,
)

GRID = [(x, n) for n in (1, 2, 3, 5, 8, 13, 24, 50) for x in range(n + 1)] + [(17, 200), (0, 1000), (999, 1000)]


@pytest.mark.parametrize("successes, trials", GRID)
def test_clopper_pearson_matches_scipy(successes, trials):
    ours = clopper_pearson_interval(successes, trials)
    reference = binomtest(successes, trials).proportion_ci(confidence_level=0.95, method="exact")
    assert ours == pytest.approx((reference.low, reference.high), abs=1e-9)


@pytest.mark.parametrize("successes, trials", GRID)
def test_wilson_matches_scipy(successes, trials):
    reference = binomtest(successes, trials).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson_interval(successes, trials) == pytest.approx((reference.low, reference.high), abs=1e-12)


@pytest.mark.parametrize("trials", [1, 8, 24, 100])
def test_clopper_pearson_closed_forms_at_the_edges(trials):
    # x = n: lower = (alpha/2)^(1/n); x = 0: upper = 1 - (alpha/2)^(1/n).
    edge = 0.025 ** (1 / trials)
    assert clopper_pearson_interval(trials, trials) == pytest.approx((edge, 1.0), abs=1e-14)
    assert clopper_pearson_interval(0, trials) == pytest.approx((0.0, 1 - edge), abs=1e-14)


def test_binomial_cdf_by_hand():
    from decimal import Decimal

    # n = 3, p = 1/2: P(X <= 1) = (1 + 3) / 8
    assert binomial_cdf(1, 3, Decimal("0.5")) == Decimal("0.5")
    assert binomial_cdf(0, 2, Decimal("0.1")) == Decimal("0.81")
    assert binomial_cdf(-1, 5, Decimal("0.3")) == 0 and binomial_cdf(5, 5, Decimal("0.3")) == 1


def test_zero_failures_reports_the_upper_bound_of_the_failure_rate_not_zero():
    summary = summarize_rate(24, 24)
    assert summary.failure_rate_upper == pytest.approx(1 - 0.025 ** (1 / 24), abs=1e-14)
    assert "at most 14.2%" in summary.statement and "not 0%" in summary.statement
    assert summary.estimate == 1.0


def test_no_trials():
    summary = summarize_rate(0, 0)
    assert summary.estimate is None and summary.statement == "no trials"
    with pytest.raises(ValueError):
        summarize_rate(3, 2)


@pytest.mark.parametrize("only_a, only_b", [(0, 0), (3, 10), (10, 3), (0, 5), (7, 7), (1, 20), (40, 55)])
def test_exact_mcnemar_matches_scipy_sign_test(only_a, only_b):
    expected = 1.0 if only_a + only_b == 0 else binomtest(only_a, only_a + only_b, 0.5).pvalue
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-12)


def test_mcnemar_by_hand():
    # 0 vs 5 discordant: 2 * (1/2)^5 = 1/16
    assert mcnemar_exact(0, 5) == 1 / 16
    assert mcnemar_exact(2, 2) == 1.0


def test_pass_hat_k_by_hand():
    # case 1: 3 of 3 pass; case 2: 2 of 3; case 3: 0 of 3.
    estimates = pass_hat_k([3, 2, 0], 3)
    assert estimates[1] == Fraction(5, 9)  # (1 + 2/3 + 0) / 3
    assert estimates[2] == Fraction(4, 9)  # (1 + 1/3 + 0) / 3
    assert estimates[3] == Fraction(1, 3)  # (1 + 0 + 0) / 3
    assert pass_hat_k([], 3) == {}


def test_clustered_standard_error_by_hand():
    clusters = {name: ClusterCounts(p, 3) for name, p in zip("abcde", (3, 3, 0, 3, 0))}
    # p = 9/15 = 0.6; residuals 3 - 1.8 = 1.2 (x3) and -1.8 (x2): squares 3*1.44 + 2*3.24 = 10.8
    # variance = 5/4 * 10.8 / 225 = 0.06
    result = clustered_standard_error(clusters)
    assert result["computed"] and result["estimate"] == pytest.approx(0.6)
    assert result["standard_error"] == pytest.approx(math.sqrt(0.06), rel=1e-12)
    assert result["diagnostic"]
    few = clustered_standard_error({name: ClusterCounts(1, 2) for name in "abc"})
    assert not few["computed"]


def test_cluster_bootstrap_is_seeded_and_bounded_by_family_rates():
    clusters = {f"f{i}": ClusterCounts(i % 4, 3) for i in range(8)}
    first = cluster_bootstrap(clusters, seed=7, replicates=500)
    assert first == cluster_bootstrap(clusters, seed=7, replicates=500)
    low, high = first["interval"]
    assert 0 <= low <= 12 / 24 <= high <= 1
    assert first["diagnostic"] and "8 families" in first["note"]
    same = cluster_bootstrap({f"f{i}": ClusterCounts(3, 3) for i in range(8)}, seed=1, replicates=100)
    assert same["interval"] == [1.0, 1.0] and "no spread" in same["note"]


def test_paired_bootstrap_keeps_families_paired():
    # B is better by exactly one pass in every family of three trials: every resample gives +1/3.
    clusters = {f"f{i}": PairedCounts(i % 3, i % 3 + 1, 3) for i in range(6)}
    result = paired_cluster_bootstrap(clusters, seed=3, replicates=200)
    assert result["interval"] == pytest.approx([1 / 3, 1 / 3])
