"""What the reader hands on: steps whose arguments are already numbers, rows or references.

Step indices are the official ones (`#i` counts the pieces the official split
produced), so diagnostics name the step a user sees in the program text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Union

from finscore.status import Status


@dataclass(frozen=True)
class Literal:
    text: str
    value: float


@dataclass(frozen=True)
class Reference:
    text: str
    step: int  # official index of the step whose value is used


@dataclass(frozen=True)
class Row:
    """A table row's numbers. `reused_from` is set when the official evaluator reused the
    row of an earlier table step because the argument was a `#i` reference."""

    text: str
    name: str
    values: tuple[float, ...]
    reused_from: int | None = None


@dataclass(frozen=True)
class Ignored:
    """The second argument of a table op, which nothing reads."""

    text: str


Argument = Union[Literal, Reference, Row, Ignored]


class StepKind(Enum):
    ARITHMETIC = "arithmetic"
    TABLE = "table"
    COPY = "copy"  # an op containing "table" but none of the four: keeps the previous value


@dataclass(frozen=True)
class ReadStep:
    index: int
    op: str
    kind: StepKind
    first: Argument
    second: Argument


@dataclass(frozen=True)
class ReadFailure:
    status: Status
    step: int | None  # None: the program as a whole
    message: str


@dataclass(frozen=True)
class Quirk:
    """A place where the official reading tolerated what the strict one refuses."""

    status: Status
    step: int | None
    message: str


@dataclass(frozen=True)
class ReadProgram:
    steps: tuple[ReadStep, ...]
    failure: ReadFailure | None
    piece_count: int
    skipped: tuple[int, ...]
    quirks: tuple[Quirk, ...]
