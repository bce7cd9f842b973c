"""The kit's scorer: the sealed line the runtime kept, scored by `finscore contracts`' own evaluation.

The line is read from the sample's store exactly as `finscore contracts` reads
a line of predictions.jsonl, its seal is verified under the evaluator's key,
its recorded calls are replayed, and the case's contract is checked
(`finscore.contracts.evaluate`). The inspect `Score` carries that result:
`value` C when the attempt passes, else I; `answer` the final response;
`explanation` the failed parts of the contract with their categories;
`metadata` the report's outcome row and failure rows for this attempt (the
same fields `finscore contracts` writes), the sorted failure codes, and the
seal that references the trace. A sample without a line (it never ran) is
scored as `finscore contracts` scores a missing attempt: not attempted, a miss.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from finscore.contracts import AttemptResult, Case, Verification, evaluate
from finscore.contracts.formats.models import PredictionRecord
from finscore.contracts.formats.predictions import PredictionFile, RejectedLine, record_from_value
from finscore.contracts.reports.contracts_report import failure_row, outcome_row
from finscore.inputs import dumps_json, dumps_pretty, loads_exact
from finscore.integrity import load_key
from finscore.runner import load_case_set

from finscore.integrations.inspect_ai.agent import PREDICTION_KEY
from finscore.integrations.inspect_ai.metrics import FAMILY_KEY, critical, family_pass


def _as_plain_json(value: Any) -> Any:
    """JSON data as a reader of the report file gets it (the report's own encoding, read back)."""
    return json.loads(dumps_pretty(value))


def judge(case: Case, line: str | None, attempt: int, verification: Verification, source: str) -> AttemptResult:
    """`finscore contracts`' result for this attempt of the case, given its sealed line (None: no line)."""
    records: tuple[PredictionRecord, ...] = ()
    rejected: tuple[RejectedLine, ...] = ()
    if line is not None:
        record = record_from_value(loads_exact(line), 1)
        if isinstance(record, RejectedLine):
            rejected = (record,)
        else:
            records = (record,)
    evaluation = evaluate([case], PredictionFile(source, records, rejected), attempt + 1, verification)
    return next(result for result in evaluation.results if result.attempt == attempt)


def explain(result: AttemptResult) -> str:
    """Which parts of the contract failed, each with its category, the primary category first."""
    if result.passed:
        return "passed: the final response and the sealed trace meet every part of the contract"
    primary = result.primary_category
    lines = [
        f"failed ({primary.value if primary else 'no category'}"
        + (", critical: the trace records an unsafe act)" if result.critical else ")")
    ]
    for item in result.failures:
        flag = ", critical" if item.critical else ""
        what = item.message or f"expected {item.expected!r}, found {item.actual!r}"
        lines.append(f"- {item.part}: {item.code.value} ({item.category.value}{flag}): {what}")
    return "\n".join(lines)


def _answer(line: Mapping[str, Any] | None) -> str | None:
    """The final response as the model gave it: its text, else the final object as JSON."""
    if line is None:
        return None
    if isinstance(line.get("raw_output"), str):
        return str(line["raw_output"])
    return None if line.get("final") is None else dumps_json(line["final"])


def _trace_reference(line: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The seal (run, case, attempt, entry count, chain head, HMAC) and where the whole line is kept."""
    seal = None if line is None else line.get("seal")
    if not isinstance(seal, Mapping):
        return None
    reference: dict[str, Any] = _as_plain_json(dict(seal))
    return reference | {"sample_store_key": PREDICTION_KEY}


def to_score(result: AttemptResult, line: str | None) -> Score:
    value = None if line is None else loads_exact(line)
    data = value if isinstance(value, Mapping) else None
    return Score(
        value=CORRECT if result.passed else INCORRECT,
        answer=_answer(data),
        explanation=explain(result),
        metadata={
            "status": None if data is None else data.get("status"),
            "passed": result.passed,
            "critical": result.critical,
            "primary_category": None if result.primary_category is None else result.primary_category.value,
            "codes": sorted({item.code.value for item in result.failures}),
            "outcome": _as_plain_json(outcome_row(result)),
            "failures": _as_plain_json([failure_row(result, item) for item in result.failures]),
            "trace": _trace_reference(data),
        },
    )


@scorer(metrics=[accuracy(), stderr(cluster=FAMILY_KEY), family_pass(), critical()])
def contracts(cases: str, key_file: str) -> Scorer:
    """Score each sample's sealed line against its case's contract, seals verified under `key_file`."""
    by_id = {case.case_id: case for case in load_case_set(cases).cases}
    verification = Verification(load_key(Path(key_file)), replay=True, key_source=key_file)

    async def score(state: TaskState, target: Target) -> Score:
        case = by_id.get(str(state.sample_id))
        if case is None:
            raise ValueError(f"sample {state.sample_id!r} is not a case of {cases}")
        line = state.store.get(PREDICTION_KEY)
        text = line if isinstance(line, str) else None
        source = f"inspect sample {case.case_id} epoch {state.epoch}"
        return to_score(judge(case, text, state.epoch - 1, verification, source), text)

    return score
