"""Honest uncertainty on benchmark figures: row-level intervals, the seeded cluster bootstrap over a
benchmark's independence unit, the design effect, and paired comparisons of systems. The names load
on first use (PEP 562): a command imports only the modules it needs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import finscore.lazy_names as _lazy

if TYPE_CHECKING:
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
    from finscore.stats.benchmarks import Outcomes, attach_intervals, headline_intervals, report_outcomes
    from finscore.stats.compare import ComparisonError, System, compare_pair, compare_systems, comparison_html, \
        comparison_text
    from finscore.stats.headline import HeadlineInterval, headline_interval

#: Each public name and the module that owns it.
_OWNERS = {
    "CONFIDENCE": "finscore.stats.binomial",
    "Clusters": "finscore.stats.clusters",
    "ComparisonError": "finscore.stats.compare",
    "DEFAULT_RESAMPLES": "finscore.stats.defaults",
    "DEFAULT_SEED": "finscore.stats.defaults",
    "DesignEffect": "finscore.stats.clusters",
    "HeadlineInterval": "finscore.stats.headline",
    "MAX_RESAMPLES": "finscore.stats.defaults",
    "Outcomes": "finscore.stats.benchmarks",
    "System": "finscore.stats.compare",
    "attach_intervals": "finscore.stats.benchmarks",
    "bootstrap_draws": "finscore.stats.clusters",
    "clopper_pearson_interval": "finscore.stats.binomial",
    "compare_pair": "finscore.stats.compare",
    "compare_systems": "finscore.stats.compare",
    "comparison_html": "finscore.stats.compare",
    "comparison_text": "finscore.stats.compare",
    "design_effect": "finscore.stats.clusters",
    "group": "finscore.stats.clusters",
    "headline_interval": "finscore.stats.headline",
    "headline_intervals": "finscore.stats.benchmarks",
    "mcnemar_exact": "finscore.stats.binomial",
    "percentile_interval": "finscore.stats.clusters",
    "report_outcomes": "finscore.stats.benchmarks",
    "wilson_interval": "finscore.stats.binomial",
    "zero_events_upper_bound": "finscore.stats.binomial",
}


def __getattr__(name: str) -> Any:
    return _lazy.load_name(__name__, _OWNERS, name, globals())


def __dir__() -> list[str]:
    return _lazy.listed_names(globals(), _OWNERS)


__all__ = [
    "CONFIDENCE",
    "ComparisonError",
    "Outcomes",
    "System",
    "attach_intervals",
    "compare_pair",
    "compare_systems",
    "comparison_html",
    "comparison_text",
    "headline_intervals",
    "report_outcomes",
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
