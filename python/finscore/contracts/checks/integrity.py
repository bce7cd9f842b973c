"""Is this trace the runtime's record? The seal under the evaluator's key, one run, and replay.

Scoring trusts the trace only as far as it is the runtime's own record. The
seal (finscore.integrity) shows that nobody without the key changed a line
after the runtime wrote it; one run id per file stops attempts being picked
from several runs; replay re-runs every recorded call of a deterministic tool
against the case's fixtures and must get the recorded result back, which also
covers traces accepted without a seal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from finscore.contracts.failures import Code, Failure, failure
from finscore.contracts.formats.models import Case, PredictionRecord, Trace
from finscore.integrity import check_seal
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
    code = Code.INTEGRITY_UNSEALED if verdict.missing else Code.INTEGRITY_SEAL_MISMATCH
    return [failure(code, "seal", expected="a seal that verifies under the evaluator's key", message=verdict.problem)], None


def other_run_failure(run_id: str, file_run_id: str) -> Failure:
    return failure(
        Code.INTEGRITY_OTHER_RUN,
        "seal.run_id",
        expected=file_run_id,
        actual=run_id,
        message="this attempt was sealed in another run than the file's first sealed line",
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
