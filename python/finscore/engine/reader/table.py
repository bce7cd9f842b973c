"""Table rows as the official evaluator reads them.

A row is found by its first cell (a later row with the same name wins) and its
other cells are numbers after removing `$`, cutting at the first `(` and reading
the rest like a literal. The table arrives from JSON, so it may hold anything;
every access that could fail in the official evaluator fails here as a typed
TableReadError instead of an exception escaping.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finscore.engine.options import Profile
from finscore.engine.reader.numbers import NumberReading, is_strict_cell
from finscore.engine.status import Status, StatusError


class TableReadError(StatusError):
    """A table the official evaluator could not read at this step."""


@dataclass(frozen=True)
class TableIndex:
    """Rows by name, as the official dict: the last row of a name wins."""

    rows: dict[Any, Any]
    name_counts: dict[Any, int]

    @staticmethod
    def of(table: Any) -> "TableIndex":
        rows: dict[Any, Any] = {}
        counts: dict[Any, int] = {}
        if not _is_cells(table):
            raise TableReadError(Status.MALFORMED_TABLE, "the table is not a sequence of rows")
        for number, row in enumerate(table):
            if not _is_cells(row) or not row:
                raise TableReadError(
                    Status.MALFORMED_TABLE, f"table row {number} is {_describe(row)}, not a named row"
                )
            name = row[0]
            try:
                rows[name] = row[1:]  # a non-text name is kept, as officially; no argument matches it
            except TypeError:
                raise TableReadError(
                    Status.MALFORMED_TABLE, f"table row {number} has a name that is a JSON {type(name).__name__}"
                ) from None
            counts[name] = counts.get(name, 0) + 1
        return TableIndex(rows, counts)


def _is_cells(value: Any) -> bool:
    """A sequence of cells: a list, a tuple, any Sequence but text (a row that is text
    is refused: its characters are not cells)."""
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def _describe(value: Any) -> str:
    if _is_cells(value):
        return "empty"
    return f"a {type(value).__name__}"


def read_cells(cells: Any, *, profile: Profile, numbers: NumberReading) -> tuple[float, ...]:
    """Numbers of a row's cells (the name excluded); TableReadError on the first bad one."""
    values: list[float] = []
    for position, cell in enumerate(cells, start=1):
        if not isinstance(cell, str):
            raise TableReadError(Status.BAD_CELL, f"cell {position} is not text: {cell!r}")
        text = cell.replace("$", "").strip().split("(")[0].strip()
        value = numbers.official_number(text)
        if value is None:
            raise TableReadError(Status.BAD_CELL, f"cell {position} {cell!r} is not a number")
        if not profile.reads_officially and not is_strict_cell(text):
            raise TableReadError(
                Status.LOOSE_NUMBER_SYNTAX, f"cell {position} {cell!r} is not a plain decimal"
            )
        values.append(value)
    return tuple(values)
