"""Reading rules of the official evaluator on programs the core leaves to the full reader.

Written to kill mutants that survived scripts/mutation (tests/README.md). A literal
the core does not read itself (`1e2`, `8e1`) sends the whole program to the full
reader in Python, so these pin that reader. Expected answers follow evaluate.py's
eval_program (the specification): the answer is CPython's own arithmetic on float()
of each literal, rounded with round(x, 5); `greater` answers "yes"/"no"; a step with
two `(` is invalid.
"""

from __future__ import annotations

import operator
import sys
from typing import Any

import pytest
from support.pythons import require_python, run_python

from finscore import execute

ARITHMETIC = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv}


@pytest.mark.parametrize("op", sorted(ARITHMETIC))
@pytest.mark.parametrize(("a", "b"), [("1e2", "8e1"), ("3e-1", "7e0"), ("-2.5e1", "4e-2")])
def test_arithmetic_on_literals_the_full_reader_reads(op: str, a: str, b: str) -> None:
    execution = execute([f"{op}(", a, b, ")", "EOF"])
    assert (execution.invalid, execution.status_name) == (0, "ok")
    assert execution.result == round(ARITHMETIC[op](float(a), float(b)), 5)


@pytest.mark.parametrize(("a", "b", "answer"), [("1e2", "8e1", "yes"), ("8e1", "1e2", "no"), ("1e2", "1e2", "no")])
def test_greater_is_arithmetic_not_a_table_step(a: str, b: str, answer: str) -> None:
    # evaluate.py: greater gives "yes" if float(a) > float(b) else "no"
    assert float(a) > float(b) if answer == "yes" else not float(a) > float(b)
    execution = execute(["greater(", a, b, ")", "EOF"])
    assert (execution.invalid, execution.result) == (0, answer)


def test_exp_on_literals_the_full_reader_reads() -> None:
    execution = execute(["exp(", "2e0", "1e1", ")", "EOF"])
    assert (execution.invalid, execution.result) == (0, round(float("2e0") ** float("1e1"), 5))


@pytest.mark.parametrize("profile", ["official", "strict"])
def test_a_step_with_two_opening_parentheses_is_invalid(profile: str) -> None:
    # joined with "|" the step is "add(|1|2(3|": split("(") gives three parts, which
    # evaluate.py refuses, though its first two parts alone would read as add(1, 2)
    assert len("add(|1|2(3|".split("(")) == 3
    assert execute(["add(", "1", "2(3", ")", "EOF"], profile=profile).invalid == 1
    assert execute(["add(", "1", "2", ")", "EOF"], profile=profile).result == 3.0


@pytest.mark.essential  # CPython 3.11, where the official evaluator ran, is the oracle
@pytest.mark.parametrize("digits", [4299, 4300, 4301])
def test_a_long_reference_reads_as_cpython_311s_int_does(digits: int) -> None:
    # CPython 3.11 refuses int() of text longer than 4,300 digits, whatever this process allows
    oracle = run_python(require_python(11), "import sys\ntry:\n    print(int(sys.stdin.read()))\nexcept ValueError:\n"
                        "    print('invalid')\n", "0" * digits, non_fma=False).strip()
    program = ["add(", "1", "2", ")", "add(", "#" + "0" * digits, "1", ")", "EOF"]
    limit = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(0)  # this process allows any length: the reading must not follow it
        execution = execute(program)
    finally:
        sys.set_int_max_str_digits(limit)
    if oracle == "invalid":
        assert execution.invalid == 1
    else:
        assert int(oracle) == 0 and (execution.invalid, execution.result) == (0, 4.0)


@pytest.mark.parametrize("digit", ["\u0660", "\uff10", "\U0001d7ce"])  # Arabic-Indic, fullwidth, mathematical 0
def test_a_reference_in_other_digits_is_official_but_not_strict(digit: str) -> None:
    # evaluate.py reads "#" + digit with int(), which takes any Unicode decimal digit: step 0
    assert int(digit) == 0
    program = ["add(", "1", "2", ")", "add(", f"#{digit}", "1", ")", "EOF"]
    assert (execute(program).invalid, execute(program).result) == (0, 4.0)
    strict = execute(program, profile="strict")
    assert (strict.invalid, strict.status_name) == (1, "loose_reference_syntax")


@pytest.mark.parametrize("name", [["x"], {"a": 1}])
def test_a_row_named_by_a_list_or_object_is_a_typed_refusal(name: object) -> None:
    # the official reading keys the table by row name, which a list or an object cannot key;
    # finscore must refuse with a status naming the table, never by raising (a table is data)
    table: list[list[Any]] = [[name, "1"], ["x", "2"]]
    execution = execute(["table_sum(", "x", "none", ")", "EOF"], table)
    assert execution.invalid == 1 and execution.status_name == "malformed_table"
