"""Regression tests for the five divergences of issue #11, each decided by CPython itself.

Every expected outcome is what CPython's own int(), float() and operators make of
the case (in this interpreter, or in the CPython the `python` rule names), never a
value written by hand; the differential recordings (tests/fuzz/test_recordings.py)
hold the official evaluator's own answers for the same programs.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from support.pythons import require_python, run_python

from finscore import execute, execute_batch
from finscore.engine.status import Status

EOF_ = "EOF"


def _raises(parse: Callable[[str], Any], text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return True
    return False


# -- 1. ASCII separators U+001C-U+001F inside references and literals ---------------------

SEPARATED_REFERENCES = ["#\x1c0", "0\x1c#", "#0\x1f#", "#\x1d0", "#0\x1e", "#\x1f0#"]


@pytest.mark.parametrize("reference", SEPARATED_REFERENCES)
def test_a_reference_with_an_ascii_separator_is_read_by_int(reference: str) -> None:
    program = ["add(", "1", "2", ")", "add(", reference, "3", ")", EOF_]
    outcome = execute(program)
    if _raises(int, reference.strip().replace("#", "")):  # officially int() of the stripped argument, # removed
        assert (outcome.invalid, outcome.result) == (1, "n/a")
    else:
        assert (outcome.invalid, outcome.result) == (0, 6.0)


@pytest.mark.parametrize("reference", SEPARATED_REFERENCES)
def test_a_table_step_reusing_a_row_through_a_separated_reference(reference: str) -> None:
    table = [["x", "5", "7"]]
    outcome = execute(["table_max(", "x", "none", ")", "table_min(", reference, "none", ")", EOF_], table)
    if _raises(int, reference.strip().replace("#", "")):
        assert (outcome.invalid, outcome.result) == (1, "n/a")
    else:
        assert outcome.invalid == 0


@pytest.mark.parametrize("literal", ["1\x1c5", "1\x1f", "2\x1d%", "\x1c"])
def test_a_literal_with_an_inner_ascii_separator_is_read_by_float(literal: str) -> None:
    outcome = execute(["add(", "1", literal + "0", ")", EOF_])
    text = (literal + "0").strip()  # the official argument is stripped by str.strip()
    if _raises(float, text.replace(",", "")) and _raises(float, text.replace(",", "").replace("%", "")):
        assert outcome.invalid == 1
    else:
        assert outcome.invalid == 0


# -- 2. the digit tables follow the chosen python rule ----------------------------------

NEWER_DIGITS = [0x11F51, 0x11F50, 0x1E4F9]  # Unicode 15.0 (Kawi, Nag Mundari)


@pytest.mark.essential
@pytest.mark.parametrize("minor", [11, 12, 13])
@pytest.mark.parametrize("code", NEWER_DIGITS)
def test_a_digit_is_a_digit_as_the_named_python_reads_it(minor: int, code: int) -> None:
    python = require_python(minor)
    seen = run_python(python, "import sys\ntry: print(repr(float(chr(int(sys.stdin.read()))) + 1.0))\n"
                              "except ValueError: print('invalid')", str(code)).strip()
    outcome = execute(["add(", chr(code), "1", ")", EOF_], python=f"3.{minor}")
    if seen == "invalid":
        assert (outcome.invalid, outcome.status) == (1, Status.BAD_NUMBER)
    else:
        assert (outcome.invalid, repr(outcome.result)) == (0, seen)


# -- 3. declared bounds: what the official evaluator computes at once is computed ---------

def test_text_doubled_nineteen_times_then_compared() -> None:
    program = ["greater(", "2", "1", ")"]
    for step in range(1, 20):
        program += ["add(", f"#{step - 1}", f"#{step - 1}", ")"]
    program += ["greater(", "#19", "#0", ")", EOF_]
    text = "yes" if 2.0 > 1.0 else "no"
    for _ in range(19):
        text = text + text
    expected = "yes" if text > ("yes" if 2.0 > 1.0 else "no") else "no"
    outcome = execute(program)
    assert (outcome.invalid, outcome.result) == (0, expected)


def _power_tower_program() -> tuple[list[str], list[list[str]]]:
    """0 from an empty row's sum (Python's integer 0), then 0**0, 1+1, ... up to 2**65536."""
    steps = [("table_sum(", "empty", "none"), ("exp(", "#0", "#0"), ("add(", "#1", "#1"),
             ("exp(", "#2", "#2"), ("exp(", "#3", "#2"), ("exp(", "#2", "#4"), ("exp(", "#2", "#5"),
             ("subtract(", "#6", "#6")]
    return [token for step in steps for token in (*step, ")")] + [EOF_], [["empty"]]


def test_an_integer_of_65537_bits_flows_on() -> None:
    program, table = _power_tower_program()
    values: list[Any] = [sum([])]
    values.append(values[0] ** values[0])
    values.append(values[1] + values[1])
    values.append(values[2] ** values[2])
    values.append(values[3] ** values[2])
    values.append(values[2] ** values[4])
    values.append(values[2] ** values[5])
    values.append(values[6] - values[6])
    outcome = execute(program, table)
    assert (outcome.invalid, outcome.result) == (0, round(values[-1], 5))


def _integer_program(steps: list[tuple[str, str, str]]) -> tuple[list[str], list[list[str]], Any]:
    """A program on Python integers (from an empty row's sum), and CPython's value of it."""
    operations: dict[str, Callable[[Any, Any], Any]] = {
        "add(": lambda a, b: a + b, "subtract(": lambda a, b: a - b, "multiply(": lambda a, b: a * b,
        "exp(": lambda a, b: a ** b}
    values: list[Any] = [sum([])]
    for op, first, second in steps:
        values.append(operations[op](values[int(first[1:])], values[int(second[1:])]))
    program = ["table_sum(", "empty", "none", ")"] + [t for step in steps for t in (*step, ")")] + [EOF_]
    return program, [["empty"]], values[-1]


def test_the_exp_precheck_allows_what_the_bound_allows() -> None:
    # 2 ** 32769 has 32,770 bits; the old pre-check multiplied 2 bits by 32,769 and refused it
    program, table, expected = _integer_program([
        ("exp(", "#0", "#0"), ("add(", "#1", "#1"), ("exp(", "#2", "#2"), ("exp(", "#3", "#2"),
        ("subtract(", "#4", "#1"), ("exp(", "#2", "#5"), ("add(", "#6", "#1"), ("exp(", "#2", "#7"),
        ("subtract(", "#8", "#8")])
    outcome = execute(program, table)
    assert (outcome.invalid, outcome.result) == (0, round(expected, 5))


def test_a_program_past_the_declared_bounds_has_its_own_status() -> None:
    from finscore.engine.bounds import MAX_INTEGER_BITS

    # 2 ** (2 ** 20): more bits than the declared bound
    steps = [("exp(", "#0", "#0"), ("add(", "#1", "#1"), ("exp(", "#2", "#2"), ("exp(", "#3", "#2"),
             ("exp(", "#2", "#4"), ("multiply(", "#4", "#5"), ("exp(", "#2", "#6")]
    program, table, power = _integer_program(steps)
    assert power.bit_length() > MAX_INTEGER_BITS
    outcome = execute(program, table)
    assert (outcome.invalid, outcome.status, outcome.status_name) == (1, Status.EXCEEDS_BOUNDS, "exceeds_bounds")


# -- 4. tables as any sequence the type promises ---------------------------------------

TABLE_PROGRAM = ["table_max(", "x", "none", ")", EOF_]


@pytest.mark.parametrize("table", [(["x", "5"],), [("x", "5")], (("x", "5", "7"), ("y", "1"))],
                         ids=["tuple of lists", "list of tuples", "tuple of tuples"])
def test_a_table_of_tuples_reads_like_a_table_of_lists(table: Any) -> None:
    as_lists = [list(row) for row in table]
    expected = execute(TABLE_PROGRAM, as_lists)
    outcome = execute(TABLE_PROGRAM, table)
    # CPython's own reading: the official table_max is max() of the row's cells read as floats
    assert (expected.invalid, expected.result) == (0, max(float(cell) for cell in as_lists[0][1:]))
    assert (outcome.invalid, outcome.result, outcome.status) == (expected.invalid, expected.result, expected.status)


@pytest.mark.parametrize("row", ["x5", 5, None, {"x": "5"}], ids=["str", "int", "None", "dict"])
def test_a_row_that_is_not_a_sequence_of_cells_is_a_type_error_naming_it(row: Any) -> None:
    with pytest.raises(TypeError, match="row 1"):
        execute(TABLE_PROGRAM, [["x", "5"], row])


# -- 5. memory: a huge table is answered, or gets a typed status, and the batch goes on ----

@pytest.mark.essential
def test_a_row_of_34_million_cells_does_not_stop_the_batch() -> None:
    """The issue's row: 34 million cells (the core's plain reader would need more than the
    module's 1 GiB for it). Its first cell is no number, so officially the program is
    invalid at once; the other programs of the batch are answered."""
    cells = ["1.5"] * 34_000_000
    cells[0] = "one"
    batch = execute_batch([(["add(", "1", "2", ")", EOF_], None), (TABLE_PROGRAM, [["x", *cells]]),
                           (["add(", "2", "2", ")", EOF_], None)])
    assert (batch.invalid[0], batch.results[0]) == (0, 1 + 2)
    assert (batch.invalid[2], batch.results[2]) == (0, 2 + 2)
    assert _raises(float, "one")
    assert (batch.invalid[1], batch.statuses[1]) == (1, Status.BAD_CELL)


@pytest.fixture
def small_core_calls(monkeypatch: pytest.MonkeyPatch) -> int:
    """The bound on one core call, made small (1 MiB) so that modest tables cross it."""
    import finscore.engine.routing as routing

    monkeypatch.setattr(routing, "MAX_CORE_CALL_BYTES", 1 << 20)
    return 1 << 20


def test_chunks_are_sized_by_bytes_and_a_big_table_is_still_answered(small_core_calls: int) -> None:
    # each table alone fits one call, but not two of them together, nor the plain reader's layout
    cells = [str(k / 8) for k in range(small_core_calls // 12)]
    pairs = [(["table_max(", "x", "none", ")", EOF_], [["x", *cells]]),
             (["table_sum(", "x", "none", ")", EOF_], [["x", *cells]]),
             (["add(", "1", "2", ")", EOF_], None)]
    batch = execute_batch(pairs, python="3.11")
    values = [float(cell) for cell in cells]
    total: float = 0
    for value in values:  # CPython 3.11's sum(): left to right from the integer 0
        total = total + value
    assert list(batch.invalid) == [0, 0, 0]
    assert list(batch.results) == [round(max(values), 5), round(total, 5), 1 + 2]


def test_a_table_past_one_core_call_is_past_the_bounds(small_core_calls: int) -> None:
    cells = ["1"] * (small_core_calls // 8 + 1)
    batch = execute_batch([(["table_max(", "x", "none", ")", EOF_], [["x", *cells]]),
                           (["add(", "1", "2", ")", EOF_], None)])
    assert (batch.invalid[0], batch.statuses[0]) == (1, Status.EXCEEDS_BOUNDS)
    assert (batch.invalid[1], batch.results[1]) == (0, 1 + 2)
    assert batch[0].status_name == "exceeds_bounds"
