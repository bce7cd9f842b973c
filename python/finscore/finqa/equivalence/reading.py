"""How the official `equal_program` reads its two programs, before any algebra.

The gold program is read without a structure check and every failure there
crashes the official run; the prediction is checked step by step and every
failure is a plain "not equivalent". Both facts decide outcomes, so the
reading here follows the official order exactly and records, instead of
raising, the point where the official evaluator would have crashed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from finscore.engine.reader.tokens import (
    PieceError,
    StepText,
    drop_last_token,
    parse_piece,
    split_pieces,
    structure_ok,
)


def is_table_op(op: str) -> bool:
    """The official test for a table step is a substring test, kept as is."""
    return "table" in op


def is_reference(arg: str) -> bool:
    """Officially any argument containing ``#`` is a step reference."""
    return "#" in arg


@dataclass(frozen=True)
class GoldProgram:
    """The gold program as the official symbol map sees it.

    ``symbols`` maps each distinct literal argument text and each whole table
    step text to its symbol number, in order of first appearance (the official
    names are ``a0``, ``a1``, ...). ``steps`` holds ``None`` for a piece the
    official reader cannot read; ``unreadable`` describes the first such piece,
    where the official evaluator asserts or raises and the whole run stops.
    """

    steps: tuple[StepText | None, ...]
    symbols: Mapping[str, int]
    unreadable: str | None


def read_gold(tokens: Sequence[str]) -> GoldProgram:
    """Build the official symbol map; an unreadable piece is skipped and recorded."""
    symbols: dict[str, int] = {}
    steps: list[StepText | None] = []
    unreadable: str | None = None
    for index, piece in enumerate(split_pieces(drop_last_token(tokens))):
        try:
            step = parse_piece(piece)
        except PieceError as error:
            steps.append(None)
            if unreadable is None:
                unreadable = f"gold step {index}: {error.reason}: {error.piece!r}"
            continue
        steps.append(step)
        if is_table_op(step.op):
            symbols.setdefault(step.text, len(symbols))
            continue
        for arg in (step.arg1, step.arg2):
            if not is_reference(arg):
                symbols.setdefault(arg, len(symbols))
    return GoldProgram(tuple(steps), symbols, unreadable)


@dataclass(frozen=True)
class Rejection:
    """A prediction the official function turns down before any algebra."""

    method: str
    detail: str


def read_prediction(
    tokens: Sequence[str], symbols: Mapping[str, int],
    parsed: Sequence[StepText | None] | None = None,
) -> tuple[StepText, ...] | Rejection:
    """Apply the official prediction checks in their order; the first failure wins.

    A literal or a table step absent from the gold symbol map, a reference
    that is not an integer or does not point strictly backwards, and any
    structure or piece error make the prediction non-equivalent. A negative
    reference passes this check (officially it fails later, when resolved).
    `parsed`: these very tokens already split and parsed without error (the gold
    program's own reading, for a prediction identical to it).
    """
    body = drop_last_token(tokens)
    if not structure_ok(body):
        return Rejection("structure", "an op name or ')' is out of place")
    if parsed is not None and None in parsed:
        raise ValueError("parsed steps must all have been read")
    steps: list[StepText] = []
    readings: Sequence[str | StepText | None] = split_pieces(body) if parsed is None else parsed
    for index, reading in enumerate(readings):
        if isinstance(reading, StepText):
            step = reading
        else:
            try:
                step = parse_piece(str(reading))
            except PieceError as error:
                return Rejection("structure", f"step {index}: {error.reason}")
        if is_table_op(step.op):
            if step.text not in symbols:
                return Rejection(
                    "table-step-not-in-gold", f"step {index}: {step.text!r}"
                )
        else:
            for arg in (step.arg1, step.arg2):
                rejection = _check_argument(index, arg, symbols)
                if rejection is not None:
                    return rejection
        steps.append(step)
    return tuple(steps)


def _check_argument(index: int, arg: str, symbols: Mapping[str, int]) -> Rejection | None:
    if not is_reference(arg):
        if arg not in symbols:
            return Rejection("literal-not-in-gold", f"step {index}: {arg!r}")
        return None
    try:
        target = int(arg.strip("#"))
    except ValueError:
        return Rejection("bad-reference", f"step {index}: {arg!r} is not a step number")
    if target >= index:
        return Rejection("forward-reference", f"step {index}: {arg!r} does not point back")
    return None
