"""A benchmark report's per-row outcomes and its headline intervals over the descriptor's unit.

Each shipped benchmark report keeps one row per gold example (FinQA: the example, ConvFinQA: the
turn, TAT-QA: the question), so its honest headline figure is the mean of one value per row:
execution correct (1/0) for FinQA and ConvFinQA, exact match (1/0) and F1 for TAT-QA. The rows
are grouped by the benchmark's independence unit (`Benchmark.unit.key` of finscore.registry,
applied to the decoded gold file).
"""

# No `from __future__ import annotations`: Outcomes is made at every run's start-up, and a
# NamedTuple's annotations given as text each cost a compile() when its class is made.

from typing import Any, NamedTuple

from finscore.stats.clusters import DEFAULT_RESAMPLES, DEFAULT_SEED, bootstrap_draws_together, group
from finscore.stats.headline import HeadlineInterval, headline_interval


class UnitError(ValueError):
    """A gold row the benchmark's unit function gives no unit, named."""


class Outcomes(NamedTuple):
    """One headline figure's value per gold row (ids in gold order), and whether it counts passes."""

    figure: str
    ids: tuple[str, ...]
    values: tuple[float, ...]
    binary: bool
    reasons: tuple[str, ...]  # each row's category or reason word (the word for a correct row included)


def report_outcomes(benchmark: str, report: Any) -> list[Outcomes]:
    """The headline figures' per-row outcomes of a finqa, convfinqa or tatqa report, or (benchmark
    "answers") of a `finscore answers` report: each gold's decision under the protocol."""
    if benchmark == "answers":
        rows = report.rows
        return [Outcomes(f"accuracy under {report.protocol.name}", tuple(r.id for r in rows),
                         tuple(1.0 if r.decision.passed else 0.0 for r in rows), True,
                         tuple(r.decision.reason for r in rows))]
    if benchmark in ("finqa", "convfinqa"):
        rows = report.turns.examples if benchmark == "convfinqa" else report.examples
        return [Outcomes("execution accuracy", tuple(r.id for r in rows),
                         tuple(1.0 if r.execution_correct else 0.0 for r in rows), True,
                         tuple(r.category for r in rows))]
    if benchmark == "tatqa":
        questions = report.questions
        ids = tuple(q.uid for q in questions)
        reasons = tuple(q.reason for q in questions)
        return [Outcomes("exact match", ids, tuple(float(q.em) for q in questions), True, reasons),
                Outcomes("F1", ids, tuple(float(q.f1) for q in questions), False, reasons)]
    raise ValueError(f"no headline outcomes are known for a {benchmark!r} report")


def unit_keys(benchmark: str, gold: Any, ids: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The unit's name and each row's unit key, from the descriptor's unit function."""
    from finscore.registry import get_benchmark

    unit = get_benchmark(benchmark).unit
    keys = unit.key.load()(gold)
    missing = [i for i in ids if i not in keys]
    if missing:
        raise UnitError(f"the {benchmark} unit ({unit.name}) names no unit for {len(missing)} row(s): "
                         + ", ".join(repr(i) for i in missing[:5]))
    return unit.name, tuple(keys[i] for i in ids)


def headline_intervals(benchmark: str, report: Any, gold: Any, *, seed: int = DEFAULT_SEED,
                       resamples: int = DEFAULT_RESAMPLES) -> tuple[HeadlineInterval, ...]:
    """The intervals of each honest headline figure of a report scored against `gold` (benchmark
    "answers": a `finscore answers` report, grouped by the unit of the benchmark its gold file is)."""
    figures = report_outcomes(benchmark, report)
    units = [unit_keys(report.gold_kind if benchmark == "answers" else benchmark, gold, o.ids) for o in figures]
    draws: list[list[float] | None] = [None] * len(figures)
    if len(figures) > 1 and all(o.ids and o.ids == figures[0].ids for o in figures):
        # figures over the same rows (TAT-QA's exact match and F1): one seed picks the same clusters for
        # each, so the clusters are drawn once for all of them
        draws = list(bootstrap_draws_together([group(o.values, keys) for o, (_, keys) in zip(figures, units)],
                                              seed, resamples))
    return tuple(headline_interval(o.figure, o.values, keys, name, binary=o.binary, seed=seed, resamples=resamples,
                                   draws=figure_draws)
                 for o, (name, keys), figure_draws in zip(figures, units, draws))


def attach_intervals(benchmark: str, report: Any, gold: Any, *, seed: int = DEFAULT_SEED,
                     resamples: int = DEFAULT_RESAMPLES) -> Any:
    """The report with its headline intervals (its `uncertainty`: text, JSON and the Python API)."""
    intervals = headline_intervals(benchmark, report, gold, seed=seed, resamples=resamples)
    if benchmark in ("finqa", "convfinqa"):
        # imported here, not above: the FinQA reports are dataclasses (the module is loaded already),
        # a TAT-QA or answers report is not, and importing dataclasses costs a TAT-QA run about 3 ms
        from dataclasses import replace

        if benchmark == "finqa":
            return replace(report, uncertainty=intervals)
        return replace(report, turns=replace(report.turns, uncertainty=intervals))
    report.uncertainty = intervals
    return report
