"""The intervals printed beside a benchmark's headline figure: row-level and over its unit.

Row level: the Wilson score interval, labelled as assuming independent rows. Wilson rather than
Clopper-Pearson because it is closed form (no tail inversion over a thousand terms on every run)
and its coverage stays close to the nominal 95% on average where Clopper-Pearson is conservative
by design; where Wilson is weakest, a subset with no failures (or no successes), the exact
one-sided bound is given instead of a zero. Over the unit: the seeded cluster bootstrap
(finscore.stats.clusters), with the number of clusters, the design effect and the effective
sample size.
"""

# No `from __future__ import annotations`: HeadlineInterval is made at every run's start-up, and a
# NamedTuple's annotations given as text each cost a compile() when its class is made.

from typing import Any, NamedTuple, Sequence

from finscore.stats.binomial import CONFIDENCE, wilson_interval, zero_events_upper_bound
from finscore.stats.clusters import DEFAULT_RESAMPLES, DEFAULT_SEED, bootstrap_draws, design_effect, group, \
    percentile_interval


class HeadlineInterval(NamedTuple):
    """A rate over rows with its intervals. `wilson` is None for a rate that is not a count of
    passes (TAT-QA's F1); `failure_upper`/`success_upper` are the exact one-sided bounds of a
    subset with no failures / no successes (rows as independent, then clusters as the trials)."""

    figure: str
    passed: float
    rows: int
    unit: str
    clusters: int
    seed: int
    resamples: int
    confidence: float
    wilson: tuple[float, float] | None
    bootstrap: tuple[float, float] | None
    design_effect: float | None
    effective_rows: float | None
    failure_upper: tuple[float, float] | None
    success_upper: tuple[float, float] | None

    @property
    def estimate(self) -> float | None:
        return self.passed / self.rows if self.rows else None

    def to_json(self) -> dict[str, Any]:
        def bound(pair: tuple[float, float] | None) -> dict[str, float] | None:
            return None if pair is None else {"rows_independent": pair[0], "clusters_as_trials": pair[1]}

        return {
            "figure": self.figure,
            "estimate": self.estimate,
            "passed": self.passed,
            "rows": self.rows,
            "confidence": self.confidence,
            "row_level": None if self.wilson is None else {
                "method": "wilson", "assumes": "independent rows", "interval": list(self.wilson)},
            "cluster_bootstrap": {
                "unit": self.unit, "clusters": self.clusters, "method": "percentile",
                "seed": self.seed, "resamples": self.resamples,
                "rng": "random.Random(seed).random(), cluster int(u * G), clusters in key order",
                "interval": None if self.bootstrap is None else list(self.bootstrap),
                "design_effect": self.design_effect, "effective_sample_size": self.effective_rows},
            "failure_rate_upper_bound": bound(self.failure_upper),
            "success_rate_upper_bound": bound(self.success_upper),
        }

    def lines(self, indent: str = "  ") -> list[str]:
        """The text lines: the row-level interval, the bootstrap over the unit, the zero-event bounds."""
        level = f"{self.confidence:.0%}"
        lines = []
        if self.wilson is not None:
            lines.append(f"{indent}{level} interval, rows as independent (Wilson): "
                         f"{self.wilson[0]:.4f} to {self.wilson[1]:.4f}")
        if self.bootstrap is not None:
            lines.append(f"{indent}{level} interval, cluster bootstrap over {self.clusters} {self.unit} clusters "
                         f"(percentile, seed {self.seed}, {self.resamples} resamples): "
                         f"{self.bootstrap[0]:.4f} to {self.bootstrap[1]:.4f}")
        effect = "undefined (no variance)" if self.design_effect is None else f"{self.design_effect:.2f}"
        effective = "undefined" if self.effective_rows is None else f"{self.effective_rows:.1f}"
        lines.append(f"{indent}design effect {effect}, effective sample size {effective} of {self.rows} rows")
        for name, pair in (("failures", self.failure_upper), ("successes", self.success_upper)):
            if pair is not None:
                rate = "failure" if name == "failures" else "success"
                lines.append(f"{indent}0 {name} in {self.rows} rows: the {rate} rate is at most {pair[0]:.4f} "
                             f"(exact one-sided {level} bound, rows as independent), at most {pair[1]:.4f} "
                             f"counting each of the {self.clusters} clusters as one trial; not 0")
        return lines


def headline_interval(figure: str, values: Sequence[float], keys: Sequence[str], unit: str, *,
                      binary: bool = True, seed: int = DEFAULT_SEED, resamples: int = DEFAULT_RESAMPLES,
                      confidence: float = CONFIDENCE, draws: Sequence[float] | None = None) -> HeadlineInterval:
    """The intervals of the mean of `values` (1/0 per row when `binary`), rows grouped by `keys`;
    `draws`, when given, are this figure's bootstrap draws for `seed` and `resamples`, drawn already
    with other figures over the same rows (finscore.stats.clusters.bootstrap_draws_together)."""
    rows = len(values)
    clusters = group(values, keys)
    total = sum(values)
    wilson = wilson_interval(int(total), rows, confidence) if binary else None
    if rows and draws is None:
        draws = bootstrap_draws(clusters, seed, resamples)
    interval = percentile_interval(draws, confidence) if rows and draws is not None else None
    effect = design_effect(values, keys)
    g = len(clusters.keys)
    failure_upper = success_upper = None
    if binary and rows:
        if total == rows:
            failure_upper = (zero_events_upper_bound(rows, confidence), zero_events_upper_bound(g, confidence))
        if total == 0:
            success_upper = (zero_events_upper_bound(rows, confidence), zero_events_upper_bound(g, confidence))
    return HeadlineInterval(figure, total, rows, unit, g, seed, resamples, confidence, wilson, interval,
                            effect.design_effect, effect.effective_rows, failure_upper, success_upper)


def intervals_text(intervals: Sequence[HeadlineInterval], qualifier: str = "", indent: str = "  ") -> list[str]:
    """The intervals as a report's text lines: each figure's heading (`qualifier` after its name) at
    `indent`, its lines two spaces further in."""
    lines: list[str] = []
    for interval in intervals:
        lines.append(f"{indent}{interval.figure}{qualifier}, {interval.confidence:.0%} intervals:")
        lines += interval.lines(indent + "  ")
    return lines


def intervals_html(intervals: Sequence[HeadlineInterval]) -> str:
    """The intervals as an HTML section (escaped text lines), for a report page."""
    from html import escape

    items = "".join(f"<h2>{escape(interval.figure)}, {interval.confidence:.0%} intervals</h2><ul>"
                    + "".join(f"<li>{escape(line.strip())}</li>" for line in interval.lines()) + "</ul>"
                    for interval in intervals)
    return f'<section id="uncertainty">{items}</section>'
