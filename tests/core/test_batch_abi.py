"""The batch entry points of the shipped module, plain and packed, through the raw ABI.

The Python host calls the packed variants (one argument array in memory); other
hosts may call the plain ones. Both must give the same bytes, and both must
refuse a malformed batch as a whole without running anything.
"""

from __future__ import annotations

from array import array

import pytest
from support.raw_abi import RawCore

from finscore.engine.core.abi import RESULT_STRUCT, CoreArg, CoreProgram, CoreStep, Op, pack_batch
from finscore.engine.core.plain_text import lay_out
from finscore.engine.reader.tokens import tokenize_gold_program
from finscore.engine.status import Status

PROGRAMS = [
    CoreProgram((CoreStep(Op.SUBTRACT, CoreArg.literal(34.8), CoreArg.literal(1.2)),
                 CoreStep(Op.DIVIDE, CoreArg.reference(0), CoreArg.literal(34.8)))),
    CoreProgram((CoreStep(Op.DIVIDE, CoreArg.literal(1.0), CoreArg.literal(0.0)),)),
    CoreProgram((CoreStep(Op.TABLE_SUM, CoreArg.row(0, 2), CoreArg.literal(0.0)),), (13053.0, 18874.0)),
]


@pytest.fixture(scope="module")
def raw() -> RawCore:
    return RawCore()


def call_execute_batch(raw: RawCore, packed: bool, *, results_len: int | None = None) -> tuple[int, bytes]:
    layout, inputs = pack_batch(PROGRAMS)
    base = raw.base
    raw.backend.write(base, bytes(inputs))
    arguments = (base + layout.programs, layout.program_count, base + layout.steps, layout.step_count,
                 base + layout.table, layout.table_count, 0, base + layout.step_values, layout.step_count,
                 base + layout.step_types, layout.step_count, base + layout.results,
                 layout.program_count if results_len is None else results_len)
    raw.backend.write(base + layout.results, b"\x00" * RESULT_STRUCT.size * layout.program_count)
    if packed:
        raw.backend.write(base + 32768, array("q", arguments).tobytes())
        status = raw.backend.call("fs_execute_batch_packed", base + 32768, len(arguments))
    else:
        status = raw.backend.call("fs_execute_batch", *arguments)
    return status, raw.backend.read(base + layout.step_values, layout.total - layout.step_values)


def test_plain_and_packed_execute_batch_agree(raw: RawCore) -> None:
    plain, packed = call_execute_batch(raw, False), call_execute_batch(raw, True)
    assert plain == packed and plain[0] == Status.OK
    layout, _ = pack_batch(PROGRAMS)
    results = plain[1][layout.results - layout.step_values:]
    fields = [RESULT_STRUCT.unpack_from(results, k * RESULT_STRUCT.size) for k in range(3)]
    assert [f[0] for f in fields] == [Status.OK, Status.DIVIDE_BY_ZERO, Status.OK]
    assert fields[0][4] == round((34.8 - 1.2) / 34.8, 5) and fields[2][4] == 13053.0 + 18874.0


@pytest.mark.parametrize("packed", [False, True])
def test_a_results_buffer_too_short_refuses_the_batch(raw: RawCore, packed: bool) -> None:
    status, outputs = call_execute_batch(raw, packed, results_len=2)
    assert status == Status.BUFFER_TOO_SHORT
    layout, _ = pack_batch(PROGRAMS)
    assert set(outputs[layout.results - layout.step_values:]) == {0}  # nothing was written


def test_packed_calls_check_their_argument_count(raw: RawCore) -> None:
    raw.backend.write(raw.base, b"\x00" * 8 * 22)
    assert raw.backend.call("fs_execute_batch_packed", raw.base, 12) == Status.BUFFER_TOO_SHORT
    assert raw.backend.call("fs_read_execute_batch_packed", raw.base, 21) == Status.BUFFER_TOO_SHORT
    assert raw.backend.call("fs_read_execute_batch_packed", raw.base, 22) == Status.OK  # no programs


def call_read_batch(raw: RawCore, packed: bool, count_declared: int) -> tuple[int, bytes]:
    programs = [tokenize_gold_program(p) for p in ("subtract(34.8, 1.2), divide(#0, 34.8)", "add(1_000, 2)")]
    plain = lay_out(programs, [None, None])
    text = plain.text()
    base = raw.base
    raw.backend.write(base, text)
    raw.backend.write(base + 4096, array("i", plain.program_tables).tobytes())
    arguments = (base, len(text), count_declared, 0, 0, 0, 0, base + 4096, 2, 0,
                 base + 8192, 16, base + 16384, 16, base + 20480, 16, base + 24576, 16,
                 base + 26624, 4, base + 28672, 2)
    raw.backend.write(base + 28672, b"\x00" * RESULT_STRUCT.size * 2)
    if packed:
        raw.backend.write(base + 32768, array("q", arguments).tobytes())
        status = raw.backend.call("fs_read_execute_batch_packed", base + 32768, len(arguments))
    else:
        status = raw.backend.call("fs_read_execute_batch", *arguments)
    return status, raw.backend.read(base + 28672, RESULT_STRUCT.size * 2)


def test_plain_and_packed_read_execute_batch_agree(raw: RawCore) -> None:
    plain, packed = call_read_batch(raw, False, 2), call_read_batch(raw, True, 2)
    assert plain == packed and plain[0] == Status.OK
    first, second = (RESULT_STRUCT.unpack_from(plain[1], k * RESULT_STRUCT.size) for k in range(2))
    assert (first[0], first[4]) == (Status.OK, round((34.8 - 1.2) / 34.8, 5))
    assert second[0] == Status.DEFERRED  # "1_000" is for the full reader


@pytest.mark.parametrize("packed", [False, True])
def test_a_declared_count_the_text_does_not_hold_is_refused(raw: RawCore, packed: bool) -> None:
    status, results = call_read_batch(raw, packed, 3)
    assert status == Status.BUFFER_TOO_SHORT
    assert set(results) == {0}
