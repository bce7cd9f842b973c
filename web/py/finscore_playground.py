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
import re
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
from finscore.streams import as_written

__all__ = ["BENCHMARKS", "TABLE_FORMATS", "PlaygroundInputError", "answer_gold", "answer_options", "compare_files",
           "decide_answer",
           "decide_benchmark", "detect_table_format",
           "execute_rows", "execution_view", "prepare_scorer", "read_program_text", "read_table_text", "run_program",
           "score_files", "value_text"]

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

#: The benchmarks the file scorer takes, each scored by its own command's code: what the page
#: says it used, what its files look like (for messages), and the command line it reproduces.
BENCHMARKS: dict[str, dict[str, str]] = {
    "finqa": {
        "name": "FinQA",
        "protocol": "Scored under FinQA's official protocol (evaluate.py), as finscore finqa scores it.",
        "predictions": 'a FinQA prediction file (a JSON list of {"id", "predicted": [tokens]}, one per example)',
        "gold": 'a FinQA gold file (a JSON list of examples with "id", "qa" and "table")',
        "command": "finscore finqa",
    },
    "convfinqa": {
        "name": "ConvFinQA",
        "protocol": "Scored under ConvFinQA's official protocol (the authors' evaluate_result), "
                    "as finscore convfinqa scores it.",
        "predictions": 'a ConvFinQA prediction file (a JSON list of {"id": "<conversation id>#t<turn>", '
                       '"predicted": [tokens]}, one per turn)',
        "gold": 'a ConvFinQA conversation file (a JSON list of conversations with "id", "annotation" and "table")',
        "command": "finscore convfinqa",
    },
    "tatqa": {
        "name": "TAT-QA",
        "protocol": "Scored under TAT-QA's official protocol (tatqa_eval.py), as finscore tatqa scores it.",
        "predictions": "a TAT-QA prediction file (a JSON object {question uid: [answer, scale]})",
        "gold": 'a TAT-QA gold file (a JSON list of tables with "table", "paragraphs" and "questions")',
        "command": "finscore tatqa",
    },
}
#: ConvFinQA turn ids: `<conversation id>#t<turn>`, or the turn files' `<conversation id>_<turn>`.
_TURN_ID = re.compile(r".+(?:#t|_)(?:0|[1-9][0-9]{0,5})")
#: How many entries the shape is read from: a file's kind shows in its first entries.
SHAPE_SAMPLE = 1000


def prepare_scorer() -> None:
    """Import the file scorers and sympy now, while the page waits, not on the first click."""
    import sympy  # noqa: F401  (program equivalence falls back to it)

    import finscore.convfinqa.scoring  # noqa: F401
    import finscore.finqa.scoring  # noqa: F401
    import finscore.tatqa.scoring  # noqa: F401


def _upload_name(name: str, fallback: str) -> str:
    """A file name fit for the in-memory file system: its last component, bounded."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].replace("\0", "")[:200]
    return base if base not in ("", ".", "..") else fallback


class _Uploads:
    """The two uploaded files in a scratch folder of Pyodide's in-memory file system (nothing
    leaves the browser), so each command's own reader reads them from a path, exactly as on the
    command line; the scratch folder is cut from its messages."""

    def __init__(self, scratch: str, predictions: bytes, predictions_name: str, gold: bytes, gold_name: str):
        self.scratch = scratch
        self.predictions = self._place("predictions", predictions, predictions_name, "prediction_file.json")
        self.gold = self._place("gold", gold, gold_name, "gold_file.json")

    def _place(self, folder: str, data: bytes, name: str, fallback: str) -> Path:
        # one folder per file, so two uploads of one name do not overwrite each other
        path = Path(self.scratch) / folder / _upload_name(name, fallback)
        path.parent.mkdir()
        path.write_bytes(data)
        return path

    def message(self, error: Exception) -> str:
        text = str(error)
        for folder in ("predictions", "gold"):
            text = text.replace(f"{self.scratch}/{folder}/", "")
        return text

    def read(self, read: Callable[[], Any], errors: type[Exception] | tuple[type[Exception], ...]) -> Any:
        """Run a command's reader or scorer; its input error becomes the page's, with the command's words."""
        try:
            return read()
        except errors as error:
            raise PlaygroundInputError(self.message(error)) from None


def _prediction_kinds(data: Any) -> set[str]:
    """The benchmarks whose prediction file could look like this (empty: none)."""
    if isinstance(data, dict):
        return {"tatqa"}
    if not isinstance(data, list) or not all(isinstance(entry, dict) for entry in data[:SHAPE_SAMPLE]):
        return set()
    ids = [entry.get("id") for entry in data[:SHAPE_SAMPLE]]
    turns = sum(isinstance(i, str) and _TURN_ID.fullmatch(i) is not None for i in ids)
    if ids and turns == len(ids):
        return {"convfinqa"}
    if ids and turns == 0:
        return {"finqa"}
    return {"finqa", "convfinqa"}  # empty, or ids of both forms: the gold file decides


def _gold_kinds(data: Any) -> set[str]:
    """The benchmarks whose gold file could look like this (empty: none)."""
    if not isinstance(data, list):
        return set()
    if not data:
        return set(BENCHMARKS)
    kinds = set()
    for entry in data[:SHAPE_SAMPLE]:
        if isinstance(entry, dict):
            if "annotation" in entry:  # a ConvFinQA conversation may carry a FinQA "qa" as well
                kinds.add("convfinqa")
            elif "questions" in entry:
                kinds.add("tatqa")
            elif "qa" in entry:
                kinds.add("finqa")
    return kinds


def _json_kind(data: Any) -> str:
    names = {dict: "a JSON object", list: "a JSON list", str: "a JSON string", bool: "a JSON boolean"}
    return "an empty JSON list" if data == [] else names.get(type(data), "a JSON number or null")


def _described(kinds: set[str], what: str, data: Any) -> str:
    if len(kinds) == 1:
        return BENCHMARKS[next(iter(kinds))][what]
    return _json_kind(data) + ("" if kinds else " of no shape the page knows")


def decide_benchmark(predictions: Any, gold: Any) -> tuple[str, str]:
    """(benchmark, the sentence saying how it was decided) from the decoded files' shapes.

    Raises PlaygroundInputError naming what was expected when a file has no known shape, when
    the two files are of different benchmarks, or when the shapes fit more than one."""
    expected_predictions = "; ".join(b["predictions"] for b in BENCHMARKS.values())
    expected_gold = "; ".join(b["gold"] for b in BENCHMARKS.values())
    from_predictions, from_gold = _prediction_kinds(predictions), _gold_kinds(gold)
    if not from_predictions:
        raise PlaygroundInputError(f"The prediction file is {_json_kind(predictions)}, not a shape the page scores. "
                                   f"Expected {expected_predictions}.")
    if not from_gold:
        raise PlaygroundInputError(f"The gold file is {_json_kind(gold)} of no shape the page knows. "
                                   f"Expected {expected_gold}.")
    if len(from_gold) > 1 and len(from_gold) < len(BENCHMARKS):
        raise PlaygroundInputError("The gold file mixes entries of " + " and ".join(
            BENCHMARKS[k]["name"] for k in sorted(from_gold)) + f" files. Expected {expected_gold}.")
    both = from_predictions & from_gold
    if not both:
        raise PlaygroundInputError(
            f"The two files are of different benchmarks: the prediction file is "
            f"{_described(from_predictions, 'predictions', predictions)}, but the gold file is "
            f"{_described(from_gold, 'gold', gold)}.")
    if len(both) > 1:
        raise PlaygroundInputError(
            "Cannot tell from these files whether they are " + " or ".join(BENCHMARKS[k]["name"] for k in sorted(both))
            + " files (the prediction file is " + _json_kind(predictions) + ", the gold file "
            + _json_kind(gold) + "); choose the benchmark under Protocol.")
    benchmark = both.pop()
    return benchmark, (f"Decided from the files' shape: the prediction file is {BENCHMARKS[benchmark]['predictions']}, "
                       f"the gold file is {BENCHMARKS[benchmark]['gold']}.")


def _figure_card(label: str, figure: dict[str, Any], unit: str) -> dict[str, Any]:
    """A figure as the page shows it: the float (for rounding by the core), Python's repr of it,
    and its numerator and denominator."""
    value = figure["value"]
    return {"label": label, "value": value,
            "text": "undefined (no denominator)" if value is None else repr(value),
            "fraction": f"{figure['correct']} / {figure['total']} {unit}"}


_PROGRAM_DENOMINATORS = {
    "per_prediction": ("per prediction (the official denominator)", "predictions"),
    "per_gold_example": ("per gold example (a missing prediction counts as a failure)", "gold examples"),
}


#: With exclusions the official figures are the official scorer's on the file as given, and the
#: per-prediction figures over the kept entries are finscore's (as in the terminal report).
_KEPT_PREDICTIONS = ("per kept prediction (after finscore's exclusions)", "kept predictions")


def _official_cards(official: dict[str, Any]) -> list[dict[str, Any]]:
    """The official scorer's own figures on the file as given, or where it would stop (no figures)."""
    if official["stop"] is not None:
        stop = official["stop"]
        return [{"label": "Official figures: none (on the file as given the official scorer stops at entry "
                          f"{stop['position']} with {stop['exception']})", "value": None, "text": "none",
                 "fraction": "no figures"}]
    words = "per prediction, the official scorer on the file as given (exclusions included)"
    return [_figure_card(f"{name}, {words}", official[metric], "entries")
            for metric, name in (("execution_accuracy", "Execution accuracy"), ("program_accuracy", "Program accuracy"))]


def _program_cards(report_json: dict[str, Any], turns: bool) -> list[dict[str, Any]]:
    """Execution and program accuracy over both denominators (FinQA, and ConvFinQA's turns)."""
    own = report_json["figures"][report_json["profile"]]
    official = report_json.get("official")
    separate = bool(report_json.get("exclusions")) and official is not None and report_json["profile"] != "strict"
    cards = _official_cards(official) if separate and official is not None else []
    for denominator, (words, unit) in _PROGRAM_DENOMINATORS.items():
        if separate and denominator == "per_prediction":
            words, unit = _KEPT_PREDICTIONS
        if turns:
            words, unit = words.replace("gold example", "gold turn"), unit.replace("gold examples", "gold turns")
        for metric, name in (("execution_accuracy", "Execution accuracy"), ("program_accuracy", "Program accuracy")):
            cards.append(_figure_card(f"{name}, {words}", own[denominator][metric], unit))
    if turns:
        everything = report_json["conversations"][0]
        for key, name in (("every_turn_execution_correct", "executed right"),
                          ("every_turn_program_correct", "with an equivalent program")):
            cards.append(_figure_card(f"Conversations with every turn {name}", everything[key], "conversations"))
    return cards


_TATQA_FIGURES = (
    ("official", "official (denominator: gold questions; a missing uid scores 0)", "gold questions"),
    ("per_prediction", "over the scored predictions only", "scored predictions"),
)
#: In place of the official figures when the official script would stop (it prints none).
_TATQA_HONEST = ("honest", "over every gold question (the official script would stop and print none)",
                 "gold questions")


def _tatqa_cards(report_json: dict[str, Any]) -> list[dict[str, Any]]:
    cards = []
    for group, words, unit in _TATQA_FIGURES:
        if report_json[group] is None:
            group, words, unit = _TATQA_HONEST
        figures = report_json[group]
        for metric, name in (("em", "Exact match"), ("f1", "F1"), ("scale", "Scale score")):
            value = figures[metric]
            cards.append({"label": f"{name}, {words}", "value": value,
                          "text": "undefined (no denominator)" if value is None else repr(value),
                          "fraction": f"over {figures['denominator']} {unit}"})
    return cards


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


def _failing_turns(report: Any) -> list[dict[str, Any]]:
    """ConvFinQA's failing turns, listed (the step view runs FinQA's profiles, not ConvFinQA's)."""
    return [{"id": row["id"], "category": row["category"],
             "outcome": row["status"] if row["status"] != "ok" else
             f"predicted {value_text(row['predicted_answer'])}, gold {value_text(row['gold_answer'])}"}
            for row in report["examples"] if row["category"] not in ("correct", "missing_prediction")
            and not row["execution_correct"]]


def _failing_questions(report_json: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"id": row["uid"], "category": row["reason"],
             "outcome": f"“{row['question']}” gold {json.dumps(row['gold_answer'], ensure_ascii=False)} "
                        f"{row['gold_scale']!r}, predicted {json.dumps(row['predicted_answer'], ensure_ascii=False)} "
                        f"{row['predicted_scale']!r}" + (f" ({row['detail']})" if row["detail"] else "")}
            for row in report_json["questions"] if row["reason"] != "correct"]


def _score_program_files(uploads: _Uploads, benchmark: str, options: dict[str, Any],
                         progress: Callable[[str, int, int], None] | None) -> dict[str, Any]:
    """FinQA or ConvFinQA: read and scored by `finscore finqa` / `finscore convfinqa`'s own code."""
    from finscore.convfinqa.scoring import score_convfinqa
    from finscore.convfinqa.terminal import render_convfinqa
    from finscore.finqa.files import read_json_file
    from finscore.finqa.inputs import FinqaInputError
    from finscore.finqa.scoring import score_predictions
    from finscore.finqa.terminal import render_report
    from finscore.stats.benchmarks import UnitError, attach_intervals

    profile, python = options.get("profile", "official"), options.get("python", "3.11")
    _check_options(profile, python)
    exclude = bool(options.get("exclude_bad_ids", False))
    predictions = uploads.read(lambda: read_json_file(uploads.predictions, "prediction file"), FinqaInputError)
    gold = uploads.read(lambda: read_json_file(uploads.gold, "gold file"), FinqaInputError)
    if benchmark == "convfinqa":
        report = uploads.read(lambda: score_convfinqa(predictions, gold, python=python, exclude_bad_ids=exclude,
                                                      progress=progress), FinqaInputError)
        # the headline intervals with the command's defaults, so the page's report is the CLI's (issue #33)
        report = uploads.read(lambda: attach_intervals("convfinqa", report, gold), (FinqaInputError, UnitError))
        report_json = report.to_json()
        return {"report": report_json, "text": render_convfinqa(report, examples=TEXT_REPORT_EXAMPLES),
                "cards": _program_cards(report_json, turns=True), "chart": report_json["categories"],
                "failing": _failing_turns(report_json), "failing_opens": False}
    report = uploads.read(lambda: score_predictions(predictions, gold, profile=profile, python=python,
                                                    exclude_bad_ids=exclude, progress=progress), FinqaInputError)
    report = uploads.read(lambda: attach_intervals("finqa", report, gold), (FinqaInputError, UnitError))
    report_json = report.to_json()
    return {"report": report_json, "text": render_report(report, examples=TEXT_REPORT_EXAMPLES),
            "cards": _program_cards(report_json, turns=False), "chart": report_json["categories"],
            "failing": _failing_examples(report, gold), "failing_opens": True}


def _score_tatqa_files(uploads: _Uploads, options: dict[str, Any],
                       progress: Callable[[str, int, int], None] | None) -> dict[str, Any]:
    """TAT-QA: read and scored by `finscore tatqa`'s own code (its reader keeps repeated uids)."""
    from finscore.tatqa.files import TatqaInputError, read_gold_file, read_predictions_file
    from finscore.tatqa.scoring import score_predictions
    from finscore.tatqa.terminal import render_report
    from finscore.stats.benchmarks import UnitError, attach_intervals

    predictions, pairs = uploads.read(lambda: read_predictions_file(uploads.predictions), TatqaInputError)
    gold = uploads.read(lambda: read_gold_file(uploads.gold), TatqaInputError)
    report = uploads.read(lambda: score_predictions(predictions, pairs, gold,
                                                    exclude_bad_ids=bool(options.get("exclude_bad_ids", False)),
                                                    progress=progress), TatqaInputError)
    report = uploads.read(lambda: attach_intervals("tatqa", report, gold), (TatqaInputError, UnitError))
    report_json = report.to_json()
    return {"report": report_json, "text": render_report(report, examples=TEXT_REPORT_EXAMPLES),
            "cards": _tatqa_cards(report_json), "chart": report_json["reasons"],
            "failing": _failing_questions(report_json), "failing_opens": False}


def _shapes(uploads: _Uploads) -> tuple[str, str]:
    """Decode both files with the command line's JSON reader and decide the benchmark from their shapes."""
    from finscore.finqa.files import read_json_file
    from finscore.finqa.inputs import FinqaInputError

    predictions = uploads.read(lambda: read_json_file(uploads.predictions, "prediction file"), FinqaInputError)
    gold = uploads.read(lambda: read_json_file(uploads.gold, "gold file"), FinqaInputError)
    return decide_benchmark(predictions, gold)


def score_files(predictions: Any, predictions_name: str, gold: Any, gold_name: str, options_json: str = "{}",
                progress: Callable[[str, int, int], None] | None = None) -> str:
    """Score a prediction file against a gold file, as `finscore finqa|convfinqa|tatqa PREDICTIONS GOLD
    --json OUT` does; the benchmark is decided from the files' shapes unless options name it.

    `predictions` and `gold` are the files' bytes (a JavaScript Uint8Array under
    Pyodide). options: {"benchmark": "auto"|"finqa"|"convfinqa"|"tatqa", "profile",
    "python" (FinQA; ConvFinQA takes python), "exclude_bad_ids"}. The answer holds
    the command line's JSON report and text report, the figures as the page shows
    them, and the failing entries.
    """

    def work() -> dict[str, Any]:
        options = json.loads(options_json)
        if not isinstance(options, dict):
            raise PlaygroundInputError("the options must be a JSON object")
        chosen = options.get("benchmark", "auto")
        if chosen != "auto" and chosen not in BENCHMARKS:
            raise PlaygroundInputError(f"no benchmark {chosen!r}; choose auto, {', '.join(BENCHMARKS)}")
        with tempfile.TemporaryDirectory(prefix="finscore-upload-") as scratch:
            uploads = _Uploads(scratch, _as_bytes(predictions), predictions_name, _as_bytes(gold), gold_name)
            if chosen == "auto":
                benchmark, decided = _shapes(uploads)
            else:
                benchmark, decided = chosen, f"{BENCHMARKS[chosen]['name']} was chosen under Protocol."
            answer = (_score_tatqa_files(uploads, options, progress) if benchmark == "tatqa"
                      else _score_program_files(uploads, benchmark, options, progress))
        return {
            **answer,
            "text": as_written(answer["text"]),  # a lone surrogate shown as the command prints it
            "benchmark": benchmark,
            "benchmark_name": BENCHMARKS[benchmark]["name"],
            "protocol_text": BENCHMARKS[benchmark]["protocol"],
            "decided_text": decided,
            "command": BENCHMARKS[benchmark]["command"],
            # the JSON report as the command's --json OUT writes it, for the page's "save" link
            "report_file": as_written(json.dumps(answer["report"], ensure_ascii=False, indent=1) + "\n"),
        }

    return _answer(work)


# -- answer mode: how a pasted completion was read ------------------------------------

#: A completion and its gold, pasted: protocols refuse an answer of more than 10,000 characters,
#: and the page needs no more than this to show that.
MAX_ANSWER_REQUEST_CHARS = 200_000
#: TAT-QA answer types whose gold is a JSON number in the data (the others are text spans).
_NUMERIC_ANSWER_TYPES = ("arithmetic", "count")


def answer_options() -> str:
    """The protocols (`finscore.answers.protocol_names()`) and answer formats (`FORMATS`) the
    answer mode offers, with what the page shows of each protocol."""
    from finscore.answers import FORMATS, get_protocol, protocol_names

    def work() -> dict[str, Any]:
        protocols = []
        for name in protocol_names():
            protocol = get_protocol(name)
            protocols.append({"name": name, "title": protocol.title, "gold_reader": protocol.gold_reader,
                              "tolerance": protocol.tolerance.describe(),
                              "formats": dict(protocol.data.get("formats", {}))})
        return {"protocols": protocols, "formats": list(FORMATS)}

    return _answer(work)


def _gold_value(text: str, numeric: bool) -> Any:
    """The gold as a data file writes it: a JSON number stays a number (exe_ans, a TAT-QA arithmetic
    answer), anything else is the text typed (yes / no, a span)."""
    stripped = text.strip()
    if not numeric:
        return stripped
    try:
        value = json.loads(stripped)
    except (json.JSONDecodeError, RecursionError):
        return stripped
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else stripped


def _financemath_value(text: str) -> Any:
    """FinanceMath's ground_truth as its data writes it: a JSON number, or a boolean (true / yes, false / no)."""
    word = text.strip().lower()
    if word in ("true", "yes", "false", "no"):
        return word in ("true", "yes")
    return _gold_value(text, True)


def answer_gold(request: dict[str, Any], gold_reader: str) -> dict[str, Any]:
    """The gold mapping `finscore.answers.decide` takes, from the page's gold fields."""
    fields = {name: request.get(name, "") for name in ("gold_answer", "gold_program", "gold_question",
                                                       "gold_scale", "gold_answer_type")}
    for name, value in fields.items():
        if not isinstance(value, str):
            raise PlaygroundInputError(f"{name} must be text")
    if gold_reader == "financemath_ground_truth":
        return {"ground_truth": _financemath_value(fields["gold_answer"]), "question": fields["gold_question"]}
    if gold_reader == "tatqa_answer":
        answer_type = fields["gold_answer_type"] or "arithmetic"
        return {"answer": _gold_value(fields["gold_answer"], answer_type in _NUMERIC_ANSWER_TYPES),
                "scale": fields["gold_scale"], "answer_type": answer_type, "question": fields["gold_question"]}
    return {"exe_ans": _gold_value(fields["gold_answer"], True), "program": fields["gold_program"],
            "question": fields["gold_question"]}


def _marked_parts(completion: str, answer: tuple[int, int] | None, number: tuple[int, int] | None,
                  marker: tuple[int, int] | None = None) -> list[list[str]]:
    """The completion cut at the format's marker, the located answer and the number read:
    [[text, "" | "marker" | "answer" | "number"], ...].
    Cut here, not in JavaScript, whose string offsets count UTF-16 units, not characters."""
    cuts = sorted({0, len(completion), *(answer or ()), *(number or ()), *(marker or ())})
    parts = []
    for start, end in zip(cuts, cuts[1:]):
        role = ("number" if number and number[0] <= start and end <= number[1] else
                "answer" if answer and answer[0] <= start and end <= answer[1] else
                "marker" if marker and marker[0] <= start and end <= marker[1] else "")
        parts.append([completion[start:end], role])
    return [part for part in parts if part[0]]


def _reading(completion: str, located: Any, answer_format: str) -> dict[str, Any]:
    """What the answer view shows of how the format read the completion: the marker it found
    ({start, end, text}, None for json, whole and last-number), the span it read, and the lenient label."""
    from finscore.answers import Located
    from finscore.answers.stamp import lenient_label

    def spanned(span: tuple[int, int] | None) -> dict[str, Any] | None:
        return None if span is None else {"start": span[0], "end": span[1], "text": completion[span[0]:span[1]]}

    found = isinstance(located, Located)
    return {"format": answer_format, "marker": spanned(located.marker) if found else None,
            "span": spanned((located.start, located.end)) if found else None, "lenient": lenient_label(answer_format)}


def decide_answer(request_json: str) -> str:
    """One completion decided as `finscore.answers.decide` decides it, with how it was read.

    request: {"completion", "protocol", "format", "gold_answer", "gold_program", "gold_question",
    "gold_scale", "gold_answer_type"}. The answer holds the Decision's fields as it writes them
    (`Decision.to_json`), the answer the format located (`Located`) or why none was, the reading
    (the marker the format found and the span it read), the gold as the protocol read it
    (`Gold`), the protocol's tolerance, and the completion cut for marking.
    """
    from finscore.answers import Located, ProtocolError, as_gold, decide, get_protocol
    from finscore.answers.decide import locator_for
    from finscore.answers.gold import GoldError

    def work() -> dict[str, Any]:
        request = json.loads(bounded_text(request_json, "the request", MAX_ANSWER_REQUEST_CHARS))
        if not isinstance(request, dict):
            raise PlaygroundInputError("the request must be a JSON object")
        completion, name, answer_format = (request.get(key) for key in ("completion", "protocol", "format"))
        if not isinstance(completion, str) or not isinstance(name, str) or not isinstance(answer_format, str):
            raise PlaygroundInputError("completion, protocol and format must be text")
        try:
            protocol = get_protocol(name)
            gold_mapping = answer_gold(request, protocol.gold_reader)
            gold = as_gold(gold_mapping, protocol)
            decision = decide(completion, gold_mapping, protocol=name, format=answer_format)
        except GoldError as error:
            raise PlaygroundInputError(f"the gold cannot be used under {name}: {error}") from None
        except ProtocolError as error:
            raise PlaygroundInputError(str(error)) from None
        located = locator_for(protocol, answer_format)(completion)  # every format, the protocol's rules
        answer_span = (located.start, located.end) if isinstance(located, Located) else None
        marker_span = located.marker if isinstance(located, Located) else None
        return {
            "protocol": protocol.name,
            "format": answer_format,
            "tolerance": protocol.tolerance.describe(),
            "decision": decision.to_json(),
            "located": located._asdict() if isinstance(located, Located) else None,
            "not_located": None if isinstance(located, Located) else {"reason": located.reason,
                                                                       "detail": located.detail},
            "reading": _reading(completion, located, answer_format),
            "gold_mapping": gold_mapping,
            "gold_read": {"value": None if gold.value is None else format(gold.value, "f"),
                          "yes_no": gold.yes_no, "text": gold.text, "points": gold.points,
                          "percentage": gold.percentage, "half_unit": format(gold.half_unit, "f"),
                          "scale": gold.scale},
            # a refusal's span is the answer's: no number was read there
            "parts": _marked_parts(completion, answer_span, decision.span if decision.read is not None else None,
                                   marker_span),
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


# -- the compare view: one completions file under every applicable peer protocol -------------

#: The benchmarks `finscore protocols compare` reads, and how their gold files look.
COMPARE_GOLD = {
    "finqa": 'a FinQA gold file (a JSON list of examples with "id", "qa" and "table")',
    "convfinqa": 'a ConvFinQA gold file (a JSON list of conversations with "id", "table" and "annotation")',
    "financemath": 'a FinanceMath gold file (a JSON list of {"question_id", "question", "ground_truth"})',
}


def _compare_benchmark(gold: Any) -> str:
    """finqa or financemath, from the gold file's first entries (PlaygroundInputError otherwise)."""
    entries = gold[:SHAPE_SAMPLE] if isinstance(gold, list) else []
    kinds = {"financemath" if "question_id" in entry and "ground_truth" in entry else "convfinqa" if "annotation" in
             entry else "finqa" if "qa" in entry else "" for entry in entries if isinstance(entry, dict)}
    if len(kinds) == 1 and "" not in kinds:
        return next(iter(kinds))
    raise PlaygroundInputError(f"The gold file is {_json_kind(gold)}, not one the compare view reads. Expected "
                               + "; or ".join(COMPARE_GOLD.values()) + ".")


def compare_files(predictions: Any, predictions_name: str, gold: Any, gold_name: str, options_json: str = "{}") -> str:
    """`finscore protocols compare PREDICTIONS --benchmark B GOLD --json OUT --html PAGE`, in the page.

    options: {"benchmark": "auto"|"finqa"|"financemath", "format": an answer format or null}. The
    answer holds the JSON report, the text report and the offline HTML page the command writes."""

    def work() -> dict[str, Any]:
        from finscore.finqa.files import read_json_file
        from finscore.finqa.inputs import FinqaInputError
        from finscore.protocols.compare import CompareInputError, compare, render
        from finscore.protocols.compare_html import render_html
        from finscore.protocols.compare_inputs import read_gold, read_predictions, with_turn_ids

        options = json.loads(options_json)
        if not isinstance(options, dict):
            raise PlaygroundInputError("the options must be a JSON object")
        chosen, answer_format = options.get("benchmark", "auto"), options.get("format")
        if chosen not in ("auto", *COMPARE_GOLD):
            raise PlaygroundInputError(f"no benchmark {chosen!r} to compare; choose auto, {', '.join(COMPARE_GOLD)}")
        errors = (CompareInputError, FinqaInputError)
        with tempfile.TemporaryDirectory(prefix="finscore-upload-") as scratch:
            uploads = _Uploads(scratch, _as_bytes(predictions), predictions_name, _as_bytes(gold), gold_name)
            benchmark = chosen if chosen != "auto" else _compare_benchmark(
                uploads.read(lambda: read_json_file(uploads.gold, "gold file"), FinqaInputError))
            completions = uploads.read(lambda: read_predictions(str(uploads.predictions), benchmark), errors)
            examples = uploads.read(lambda: read_gold(str(uploads.gold), benchmark), errors)
            if benchmark == "convfinqa":
                completions = uploads.read(lambda: with_turn_ids(completions, examples), errors)
        if answer_format is not None and not isinstance(answer_format, str):
            raise PlaygroundInputError("the answer format must be text or null")
        report = uploads.read(lambda: compare(completions, examples, benchmark, answer_format=answer_format), errors)
        return {"benchmark": benchmark, "report": report, "text": as_written(render(report, 10)),
                "html": as_written(render_html(report)),
                "report_file": as_written(json.dumps(report, ensure_ascii=False, indent=1) + "\n")}

    return _answer(work)
