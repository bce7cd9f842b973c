"""Scoring a finished run with the typed scorer (`finscore.contracts`) and writing its report.

The runner decides nothing about correctness: it hands the predictions file it
wrote to the same scorer `finscore contracts` uses, so a run scored here and
the same file scored later by hand give the same report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from finscore.contracts import build_report, evaluate, read_predictions, render_report_html
from finscore.contracts.checks.integrity import Verification
from finscore.contracts.stats import DEFAULT_REPLICATES, DEFAULT_SEED
from finscore.inputs import FinscoreError, dumps_pretty
from finscore.outputs import write_text_atomically
from finscore.runner.cases import CaseSet
from finscore.runner.errors import RunnerError

REPORT_FILE = "report.json"
HTML_FILE = "report.html"
#: The first line of every report of a run whose agent ran without the OS sandbox.
UNSANDBOXED_STATEMENT = (
    "Unsandboxed run ({why}): the agent's process was fenced only by an in-process guard, which a "
    "hostile agent can switch off, so nothing here shows the agent could not read the contracts, the "
    "key or the outputs; do not read it as a sandboxed evaluation."
)


def score_predictions(
    case_set: CaseSet,
    predictions: Path,
    attempts: int,
    *,
    seed: int = DEFAULT_SEED,
    replicates: int = DEFAULT_REPLICATES,
    scripted: bool = False,
    verification: Verification | None = None,
    unsandboxed: str | None = None,
) -> dict[str, Any]:
    """The scorer's JSON report of a predictions file against the case set it was run on.

    `scripted`: the predictions come from a scripted agent, and the report says so.
    `verification`: the key the run was sealed with (None: seals not verified, replay only).
    `unsandboxed`: why the agent ran without the OS sandbox; the report's first key then says so.
    """
    check = verification if verification is not None else Verification(key=None, replay=True)
    try:
        evaluation = evaluate(list(case_set.cases), read_predictions(predictions), attempts, check)
        report = build_report(evaluation, seed=seed, replicates=replicates, scripted=scripted)
    except FinscoreError as error:
        raise RunnerError(f"scoring failed: {error}") from None
    if unsandboxed is not None:
        report = {"unsandboxed": UNSANDBOXED_STATEMENT.format(why=unsandboxed), **report}
    return report


def write_report(directory: Path, report: dict[str, Any]) -> tuple[Path, Path]:
    """report.json and its self-contained HTML twin."""
    json_path = write_text_atomically(directory / REPORT_FILE, dumps_pretty(report))
    html_path = write_text_atomically(directory / HTML_FILE, render_report_html(report))
    return json_path, html_path
