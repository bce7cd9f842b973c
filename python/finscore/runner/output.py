"""Writing a run to disk: the predictions file the scorer reads, and a manifest for humans.

`predictions.jsonl` is deterministic (same agent behaviour, same bytes). The
manifest `run.json` says how the run was made and keeps wall-clock durations,
which are not deterministic and therefore never go into the predictions.
Files are written to a temporary name and renamed, so an interrupted run never
leaves a half-written file under the final name. A run also marks its folder
while it runs (`begin_output`: the marker first, then the previous run's files
removed; `finish_output`: the marker removed once every file is written), so a
killed run leaves the marker and its own files only, never a mix with an older
run's, and the scorer refuses a folder that has the marker.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Mapping, Sequence

from finscore.contracts.formats.predictions import INCOMPLETE_MARKER
from finscore.contracts.formats.provenance import Producer
from finscore.inputs import dumps_json
from finscore.outputs import OutputError, write_text_atomically
from finscore.runner.episode import AttemptResult
from finscore.runner.errors import RunnerError
from finscore.runner.limits import Limits

PREDICTIONS_FILE = "predictions.jsonl"
MANIFEST_FILE = "run.json"
#: Every file a run writes in its folder (the report's two are runner.reporting's names).
RUN_FILES = (PREDICTIONS_FILE, MANIFEST_FILE, "report.json", "report.html")


def begin_output(directory: Path, run_id: str) -> None:
    """Mark `directory` as holding a run in progress, then remove a previous run's files from it."""
    write_text_atomically(directory / INCOMPLETE_MARKER, json.dumps({"format": "finscore-run-incomplete/1",
                                                                     "run_id": run_id}) + "\n")
    for name in RUN_FILES:
        try:
            (directory / name).unlink(missing_ok=True)
        except OSError as error:
            raise OutputError(f"cannot remove the previous run's {directory / name}: {error.strerror or error}") from None


def finish_output(directory: Path) -> None:
    """Every file of the run is written: remove the in-progress marker."""
    try:
        (directory / INCOMPLETE_MARKER).unlink()
    except OSError as error:
        raise OutputError(f"cannot remove {directory / INCOMPLETE_MARKER}: {error.strerror or error}") from None


def predictions_text(
    results: Sequence[AttemptResult],
    producer: Producer | None = None,
    run_seal: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
) -> str:
    """One line per attempt; each carries `producer` so that re-scoring the file keeps what made it.

    A sealed line already carries its producer (run_cases writes it before sealing):
    adding one here would change what the seal covers, so that is refused. `run_seal`:
    the run's sealed header and footer, written first and last.
    """
    if producer is not None and any("seal" in result.prediction for result in results):
        raise RunnerError("sealed lines get their producer before sealing (run_cases(producer=...)), not here")
    extra = {} if producer is None else {"producer": producer.as_json()}
    lines = [dumps_json(result.prediction | extra) + "\n" for result in results]
    if run_seal is not None:
        header, footer = run_seal
        lines = [dumps_json(header) + "\n", *lines, dumps_json(footer) + "\n"]
    return "".join(lines)


def write_predictions(
    directory: Path,
    results: Sequence[AttemptResult],
    producer: Producer | None = None,
    run_seal: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
) -> Path:
    return write_text_atomically(directory / PREDICTIONS_FILE, predictions_text(results, producer, run_seal))


def manifest(agent: str, cases: str, attempts: int, limits: Limits, results: Sequence[AttemptResult]) -> dict[str, Any]:
    statuses = Counter(result.prediction["status"] for result in results)
    return {
        "format": "finscore-run/1",
        "agent": agent,
        "cases": cases,
        "attempts": attempts,
        "limits": {
            "deadline_seconds": limits.deadline_seconds,
            "max_turns": limits.max_turns,
            "max_tool_calls": limits.max_tool_calls,
        },
        "predictions": PREDICTIONS_FILE,
        "statuses": dict(sorted(statuses.items())),
        "durations_seconds_not_deterministic": {
            f"{result.prediction['case_id']}/{result.prediction['attempt']}": round(result.seconds, 3)
            for result in results
        },
    }


def write_manifest(directory: Path, content: Mapping[str, Any]) -> Path:
    return write_text_atomically(directory / MANIFEST_FILE, json.dumps(content, ensure_ascii=False, indent=2) + "\n")
