"""What the reader hands on: steps whose arguments are already numbers, rows or references.

Step indices are the official ones (`#i` counts the pieces the official split
produced), so diagnostics name the step a user sees in the program text. The
per-step records are named tuples: immutable, and cheap enough to make millions of.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made, at start-up; here Literal, Reference, Row, Ignored, ReadStep,
# ReadFailure, Quirk and ReadProgram.

from enum import Enum
from typing import NamedTuple, Union

from finscore.engine.status import Status


class Literal(NamedTuple):
    text: str
    value: float


class Reference(NamedTuple):
    text: str
    step: int  # official index of the step whose value is used


class Row(NamedTuple):
    """A table row's numbers. `reused_from` is set when the official evaluator reused the
    row of an earlier table step because the argument was a `#i` reference."""

    text: str
    name: str
    values: tuple[float, ...]
    reused_from: int | None = None


class Ignored(NamedTuple):
    """The second argument of a table op, which nothing reads."""

    text: str


Argument = Union[Literal, Reference, Row, Ignored]


class StepKind(Enum):
    ARITHMETIC = "arithmetic"
    TABLE = "table"
    COPY = "copy"  # an op containing "table" but none of the four: keeps the previous value


class ReadStep(NamedTuple):
    index: int  # type: ignore[assignment]  # the official step index (shadows tuple.index, never called)
    op: str
    kind: StepKind
    first: Argument
    second: Argument


class ReadFailure(NamedTuple):
    status: Status
    step: int | None  # None: the program as a whole
    message: str


class Quirk(NamedTuple):
    """A place where the official reading tolerated what the strict one refuses."""

    status: Status
    step: int | None
    message: str


class ReadProgram(NamedTuple):
    steps: tuple[ReadStep, ...]
    failure: ReadFailure | None
    piece_count: int
    skipped: tuple[int, ...]
    quirks: tuple[Quirk, ...]
