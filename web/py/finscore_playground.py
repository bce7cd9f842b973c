"""The playground's Python side: turns what a person pasted into calls of the finscore package.

The page's JavaScript never reads program text, never parses a table and never
does arithmetic: it hands the raw text to these functions (under Pyodide, in a
Web Worker) and shows the JSON they return. Every number shown on the page is
formatted here by Python (`repr`, `float.hex`), so `-0.0` and the exact digits
survive the trip to JavaScript, which would print `-0.0` as `0`.

The same module runs under CPython in the tests, which is how the page's answers
are compared with the package's.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any, Callable, Sequence

from finscore import Execution, execute, execute_many
from finscore.commands.execute import describe_argument
from finscore.engine.api import check_options
from finscore.engine.text_input import (
    MAX_PROGRAM_CHARS,
    MAX_TABLE_CHARS,
    TABLE_FORMATS,
    TextInputError,
    bounded_text,
    detect_table_format,
    program_notes,
    read_program_text,
    read_table_text,
)

__all__ = ["TABLE_FORMATS", "PlaygroundInputError", "detect_table_format", "execute_rows", "execution_view",
           "prepare_scorer", "read_program_text", "read_table_text", "run_program", "score_files", "value_text"]

#: Bounds on what one request may hold: the page is a tool, not a bulk service. Programs and
#: tables have the bounds of `finscore.engine.text_input`, as on the command line.
MAX_REQUEST_CHARS = MAX_PROGRAM_CHARS + MAX_TABLE_CHARS + 10_000
MAX_ROWS_CHARS = 20_000_000
MAX_ROWS_PER_CALL = 1_000_000

#: Input the page cannot use, with a message meant for the person who typed it: the same
#: error as the command line's (program and table text are read by one module for both).
PlaygroundInputError = TextInputError


def _check_options(profile: str, python: str) -> None:
    try:
        check_options(profile, python)
    except ValueError as error:
        raise PlaygroundInputError(str(error)) from None


# -- showing an execution ------------------------------------------------------------

def value_text(value: Any) -> str | None:
    """Python's own spelling of a value: repr for numbers (keeps -0.0, inf, nan), text as is."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return repr(value)


def execution_view(execution: Execution, notes: list[str] | None = None) -> dict[str, Any]:
    """The execution's JSON form plus the texts the page shows, all spelled by Python;
    `notes`: what to tell the person about the program (see text_input.program_notes)."""
    view = execution.to_json()
    view["notes"] = notes or []
    for step_json, step in zip(view["steps"], execution.steps):
        step_json["value_text"] = value_text(step.value)
        step_json["arguments_text"] = [describe_argument(argument) for argument in step.arguments]
    view["status_description"] = execution.status_description
    view["result_text"] = value_text(execution.result)
    view["result_hex"] = execution.result.hex() if isinstance(execution.result, float) else None
    view["unrounded_text"] = value_text(execution.unrounded)
    return view


def _answer(work: Callable[[], dict[str, Any]]) -> str:
    """Run one request; a bad input becomes {"ok": false, "error": ...}, never a traceback."""
    try:
        body = work()
    except (PlaygroundInputError, json.JSONDecodeError) as error:
        return json.dumps({"ok": False, "error": str(error)})
    return json.dumps({"ok": True, **body}, ensure_ascii=False, allow_nan=False)


def run_program(request_json: str) -> str:
    """One program from the step view.

    request: {"program": text, "table": text, "table_format": "auto"|"json"|"tab"|"pipe",
    "profile": "official"|"strict", "python": "3.11"|"3.12"}.
    """

    def work() -> dict[str, Any]:
        request = json.loads(bounded_text(request_json, "the request", MAX_REQUEST_CHARS))
        if not isinstance(request, dict):
            raise PlaygroundInputError("the request must be a JSON object")
        profile, python = request.get("profile", "official"), request.get("python", "3.11")
        _check_options(profile, python)
        program = read_program_text(request.get("program", ""))
        table, used = read_table_text(request.get("table", ""), request.get("table_format", "auto"))
        execution = execute(program, table, profile=profile, python=python)
        return {
            "execution": execution_view(execution, program_notes(program, execution)),
            "program_kind": "tokens" if isinstance(program, list) else "string",
            "table_format": used,
            "table_format_text": TABLE_FORMATS.get(used, "no table"),
            "table_rows": len(table) if isinstance(table, list) else 0,
        }

    return _answer(work)


# -- many rows at once (the recorded vectors) ----------------------------------------

def execute_rows(rows_json: str, profile: str = "official") -> str:
    """Execute [{"program", "table", "python"}, ...] in as few core calls as possible.

    Rows are grouped by `python` (the summation rule) and each group goes through
    one `execute_many`; answers come back in input order as {"invalid", "result"}
    with the result as the recorded vectors write it ({"float": hex} or {"str": text}).
    """

    def work() -> dict[str, Any]:
        rows = json.loads(bounded_text(rows_json, "the rows", MAX_ROWS_CHARS))
        if not isinstance(rows, list) or len(rows) > MAX_ROWS_PER_CALL:
            raise PlaygroundInputError(f"rows must be a list of at most {MAX_ROWS_PER_CALL:,} objects")
        groups: dict[str, list[int]] = {}
        for position, row in enumerate(rows):
            if not isinstance(row, dict) or "program" not in row:
                raise PlaygroundInputError(f"row {position} is not an object with a program")
            python = row.get("python") or "3.11"
            _check_options(profile, python)
            groups.setdefault(python, []).append(position)
        answers: list[dict[str, Any] | None] = [None] * len(rows)
        for python, positions in groups.items():
            pairs = [(rows[p]["program"], rows[p].get("table")) for p in positions]
            for position, execution in zip(positions, execute_many(pairs, profile=profile, python=python)):
                answers[position] = {"invalid": execution.invalid, "result": execution.vector_result()}
        return {"answers": answers}

    return _answer(work)


# -- the file scorer ---------------------------------------------------------------

#: Failing examples listed by the text report (the command line's default).
TEXT_REPORT_EXAMPLES = 10


def prepare_scorer() -> None:
    """Import the file scorer and sympy now, while the page waits, not on the first click."""
    import sympy  # noqa: F401  (program equivalence falls back to it)

    import finscore.finqa.scoring  # noqa: F401


def _upload_name(name: str, fallback: str) -> str:
    """A file name fit for the in-memory file system: its last component, bounded."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].replace("\0", "")[:200]
    return base if base not in ("", ".", "..") else fallback


def _decode(data: bytes, name: str, what: str) -> Any:
    """Decode an uploaded file exactly as `finscore finqa` decodes a file on disk.

    The bytes go to Pyodide's in-memory file system (nothing leaves the browser)
    and through the command line's own reader, so the encoding rules and the
    error messages are the command line's; the scratch folder is cut from them.
    """
    from finscore.finqa.files import read_json_file
    from finscore.finqa.inputs import FinqaInputError

    with tempfile.TemporaryDirectory(prefix="finscore-upload-") as scratch:
        path = Path(scratch) / _upload_name(name, f"{what.replace(' ', '_')}.json")
        path.write_bytes(data)
        try:
            return read_json_file(path, what)
        except FinqaInputError as error:
            raise PlaygroundInputError(str(error).replace(f"{scratch}/", "")) from None


def _figure_texts(report_json: dict[str, Any]) -> dict[str, Any]:
    """Each accuracy as Python prints it (0.0 stays 0.0), by profile, denominator and metric."""
    return {
        profile: {
            denominator: {
                metric: "undefined (no denominator)" if figure["value"] is None else repr(figure["value"])
                for metric, figure in metrics.items()
            }
            for denominator, metrics in by_denominator.items()
        }
        for profile, by_denominator in report_json["figures"].items()
    }


def _failing_examples(report: Any, gold: Any) -> list[dict[str, Any]]:
    """Every failing prediction, in gold order, with what the step view needs to replay it:
    the predicted tokens, the gold table, and its outcome as Python spells it."""
    tables = {example.get("id"): example.get("table") for example in (gold if isinstance(gold, list) else ())
              if isinstance(example, dict)}
    failing = []
    for row in report.examples:
        execution = row.execution
        if row.execution_correct or row.predicted_tokens is None or execution is None:
            continue
        if execution.invalid:
            where = "" if execution.failed_step is None else f" at #{execution.failed_step}"
            outcome = f"{execution.status_name}{where}"
        else:
            outcome = f"predicted {value_text(execution.result)}, gold {value_text(row.gold_answer)}"
        failing.append({
            "id": row.id,
            "category": row.category,
            "outcome": outcome,
            "predicted_tokens": list(row.predicted_tokens),
            "table": tables.get(row.id),
            "gold_program": row.gold_program,
            "gold_answer_text": value_text(row.gold_answer),
        })
    return failing


def score_files(predictions: Any, predictions_name: str, gold: Any, gold_name: str, options_json: str = "{}",
                progress: Callable[[str, int, int], None] | None = None) -> str:
    """Score a prediction file against a gold file, as `finscore finqa PREDICTIONS GOLD --json OUT` does.

    `predictions` and `gold` are the files' bytes (a JavaScript Uint8Array under
    Pyodide). options: {"profile", "python", "exclude_bad_ids"}. The answer holds
    the command line's JSON report, its text report, and the failing predictions
    ready for the step view.
    """
    from finscore.finqa.inputs import FinqaInputError
    from finscore.finqa.scoring import score_predictions
    from finscore.finqa.terminal import render_report

    def work() -> dict[str, Any]:
        options = json.loads(options_json)
        profile, python = options.get("profile", "official"), options.get("python", "3.11")
        _check_options(profile, python)
        predictions_data = _decode(_as_bytes(predictions), predictions_name, "prediction file")
        gold_data = _decode(_as_bytes(gold), gold_name, "gold file")
        try:
            report = score_predictions(predictions_data, gold_data, profile=profile, python=python,
                                       exclude_bad_ids=bool(options.get("exclude_bad_ids", False)),
                                       progress=progress)
        except FinqaInputError as error:
            raise PlaygroundInputError(str(error)) from None
        report_json = report.to_json()
        return {
            "report": report_json,
            # the JSON report as `finscore finqa --json OUT` writes it, for the page's "save" link
            "report_file": json.dumps(report_json, ensure_ascii=False, indent=1) + "\n",
            "figure_texts": _figure_texts(report_json),
            "text": render_report(report, examples=TEXT_REPORT_EXAMPLES),
            "failing": _failing_examples(report, gold_data),
        }

    return _answer(work)


def _as_bytes(data: Any) -> bytes:
    """Bytes from Python bytes or a JavaScript buffer (Pyodide's JsProxy has to_bytes)."""
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    to_bytes = getattr(data, "to_bytes", None)
    if to_bytes is None:
        raise PlaygroundInputError("a file must arrive as bytes")
    return bytes(to_bytes())
