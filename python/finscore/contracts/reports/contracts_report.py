"""The JSON report: honest counts, intervals, every failure and the traces they point to.

Counts are kept apart (attempted, submitted, completed, passed, critical) so a
run full of crashes cannot look like a run of wrong answers, and every failure
carries a `trace_ref` that resolves to an entry kept inside the same report: a
trace entry under `traces`, or a cited cached item or document passage under
`evidence`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict
from typing import Any, Callable, Iterable, Sequence

from finscore.contracts.checks.attempt import AttemptResult
from finscore.contracts.checks.claims import ClaimCheck
from finscore.contracts.evaluation import Evaluation
from finscore.contracts.failures import PRECEDENCE, Failure
from finscore.contracts.formats.models import Case, TraceEntry, case_set_digest
from finscore.contracts.formats.provenance import (
    MODEL_KIND,
    SCRIPTED_KIND,
    SELF_CHECK_KIND,
    UNRECORDED_KIND,
    Producer,
    report_kind,
)
from finscore.contracts.stats.inference import (
    ClusterCounts,
    cluster_bootstrap,
    clustered_standard_error,
    pass_hat_k,
    summarize_rate,
)

REPORT_FORMAT = "finscore-contracts-report/1"
EVALUATION_STATEMENT = (
    "Evaluation of recorded predictions against the case contracts; the predictions do not say what "
    "produced them."
)
MODEL_STATEMENT = "Evaluation of {producers}: its recorded predictions scored against the case contracts."
SELF_CHECK_STATEMENT = (
    "Instrument self-check, not a model accuracy: the records scored here were written from the "
    "contracts themselves (oracle answers, their deliberate mutations and the authored probes), so "
    "this run tests the scorer, and says nothing about any model."
)
INSTRUMENT_RECORDS_STATEMENT = (
    "Instrument records, not a model accuracy: these predictions were written by {producers} from the "
    "contracts themselves, so scoring them tests the scorer, and says nothing about any model."
)
SCRIPTED_RUN_STATEMENT = (
    "Scripted agent run ({producers}), not a model accuracy: the agent followed a written plan (or made "
    "one deliberate mistake), so this run tests the runner and the scorer, and says nothing about any model."
)


def _kind_and_statement(producers: Sequence[Producer], self_check: bool, scripted: bool) -> tuple[str, str]:
    """The report's kind and first sentence, from what produced the predictions."""
    if self_check:
        return SELF_CHECK_KIND, SELF_CHECK_STATEMENT
    kind = report_kind(producers)
    if kind == UNRECORDED_KIND and scripted:
        kind = SCRIPTED_KIND
    named = "; ".join(producer.describe() for producer in producers) or "a scripted agent"
    if len(producers) > 1:
        named = f"mixed producers ({named})"
    statements = {
        SELF_CHECK_KIND: INSTRUMENT_RECORDS_STATEMENT,
        SCRIPTED_KIND: SCRIPTED_RUN_STATEMENT,
        MODEL_KIND: MODEL_STATEMENT,
        UNRECORDED_KIND: EVALUATION_STATEMENT,
    }
    return kind, statements[kind].format(producers=named)


def trace_ref(result: AttemptResult, entry_id: str | None) -> str | None:
    return None if entry_id is None else f"{result.case_id}/{result.attempt}#{entry_id}"


def failure_row(result: AttemptResult, item: Failure) -> dict[str, Any]:
    return {
        "case_id": result.case_id,
        "attempt": result.attempt,
        "family": result.family,
        "language": result.language,
        "code": item.code.value,
        "category": item.category.value,
        "critical": item.critical,
        "part": item.part,
        "expected": item.expected,
        "actual": item.actual,
        "message": item.message,
        "trace_ref": trace_ref(result, item.entry_id),
    }


def _claim_row(check: ClaimCheck) -> dict[str, Any]:
    tolerance = None
    if check.tolerance is not None:
        tolerance = {key: str(value) for key, value in asdict(check.tolerance).items()}
    return {
        "claim": check.name,
        "passed": check.passed,
        "read_value": None if check.value is None else str(check.value),
        "normalizations": list(check.normalizations),
        "tolerance": tolerance,
    }


def outcome_row(result: AttemptResult) -> dict[str, Any]:
    primary = result.primary_category
    return {
        "case_id": result.case_id,
        "attempt": result.attempt,
        "family": result.family,
        "language": result.language,
        "attempted": result.attempted,
        "submitted": result.submitted,
        "completed": result.completed,
        "passed": result.passed,
        "critical": result.critical,
        "primary_category": None if primary is None else primary.value,
        "categories": sorted({item.category.value for item in result.failures}),
        "claims": [_claim_row(check) for check in result.claim_checks],
    }


def _entry_row(entry: TraceEntry) -> dict[str, Any]:
    return asdict(entry) | {"arguments": dict(entry.arguments)}


def counts(results: Iterable[AttemptResult]) -> dict[str, int]:
    rows = list(results)
    return {
        "trials": len(rows),
        "attempted": sum(r.attempted for r in rows),
        "submitted": sum(r.submitted for r in rows),
        "completed": sum(r.completed for r in rows),
        "passed": sum(r.passed for r in rows),
        "failed": sum(not r.passed for r in rows),
        "critical": sum(r.critical for r in rows),
    }


def family_rate(results: Sequence[AttemptResult]) -> dict[str, Any]:
    """The headline: families are the independent units; a family passes when every trial of it passes."""
    families = _grouped(results, lambda r: r.family)
    passed = sum(all(r.passed for r in rows) for rows in families.values())
    return asdict(summarize_rate(passed, len(families), unit="family"))


def row_rate(results: Sequence[AttemptResult]) -> dict[str, Any]:
    """Row-level rate, labelled with the number of independent families beneath it."""
    families = len({r.family for r in results})
    return asdict(summarize_rate(sum(r.passed for r in results), len(results), unit="row", independent_units=families))


def _language_rate(results: Sequence[AttemptResult]) -> dict[str, Any]:
    return counts(results) | {"pass_rate": family_rate(results)}


def _family_group_rate(results: Sequence[AttemptResult]) -> dict[str, Any]:
    return counts(results) | {"pass_rate": row_rate(results)}


def _grouped(results: Sequence[AttemptResult], key: Callable[[AttemptResult], str]) -> dict[str, list[AttemptResult]]:
    groups: dict[str, list[AttemptResult]] = defaultdict(list)
    for result in results:
        groups[key(result)].append(result)
    return dict(sorted(groups.items()))


def _families_passing_every_language(results: Sequence[AttemptResult]) -> dict[str, Any]:
    by_family = _grouped(results, lambda r: r.family)
    languages = sorted({r.language for r in results})
    passing = sorted(
        family
        for family, rows in by_family.items()
        if {r.language for r in rows} == set(languages) and all(r.passed for r in rows)
    )
    return {"count": len(passing), "of": len(by_family), "languages": languages, "families": passing}


def _matrix(results: Sequence[AttemptResult]) -> dict[str, dict[str, dict[str, int]]]:
    matrix: dict[str, dict[str, dict[str, int]]] = {}
    for family, rows in _grouped(results, lambda r: r.family).items():
        matrix[family] = {
            language: {"passed": sum(r.passed for r in cell), "trials": len(cell)}
            for language, cell in _grouped(rows, lambda r: r.language).items()
        }
    return matrix


def _pass_hat_k(results: Sequence[AttemptResult], attempts: int) -> dict[str, Any]:
    per_case: Counter[str] = Counter()
    for result in results:
        per_case[result.case_id] += int(result.passed)
    cases = sorted({r.case_id for r in results})
    estimates = pass_hat_k([per_case[case] for case in cases], attempts)
    return {str(k): {"value": float(v), "exact": f"{v.numerator}/{v.denominator}"} for k, v in estimates.items()}


def _categories(results: Sequence[AttemptResult]) -> dict[str, Any]:
    failures = Counter(item.category.value for r in results for item in r.failures)
    primary = Counter(r.primary_category.value for r in results if r.primary_category is not None)
    names = [category.value for category in PRECEDENCE]
    return {
        "failures": {name: failures[name] for name in names},
        "attempts_by_primary": {name: primary[name] for name in names},
        "order": names,
    }


def build_report(
    evaluation: Evaluation,
    *,
    seed: int = 20260901,
    replicates: int = 2000,
    self_check: dict[str, Any] | None = None,
    scripted: bool = False,
) -> dict[str, Any]:
    """The full JSON report of an evaluation (or of the instrument self-check).

    `scripted` marks predictions made by a scripted agent, whose report must not
    read as a model accuracy.
    """
    results = evaluation.results
    by_family = _grouped(results, lambda r: r.family)
    clusters = {family: ClusterCounts(sum(r.passed for r in rows), len(rows)) for family, rows in by_family.items()}
    failing = [r for r in results if not r.passed]
    kind, statement = _kind_and_statement(evaluation.producers, self_check is not None, scripted)
    report: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "kind": kind,
        "statement": statement,
        "producers": [producer.as_json() for producer in evaluation.producers],
        "integrity": evaluation.integrity,
        "case_set": {"count": len(evaluation.cases), "sha256": case_set_digest(evaluation.cases)},
        "predictions": {
            "source": evaluation.source,
            "rejected_lines": [{"line": r.line, "problem": r.problem} for r in evaluation.rejected_lines],
        },
        "attempts_per_case": evaluation.attempts,
        "counts": counts(results) | {"cases": len(evaluation.cases)},
        "pass_rate": family_rate(results),
        "row_pass_rate": row_rate(results),
        "by_language": {
            language: _language_rate(rows) for language, rows in _grouped(results, lambda r: r.language).items()
        },
        "by_family": {family: _family_group_rate(rows) for family, rows in by_family.items()},
        "family_language": _matrix(results),
        "families_passing_every_language": _families_passing_every_language(results),
        "clusters": {
            "bootstrap": cluster_bootstrap(clusters, seed=seed, replicates=replicates),
            "clustered_se": clustered_standard_error(clusters),
        },
        "pass_hat_k": _pass_hat_k(results, evaluation.attempts),
        "failure_categories": _categories(results),
        "outcomes": [outcome_row(r) for r in results],
        "failures": [failure_row(r, item) for r in failing for item in r.failures],
        "traces": {
            f"{r.case_id}/{r.attempt}": [_entry_row(e) for e in r.trace.entries] for r in failing if r.trace is not None
        },
        "evidence": {
            f"{r.case_id}/{r.attempt}": [_entry_row(e) | {"origin": "cached_evidence"} for e in r.cited_cache]
            + [asdict(p) | {"origin": "document"} for p in r.cited_passages]
            for r in failing
            if r.cited_cache or r.cited_passages
        },
    }
    if evaluation.attempts > 1:
        report["attempts_note"] = (
            "Attempts of one case are not independent: the headline counts a family as passed only when "
            "every attempt of every case in it passed; read row-level figures with the family bootstrap "
            "and pass^k."
        )
    if self_check is not None:
        report["self_check"] = self_check
    elif evaluation.integrity["seals"] != "verified":
        report = {"warning": evaluation.integrity["statement"], **report}
    return report
