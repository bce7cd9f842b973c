"""The headline intervals: what they are made of, and a subset with no failures never reads 0."""

from __future__ import annotations

import pytest

scipy_stats = pytest.importorskip("scipy.stats")

from finscore.stats import headline_interval  # noqa: E402


def test_a_headline_carries_wilson_the_cluster_bootstrap_and_the_design_effect() -> None:
    values = [1, 0, 1, 1, 0, 1, 1, 0, 0, 1]
    keys = ["a", "a", "b", "b", "c", "d", "d", "e", "e", "f"]
    interval = headline_interval("execution accuracy", values, keys, "filing", seed=3, resamples=500)
    expected = scipy_stats.binomtest(6, 10).proportion_ci(0.95, method="wilson")
    assert interval.wilson == pytest.approx((expected.low, expected.high), abs=1e-12)
    assert (interval.clusters, interval.rows, interval.estimate) == (6, 10, 0.6)
    assert interval.bootstrap is not None and interval.bootstrap[0] <= 0.6 <= interval.bootstrap[1]
    assert headline_interval("execution accuracy", values, keys, "filing", seed=3, resamples=500) == interval
    document = interval.to_json()
    assert document["cluster_bootstrap"]["seed"] == 3 and document["row_level"]["assumes"] == "independent rows"
    assert any("cluster bootstrap over 6 filing clusters" in line for line in interval.lines())


def test_no_failures_gives_the_exact_upper_bound_not_zero() -> None:
    interval = headline_interval("accuracy", [1] * 12, ["a", "a", "b", "c"] * 3, "table", resamples=100)
    rows_bound = scipy_stats.binomtest(0, 12).proportion_ci(0.90, method="exact").high
    clusters_bound = scipy_stats.binomtest(0, 3).proportion_ci(0.90, method="exact").high
    assert interval.failure_upper == pytest.approx((rows_bound, clusters_bound), rel=1e-12)
    assert interval.success_upper is None and interval.design_effect is None
    text = "\n".join(interval.lines())
    assert "0 failures in 12 rows" in text and "not 0" in text
