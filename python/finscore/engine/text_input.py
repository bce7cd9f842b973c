"""Program text and table text as people give them: one reading, one set of bounds.

`finscore exec`, `finscore exec-jsonl` and the playground all read what a person
typed, pasted or saved here, so that the same text gets the same reading and the
same messages everywhere, through the package's one reading layer
(`finscore.inputs.reading`). Bytes are UTF-8 (a leading byte-order mark is dropped);
text and bytes past the bounds below are refused before anything is parsed; a JSON
object with a key twice is refused (which value was meant is unknowable).

It also says, in words, what a person most often got wrong about a program that
did not run (`program_notes`): the verdict itself is the reader's, never changed here.
"""

from __future__ import annotations

import json
import re
from typing import Any, BinaryIO, Sequence

from finscore.engine.explanation import Execution
from finscore.engine.reader.tokens import OPS, tokenize_gold_program
from finscore.engine.status import Status
# Defined once, in inputs/bounds.py; importable from here still.
from finscore.inputs.bounds import BYTES_PER_CHAR as BYTES_PER_CHAR
from finscore.inputs.reading import DuplicateKeyError, JsonSyntax, NotUtf8, loads, utf8_text

#: A FinQA program is a few dozen tokens; a million characters is far past any real one.
MAX_PROGRAM_CHARS = 1_000_000
#: A FinQA table is a few kilobytes; the bound only keeps a mistaken paste from exhausting memory.
MAX_TABLE_CHARS = 20_000_000

#: How table text may be written, and the words used for each.
TABLE_FORMATS = {
    "auto": "decided from the text",
    "json": "JSON rows",
    "tab": "tab-separated rows",
    "pipe": "|-separated rows",
}

_BOM = "\ufeff"
#: What a person types as JSON is read as CPython reads it, but a key given twice is refused.
TYPED_JSON_SYNTAX = JsonSyntax(duplicates="refuse")
_COMMA_WITHOUT_SPACE = re.compile(r",(?=[^ ])")


class TextInputError(ValueError):
    """Text that cannot be used, with a message meant for the person who gave it."""


# -- text and bytes ---------------------------------------------------------------------

def bounded_text(text: object, what: str, limit: int) -> str:
    """`text` without a leading byte-order mark, if it is text of at most `limit` characters
    that UTF-8 can hold (a command-line argument of invalid bytes holds lone surrogates)."""
    if not isinstance(text, str):
        raise TextInputError(f"{what} must be text, not {type(text).__name__}")
    if len(text) > limit:
        raise TextInputError(f"{what} is longer than the {limit:,} characters allowed")
    if text.startswith(_BOM):
        text = text[1:]
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise TextInputError(f"{what} is not UTF-8 text (character {error.start} cannot be encoded)") from None
    return text


def decode_bytes(data: bytes, what: str, limit: int) -> str:
    """UTF-8 bytes (a leading byte-order mark dropped) as text of at most `limit` characters."""
    if len(data) > BYTES_PER_CHAR * limit:
        raise TextInputError(f"{what} is longer than the {BYTES_PER_CHAR * limit:,} bytes allowed")
    try:
        text = utf8_text(data)
    except NotUtf8 as error:
        raise TextInputError(f"{what} is not UTF-8 text (byte {error.byte_after_bom})") from None
    return bounded_text(text, what, limit)


def read_stream(stream: BinaryIO, what: str, limit: int) -> str:
    """A whole byte stream (standard input) as text, reading no more than the bound allows."""
    data = stream.read(BYTES_PER_CHAR * limit + 1)
    return decode_bytes(data, what, limit)


def read_file(path: str, what: str, limit: int) -> str:
    """A whole file as text, reading no more than the bound allows."""
    try:
        with open(path, "rb") as handle:
            return read_stream(handle, what, limit)
    except OSError as error:
        raise TextInputError(f"cannot read {what} {path}: {error.strerror or error}") from None


def load_json(text: str, what: str) -> Any:
    """JSON text decoded, with a message that says where it stops being JSON."""
    try:
        return loads(text, TYPED_JSON_SYNTAX)
    except DuplicateKeyError as error:
        raise TextInputError(f"the JSON object has the key {error.key!r} twice") from None
    except json.JSONDecodeError as error:
        raise TextInputError(f"{what} is not valid JSON: {error}") from None
    except RecursionError:
        raise TextInputError(f"{what} nests JSON too deeply to read") from None


# -- programs ---------------------------------------------------------------------------

def read_program_text(text: object, what: str = "the program") -> list[str] | str:
    """A JSON token list (text starting with `[`) or a gold program string, stripped.

    Empty text is the empty program, which the official evaluator finds valid (answer n/a):
    it is passed on, and `program_notes` says it is empty.
    """
    stripped = bounded_text(text, what, MAX_PROGRAM_CHARS).strip()
    if not stripped.startswith("["):
        return stripped
    tokens = load_json(stripped, f"{what} starts with [ like a JSON token list but")
    if not isinstance(tokens, list) or not all(isinstance(token, str) for token in tokens):
        raise TextInputError(f'{what}: a JSON token list must be a list of strings, e.g. ["add(", "1", "2", ")", "EOF"]')
    return tokens


def _structure_slip(body: Sequence[str]) -> str | None:
    """The first token where the official structure check (an op at every 4k, `)` at every
    4k+3) fails, said in words."""
    for index, token in enumerate(body):
        if index % 4 == 0 and token.strip("(") not in OPS:
            if token.endswith("(") and token.count("(") == 1:
                return (f"token {index}, {token!r}, is not one of the ten ops "
                        f"({', '.join(OPS)})")
            return (f"token {index}, {token!r}, stands where an op such as 'add(' must: "
                    "a program is steps op(arg1, arg2) separated by ', '")
        if index % 4 == 3 and token != ")":
            return f"token {index}, {token!r}, stands where a step's closing ')' must (a step has two arguments)"
    return None


def _unclosed_step(program: Sequence[str] | str, body: Sequence[str], execution: Execution) -> str | None:
    """The tokens after the last whole step when they start a step that never closes (`add(1, 2`),
    said with what the official evaluator does with them (splitting at `)`, it drops them) and
    the program probably meant."""
    whole = len(body) // 4
    tail = list(body[4 * whole:])
    trailing = execution.status is Status.TRAILING_TOKENS or any(
        quirk.status is Status.TRAILING_TOKENS for quirk in execution.quirks)
    refused_otherwise = execution.invalid and execution.status is not Status.TRAILING_TOKENS
    if not trailing or refused_otherwise or not tail or tail[0].strip("(") not in OPS or ")" in tail:
        return None
    shown = ", ".join(repr(token) for token in tail)
    done = ("so no step is left: it finds the program valid, with the answer n/a" if whole == 0 else
            f"so the answer is step #{whole - 1}'s")
    said = (f"the last step has no closing ')': the official evaluator splits steps at ')' and drops the "
            f"tokens after the last one ({shown}), {done}")
    if len(tail) != 3:
        return said
    if isinstance(program, str):
        return f"{said}; did you mean {program.rstrip() + ')'!r}?"
    return f"{said}; did you mean the token list with ')' before {program[-1]!r}?"


def program_notes(program: Sequence[str] | str, execution: Execution) -> list[str]:
    """What to tell a person about a program, beyond its status: that it is empty, which
    token broke its structure, that its last step never closes, or that its commas lack the
    space FinQA's splitting needs."""
    tokens = tokenize_gold_program(program) if isinstance(program, str) else list(program)
    body = tokens[:-1]
    notes: list[str] = []
    if not body or (isinstance(program, str) and not program.strip()):
        notes.append("the program is empty: the official evaluator finds it valid, with the answer n/a"
                     if not execution.invalid else "the program is empty: it has no steps")
        return notes
    if execution.status is Status.MALFORMED_STRUCTURE:
        slip = _structure_slip(body)
        if slip is not None:
            notes.append(slip)
    unclosed = _unclosed_step(program, body, execution)
    if unclosed is not None:
        notes.append(unclosed)
    if (execution.invalid and isinstance(program, str) and _COMMA_WITHOUT_SPACE.search(program)
            and execution.status in (Status.MALFORMED_STRUCTURE, Status.MALFORMED_STEP, Status.BAD_NUMBER,
                                     Status.DELIMITER_IN_ARGUMENT)):
        spaced = _COMMA_WITHOUT_SPACE.sub(", ", program)
        notes.append(f"FinQA separates arguments and steps with ', ' (a comma and a space), and reads a "
                     f"comma without one as part of the text around it: did you mean {spaced!r}?")
    return notes


# -- tables -----------------------------------------------------------------------------

def first_row_not_a_list(table: list[Any]) -> int | None:
    """Where a decoded JSON table first has a row that is not a list (the reader cannot take it), or None."""
    return next((n for n, row in enumerate(table) if not isinstance(row, list)), None)


def table_from_json(data: Any, what: str = "the table") -> list[Any]:
    """A table from decoded JSON: a list of rows, or a FinQA example with a "table" list.
    The rows are passed on exactly as written: the reader decides what odd cells mean."""
    if isinstance(data, dict) and "table" in data:
        data = data["table"]
    if not isinstance(data, list):
        raise TextInputError(f'{what}: a JSON table is a list of rows (or a FinQA example with a "table" list)')
    odd_row = first_row_not_a_list(data)
    if odd_row is not None:  # shown as the JSON it was written as (null, 5, "b 2", {...}), cut short
        shown = json.dumps(data[odd_row], ensure_ascii=False)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise TextInputError(f"{what}: row {odd_row} is {shown}, not a list of cells")
    return data


def detect_table_format(text: str) -> str:
    """Which reading `auto` picks: JSON if it starts like JSON, else tabs if any, else `|`."""
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        return "json"
    if "\t" in stripped:
        return "tab"
    if "|" in stripped:
        return "pipe"
    raise TextInputError(
        "cannot tell how the table is written: use JSON rows, or one row per line with cells "
        "separated by tabs or by |"
    )


def _split_pipe_row(line: str) -> list[str]:
    """Cells of one `|` row. A Markdown row `| a | b |` (a bar at both ends) loses its outer
    bars; a row with a bar at one end only keeps it, so ` | 2008` has an empty first cell."""
    cells = line.strip()
    if len(cells) > 1 and cells.startswith("|") and cells.endswith("|"):
        cells = cells[1:-1]
    return cells.split("|")


def _is_markdown_rule(cells: Sequence[str]) -> bool:
    """The `|---|---|` line under a Markdown header, which is layout, not a row."""
    return bool(cells) and all(cell and set(cell) <= set("-: ") for cell in cells)


def read_table_text(text: object, table_format: str = "auto", what: str = "the table") -> tuple[list[Any] | None, str]:
    """(table, format used). Empty text is no table (None, "none").

    JSON is passed on exactly as written (see `table_from_json`). Pasted rows are one
    row per line; each cell loses its surrounding whitespace, and a Markdown rule line
    (`|---|---|`) is skipped.
    """
    if table_format not in TABLE_FORMATS:
        raise TextInputError(f"table format must be one of {', '.join(TABLE_FORMATS)}, not {table_format!r}")
    text = bounded_text(text, what, MAX_TABLE_CHARS)
    if not text.strip():
        return None, "none"
    used = detect_table_format(text) if table_format == "auto" else table_format
    if used == "json":
        return table_from_json(load_json(text, what), what), used
    rows = []
    for line in text.splitlines():
        if not line.strip():
            continue
        cells = line.split("\t") if used == "tab" else _split_pipe_row(line)
        cells = [cell.strip() for cell in cells]
        if used == "pipe" and _is_markdown_rule(cells):
            continue
        rows.append(cells)
    return rows, used
