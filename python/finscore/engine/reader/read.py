"""Read a token list (or gold program string) and a table into steps, officially or strictly.

Both profiles share one reading, the official evaluator's, step by step. Where
the official evaluator tolerates something odd (a quirk), the official profile
records it and goes on, and the strict profile stops there with the quirk's own
status. Where the official evaluator gives up, both stop with the same failure.
Nothing here computes: arguments become numbers, rows and references, and the
arithmetic is left to the core.
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.engine.reader.numbers import NumberReading, is_strict_number, is_strict_reference, number_reading
from finscore.engine.reader.program import (
    Argument,
    Ignored,
    Literal,
    Quirk,
    ReadFailure,
    ReadProgram,
    ReadStep,
    Reference,
    Row,
    StepKind,
)
from finscore.engine.reader.table import TableIndex, TableReadError, read_cells
from finscore.engine.reader.tokens import (
    ARITHMETIC_OPS,
    TABLE_OPS,
    PieceError,
    parse_piece,
    split_pieces,
    structure_ok,
    tokenize_gold_program,
)
from finscore.engine.options import Profile
from finscore.engine.status import Status

_DELIMITERS = ("|", "(", ")")


class _Stop(Exception):
    """Internal: reading ends here with this failure."""

    def __init__(self, failure: ReadFailure) -> None:
        self.failure = failure


class _Reader:
    def __init__(self, table: Any, profile: Profile, numbers: NumberReading) -> None:
        self.table = table
        self.profile = profile
        self.numbers = numbers
        self.quirks: list[Quirk] = []
        self.steps: list[ReadStep] = []
        self.skipped: list[int] = []
        self.has_value: set[int] = set()  # official res_dict keys so far
        self.piece_count = 0
        self._index: TableIndex | None = None
        self._last_row: Row | None = None
        self._last_row_step: int | None = None

    # -- failures and quirks -------------------------------------------------
    def fail(self, status: Status, step: int | None, message: str) -> _Stop:
        return _Stop(ReadFailure(status, step, message))

    def quirk(self, status: Status, step: int | None, message: str) -> None:
        if not self.profile.reads_officially:
            raise self.fail(status, step, message)
        self.quirks.append(Quirk(status, step, message))

    # -- arguments -----------------------------------------------------------
    def reference(self, text: str, at: int) -> Reference:
        step = self.numbers.official_reference(text)
        if step is None:
            raise self.fail(Status.BAD_REFERENCE, at, f"{text!r} is not a step reference")
        if step not in self.has_value:
            raise self.fail(self._missing_reference_status(step, at), at, f"{text!r} names no earlier result")
        if not is_strict_reference(text):
            self.quirk(Status.LOOSE_REFERENCE_SYNTAX, at, f"{text!r} is read as #{step}")
        return Reference(text, step)

    def _missing_reference_status(self, step: int, at: int) -> Status:
        if step == at:
            return Status.SELF_REFERENCE
        if at < step < self.piece_count:
            return Status.FORWARD_REFERENCE
        if 0 <= step < at:
            return Status.REFERENCE_TO_MISSING_STEP  # an earlier step that produced no value
        return Status.REFERENCE_OUT_OF_RANGE

    def scalar(self, text: str, at: int) -> Argument:
        if "#" in text:
            return self.reference(text, at)
        value = self.numbers.official_number(text)
        if value is None:
            raise self.fail(Status.BAD_NUMBER, at, f"{text!r} is not a number")
        if not is_strict_number(text):
            self.quirk(Status.LOOSE_NUMBER_SYNTAX, at, f"{text!r} is read as {value!r}")
        return Literal(text, value)

    def table_index(self, at: int) -> TableIndex:
        if self._index is None:
            try:
                self._index = TableIndex.of(self.table)
            except TableReadError as error:
                raise self.fail(error.status, at, str(error)) from None
        return self._index

    def row(self, text: str, at: int) -> Row:
        index = self.table_index(at)  # officially built before the argument is looked at
        if "#" in text:
            self.reference(text, at)  # must resolve, though its value is never used
            if self._last_row is None:
                raise self.fail(Status.NO_EARLIER_TABLE_STEP, at, f"{text!r}: no earlier table step")
            self.quirk(Status.TABLE_ROW_REUSE, at, f"{text!r} reuses the row {self._last_row.name!r}")
            return Row(text, self._last_row.name, self._last_row.values, self._last_row_step)
        if text not in index.rows:
            raise self.fail(Status.UNKNOWN_ROW, at, f"no row named {text!r}")
        try:
            values = read_cells(index.rows[text], profile=self.profile, numbers=self.numbers)
        except TableReadError as error:
            raise self.fail(error.status, at, f"row {text!r}: {error}") from None
        if index.name_counts[text] > 1:
            self.quirk(Status.AMBIGUOUS_ROW_NAME, at, f"{index.name_counts[text]} rows are named {text!r}")
        return Row(text, text, values)

    # -- steps ---------------------------------------------------------------
    def read_piece(self, piece: str, at: int) -> None:
        try:
            text = parse_piece(piece)
        except PieceError as error:
            raise self.fail(Status.MALFORMED_STEP, at, str(error)) from None
        if text.op in ARITHMETIC_OPS:
            first = self.scalar(text.arg1, at)
            second = self.scalar(text.arg2, at)
            step = ReadStep(at, text.op, StepKind.ARITHMETIC, first, second)
        elif "table" in text.op:
            row = self.row(text.arg1, at)
            self._last_row, self._last_row_step = row, at
            kind = StepKind.TABLE
            if text.op not in TABLE_OPS:
                self.quirk(Status.UNRECOGNIZED_STEP, at, f"{text.op!r} keeps the previous value")
                kind = StepKind.COPY
            step = ReadStep(at, text.op, kind, row, Ignored(text.arg2))
        else:
            self.quirk(Status.UNRECOGNIZED_STEP, at, f"{text.op!r} is not an op; the step is skipped")
            self.skipped.append(at)
            return
        self.steps.append(step)
        self.has_value.add(at)

    def read(self, tokens: Sequence[str]) -> ReadFailure | None:
        if not tokens or tokens[-1] != "EOF":
            self.quirk(Status.LAST_TOKEN_NOT_EOF, None, "the last token is dropped though it is not EOF")
        body = list(tokens[:-1])
        if not structure_ok(body):
            raise self.fail(Status.MALFORMED_STRUCTURE, None, "tokens are not op(, arg, arg, ) groups")
        for position, token in enumerate(body):
            if position % 4 in (1, 2) and any(d in token for d in _DELIMITERS):
                self.quirk(
                    Status.DELIMITER_IN_ARGUMENT, position // 4, f"argument {token!r} holds a delimiter"
                )
        if len(body) % 4:
            self.quirk(Status.TRAILING_TOKENS, len(body) // 4, f"{len(body) % 4} trailing tokens ignored")
        pieces = split_pieces(body)
        self.piece_count = len(pieces)
        for at, piece in enumerate(pieces):
            self.read_piece(piece, at)
        return None


def read_program(program: Sequence[str] | str, table: Any = None, *,
                 profile: Profile = Profile.OFFICIAL, python: str = "3.11") -> ReadProgram:
    """Read a program (token list, or a gold program string) against a table.

    `table` is the FinQA table: a sequence of rows, each a sequence whose first cell is
    the row name. None means no table (any table step then fails as unknown row).
    `python` names the CPython whose float() and int() read the numbers (its Unicode digits).
    """
    tokens = tokenize_gold_program(program) if isinstance(program, str) else program
    reader = _Reader([] if table is None else table, profile, number_reading(python))
    failure: ReadFailure | None = None
    if not isinstance(tokens, (list, tuple)) or not all(isinstance(t, str) for t in tokens):
        failure = ReadFailure(Status.NOT_A_TOKEN_LIST, None, "the program must be a list of text tokens")
    else:
        try:
            reader.read(tokens)
        except _Stop as stop:
            failure = stop.failure
    return ReadProgram(
        steps=tuple(reader.steps),
        failure=failure,
        piece_count=reader.piece_count,
        skipped=tuple(reader.skipped),
        quirks=tuple(reader.quirks),
    )
