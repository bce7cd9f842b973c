"""Every refusal of the core, through the shipped WebAssembly module's raw ABI.

A refusal is a typed status with no value: never a made-up number, never a trap.
"""

from __future__ import annotations

import math

import pytest
from support.raw_abi import RawCore, lit, ref, row

from finscore.engine.core.abi import Op
from finscore.engine.status import Status


@pytest.fixture(scope="module")
def raw() -> RawCore:
    return RawCore()


def assert_refused(result, status: Status, failed_step: int) -> None:
    assert (result.status, result.failed_step) == (status, failed_step)
    assert result.has_value == 0 and result.value_type == 0
    assert result.value == 0.0 and result.unrounded == 0.0
    assert result.steps_executed == max(failed_step, 0)
    if failed_step >= 0:
        assert result.step_types[failed_step] == 0


ADD, DIV, EXP, GT, TMAX, TSUM, TAVG = Op.ADD, Op.DIVIDE, Op.EXP, Op.GREATER, Op.TABLE_MAX, Op.TABLE_SUM, Op.TABLE_AVERAGE

CASES = {
    "unknown op": ([(10, lit(1), lit(2))], (), Status.UNKNOWN_OP, 0),
    "negative op": ([(-1, lit(1), lit(2))], (), Status.UNKNOWN_OP, 0),
    "table row in add": ([(ADD, row(0, 1), lit(2))], (1.0,), Status.BAD_ARGUMENT_KIND, 0),
    "literal in table op": ([(TSUM, lit(1), lit(2))], (), Status.BAD_ARGUMENT_KIND, 0),
    "unknown kind": ([(ADD, lit(1), (7, 0, 0, 0.0))], (), Status.BAD_ARGUMENT_KIND, 0),
    "forward reference": ([(ADD, ref(1), lit(1)), (ADD, lit(1), lit(1))], (), Status.FORWARD_REFERENCE, 0),
    "self reference": ([(ADD, lit(1), lit(1)), (ADD, ref(1), lit(1))], (), Status.SELF_REFERENCE, 1),
    "negative reference": ([(ADD, lit(1), lit(1)), (ADD, ref(-1), lit(1))], (), Status.REFERENCE_OUT_OF_RANGE, 1),
    "reference past the program": ([(ADD, lit(1), ref(9))], (), Status.REFERENCE_OUT_OF_RANGE, 0),
    "reference to a boolean": ([(GT, lit(1), lit(2)), (ADD, ref(0), lit(1))], (), Status.REFERENCE_TO_BOOLEAN, 1),
    "slice past the table": ([(TMAX, row(1, 2), lit(0))], (1.0, 2.0), Status.TABLE_SLICE_OUT_OF_BOUNDS, 0),
    "negative offset": ([(TMAX, row(-1, 1), lit(0))], (1.0,), Status.TABLE_SLICE_OUT_OF_BOUNDS, 0),
    "negative length": ([(TMAX, row(0, -1), lit(0))], (1.0,), Status.TABLE_SLICE_OUT_OF_BOUNDS, 0),
    "offset+length overflow": ([(TMAX, row(2**31 - 1, 2**31 - 1), lit(0))], (1.0,), Status.TABLE_SLICE_OUT_OF_BOUNDS, 0),
    "empty row": ([(TAVG, row(1, 0), lit(0))], (1.0,), Status.EMPTY_ROW, 0),
    "divide by zero": ([(DIV, lit(1), lit(0.0))], (), Status.DIVIDE_BY_ZERO, 0),
    "divide by negative zero": ([(DIV, lit(1), lit(-0.0))], (), Status.DIVIDE_BY_ZERO, 0),
    "nan divided by zero": ([(DIV, lit(math.nan), lit(0.0))], (), Status.DIVIDE_BY_ZERO, 0),
    "0 ** negative": ([(EXP, lit(0.0), lit(-2.0))], (), Status.ZERO_TO_NEGATIVE_POWER, 0),
    "negative base, fractional exponent": ([(EXP, lit(-8.0), lit(1 / 3))], (), Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT, 0),
    "exp overflow": ([(EXP, lit(10.0), lit(400.0))], (), Status.EXP_OVERFLOW, 0),
    "complex exp overflow": ([(EXP, lit(-1e300), lit(2.5))], (), Status.EXP_COMPLEX_OVERFLOW, 0),
    "refused after a good step": ([(ADD, lit(1), lit(2)), (DIV, ref(0), lit(0.0))], (), Status.DIVIDE_BY_ZERO, 1),
}


@pytest.mark.parametrize("name", CASES)
def test_refusal(raw: RawCore, name: str) -> None:
    steps, table, status, failed = CASES[name]
    result = raw.execute(steps, table=table)
    assert_refused(result, status, failed)


def test_steps_before_a_refusal_keep_their_values(raw: RawCore) -> None:
    result = raw.execute([(ADD, lit(1.5), lit(2.25)), (DIV, ref(0), lit(0.0))])
    assert result.step_values[0] == 3.75 and result.step_types[0] == 1


def test_no_steps(raw: RawCore) -> None:
    assert_refused(raw.execute([(ADD, lit(1), lit(2))], step_count=0), Status.NO_STEPS, -1)


@pytest.mark.parametrize("buffer", ["steps_len", "values_len", "types_len"])
def test_a_step_count_beyond_any_buffer_is_refused_before_reading(raw: RawCore, buffer: str) -> None:
    steps = [(ADD, lit(1), lit(2)), (ADD, ref(0), lit(2))]
    result = raw.execute(steps, **{buffer: 1})
    assert_refused(result, Status.BUFFER_TOO_SHORT, -1)
    assert result.step_types == (0x55555555, 0x55555555)  # nothing was written either


def test_negative_lengths_and_unknown_sum_rule(raw: RawCore) -> None:
    steps = [(ADD, lit(1), lit(2))]
    assert_refused(raw.execute(steps, step_count=-1), Status.NEGATIVE_LENGTH, -1)
    assert_refused(raw.execute(steps, table_len=-3), Status.NEGATIVE_LENGTH, -1)
    assert_refused(raw.execute(steps, sum_rule=2), Status.UNKNOWN_SUM_RULE, -1)


def test_a_good_program_through_the_raw_abi(raw: RawCore) -> None:
    result = raw.execute([(Op.SUBTRACT, lit(34.8), lit(1.2)), (DIV, ref(0), lit(34.8)), (Op.MULTIPLY, ref(1), lit(100.0))])
    assert (result.status, result.has_value, result.value, result.failed_step) == (Status.OK, 1, 96.55172, -1)
    assert result.step_values == ((34.8 - 1.2), (34.8 - 1.2) / 34.8, (34.8 - 1.2) / 34.8 * 100.0)


def test_status_names_of_the_module_are_the_python_names() -> None:
    from finscore.engine.core.binding import get_core

    core = get_core()
    for status in Status:  # every status, the reader's and the strict profile's too
        assert core.status_name(status) == status.label
    for code in (1399, 1434, 1439, 1459, 1474, -1, 2**31 - 1):
        assert core.status_name(code) == "unknown_status"


def test_status_codes_differ_in_their_low_byte() -> None:
    """Batch columns read a status from the low byte of its little-endian record."""
    codes = [int(status) for status in Status]
    assert min(codes) >= 1400 and max(codes) < 1400 + 256
    assert len({code & 0xFF for code in codes}) == len(codes)
