"""Reading a predictions file (JSON Lines, section 4 of docs/contracts-format.md).

Only the envelope (which case, which attempt) is read here: that is all the
join needs. A line whose envelope cannot be read is kept as a rejected line with
its reason, so nothing the runtime wrote disappears from the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from finscore.contracts.formats.models import PredictionRecord
from finscore.inputs.fields import is_identifier
from finscore.inputs.jsonfiles import read_json_lines

MAX_ATTEMPTS = 100
PREDICTION_FORMAT = "finscore-prediction/1"
_RECORD_FIELDS = {"format", "case_id", "attempt", "status", "status_detail", "final", "raw_output", "trace"}


@dataclass(frozen=True)
class RejectedLine:
    line: int
    problem: str


@dataclass(frozen=True)
class PredictionFile:
    source: str
    records: tuple[PredictionRecord, ...]
    rejected: tuple[RejectedLine, ...]


def record_from_value(value: Any, line: int) -> PredictionRecord | RejectedLine:
    """One parsed prediction line as a record, or a rejected line saying why."""
    if not isinstance(value, dict):
        return RejectedLine(line, "a prediction line must be a JSON object")
    case_id = value.get("case_id")
    if not isinstance(case_id, str) or not is_identifier(case_id):
        return RejectedLine(line, f"case_id missing or not an identifier: {case_id!r:.80}")
    attempt = value.get("attempt", 0)
    if isinstance(attempt, bool) or not isinstance(attempt, int) or not 0 <= attempt < MAX_ATTEMPTS:
        return RejectedLine(line, f"attempt must be a whole number 0..{MAX_ATTEMPTS - 1}: {attempt!r:.80}")
    # The attempt is identified, so a record problem fails it rather than losing it.
    problem = None
    unknown = sorted(value.keys() - _RECORD_FIELDS)
    if unknown:
        problem = "unknown field(s): " + ", ".join(unknown)[:200]
    elif value.get("format", PREDICTION_FORMAT) != PREDICTION_FORMAT:
        problem = f"format must be {PREDICTION_FORMAT}"
    return PredictionRecord(
        case_id=case_id,
        attempt=attempt,
        status=value.get("status"),
        status_detail=value.get("status_detail"),
        final=value.get("final"),
        trace=value.get("trace"),
        line=line,
        record_problem=problem,
    )


def read_predictions(path: Path) -> PredictionFile:
    records: list[PredictionRecord] = []
    rejected: list[RejectedLine] = []
    for line in read_json_lines(path):
        item = (
            record_from_value(line.value, line.number)
            if line.problem is None
            else RejectedLine(line.number, line.problem)
        )
        (rejected if isinstance(item, RejectedLine) else records).append(item)  # type: ignore[arg-type]
    return PredictionFile(str(path), tuple(records), tuple(rejected))
