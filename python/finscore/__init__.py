"""finscore: exact, fast, honest scoring for financial QA and financial agents.

The public API of the program executor:

- `execute(program, table=None, *, profile="official", python="3.11") -> Execution`
- `execute_batch([(program, table), ...], ...) -> ExecutionBatch`: one core call per
  10,000 programs; the official pair of each at once (columns `invalid`, `results`,
  `statuses`), the full Execution when indexed
- `execute_many(...) -> list[Execution]`: the same, as a list
- `round_half_even_scaled(x, scale) -> float` (CPython's round(x, n), scale = 10.0 ** n)
- `status_name(code) -> str` and the `Status` enum

A program is a token list (the prediction format) or a gold program string; a
table is the FinQA table (a list of rows, each starting with its name).

Honest uncertainty on benchmark figures and paired comparisons (issue #33), from `finscore.stats`:

- `headline_intervals(benchmark, report, gold, *, seed, resamples)`: the 95% intervals of a
  finqa / convfinqa / tatqa report's honest headline (Wilson, rows as independent; the seeded
  cluster bootstrap over the benchmark's unit, with design effect and effective sample size)
- `compare_systems(benchmark, [System(label, report), ...], gold, *, seed, resamples)`: every pair
  paired row by row (table, exact McNemar, difference with its paired cluster interval)
- `wilson_interval`, `clopper_pearson_interval`, `mcnemar_exact`

These names come from `finscore.engine` and `finscore.stats`, imported on first use (PEP 562), so
that a command that executes no program (`finscore tatqa`) does not pay for loading the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from finscore.engine import (
        PROFILES,
        Execution,
        ExecutionBatch,
        Status,
        StepTrace,
        execute,
        execute_batch,
        execute_many,
        round_half_even_scaled,
        sum_rule_for,
    )
    from finscore.stats import (
        System,
        clopper_pearson_interval,
        compare_systems,
        headline_intervals,
        mcnemar_exact,
        wilson_interval,
    )

#: The public names that live in finscore.engine.
_FROM_ENGINE = frozenset({
    "PROFILES", "Execution", "ExecutionBatch", "Status", "StepTrace", "execute", "execute_batch",
    "execute_many", "round_half_even_scaled", "sum_rule_for",
})

#: The public names that live in finscore.stats.
_FROM_STATS = frozenset({
    "System", "clopper_pearson_interval", "compare_systems", "headline_intervals", "mcnemar_exact",
    "wilson_interval",
})


def __getattr__(name: str) -> Any:
    if name not in _FROM_ENGINE and name not in _FROM_STATS:
        raise AttributeError(f"module 'finscore' has no attribute {name!r}")
    module = "finscore.engine" if name in _FROM_ENGINE else "finscore.stats"
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_FROM_ENGINE, *_FROM_STATS})


def status_name(code: int) -> str:
    """The stable name of a status code (core 1400-1419, reader 1420+)."""
    from finscore.engine import status_label

    return status_label(code)


__all__ = [
    "PROFILES",
    "Execution",
    "ExecutionBatch",
    "Status",
    "StepTrace",
    "System",
    "clopper_pearson_interval",
    "compare_systems",
    "execute",
    "execute_batch",
    "execute_many",
    "headline_intervals",
    "mcnemar_exact",
    "round_half_even_scaled",
    "status_name",
    "sum_rule_for",
    "wilson_interval",
]
