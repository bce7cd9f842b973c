"""The instrument self-check: oracle records, their mutations and the probes.

It answers one question, "does the scorer decide as the contracts say?", and
its report says so in plain words: the oracle must pass 24 of 24, each
deliberate mutation (unit, date, source, tool arguments, household scope) must
fail with the category it targets, and each probe must get its written verdict.
"""

from __future__ import annotations

import copy
import datetime
from dataclasses import replace
from typing import Any, Callable

from finscore.contracts.checks.attempt import AttemptResult, score_attempt
from finscore.contracts.checks.integrity import Verification
from finscore.contracts.evaluation import evaluate
from finscore.contracts.failures import Category
from finscore.contracts.formats.models import Case, PredictionRecord
from finscore.contracts.kit import load_kit_cases, load_kit_oracle, load_kit_probes
from finscore.contracts.reports.contracts_report import build_report
from finscore.contracts.stats.inference import DEFAULT_REPLICATES, DEFAULT_SEED

INSTRUMENT_INTEGRITY = (
    "Instrument data, not a run: the shipped oracle records were written by the kit generator, so "
    "there is no run to seal; instead every recorded call of a deterministic tool was replayed "
    "against the case fixtures and had to give the recorded result."
)

#: A mutation edits a copy of (final, trace) and returns the category it must cause, or None if
#: it does not apply to this case.
Mutation = Callable[[Case, dict[str, Any], dict[str, Any]], "Category | None"]


def _first_claim(final: dict[str, Any]) -> dict[str, Any] | None:
    claims = final.get("claims") if final.get("kind") == "answer" else None
    return next(iter(claims.values()), None) if claims else None


def mutate_unit(case: Case, final: dict[str, Any], trace: dict[str, Any]) -> Category | None:
    claim = _first_claim(final)
    if claim is None:
        return None
    claim["unit"] = "USD"
    return Category.NUMERICAL_EXTRACTION


def mutate_date(case: Case, final: dict[str, Any], trace: dict[str, Any]) -> Category | None:
    claim = _first_claim(final)
    if claim is None:
        return None
    claim["as_of"] = (datetime.date.fromisoformat(claim["as_of"]) + datetime.timedelta(days=1)).isoformat()
    return Category.FRESHNESS


def mutate_source(case: Case, final: dict[str, Any], trace: dict[str, Any]) -> Category | None:
    claim = _first_claim(final)
    if claim is None:
        return None
    claim["source"] = "forged-source"
    return Category.EVIDENCE


def _changed(kind: str, value: Any) -> Any:
    if kind in ("decimal", "integer"):
        return value + 1
    if kind == "date":
        return (datetime.date.fromisoformat(value) + datetime.timedelta(days=1)).isoformat()
    return value + "-x"


def mutate_tool_arguments(case: Case, final: dict[str, Any], trace: dict[str, Any]) -> Category | None:
    """Change one typed argument of the call that meets the first requirement."""
    if not case.trace.plan.calls:
        return None
    requirement = case.trace.plan.calls[0]
    entry = next((e for e in trace["entries"] if e["tool"] == requirement.tool and e["outcome"] == "ok"), None)
    if entry is None:
        return None
    order = {"decimal": 0, "integer": 0, "date": 1, "string": 2}
    name, spec = min(requirement.arguments.items(), key=lambda item: order[item[1].type])
    entry["arguments"][name] = _changed(spec.type, spec.value)
    return requirement.category


def mutate_household_scope(case: Case, final: dict[str, Any], trace: dict[str, Any]) -> Category | None:
    """Point a recorded call at a household outside the scope (or add one such refused call)."""
    outside = next(household for household in case.world.households if household not in case.world.household_scope)
    if trace["entries"]:
        entry = trace["entries"][0]
        entry["household_id"] = outside
        if "household_id" in entry["arguments"]:
            entry["arguments"]["household_id"] = outside
    else:
        tool = next(iter(case.world.tools))
        trace["entries"].append(
            {
                "id": "e1",
                "turn": 1,
                "tool": tool,
                "arguments": {"household_id": outside},
                "household_id": outside,
                "outcome": "refused",
                "message": f"household {outside} is outside the session scope",
                "effect": case.world.tools[tool].effect,
                "result": None,
            }
        )
    return Category.PERMISSION


MUTATIONS: dict[str, Mutation] = {
    "unit": mutate_unit,
    "date": mutate_date,
    "source": mutate_source,
    "tool_arguments": mutate_tool_arguments,
    "household_scope": mutate_household_scope,
}


def _outcome(result: AttemptResult) -> dict[str, Any]:
    primary = result.primary_category
    return {
        "passed": result.passed,
        "primary_category": None if primary is None else primary.value,
        "codes": sorted({item.code.value for item in result.failures}),
    }


def run_mutations(cases: list[Case], records: tuple[PredictionRecord, ...]) -> list[dict[str, Any]]:
    by_id = {case.case_id: case for case in cases}
    rows = []
    for record in records:
        case = by_id[record.case_id]
        for name, mutate in MUTATIONS.items():
            final, trace = copy.deepcopy(record.final), copy.deepcopy(record.trace)
            expected = mutate(case, final, trace)
            if expected is None:
                rows.append({"case_id": case.case_id, "mutation": name, "applicable": False, "ok": True})
                continue
            outcome = _outcome(score_attempt(case, replace(record, final=final, trace=trace), "mutation"))
            ok = not outcome["passed"] and outcome["primary_category"] == expected.value
            rows.append(
                {
                    "case_id": case.case_id,
                    "mutation": name,
                    "applicable": True,
                    "expected_category": expected.value,
                    **outcome,
                    "ok": ok,
                }
            )
    return rows


def run_probes(cases: list[Case]) -> list[dict[str, Any]]:
    by_id = {case.case_id: case for case in cases}
    rows = []
    for probe in load_kit_probes():
        outcome = _outcome(score_attempt(by_id[probe.case_id], probe.record, probe.probe_id))
        expected = {
            "passed": probe.expect_passed,
            "primary_category": probe.expect_primary_category,
            "codes": sorted(probe.expect_codes),
        }
        rows.append(
            {
                "probe_id": probe.probe_id,
                "case_id": probe.case_id,
                "description": probe.description,
                "expected": expected,
                "actual": outcome,
                "ok": outcome == expected,
            }
        )
    return rows


def run_self_check(seed: int = DEFAULT_SEED, replicates: int = DEFAULT_REPLICATES) -> dict[str, Any]:
    """The self-check report: oracle run, mutations and probes, with a plain verdict."""
    cases = load_kit_cases()
    oracle = load_kit_oracle()
    evaluation = evaluate(cases, oracle, verification=Verification(key=None, replay=True))
    evaluation.integrity.update(seals="not applicable (instrument data)", statement=INSTRUMENT_INTEGRITY)
    mutations = run_mutations(cases, oracle.records)
    probes = run_probes(cases)
    passed = sum(result.passed for result in evaluation.results)
    applicable = [row for row in mutations if row["applicable"]]
    summary = {
        "oracle": {"passed": passed, "of": len(evaluation.results), "ok": passed == len(evaluation.results)},
        "mutations": {
            "applicable": len(applicable),
            "failed_as_expected": sum(r["ok"] for r in applicable),
            "ok": all(r["ok"] for r in applicable),
            "rows": mutations,
        },
        "probes": {
            "count": len(probes),
            "as_written": sum(r["ok"] for r in probes),
            "ok": all(r["ok"] for r in probes),
            "rows": probes,
        },
    }
    summary["ok"] = summary["oracle"]["ok"] and summary["mutations"]["ok"] and summary["probes"]["ok"]
    return build_report(evaluation, seed=seed, replicates=replicates, self_check=summary)
