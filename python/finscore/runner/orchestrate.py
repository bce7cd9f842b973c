"""Running an agent over a case set: every case × attempt, serially or in parallel, in a stable order.

Each attempt runs its agent in its own process; parallel runs drive several
of them from threads, and the results are put back in case order, so a
parallel run writes the same predictions file as a serial one.
"""

from __future__ import annotations

import concurrent.futures
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from finscore.contracts.formats.predictions import MAX_ATTEMPTS as MAX_ATTEMPTS  # the prediction format owns it
from finscore.contracts.formats.provenance import Producer
from finscore.integrity import new_run_id, run_footer, run_header, seal_prediction
from finscore.runner.agent import Agent
from finscore.runner.episode import AttemptResult, prediction_line, run_attempt
from finscore.runner.errors import RunnerError
from finscore.runner.isolation import Isolation
from finscore.runner.limits import Limits

MAX_PARALLEL = 64

Job = tuple[Mapping[str, Any], int]


@dataclass(frozen=True)
class TraceSealer:
    """The evaluator's key and this run's id: every line the run writes is sealed with them, and the
    run's header and footer (finscore.integrity.run_seal) bind those lines into one run.

    The key stays in the runtime's process: agents run in their own processes and never get it.
    """

    key: bytes
    run_id: str

    @classmethod
    def for_new_run(cls, key: bytes) -> "TraceSealer":
        return cls(key, new_run_id())

    def seal(self, result: AttemptResult) -> AttemptResult:
        return AttemptResult(seal_prediction(result.prediction, self.key, self.run_id, scope="run"), result.seconds)

    def header(self, case_set: str, case_ids: Sequence[str], kit: str | None, attempts: int) -> dict[str, Any]:
        """The run's sealed first line: its id, case set (SHA-256, ids), kit version and attempts."""
        return run_header(self.key, self.run_id, case_set, case_ids, kit, attempts)

    def footer(self, results: Sequence[AttemptResult]) -> dict[str, Any]:
        """The run's sealed last line: how many lines it wrote and the chain head over their seals."""
        return run_footer(self.key, self.run_id, [result.prediction.get("seal") for result in results])


def _guarded(
    case: Mapping[str, Any], agent: Agent, limits: Limits, attempt: int, isolation: Isolation | None
) -> AttemptResult:
    """An attempt whose line is written even if the runner itself fails, with the error in its detail."""
    started = time.monotonic()
    try:
        return run_attempt(case, agent, limits, attempt, isolation)
    except Exception as error:  # a runner bug must still leave a row, with the error visible in it
        case_id = str(case.get("case_id", "<no case_id>"))
        trace = {"format": "finscore-trace/1", "case_id": case_id, "attempt": attempt, "entries": []}
        detail = f"runner error: {type(error).__name__}: {error}"
        return AttemptResult(
            prediction_line(case_id, attempt, "incomplete", detail, None, None, trace), time.monotonic() - started
        )


def run_cases(
    cases: Sequence[Mapping[str, Any]],
    agent: Agent,
    limits: Limits,
    *,
    attempts: int = 1,
    parallel: int = 1,
    on_result: Callable[[AttemptResult], None] | None = None,
    sealer: TraceSealer | None = None,
    isolation: Isolation | None = None,
    producer: Producer | None = None,
) -> list[AttemptResult]:
    """One result per case × attempt, ordered by case then attempt, whatever the completion order.

    With a `sealer` every line carries its seal; without one the lines are unsealed
    (the scorer then fails them unless told to accept unsealed traces). A `producer`
    is written into every line before it is sealed, so the seal covers it.
    """
    if not 1 <= attempts <= MAX_ATTEMPTS:
        raise RunnerError(f"attempts must be between 1 and {MAX_ATTEMPTS}, not {attempts}")
    if not 1 <= parallel <= MAX_PARALLEL:
        raise RunnerError(f"parallel must be between 1 and {MAX_PARALLEL}, not {parallel}")
    jobs: list[Job] = [(case, attempt) for case in cases for attempt in range(attempts)]
    results: list[AttemptResult | None] = [None] * len(jobs)

    def finished(index: int, result: AttemptResult) -> None:
        if producer is not None:
            result = AttemptResult(result.prediction | {"producer": producer.as_json()}, result.seconds)
        if sealer is not None:
            result = sealer.seal(result)
        results[index] = result
        if on_result is not None:
            on_result(result)

    if parallel == 1:
        for index, (case, attempt) in enumerate(jobs):
            finished(index, _guarded(case, agent, limits, attempt, isolation))
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=parallel, thread_name_prefix="finscore-run") as pool:
            futures = {
                pool.submit(_guarded, case, agent, limits, attempt, isolation): index for index, (case, attempt) in enumerate(jobs)
            }
            for future in concurrent.futures.as_completed(futures):
                finished(futures[future], future.result())
    return [result for result in results if result is not None]
