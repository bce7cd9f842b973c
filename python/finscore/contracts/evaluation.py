"""Joining predictions to the fixed case set.

The case set is the denominator: every case × attempt gets a result, a missing
attempt included. Predictions for cases the set does not have, and a second
prediction for the same attempt, are errors that name them: silently dropping
or double-counting either would change the rate without anyone noticing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from finscore.contracts.checks.attempt import AttemptResult, not_attempted, score_attempt
from finscore.contracts.errors import ContractsError, JoinError
from finscore.contracts.formats.models import Case
from finscore.contracts.formats.predictions import MAX_ATTEMPTS, PredictionFile, RejectedLine


@dataclass(frozen=True)
class Evaluation:
    cases: tuple[Case, ...]
    attempts: int
    results: tuple[AttemptResult, ...]
    rejected_lines: tuple[RejectedLine, ...]
    source: str


def evaluate(cases: Sequence[Case], predictions: PredictionFile, attempts: int | None = None) -> Evaluation:
    """Score every case × attempt; raise JoinError for unknown or duplicated predictions."""
    by_id = {case.case_id: case for case in cases}
    records = predictions.records
    counts = Counter((record.case_id, record.attempt) for record in records)
    unknown = sorted({record.case_id for record in records if record.case_id not in by_id})
    duplicates = sorted(f"{case_id}/{attempt}" for (case_id, attempt), n in counts.items() if n > 1)
    if attempts is not None:
        if not 1 <= attempts <= MAX_ATTEMPTS:
            raise ContractsError(f"the number of attempts must be 1..{MAX_ATTEMPTS}, not {attempts}")
        unknown += sorted(
            {f"{r.case_id}/{r.attempt} (beyond {attempts} attempts)" for r in records if r.attempt >= attempts}
        )
    if unknown or duplicates:
        raise JoinError(unknown, duplicates)
    count = attempts or max((record.attempt + 1 for record in records), default=1)
    by_key = {(record.case_id, record.attempt): record for record in records}
    results = []
    for case in sorted(cases, key=lambda item: item.case_id):
        for attempt in range(count):
            record = by_key.get((case.case_id, attempt))
            if record is None:
                results.append(not_attempted(case, attempt))
            else:
                results.append(score_attempt(case, record, predictions.source))
    ordered = tuple(sorted(cases, key=lambda item: item.case_id))
    return Evaluation(ordered, count, tuple(results), predictions.rejected, predictions.source)
