"""Paired comparison of systems scored on one benchmark's gold file (`finscore compare <benchmark>`).

Every gold row counts for every system (a missing prediction is that system's failure, as in the
honest figures). For two systems A and B: the paired table (both right, both wrong, A only, B
only), McNemar's exact test on the discordant rows, the difference B - A with a paired cluster
bootstrap interval (whole units resampled, both systems kept paired inside each), the rows B fixed
and the rows it broke listed by reason, and the same table for every subgroup the report has
(ConvFinQA: turn index; TAT-QA: answer type x source, and scale). Three or more systems get every
pair, and a sentence when the data do not support the ranking.
"""

from __future__ import annotations

import math
from typing import Any, Callable, NamedTuple, Sequence

from finscore.stats.benchmarks import Outcomes, report_outcomes, unit_keys
from finscore.stats.binomial import CONFIDENCE, mcnemar_exact
from finscore.stats.clusters import DEFAULT_RESAMPLES, DEFAULT_SEED, bootstrap_draws, group, percentile_interval


class ComparisonError(ValueError):
    """Systems that cannot be compared (other gold rows, another protocol), the difference named."""


class System(NamedTuple):
    """A scored system: its label and its report (finqa, convfinqa or tatqa)."""

    label: str
    report: Any


def protocol_of(benchmark: str, report: Any) -> str:
    """The protocol a report was scored under: the profile and the CPython sum() rule for FinQA and
    ConvFinQA, the official metric for TAT-QA."""
    if benchmark in ("finqa", "convfinqa"):
        turns = report.turns if benchmark == "convfinqa" else report
        return f"profile {turns.profile}, sum() of CPython {turns.python}"
    return "tatqa_eval.py exact match"


def _subgroups(benchmark: str, report: Any) -> list[tuple[str, Callable[[int], str]]]:
    """The report's own subgroups: (kind, row index -> group name)."""
    if benchmark == "convfinqa":
        ids = [row.id for row in report.turns.examples]
        return [("turn index", lambda i: "turn " + ids[i].rpartition("#t")[2])]
    if benchmark == "tatqa":
        questions = report.questions
        return [("answer type x source", lambda i: f"{questions[i].answer_type} x {questions[i].answer_from}"),
                ("scale", lambda i: questions[i].gold_scale or "none")]
    return []


def paired_figures(a: Sequence[float], b: Sequence[float], keys: Sequence[str], *, seed: int, resamples: int,
                   confidence: float = CONFIDENCE) -> dict[str, Any]:
    """The paired table, McNemar's exact p, and the difference B - A with its paired cluster interval."""
    both = sum(1 for x, y in zip(a, b) if x and y)
    neither = sum(1 for x, y in zip(a, b) if not x and not y)
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    rows = len(a)
    clusters = group(a, keys, b)
    interval = percentile_interval(bootstrap_draws(clusters, seed, resamples), confidence) if rows else None
    return {
        "rows": rows, "clusters": len(clusters.keys),
        "a_rate": sum(a) / rows if rows else None, "b_rate": sum(b) / rows if rows else None,
        "difference": (sum(b) - sum(a)) / rows if rows else None,
        "table": {"both_right": both, "both_wrong": neither, "a_only": only_a, "b_only": only_b},
        "mcnemar_exact_p": mcnemar_exact(only_a, only_b),
        "difference_interval": None if interval is None else list(interval),
    }


def _check_same_rows(benchmark: str, first: System, other: System, a: Outcomes, b: Outcomes) -> None:
    if a.ids != b.ids:
        only_first = sorted(set(a.ids) - set(b.ids))
        only_other = sorted(set(b.ids) - set(a.ids))
        detail = (f"{len(only_first)} gold row(s) only in {first.label}'s (first {only_first[:3]}), "
                  f"{len(only_other)} only in {other.label}'s (first {only_other[:3]})"
                  if only_first or only_other else "the same rows in another order")
        raise ComparisonError(f"{first.label} and {other.label} were scored against different gold files: {detail}")
    pa, pb = protocol_of(benchmark, first.report), protocol_of(benchmark, other.report)
    if pa != pb:
        raise ComparisonError(f"{first.label} and {other.label} were scored under different protocols: "
                              f"{first.label} {pa}, {other.label} {pb}")


def _transitions(a: Outcomes, b: Outcomes, pa: Sequence[float], pb: Sequence[float]) -> dict[str, Any]:
    fixed: dict[str, list[str]] = {}
    introduced: dict[str, list[str]] = {}
    for i, row_id in enumerate(a.ids):
        if pb[i] and not pa[i]:
            fixed.setdefault(a.reasons[i], []).append(row_id)
        elif pa[i] and not pb[i]:
            introduced.setdefault(b.reasons[i], []).append(row_id)
    return {"fixed_by_b": dict(sorted(fixed.items())), "introduced_by_b": dict(sorted(introduced.items()))}


def compare_pair(benchmark: str, first: System, other: System, gold: Any, *, seed: int = DEFAULT_SEED,
                 resamples: int = DEFAULT_RESAMPLES) -> dict[str, Any]:
    """The paired comparison of `other` (B) with `first` (A), overall and per subgroup."""
    a, b = report_outcomes(benchmark, first.report)[0], report_outcomes(benchmark, other.report)[0]
    _check_same_rows(benchmark, first, other, a, b)
    unit, keys = unit_keys(benchmark, gold, a.ids)
    pa = [1.0 if v else 0.0 for v in a.values]
    pb = [1.0 if v else 0.0 for v in b.values]
    result: dict[str, Any] = {
        "a": first.label, "b": other.label, "figure": a.figure, "unit": unit,
        "overall": paired_figures(pa, pb, keys, seed=seed, resamples=resamples),
        "transitions": _transitions(a, b, pa, pb), "subgroups": [],
    }
    for kind, name_of in _subgroups(benchmark, first.report):
        names = sorted({name_of(i) for i in range(len(pa))})
        for name in names:
            index = [i for i in range(len(pa)) if name_of(i) == name]
            figures = paired_figures([pa[i] for i in index], [pb[i] for i in index], [keys[i] for i in index],
                                     seed=seed, resamples=resamples)
            result["subgroups"].append({"kind": kind, "group": name, **figures})
    return result


def compare_systems(benchmark: str, systems: Sequence[System], gold: Any, *, seed: int = DEFAULT_SEED,
                    resamples: int = DEFAULT_RESAMPLES) -> dict[str, Any]:
    """Every pair of systems (the first of each pair as A), and whether the data support their ranking."""
    if len(systems) < 2:
        raise ComparisonError("a comparison needs at least two systems")
    labels = [s.label for s in systems]
    if len(set(labels)) != len(labels):
        raise ComparisonError(f"two systems share a label: {labels}")
    pairs = [compare_pair(benchmark, systems[i], systems[j], gold, seed=seed, resamples=resamples)
             for i in range(len(systems)) for j in range(i + 1, len(systems))]
    rates = {s.label: pairs[0]["overall"]["a_rate"] if s is systems[0] else None for s in systems}
    for pair in pairs:
        rates[pair["b"]] = pair["overall"]["b_rate"]
    ranking = sorted(labels, key=lambda label: -(rates[label] or 0.0))
    unsupported = []
    for higher, lower in zip(ranking, ranking[1:]):
        pair = next(p for p in pairs if {p["a"], p["b"]} == {higher, lower})
        interval = pair["overall"]["difference_interval"]
        if interval is None or interval[0] <= 0 <= interval[1]:
            unsupported.append(f"{higher} over {lower}")
    statement = ("the data support the ranking " + " > ".join(ranking) if not unsupported else
                 "the ranking " + " > ".join(ranking) + " is not supported by the data: the 95% paired cluster "
                 "bootstrap interval of the difference includes 0 for " + ", ".join(unsupported))
    return {"format": "finscore-benchmark-comparison/1", "benchmark": benchmark,
            "protocol": protocol_of(benchmark, systems[0].report), "seed": seed, "resamples": resamples,
            "confidence": CONFIDENCE, "systems": labels, "rates": rates, "ranking": ranking,
            "ranking_statement": statement, "pairs": pairs}


def _percent(value: float | None) -> str:
    return "undefined" if value is None or math.isnan(value) else f"{value:.1%}"


def _signed(value: float | None) -> str:
    return "undefined" if value is None else f"{value:+.1%}"


def comparison_text(comparison: dict[str, Any]) -> str:
    """The text report of a comparison."""
    lines = [f"finscore compare {comparison['benchmark']}: {', '.join(comparison['systems'])} "
             f"({comparison['protocol']}; every gold row counted, a missing prediction a failure)"]
    for pair in comparison["pairs"]:
        o, t = pair["overall"], pair["overall"]["table"]
        interval = o["difference_interval"]
        shown = "undefined" if interval is None else f"{_signed(interval[0])} to {_signed(interval[1])}"
        lines += ["", f"{pair['b']} vs {pair['a']}, {pair['figure']} over {o['rows']} gold rows "
                      f"({o['clusters']} {pair['unit']} clusters):",
                  f"  {pair['a']} {_percent(o['a_rate'])}, {pair['b']} {_percent(o['b_rate'])}; "
                  f"difference {_signed(o['difference'])}, 95% paired cluster bootstrap interval {shown} "
                  f"(seed {comparison['seed']}, {comparison['resamples']} resamples)",
                  f"  both right {t['both_right']}, both wrong {t['both_wrong']}, {pair['a']} only {t['a_only']}, "
                  f"{pair['b']} only {t['b_only']}; exact McNemar p = {o['mcnemar_exact_p']:.4g}"]
        for title, key in ((f"fixed by {pair['b']}", "fixed_by_b"), (f"introduced by {pair['b']}", "introduced_by_b")):
            moved = pair["transitions"][key]
            if moved:
                lines.append(f"  {title} ({sum(len(v) for v in moved.values())}):")
                for reason, ids in moved.items():
                    more = f", ... ({len(ids) - 5} more in --json)" if len(ids) > 5 else ""
                    lines.append(f"    {reason} {len(ids)}: {', '.join(ids[:5])}{more}")
            else:
                lines.append(f"  {title}: none")
        for row in pair["subgroups"]:
            interval = row["difference_interval"]
            shown = "undefined" if interval is None else f"{_signed(interval[0])} to {_signed(interval[1])}"
            lines.append(f"  {row['kind']} {row['group']}: {row['rows']} rows, {_percent(row['a_rate'])} -> "
                         f"{_percent(row['b_rate'])} ({_signed(row['difference'])}, {shown}; McNemar p = "
                         f"{row['mcnemar_exact_p']:.4g})")
    lines += ["", comparison["ranking_statement"][0].upper() + comparison["ranking_statement"][1:] + "."]
    return "\n".join(lines) + "\n"


def comparison_html(comparison: dict[str, Any]) -> str:
    """A self-contained page (no script, no network): the text report and, per pair, an inline SVG
    chart of the difference and its interval, overall and per subgroup."""
    from html import escape

    charts = []
    for pair in comparison["pairs"]:
        rows = [("overall", pair["overall"])] + [(f"{r['kind']} {r['group']}", r) for r in pair["subgroups"]]
        height, left, width = 22 * len(rows) + 30, 220, 360

        def x(value: float) -> float:
            return left + (max(-1.0, min(1.0, value)) + 1) / 2 * width

        parts = [f'<line x1="{x(0):.1f}" y1="5" x2="{x(0):.1f}" y2="{height - 20}" stroke="#888"/>',
                 f'<text x="{x(-1):.1f}" y="{height - 5}" font-size="11">-100%</text>',
                 f'<text x="{x(0) - 4:.1f}" y="{height - 5}" font-size="11">0</text>',
                 f'<text x="{x(1) - 34:.1f}" y="{height - 5}" font-size="11">+100%</text>']
        for n, (name, figures) in enumerate(rows):
            y = 18 + 22 * n
            parts.append(f'<text x="4" y="{y + 4}" font-size="12">{escape(name)}</text>')
            interval, difference = figures["difference_interval"], figures["difference"]
            if interval is not None:
                parts.append(f'<line x1="{x(interval[0]):.1f}" y1="{y}" x2="{x(interval[1]):.1f}" y2="{y}" '
                             'stroke="#2563eb" stroke-width="3"/>')
            if difference is not None:
                parts.append(f'<circle cx="{x(difference):.1f}" cy="{y}" r="4" fill="#111"/>')
        charts.append(f"<h2>{escape(pair['b'])} - {escape(pair['a'])} ({escape(pair['figure'])})</h2>"
                      f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 20}" height="{height}" '
                      f'role="img" aria-label="difference and its 95% interval">{"".join(parts)}</svg>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>finscore compare "
            f"{escape(comparison['benchmark'])}</title></head><body><h1>finscore compare "
            f"{escape(comparison['benchmark'])}</h1>{''.join(charts)}<pre>{escape(comparison_text(comparison))}</pre>"
            "</body></html>\n")
