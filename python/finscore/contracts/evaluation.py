"""Joining predictions to the fixed case set.

The case set is the denominator: every case × attempt gets a result, a missing
attempt included. Predictions for cases the set does not have, and a second
prediction for the same attempt, are errors that name them: silently dropping
or double-counting either would change the rate without anyone noticing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from finscore.contracts.checks.attempt import AttemptResult, not_attempted, score_attempt
from finscore.contracts.checks.integrity import (
    Verification,
    check_file_run,
    line_scope,
    other_run_failure,
    replay_failures,
    run_failure,
    seal_failures,
)
from finscore.contracts.errors import ContractsError, JoinError
from finscore.contracts.formats.models import Case, PredictionRecord, case_set_digest
from finscore.contracts.formats.provenance import Producer
from finscore.contracts.formats.predictions import MAX_ATTEMPTS, PredictionFile, RejectedLine
from finscore.integrity import RunCheck


@dataclass(frozen=True)
class Evaluation:
    cases: tuple[Case, ...]
    attempts: int
    results: tuple[AttemptResult, ...]
    rejected_lines: tuple[RejectedLine, ...]
    source: str
    #: What produced the predictions, as their lines declare (empty when they do not say).
    producers: tuple[Producer, ...] = ()
    #: How far the traces were verified (seals, run ids, replay): see _Verifier.summary.
    integrity: dict[str, Any] = field(default_factory=dict)


def _has_integrity_failure(result: AttemptResult) -> bool:
    return any(item.code.value.startswith("integrity_") for item in result.failures)


class _Verifier:
    """Adds integrity failures to scored attempts; knows the file's run (its sealed header, else its first
    sealed line) and whether the run seal binds the file's lines."""

    def __init__(
        self,
        verification: Verification,
        predictions: PredictionFile,
        cases: Sequence[Case],
        attempts: int | None,
    ) -> None:
        self.verification = verification
        self.run_ids: list[str] = []
        self.run: RunCheck | None = None
        key = verification.key
        if key is None:
            return
        records = predictions.records
        # A line sealed as part of a run, or any run seal line, makes the run seal required: removing
        # the header and footer cannot turn run lines into lines that stand alone (the scope is sealed).
        if predictions.run_seals or any(line_scope(record, key) == "run" for record in records):
            by_id = {case.case_id: case for case in cases}

            def digest(ids: Sequence[str]) -> str | None:
                return case_set_digest([by_id[i] for i in ids]) if all(i in by_id for i in ids) else None

            self.run = check_file_run(predictions, key, digest, attempts)
        header = None if self.run is None else self.run.header
        if header is not None:
            self.run_ids = [str(header["run_id"])]
        else:  # in file order: the first line that verifies names the run
            self.run_ids = [run for run in (seal_failures(r, key)[1] for r in records) if run][:1]

    @property
    def sealed_attempts(self) -> int | None:
        """The attempts per case the run's verified header declares."""
        header = None if self.run is None else self.run.header
        return None if header is None else int(header["attempts"])

    def bind_run(self, results: list[AttemptResult], present: set[tuple[str, int]]) -> list[AttemptResult]:
        """Add the run seal's failure: to every attempt without an integrity failure, or, when only the
        lines differ and the lines' own checks or missing attempts already explain it, to the missing ones."""
        check = self.run
        if check is None or check.problem is None:
            return results
        missing = [(r.case_id, r.attempt) not in present for r in results]
        explained = check.lines and (any(missing) or any(_has_integrity_failure(r) for r in results))
        item = run_failure(check)
        return [
            replace(result, failures=result.failures + (item,))
            if (gone if explained else not _has_integrity_failure(result))
            else result
            for result, gone in zip(results, missing)
        ]

    def check(self, case: Case, record: PredictionRecord, result: AttemptResult) -> AttemptResult:
        extra = []
        if self.verification.key is not None:
            found, run_id = seal_failures(record, self.verification.key)
            extra.extend(found)
            if run_id is not None:
                if run_id not in self.run_ids:
                    self.run_ids.append(run_id)
                if run_id != self.run_ids[0]:
                    extra.append(other_run_failure(run_id, self.run_ids[0]))
        if self.verification.replay and result.trace is not None:
            extra.extend(replay_failures(case, result.trace))
        return replace(result, failures=result.failures + tuple(extra)) if extra else result

    def summary(self, results: Sequence[AttemptResult]) -> dict[str, Any]:
        failing = sum(any(item.code.value.startswith("integrity_") for item in r.failures) for r in results)
        verified = self.verification.seals_verified
        return {
            "seals": "verified" if verified else "not verified",
            "statement": (
                f"Trace seals verified under the evaluator's key; {failing} attempt(s) failed integrity."
                if verified
                else "TRACES WERE NOT VERIFIED: seals were not checked (unsealed traces accepted); "
                "nothing shows these traces are the runtime's record."
            ),
            "key_file": self.verification.key_source,
            "replay": self.verification.replay,
            "run_ids": list(self.run_ids),
            "run_seal": self._run_summary(),
            "attempts_failing_integrity": failing,
        }

    def _run_summary(self) -> dict[str, Any]:
        check = self.run
        if check is None:
            status = "not checked" if self.verification.key is None else "not required (lines sealed on their own)"
            return {"status": status, "problem": None, "attempts": None}
        attempts = self.sealed_attempts
        if check.problem is None:
            return {"status": "verified", "problem": None, "attempts": attempts}
        return {"status": "failed", "code": run_failure(check).code.value, "problem": check.problem, "attempts": attempts}


def evaluate(
    cases: Sequence[Case],
    predictions: PredictionFile,
    attempts: int | None = None,
    verification: Verification | None = None,
) -> Evaluation:
    """Score every case × attempt; raise JoinError for unknown or duplicated predictions.

    `verification`: check seals under its key (when it has one) and replay recorded
    calls; None checks neither, and the evaluation says its traces were not verified.
    """
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
    verifier = _Verifier(
        verification if verification is not None else Verification(key=None, replay=False), predictions, cases, attempts
    )
    sealed = verifier.sealed_attempts
    # The sealed header's attempts count even when a file lost its last attempts; a line beyond them is kept.
    count = attempts or max(sealed or 1, max((record.attempt + 1 for record in records), default=1))
    by_key = {(record.case_id, record.attempt): record for record in records}
    results = []
    for case in sorted(cases, key=lambda item: item.case_id):
        for attempt in range(count):
            record = by_key.get((case.case_id, attempt))
            if record is None:
                results.append(not_attempted(case, attempt))
            else:
                results.append(verifier.check(case, record, score_attempt(case, record, predictions.source)))
    results = verifier.bind_run(results, set(by_key))
    ordered = tuple(sorted(cases, key=lambda item: item.case_id))
    return Evaluation(
        ordered,
        count,
        tuple(results),
        predictions.rejected,
        predictions.source,
        producers=predictions.producers,
        integrity=verifier.summary(results),
    )
