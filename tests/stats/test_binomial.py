"""finscore.stats.binomial against scipy.stats: Wilson, Clopper-Pearson, the one-sided bound, McNemar."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

scipy_stats = pytest.importorskip("scipy.stats")

from finscore.stats import clopper_pearson_interval, mcnemar_exact, wilson_interval, zero_events_upper_bound  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
COUNTS = [(0, 1), (1, 1), (0, 10), (10, 10), (3, 10), (35, 50), (735, 1147), (1, 1147), (1146, 1147)]


@pytest.mark.parametrize(("successes", "trials"), COUNTS)
def test_wilson_is_scipys_wilson(successes: int, trials: int) -> None:
    expected = scipy_stats.binomtest(successes, trials).proportion_ci(0.95, method="wilson")
    assert wilson_interval(successes, trials) == pytest.approx((expected.low, expected.high), abs=1e-12)


@pytest.mark.parametrize(("successes", "trials"), COUNTS)
def test_clopper_pearson_is_scipys_exact(successes: int, trials: int) -> None:
    expected = scipy_stats.binomtest(successes, trials).proportion_ci(0.95, method="exact")
    assert clopper_pearson_interval(successes, trials) == pytest.approx((expected.low, expected.high), abs=1e-12)


@pytest.mark.parametrize("trials", [1, 7, 60, 1147])
def test_zero_failures_bound_is_the_exact_one_sided_bound(trials: int) -> None:
    # the two-sided 90% exact interval of 0 events has a 5% upper tail: the one-sided 95% bound
    expected = scipy_stats.binomtest(0, trials).proportion_ci(0.90, method="exact").high
    assert zero_events_upper_bound(trials) == pytest.approx(expected, rel=1e-12)
    assert zero_events_upper_bound(trials) > 0


@pytest.mark.parametrize(("only_a", "only_b"), [(0, 0), (0, 1), (3, 9), (12, 12), (40, 17), (0, 25)])
def test_mcnemar_exact_is_the_binomial_test_on_discordant_pairs(only_a: int, only_b: int) -> None:
    # the exact McNemar is the sign test on the discordant pairs, which scipy computes
    expected = 1.0 if only_a + only_b == 0 else scipy_stats.binomtest(only_a, only_a + only_b, 0.5).pvalue
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("both_right", "only_a", "only_b", "both_wrong"),
                         [(5, 0, 1, 2), (700, 3, 9, 400), (10, 12, 12, 10), (600, 40, 17, 490), (1, 0, 25, 0)])
def test_mcnemar_exact_agrees_with_statsmodels(both_right: int, only_a: int, only_b: int, both_wrong: int) -> None:
    """statsmodels' own exact McNemar on the paired 2x2 table (rows: A right / wrong; columns: B)."""
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")
    table = [[both_right, only_a], [only_b, both_wrong]]
    expected = contingency.mcnemar(table, exact=True).pvalue
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-12)


def test_on_the_shipped_finqa_example_counts() -> None:
    """The real example's honest counts (read from its files: 60 gold examples, 50 predicted)."""
    gold = json.loads((ROOT / "examples/finqa/gold.json").read_text())
    predictions = json.loads((ROOT / "examples/finqa/predictions.json").read_text())
    assert (len(gold), len(predictions)) == (60, 50)
    for successes in range(0, 61, 7):
        expected = scipy_stats.binomtest(successes, 60).proportion_ci(0.95, method="wilson")
        assert wilson_interval(successes, 60) == pytest.approx((expected.low, expected.high), abs=1e-12)


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="invalid counts"):
        wilson_interval(3, 2)
    with pytest.raises(ValueError, match="invalid counts"):
        mcnemar_exact(-1, 2)


def test_the_written_95_percent_quantile_is_the_normal_quantile() -> None:
    from statistics import NormalDist

    from finscore.stats.binomial import normal_quantile

    assert normal_quantile(0.95) == NormalDist().inv_cdf(1 - (1 - 0.95) / 2)
    assert normal_quantile(0.90) == NormalDist().inv_cdf(1 - (1 - 0.90) / 2)
