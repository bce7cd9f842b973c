"""The programs as the core's plain reader read them, decoded back, for comparing readings.

Test-only: the production path never needs the core's reading itself, only its
outcome. After a plain-reader call the core's scratch memory still holds the step
records and table values it read; this reads them back and decodes each program.
"""

from __future__ import annotations

import sys
from array import array

from finscore.engine.core.abi import STEP_STRUCT, ArgKind, BatchOutput, CoreArg, CoreProgram, CoreStep, Op, SumRule
from finscore.engine.core.binding import Core
from finscore.engine.core.plain_text import PlainBatch
from finscore.engine.status import Status


def table_array(table_values: bytes) -> array[float]:
    """The table values a call read, as floats (the module's memory is little-endian)."""
    table = array("d")
    table.frombytes(table_values)
    if sys.byteorder != "little":
        table.byteswap()
    return table


def decode_program(steps: bytes, table: array[float], first: int, count: int) -> CoreProgram:
    """A program back from step records, its table rows re-based to its own table values."""
    decoded: list[CoreStep] = []
    values: list[float] = []
    for k in range(first, first + count):
        fields = STEP_STRUCT.unpack_from(steps, k * STEP_STRUCT.size)
        args = []
        for kind, index, length, _, number in (fields[2:7], fields[7:12]):
            if kind == ArgKind.TABLE_ROW:
                args.append(CoreArg.row(len(values), length))
                values.extend(table[index : index + length])
            else:
                args.append(CoreArg(ArgKind(kind), number, index, length))
        decoded.append(CoreStep(Op(fields[0]), args[0], args[1]))
    return CoreProgram(tuple(decoded), tuple(values))


def read_keeping_programs(core: Core, plain: PlainBatch,
                          sum_rule: SumRule = SumRule.PY311) -> tuple[BatchOutput, list[CoreProgram | None]]:
    """`core.read_execute_batch(plain)`, and each program as the core read it (None where deferred)."""
    output, regions = core._read_plain(plain, sum_rule)
    if regions is None:
        return output, []
    backend = core._backend
    step_bytes = backend.read(regions.steps_at, STEP_STRUCT.size * regions.steps)
    table = table_array(backend.read(regions.table_values_at, 8 * regions.table_values))
    spans = output._spans
    programs: list[CoreProgram | None] = [
        decode_program(step_bytes, table, spans[2 * k], spans[2 * k + 1])
        if output.status(k) != Status.DEFERRED else None
        for k in range(len(output))
    ]
    return output, programs
