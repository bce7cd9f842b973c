"""The common case, read without building a read program: clean token lists.

Most programs are plain: `op(` `arg` `arg` `)` groups ending in EOF, arguments
that are plain numbers or `#j` references to earlier float steps, and table rows
found once by name with plain numeric cells. For those the official and strict
readings agree and no quirk is involved, so this module turns them straight into
the core's steps. Anything else returns None and goes through the full reader
(`finscore.reader.read`), which decides it; a test checks over every recorded
vector program that both give the same core program wherever this one answers.
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.abi import UNUSED_ARG, ArgKind, CoreArg, CoreProgram, CoreStep, Op
from finscore.reader.numbers import is_strict_cell, is_strict_number, official_number

_OP_TOKENS: dict[str, Op] = {f"{op.name.lower()}(": op for op in Op}
_DELIMITERS = frozenset("|()")
_GREATER = Op.GREATER
_REFERENCE = ArgKind.REFERENCE
_FIRST_TABLE_OP = Op.TABLE_MAX


_UNSEEN = object()


class FastReadCache:
    """Argument and cell readings shared across the programs of one batch.

    Only pure functions of the text are kept (the plain reading of a literal, a
    `#j` reference or a cell), so reusing them cannot change an outcome; the cache
    lives as long as the batch.
    """

    def __init__(self) -> None:
        self.arguments: dict[str, CoreArg | None] = {}
        self.cells: dict[str, float | None] = {}

    def argument(self, text: str) -> CoreArg | None:
        """A plain literal or `#j` reference as the core's argument; None if not plain."""
        found = self.arguments.get(text, _UNSEEN)
        if found is _UNSEEN:
            found = None
            if "#" in text:
                digits = text[1:]
                if text[:1] == "#" and digits.isascii() and digits.isdigit():
                    found = CoreArg.reference(int(digits))
            elif _plain_argument(text):
                number = official_number(text)
                if number is not None and is_strict_number(text):
                    found = CoreArg.literal(number)
            self.arguments[text] = found
        return found  # type: ignore[return-value]

    def cell(self, cell: Any) -> float | None:
        if not isinstance(cell, str):
            return None
        found = self.cells.get(cell, _UNSEEN)
        if found is _UNSEEN:
            text = cell.replace("$", "").strip().split("(")[0].strip()
            number = official_number(text)
            found = number if number is not None and is_strict_cell(text) else None
            self.cells[cell] = found
        return found  # type: ignore[return-value]


def _plain_argument(text: str) -> bool:
    return bool(text) and text == text.strip() and not (_DELIMITERS & set(text))


def _row(table: Any, name: str, cache: FastReadCache) -> tuple[float, ...] | None:
    """The cells of the one row with this name, if the table and the row are plain."""
    if not isinstance(table, list):
        return None
    found = None
    for row in table:
        if not isinstance(row, list) or not row or not isinstance(row[0], str):
            return None  # an odd table: the full reader decides what it means
        if row[0] == name:
            if found is not None:
                return None  # several rows share the name
            found = row
    if found is None or len(found) < 2:
        return None
    values = []
    for cell in found[1:]:
        value = cache.cell(cell)
        if value is None:
            return None
        values.append(value)
    return tuple(values)


def read_fast(tokens: Sequence[str], table: Any, cache: FastReadCache) -> CoreProgram | None:
    """The core program of a clean token list, or None when the full reader must decide."""
    body_length = len(tokens) - 1
    if body_length <= 0 or body_length % 4 or tokens[body_length] != "EOF":
        return None
    steps: list[CoreStep] = []
    table_values: list[float] = []
    greater: set[int] = set()
    argument = cache.argument
    for at, start in enumerate(range(0, body_length, 4)):
        op = _OP_TOKENS.get(tokens[start])
        if op is None or tokens[start + 3] != ")":
            return None
        first_text, second_text = tokens[start + 1], tokens[start + 2]
        if op >= _FIRST_TABLE_OP:
            if not _plain_argument(second_text) or "#" in first_text or not _plain_argument(first_text):
                return None
            values = _row(table, first_text, cache)
            if values is None:
                return None
            steps.append(CoreStep(op, CoreArg.row(len(table_values), len(values)), UNUSED_ARG))
            table_values.extend(values)
            continue
        first, second = argument(first_text), argument(second_text)
        if first is None or second is None:
            return None
        for arg in (first, second):  # references must name an earlier float step
            if arg.kind == _REFERENCE and (arg.index >= at or arg.index in greater):
                return None
        if op == _GREATER:
            greater.add(at)
        steps.append(CoreStep(op, first, second))
    return CoreProgram(tuple(steps), tuple(table_values))
