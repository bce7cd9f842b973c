"""Honest uncertainty on benchmark figures: row-level intervals, the seeded cluster bootstrap over a
benchmark's independence unit, the design effect, and paired comparisons of systems."""

from finscore.stats.binomial import (
    CONFIDENCE,
    clopper_pearson_interval,
    mcnemar_exact,
    wilson_interval,
    zero_events_upper_bound,
)
from finscore.stats.clusters import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MAX_RESAMPLES,
    Clusters,
    DesignEffect,
    bootstrap_draws,
    design_effect,
    group,
    percentile_interval,
)
from finscore.stats.headline import HeadlineInterval, headline_interval

__all__ = [
    "CONFIDENCE",
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "MAX_RESAMPLES",
    "Clusters",
    "DesignEffect",
    "HeadlineInterval",
    "bootstrap_draws",
    "clopper_pearson_interval",
    "design_effect",
    "group",
    "headline_interval",
    "mcnemar_exact",
    "percentile_interval",
    "wilson_interval",
    "zero_events_upper_bound",
]
