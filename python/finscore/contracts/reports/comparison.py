"""Paired comparison of two reports on the same cases.

Two candidates scored on the same cases are paired data: the per-family change
and a family bootstrap that keeps both candidates' outcomes together are far
more informative than two separate intervals, and the exact McNemar (sign) test
on discordant case outcomes needs no large-sample approximation.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Mapping

from finscore.contracts.errors import ComparisonError, InputFormatError
from finscore.contracts.reports.contracts_report import REPORT_FORMAT
from finscore.contracts.stats.inference import (
    DEFAULT_REPLICATES,
    DEFAULT_SEED,
    PairedCounts,
    mcnemar_exact,
    paired_cluster_bootstrap,
)
from finscore.inputs.fields import FieldReader
from finscore.inputs.jsonfiles import MAX_REPORT_BYTES, read_json_document

COMPARISON_FORMAT = "finscore-contracts-comparison/1"
Key = tuple[str, int]


def load_report(path: Path) -> dict[str, Any]:
    """A report written by `finscore contracts`, with the fields a comparison needs checked."""
    report = read_json_document(path, limit=MAX_REPORT_BYTES)
    reader = FieldReader(str(path))
    reader.mapping(report, "")
    if report.get("format") != REPORT_FORMAT:
        raise InputFormatError(str(path), "format", f"expected {REPORT_FORMAT}, found {report.get('format')!r}")
    reader.mapping(report.get("case_set"), "case_set")
    reader.string(report["case_set"].get("sha256"), "case_set.sha256")
    for index, row in enumerate(reader.array(report.get("outcomes"), "outcomes", 10_000_000)):
        where = f"outcomes[{index}]"
        reader.mapping(row, where)
        reader.identifier(row.get("case_id"), f"{where}.case_id")
        reader.integer(row.get("attempt"), f"{where}.attempt", 0, 1000)
        reader.string(row.get("family"), f"{where}.family")
        reader.string(row.get("language"), f"{where}.language")
        reader.boolean(row.get("passed"), f"{where}.passed")
    checked: dict[str, Any] = report
    return checked


def _outcomes(report: Mapping[str, Any]) -> dict[Key, Mapping[str, Any]]:
    return {(row["case_id"], row["attempt"]): row for row in report["outcomes"]}


def _paired_rows(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    if a["case_set"]["sha256"] != b["case_set"]["sha256"]:
        raise ComparisonError("the two reports were scored on different case sets (case_set.sha256 differs)")
    rows_a, rows_b = _outcomes(a), _outcomes(b)
    only_a = sorted(rows_a.keys() - rows_b.keys())
    only_b = sorted(rows_b.keys() - rows_a.keys())
    if only_a or only_b:

        def names(keys: list[Key]) -> str:
            return ", ".join(f"{case}/{attempt}" for case, attempt in keys[:20]) + (" ..." if len(keys) > 20 else "")

        raise ComparisonError(
            f"the reports do not cover the same attempts; only in A: {names(only_a) or 'none'}; "
            f"only in B: {names(only_b) or 'none'}"
        )
    return [(rows_a[key], rows_b[key]) for key in sorted(rows_a)]


def _by(pairs: Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]], key: str) -> dict[str, PairedCounts]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row_a, row_b in pairs:
        cell = counts[row_a[key]]
        cell[0] += row_a["passed"]
        cell[1] += row_b["passed"]
        cell[2] += 1
    return {name: PairedCounts(*cell) for name, cell in sorted(counts.items())}


def _rates(groups: Mapping[str, PairedCounts]) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "trials": c.trials,
            "a_passed": c.a_passed,
            "b_passed": c.b_passed,
            "a_rate": c.a_passed / c.trials,
            "b_rate": c.b_passed / c.trials,
            "change": (c.b_passed - c.a_passed) / c.trials,
        }
        for name, c in groups.items()
    ]


def compare_reports(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    *,
    seed: int = DEFAULT_SEED,
    replicates: int = DEFAULT_REPLICATES,
    labels: tuple[str, str] = ("A", "B"),
) -> dict[str, Any]:
    """The paired comparison of report B against report A (B − A)."""
    pairs = _paired_rows(a, b)
    if not pairs:
        raise ComparisonError("the reports have no outcomes to compare")
    only_a = sum(row_a["passed"] and not row_b["passed"] for row_a, row_b in pairs)
    only_b = sum(row_b["passed"] and not row_a["passed"] for row_a, row_b in pairs)
    families = _by(pairs, "family")
    total = len(pairs)
    a_passed = sum(row_a["passed"] for row_a, _ in pairs)
    b_passed = sum(row_b["passed"] for _, row_b in pairs)
    return {
        "format": COMPARISON_FORMAT,
        "labels": {"a": labels[0], "b": labels[1]},
        "case_set_sha256": a["case_set"]["sha256"],
        "trials": total,
        "overall": {
            "a_passed": a_passed,
            "b_passed": b_passed,
            "a_rate": a_passed / total,
            "b_rate": b_passed / total,
            "change": (b_passed - a_passed) / total,
        },
        "by_family": _rates(families),
        "by_language": _rates(_by(pairs, "language")),
        "paired_family_bootstrap": paired_cluster_bootstrap(families, seed=seed, replicates=replicates),
        "exact_paired_test": {
            "name": "exact McNemar (two-sided sign test on discordant outcomes)",
            "only_a_passed": only_a,
            "only_b_passed": only_b,
            "p_value": mcnemar_exact(only_a, only_b),
        },
        "note": (
            "Attempts are paired by case and attempt index; the family bootstrap resamples whole "
            "families and keeps both candidates' outcomes of a family together."
        ),
    }
