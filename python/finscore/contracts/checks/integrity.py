"""Is this trace the runtime's record? The seal under the evaluator's key, one run, and replay.

Scoring trusts the trace only as far as it is the runtime's own record. The
seal (finscore.integrity) shows that nobody without the key changed a line
after the runtime wrote it; the run's sealed header and footer bind which
lines the run wrote (its run id, case set, attempts, count and order), which
stops attempts being picked from several runs, deleted or cut off; replay
re-runs every recorded call of a deterministic tool against the case's
fixtures and must get the recorded result back, which also covers traces
accepted without a seal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from finscore.contracts.failures import Code, Failure, failure
from finscore.contracts.formats.models import Case, PredictionRecord, Trace
from finscore.contracts.formats.predictions import PredictionFile
from finscore.integrity import RunCheck, check_run, check_seal
from finscore.integrity.seal import canonical_bytes
from finscore.world import CATALOGUE, ToolState, decide_call


@dataclass(frozen=True)
class Verification:
    """How far the scorer checks traces: seals under `key` (None: not verified), and replay."""

    key: bytes | None
    replay: bool = True
    key_source: str | None = None

    @property
    def seals_verified(self) -> bool:
        return self.key is not None


def seal_failures(record: PredictionRecord, key: bytes) -> tuple[list[Failure], str | None]:
    """The seal's failure, if any, and the run id it names (when it verifies)."""
    line: Mapping[str, Any] = record.raw if record.raw is not None else {}
    verdict = check_seal(line, key)
    if verdict.problem is None:
        return [], verdict.run_id
    code = (
        Code.INTEGRITY_UNSEALED
        if verdict.missing
        else Code.INTEGRITY_SEAL_RETIRED
        if verdict.retired
        else Code.INTEGRITY_SEAL_MISMATCH
    )
    return [failure(code, "seal", expected="a seal that verifies under the evaluator's key", message=verdict.problem)], None


def line_scope(record: PredictionRecord, key: bytes) -> str | None:
    """The scope ("run" or "line") the line's seal declares, when it verifies."""
    return check_seal(record.raw if record.raw is not None else {}, key).scope


_RUN_CODES = {
    "unsealed": Code.INTEGRITY_RUN_UNSEALED,
    "truncated": Code.INTEGRITY_RUN_TRUNCATED,
    "mismatch": Code.INTEGRITY_RUN_MISMATCH,
}


def check_file_run(
    predictions: PredictionFile, key: bytes, case_set: Callable[[Sequence[str]], str | None], attempts: int | None
) -> RunCheck:
    """The run seal of a predictions file: one header as its first line, one footer as its last."""
    headers = [(n, v) for n, v in predictions.run_seals if v.get("part") == "header"]
    footers = [(n, v) for n, v in predictions.run_seals if v.get("part") == "footer"]
    others = [n for n, v in predictions.run_seals if v.get("part") not in ("header", "footer")]
    if len(headers) > 1 or len(footers) > 1 or others:
        return RunCheck("the file holds more than one run header or footer (runs spliced together)", "mismatch")
    body = [r.line for r in predictions.records] + [r.line for r in predictions.rejected]
    header = headers[0] if headers else None
    footer = footers[0] if footers else None
    if header is not None and body and header[0] > min(body):
        return RunCheck("the run header is not the file's first line", "mismatch")
    if footer is not None and (footer[0] != predictions.last_line or (body and footer[0] < max(body))):
        return RunCheck("the run footer is not the file's last line", "mismatch")
    seals = [(r.raw or {}).get("seal") for r in sorted(predictions.records, key=lambda r: r.line)]
    return check_run(
        None if header is None else header[1],
        None if footer is None else footer[1],
        seals,
        key,
        case_set=case_set,
        attempts=attempts,
    )


def run_failure(check: RunCheck) -> Failure:
    """The failure a run-seal problem gives an attempt (`check.problem` must be set)."""
    return failure(
        _RUN_CODES[check.kind or "mismatch"],
        "run_seal",
        expected="a sealed run header and footer that bind exactly the file's lines",
        message=check.problem or "the run seal does not verify",
    )


def other_run_failure(run_id: str, file_run_id: str) -> Failure:
    return failure(
        Code.INTEGRITY_OTHER_RUN,
        "seal.run_id",
        expected=file_run_id,
        actual=run_id,
        message="this attempt was sealed in another run than the file's (its run header, else its first sealed line)",
    )


def replay_failures(case: Case, trace: Trace) -> list[Failure]:
    """Re-run, in order, every call recorded as ok; a deterministic tool must give the recorded result."""
    state = ToolState(case.world)
    failures: list[Failure] = []
    for entry in trace.entries:
        implemented = CATALOGUE.get(entry.tool)
        if entry.outcome != "ok" or implemented is None or not implemented.deterministic:
            continue
        decision = decide_call(case.world, state, entry.tool, entry.arguments)
        replayed = {"outcome": decision.outcome, "effect": decision.effect, "result": decision.result}
        recorded = {"outcome": entry.outcome, "effect": entry.effect, "result": entry.result}
        if canonical_bytes(replayed) != canonical_bytes(recorded):
            failures.append(
                failure(
                    Code.INTEGRITY_REPLAY_MISMATCH,
                    "trace",
                    expected=replayed,
                    actual=recorded,
                    entry_id=entry.id,
                    message=f"replaying {entry.tool} on the case's fixtures does not give the recorded outcome",
                )
            )
    return failures
