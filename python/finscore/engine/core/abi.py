"""The core's ABI as Python sees it: codes, record layouts and batch packing.

The codes and layouts come from `_abi_generated`, which build/gen_abi.py writes
from core/abi.toml as it writes core/finscore_core.h (little-endian, no padding
beyond what the header documents). The host checks the module's own
self-description against these sizes before the first call, so a stale module
fails loudly instead of returning wrong numbers.
"""

from __future__ import annotations

import struct
import sys
from array import array
from dataclasses import dataclass
from typing import NamedTuple, Sequence, cast

from finscore.engine.core._abi_generated import ABI_VERSION as ABI_VERSION
from finscore.engine.core._abi_generated import FS_ANSWER_OUTCOME_FORMAT, FS_PROGRAM_FORMAT
from finscore.engine.core._abi_generated import FS_RESULT_FORMAT, FS_STEP_FORMAT
from finscore.engine.core._abi_generated import ArgKind as ArgKind
from finscore.engine.core._abi_generated import Op as Op
from finscore.engine.core._abi_generated import SumRule as SumRule
from finscore.engine.core._abi_generated import ValueType as ValueType
from finscore.engine.sequences import LazySequence

STEP_STRUCT = struct.Struct(FS_STEP_FORMAT)
PROGRAM_STRUCT = struct.Struct(FS_PROGRAM_FORMAT)
RESULT_STRUCT = struct.Struct(FS_RESULT_FORMAT)
ANSWER_OUTCOME_STRUCT = struct.Struct(FS_ANSWER_OUTCOME_FORMAT)


class CoreArg(NamedTuple):
    """One resolved argument: a literal, a reference to an earlier step, or a table row.

    For a table row, `index` and `length` are a slice of the program's own table
    values; packing a batch shifts them into the batch's single table buffer.
    """

    kind: ArgKind
    number: float = 0.0
    index: int = 0  # type: ignore[assignment]  # a field named like tuple.index, as the header names it
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


class CoreStep(NamedTuple):
    op: Op
    first: CoreArg
    second: CoreArg


class CoreProgram(NamedTuple):
    """A resolved program: what the core executes, nothing left to interpret."""

    steps: tuple[CoreStep, ...]
    table_values: tuple[float, ...] = ()


class CoreResult(NamedTuple):
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


def regions(*sizes: int) -> tuple[list[int], int]:
    """Offsets of consecutive regions of these byte sizes, each 8-aligned, and the total."""
    offsets, total = [], 0
    for size in sizes:
        offsets.append(total)
        total = (total + size + 7) & ~7
    return offsets, total


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
        (programs, steps, table, step_values, step_types, results), total = regions(
            program_count * PROGRAM_STRUCT.size, step_count * STEP_STRUCT.size, table_count * 8,
            step_count * 8, step_count * 4, program_count * RESULT_STRUCT.size,
        )
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
    pack_step, pack_program = STEP_STRUCT.pack_into, PROGRAM_STRUCT.pack_into
    row = ArgKind.TABLE_ROW
    step_at, program_at = layout.steps, layout.programs
    first_step = 0
    table = array("d")
    for program in programs:
        steps, table_base = program.steps, len(table)
        pack_program(buffer, program_at, first_step, len(steps))
        program_at += PROGRAM_STRUCT.size
        for op, (a_kind, a_number, a_index, a_length), (b_kind, b_number, b_index, b_length) in steps:
            if a_kind == row:
                a_index += table_base
            if b_kind == row:
                b_index += table_base
            pack_step(buffer, step_at, op, 0, a_kind, a_index, a_length, 0, a_number,
                      b_kind, b_index, b_length, 0, b_number)
            step_at += STEP_STRUCT.size
        first_step += len(steps)
        table.extend(program.table_values)
    if sys.byteorder != "little":  # the module's memory is little-endian
        table.byteswap()
    table_bytes = table.tobytes()
    buffer[layout.table : layout.table + len(table_bytes)] = table_bytes
    return layout, buffer


class BatchOutput(LazySequence[CoreResult]):
    """The output half of one batch, read in place.

    The fields a scorer needs for every program (status, value, value type) are
    read straight from the result records; a program's full CoreResult, with its
    own step values, is made only when indexed.
    """

    def __init__(self, results: bytes, step_values: bytes, step_types: bytes, spans: Sequence[int]) -> None:
        """`spans`: each program's first step and step count in the step arrays, flat
        (first, count, first, count, ...)."""
        self._ints: memoryview[int] | array[int]
        self._doubles: memoryview[float] | array[float]
        self._values: memoryview[float] | array[float]
        self._types: memoryview[int] | array[int]
        if sys.byteorder == "little":  # the module's memory order: the bytes are read in place
            self._ints, self._doubles = memoryview(results).cast("i"), memoryview(results).cast("d")
            self._values, self._types = memoryview(step_values).cast("d"), memoryview(step_types).cast("i")
        else:
            ints, doubles, values, types = array("i", results), array("d", results), array("d", step_values), array(
                "i", step_types)
            for column in (ints, doubles, values, types):
                column.byteswap()
            self._ints, self._doubles, self._values, self._types = ints, doubles, values, types
        self._records = results
        self._spans = spans

    # A record is 10 int32s or 5 doubles: status at int 0, value type at int 2,
    # failed step at int 3, value at double 2, unrounded at double 3, steps run at int 8.
    _INTS, _DOUBLES = RESULT_STRUCT.size // 4, RESULT_STRUCT.size // 8

    def statuses(self) -> list[int]:
        return self._ints[0 :: self._INTS].tolist()

    def values(self) -> list[float]:
        return cast("list[float]", self._doubles[2 :: self._DOUBLES].tolist())

    def status_low_bytes(self) -> bytes:
        """The low byte of every program's status, straight from the little-endian records:
        statuses are 1400-1459, which their low bytes tell apart (a test checks it)."""
        return self._records[0 :: RESULT_STRUCT.size]

    def value_type_bytes(self) -> bytes:
        """Every program's value type (0 none, 1 float, 2 bool) as one byte each."""
        return self._records[8 :: RESULT_STRUCT.size]

    def step_count(self, index: int) -> int:
        return self._spans[2 * index + 1]

    @staticmethod
    def spans_of(programs: Sequence[CoreProgram]) -> array[int]:
        """Where each program's steps lie when a batch packs them one after another."""
        spans, first = array("i"), 0
        for program in programs:
            spans.extend((first, len(program.steps)))
            first += len(program.steps)
        return spans

    def __len__(self) -> int:
        return len(self._spans) // 2

    def status(self, index: int) -> int:
        return self._ints[self._INTS * index]

    def value_type(self, index: int) -> int:
        return self._ints[self._INTS * index + 2]

    def value(self, index: int) -> float:
        return self._doubles[self._DOUBLES * index + 2]

    def failed_step(self, index: int) -> int:
        return self._ints[self._INTS * index + 3]

    def unrounded(self, index: int) -> float:
        return self._doubles[self._DOUBLES * index + 3]

    def _item(self, index: int) -> CoreResult:
        i, d = self._INTS * index, self._DOUBLES * index
        first, count = self._spans[2 * index], self._spans[2 * index + 1]
        return CoreResult(self._ints[i], bool(self._ints[i + 1]), self._ints[i + 2], self._ints[i + 3],
                          self._doubles[d + 2], self._doubles[d + 3], self._ints[i + 8],
                          tuple(self._values[first : first + count]), tuple(self._types[first : first + count]))
