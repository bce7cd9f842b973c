"""The core's ABI as Python sees it: codes, record layouts and batch packing.

The layouts mirror `core/finscore_core.h` byte for byte (little-endian, no
padding beyond what the header documents). The host checks the module's own
self-description against these sizes before the first call, so a stale module
fails loudly instead of returning wrong numbers.
"""

from __future__ import annotations

import struct
import sys
from array import array
from dataclasses import dataclass
from enum import IntEnum
from typing import Iterable, Sequence

ABI_VERSION = 1


class Op(IntEnum):
    ADD = 0
    SUBTRACT = 1
    MULTIPLY = 2
    DIVIDE = 3
    EXP = 4
    GREATER = 5
    TABLE_MAX = 6
    TABLE_MIN = 7
    TABLE_SUM = 8
    TABLE_AVERAGE = 9


class ArgKind(IntEnum):
    LITERAL = 0
    REFERENCE = 1
    TABLE_ROW = 2


class SumRule(IntEnum):
    """Which CPython `sum()` the core imitates."""

    PY311 = 0  # left to right from integer 0 (CPython <= 3.11)
    PY312 = 1  # Neumaier compensated summation (CPython >= 3.12)


class ValueType(IntEnum):
    NONE = 0
    FLOAT = 1
    BOOL = 2


STEP_STRUCT = struct.Struct("<ii" + "iiiid" * 2)
PROGRAM_STRUCT = struct.Struct("<ii")
RESULT_STRUCT = struct.Struct("<iiiiddii")
assert STEP_STRUCT.size == 56 and PROGRAM_STRUCT.size == 8 and RESULT_STRUCT.size == 40


@dataclass(frozen=True)
class CoreArg:
    """One resolved argument: a literal, a reference to an earlier step, or a table row.

    For a table row, `index` and `length` are a slice of the program's own table
    values; packing a batch shifts them into the batch's single table buffer.
    """

    kind: ArgKind
    number: float = 0.0
    index: int = 0
    length: int = 0

    @staticmethod
    def literal(value: float) -> "CoreArg":
        return CoreArg(ArgKind.LITERAL, number=value)

    @staticmethod
    def reference(step: int) -> "CoreArg":
        return CoreArg(ArgKind.REFERENCE, index=step)

    @staticmethod
    def row(offset: int, length: int) -> "CoreArg":
        return CoreArg(ArgKind.TABLE_ROW, index=offset, length=length)


#: The ignored second argument of a table op.
UNUSED_ARG = CoreArg(ArgKind.LITERAL)


@dataclass(frozen=True)
class CoreStep:
    op: Op
    first: CoreArg
    second: CoreArg


@dataclass(frozen=True)
class CoreProgram:
    """A resolved program: what the core executes, nothing left to interpret."""

    steps: tuple[CoreStep, ...]
    table_values: tuple[float, ...] = ()


@dataclass(frozen=True)
class CoreResult:
    """One program's outcome as the core reports it (see fs_result in the header).

    `step_values` and `step_types` hold one entry per step of the program; a step
    that did not run has type ValueType.NONE (0).
    """

    status: int
    has_value: bool
    value_type: int
    failed_step: int
    value: float
    unrounded: float
    steps_executed: int
    step_values: Sequence[float]
    step_types: Sequence[int]


def _align8(size: int) -> int:
    return (size + 7) & ~7


@dataclass(frozen=True)
class BatchLayout:
    """Byte offsets of each region of one batch inside a single linear-memory block."""

    program_count: int
    step_count: int
    table_count: int
    programs: int
    steps: int
    table: int
    step_values: int
    step_types: int
    results: int
    total: int

    @staticmethod
    def of(program_count: int, step_count: int, table_count: int) -> "BatchLayout":
        programs = 0
        steps = _align8(programs + program_count * PROGRAM_STRUCT.size)
        table = _align8(steps + step_count * STEP_STRUCT.size)
        step_values = _align8(table + table_count * 8)
        step_types = _align8(step_values + step_count * 8)
        results = _align8(step_types + step_count * 4)
        total = _align8(results + program_count * RESULT_STRUCT.size)
        return BatchLayout(
            program_count, step_count, table_count,
            programs, steps, table, step_values, step_types, results, total,
        )


def pack_batch(programs: Sequence[CoreProgram]) -> tuple[BatchLayout, bytearray]:
    """Lay out many programs as the input half of one fs_execute_batch call."""
    step_count = sum(len(p.steps) for p in programs)
    table_count = sum(len(p.table_values) for p in programs)
    layout = BatchLayout.of(len(programs), step_count, table_count)
    buffer = bytearray(layout.results)  # inputs only; outputs are written by the core
    first_step = 0
    table_base = 0
    table = array("d")
    pack_step = STEP_STRUCT.pack_into
    for number, program in enumerate(programs):
        PROGRAM_STRUCT.pack_into(
            buffer, layout.programs + number * PROGRAM_STRUCT.size, first_step, len(program.steps)
        )
        for offset, step in enumerate(program.steps, start=first_step):
            a, b = step.first, step.second
            a_index = a.index + table_base if a.kind == ArgKind.TABLE_ROW else a.index
            b_index = b.index + table_base if b.kind == ArgKind.TABLE_ROW else b.index
            pack_step(
                buffer, layout.steps + offset * STEP_STRUCT.size,
                int(step.op), 0,
                int(a.kind), a_index, a.length, 0, a.number,
                int(b.kind), b_index, b.length, 0, b.number,
            )
        first_step += len(program.steps)
        table.extend(program.table_values)
        table_base += len(program.table_values)
    table_bytes = table.tobytes()
    buffer[layout.table : layout.table + len(table_bytes)] = table_bytes
    return layout, buffer


def unpack_results(
    layout: BatchLayout,
    programs: Sequence[CoreProgram],
    results: bytes,
    step_values: bytes,
    step_types: bytes,
) -> list[CoreResult]:
    """Read the output half of a batch back into one CoreResult per program."""
    values = array("d")
    values.frombytes(step_values)
    types = array("i")
    types.frombytes(step_types)
    if sys.byteorder != "little":  # the module's memory is little-endian
        values.byteswap()
        types.byteswap()
    out: list[CoreResult] = []
    first = 0
    for program, fields in zip(programs, RESULT_STRUCT.iter_unpack(results)):
        status, has_value, value_type, failed_step, value, unrounded, executed, _ = fields
        end = first + len(program.steps)
        out.append(CoreResult(status, bool(has_value), value_type, failed_step, value, unrounded, executed,
                              values[first:end], types[first:end]))
        first = end
    return out


def float_array_bytes(values: Iterable[float]) -> bytes:
    return array("d", values).tobytes()
