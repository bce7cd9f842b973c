"""`finscore exec` and `finscore exec-jsonl`: run programs and show every step."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, BinaryIO, Iterator, Sequence, TextIO

from finscore.exit_status import EXIT_USAGE as EXIT_USAGE
from finscore.engine.api import PROFILES, PYTHON_VERSIONS, check_options, check_table, execute, execute_many
from finscore.engine.explanation import Execution, StepTrace
from finscore.engine.reader.program import Argument, Ignored, Literal, Reference, Row
from finscore.engine.text_input import (
    MAX_PROGRAM_CHARS,
    MAX_TABLE_CHARS,
    TextInputError,
    load_json,
    program_notes,
    read_file,
    read_program_text,
    read_stream,
    table_from_json,
)
from finscore.inputs.lines import StreamLine, json_lines, problem_words

EXIT_VALID, EXIT_INVALID = 0, 1
#: A line of exec-jsonl holds one program and its table.
MAX_LINE_CHARS = MAX_PROGRAM_CHARS + MAX_TABLE_CHARS

InputError = TextInputError  # a command-line input that cannot be used, with a message for the user


#: What each reader profile is, for --help.
PROFILE_HELP = {
    "official": "the official FinQA evaluator's outcome, quirks included (default)",
    "strict": "typed refusals of every quirk",
    "convfinqa": "ConvFinQA's own eval_program (a one-token program is a number selection)",
}


def add_profile_options(parser: argparse.ArgumentParser, profiles: Sequence[str] = PROFILES) -> None:
    """--profile (of `profiles`) and --python, as every command that executes programs has them."""
    parser.add_argument("--profile", choices=profiles, default="official",
                        help="; ".join(f"{name}: {PROFILE_HELP[name]}" for name in profiles))
    parser.add_argument("--python", default="3.11", metavar="VERSION",
                        help="CPython whose sum() to imitate in table_sum/table_average: "
                             f"{', '.join(PYTHON_VERSIONS)} (default 3.11, left to right; 3.12 and later "
                             "compensate)")


def register(subparsers: Any) -> None:
    single = subparsers.add_parser(
        "exec",
        help="execute one FinQA program and show each step",
        description=(
            "Execute one FinQA program exactly as the official evaluator does and print each step "
            "(op, arguments, unrounded value and its hex) and the final answer, rounded once to 5 "
            "places. Exit status: 0 valid, 1 invalid (refused), 2 bad usage."
        ),
        epilog='Example: finscore exec "subtract(34.8, 1.2), divide(#0, 34.8), multiply(#1, const_100)"',
    )
    single.add_argument("program", help='a gold program string, a JSON token list (["add(", "1", "2", ")", "EOF"]), '
                                        "or - to read either from standard input")
    single.add_argument("--table", metavar="FILE.json",
                        help="the table: a JSON list of rows, or a FinQA example with a \"table\" field")
    single.add_argument("--json", action="store_true", help="print the whole execution as JSON")
    add_profile_options(single)
    single.set_defaults(handler=run_exec)

    lines = subparsers.add_parser(
        "exec-jsonl",
        help="execute JSON lines from stdin, writing each back with invalid and result",
        description=(
            'Read JSON lines {"program": [tokens] or "string", "table": [[...], ...]} from standard input '
            'and write each back, in order, with "invalid" (0/1) and "result" ({"float": hex} or '
            '{"str": text}, as in the recorded vectors) added. Lines are executed in batches of --batch '
            'lines (one call into the core per batch). A line that cannot be executed is written back '
            'with an "error" field instead, and the exit status is then 1.'
        ),
    )
    lines.add_argument("--tables", metavar="FINQA.json", action="append", default=[],
                       help='resolve a line\'s "table_ref" (a FinQA example id, or a ConvFinQA conversation '
                            'id) from this FinQA or ConvFinQA file; repeatable')
    lines.add_argument("--batch", type=int, default=1000, metavar="N",
                       help="lines per core call (default 1000; 1 for line-by-line interactive use)")
    add_profile_options(lines)
    lines.set_defaults(handler=run_exec_jsonl)


# -- finscore exec ------------------------------------------------------------------

def _program_from(argument: str) -> list[str] | str:
    """The program argument, or standard input for `-`, read as the playground reads it."""
    if argument == "-":
        return read_program_text(read_stream(sys.stdin.buffer, "the program on standard input", MAX_PROGRAM_CHARS))
    return read_program_text(argument)


def _table_from(path: str) -> list[Any]:
    """The --table file (or standard input for `-`): JSON rows, or a FinQA example with a "table"."""
    what = f"the table {path}"
    if path == "-":
        text = read_stream(sys.stdin.buffer, "the table on standard input", MAX_TABLE_CHARS)
    else:
        text = read_file(path, "the table file", MAX_TABLE_CHARS)
    return table_from_json(load_json(text, what), what)


def describe_argument(argument: Argument) -> str:
    if isinstance(argument, Literal):
        try:
            plain = float(argument.text.replace(",", "")) == argument.value
        except ValueError:
            plain = False
        return argument.text if plain else f"{argument.text} ({argument.value!r})"
    if isinstance(argument, Reference):
        return argument.text if argument.text == f"#{argument.step}" else f"{argument.text} (#{argument.step})"
    if isinstance(argument, Row):
        cells = ", ".join(repr(v) for v in argument.values)
        source = f"reusing the row of #{argument.reused_from}, " if argument.reused_from is not None else ""
        return f"{argument.text!r} ({source}row {argument.name!r}: [{cells}])"
    assert isinstance(argument, Ignored)
    return argument.text


def _step_line(step: StepTrace) -> str:
    call = f"#{step.index} {step.op}({describe_argument(step.arguments[0])}, {describe_argument(step.arguments[1])})"
    if step.value_type == "none":
        return f"{call}  -> refused"
    hex_part = f"  {step.value_hex}" if step.value_hex else ""
    return f"{call}  = {step.value!r}{hex_part}"


def render_text(execution: Execution, notes: Sequence[str] = ()) -> str:
    """The execution as `finscore exec` prints it, then `notes` (see text_input.program_notes)."""
    lines = [f"profile: {execution.profile}, sum() of CPython {execution.python}"]
    lines += [_step_line(step) for step in execution.steps]
    for skipped in execution.skipped:
        lines.append(f"#{skipped} skipped (not one of the ten ops)")
    for quirk in execution.quirks:
        where = f" at #{quirk.step}" if quirk.step is not None else ""
        lines.append(f"quirk{where}: {quirk.status.label}: {quirk.message}")
    if execution.invalid:
        where = f" at #{execution.failed_step}" if execution.failed_step is not None else ""
        lines.append(f"invalid{where}: {execution.status.label} ({execution.status_description})")
        if execution.message not in ("", execution.status.label, execution.status_description):
            lines.append(f"  {execution.message}")
    else:
        result = execution.result
        extra = f"  {result.hex()}" if isinstance(result, float) else ""
        lines.append(f"answer: {result!r}{extra}")
    lines += [f"note: {note}" for note in notes]
    return "\n".join(lines)


def result_repr(result: object) -> str | None:
    """A float result in decimal, as Python's repr writes it (beside "result"'s hex, which is exact);
    None for a text result, which "result" already shows as it is."""
    return repr(result) if isinstance(result, float) else None


def run_exec(args: argparse.Namespace) -> int:
    try:
        check_options(args.profile, args.python)
        program = _program_from(args.program)
        table = _table_from(args.table) if args.table else None
        execution = execute(program, table, profile=args.profile, python=args.python)
    except ValueError as error:  # TextInputError included
        print(f"finscore exec: {error}", file=sys.stderr)
        return EXIT_USAGE
    notes = program_notes(program, execution)
    if args.json:
        view: dict[str, Any] = {}
        for key, value in execution.to_json().items():
            view[key] = value
            if key == "result":
                view["result_repr"] = result_repr(execution.result)
        view["notes"] = notes
        print(json.dumps(view, ensure_ascii=False, indent=2))
    else:
        print(render_text(execution, notes))
    return EXIT_INVALID if execution.invalid else EXIT_VALID


# -- finscore exec-jsonl ------------------------------------------------------------

def _load_tables(paths: list[str]) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for path in paths:
        data = load_json(read_file(path, "the FinQA file", 4 * MAX_TABLE_CHARS), path)
        if not isinstance(data, list):
            raise InputError(f"{path}: a FinQA file is a JSON list of examples")
        for example in data:
            if isinstance(example, dict) and isinstance(example.get("id"), str) and "table" in example:
                tables[example["id"]] = example["table"]
    return tables


def _line_input(record: Any, tables: dict[str, Any]) -> tuple[Any, Any]:
    """(program, table) of one line, or InputError saying why it cannot run."""
    if not isinstance(record, dict):
        raise InputError("a line must be a JSON object")
    if "program" not in record:
        raise InputError('the line has no "program"')
    program = record["program"]
    if not isinstance(program, (str, list)) or (isinstance(program, list) and not all(isinstance(t, str) for t in program)):
        raise InputError('"program" must be a string or a list of strings')
    if "table" in record:
        table = record["table"]
        if table is not None and not isinstance(table, list):
            raise InputError('"table" must be a list of rows or null')
    elif record.get("table_ref") is not None:
        ref = record["table_ref"]
        if not isinstance(ref, str) or ref not in tables:
            raise InputError(f'"table_ref" {ref!r} is not in the --tables files')
        table = tables[ref]
    else:
        table = None
    try:
        check_table(table)  # a row that is not a list would stop the whole batch in the engine
    except TypeError as error:
        where = '"table"' if "table" in record else f'the table of "table_ref" {record["table_ref"]!r}'
        raise InputError(f"{where}: {error}") from None
    return program, table


def _batches(stream: TextIO | BinaryIO, size: int) -> Iterator[list[StreamLine]]:
    batch: list[StreamLine] = []
    for line in json_lines(stream, MAX_LINE_CHARS, chars=True):
        batch.append(line)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _unread_line(line: StreamLine) -> dict[str, Any]:
    """The record written back for a line that holds no usable JSON value, naming its number."""
    if line.problem == "too_long":
        problem = f"longer than the {MAX_LINE_CHARS:,} characters allowed"
    elif isinstance(line.error, json.JSONDecodeError):
        problem = f"not JSON: {line.error}"
    elif isinstance(line.error, RecursionError):  # deeper than Python's parser goes: this line's error only
        problem = "not JSON that can be read: nested too deeply"
    else:  # empty, not UTF-8, a key given twice, an integer longer than CPython reads
        problem = problem_words(line)
    return {"line": line.number, "error": problem}


def run_exec_jsonl(args: argparse.Namespace, stdin: TextIO | BinaryIO | None = None,
                   stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if args.batch < 1:
        print("finscore exec-jsonl: --batch must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    try:
        check_options(args.profile, args.python)
        tables = _load_tables(args.tables)
    except ValueError as error:  # TextInputError included
        print(f"finscore exec-jsonl: {error}", file=sys.stderr)
        return EXIT_USAGE
    errors = 0
    for batch in _batches(stdin, args.batch):
        records: list[dict[str, Any]] = []
        runnable: list[tuple[int, tuple[Any, Any]]] = []
        for position, line in enumerate(batch):
            record: Any
            if line.problem is not None:
                record = _unread_line(line)
                errors += 1
            else:
                record = line.value
                try:
                    runnable.append((position, _line_input(record, tables)))
                except InputError as error:
                    record = dict(record) if isinstance(record, dict) else {"line": line.number, "value": record}
                    record["error"] = str(error)
                    errors += 1
            records.append(record)
        outcomes = execute_many([item for _, item in runnable], profile=args.profile, python=args.python)
        for (position, _), outcome in zip(runnable, outcomes):
            record = records[position]
            record["invalid"] = outcome.invalid
            record["result"] = outcome.vector_result()
            record["result_repr"] = result_repr(outcome.result)
            record["status"] = outcome.status_name
            if outcome.invalid:
                record["failed_step"] = outcome.failed_step  # null: the program as a whole, not one step
                record["message"] = outcome.message
        for record in records:
            stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        stdout.flush()
    if errors:
        print(f"finscore exec-jsonl: {errors} line(s) could not be executed (see their \"error\")", file=sys.stderr)
        return EXIT_INVALID
    return EXIT_VALID
