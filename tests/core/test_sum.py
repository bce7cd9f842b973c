"""Both summation rules against CPython 3.11 and 3.12 themselves.

table_sum is Python's builtin sum() of the row and table_average is that sum
divided by the row's length; CPython 3.12 changed sum() to compensated
summation, so each rule is checked against the interpreter it imitates.
"""

from __future__ import annotations

import math
import random

import pytest
from support.doubles import SPECIALS, random_double
from support.pythons import require_python, run_python

from finscore.engine.core.abi import UNUSED_ARG, CoreArg, CoreProgram, CoreStep, Op, SumRule
from finscore.engine.core.binding import get_core

#: a claim rests on these tests: under CI a skip fails the run (tests/conftest.py)
pytestmark = pytest.mark.essential

ORACLE = r"""
import sys
for line in sys.stdin:
    row = [float.fromhex(t) for t in line.split()]
    print(sum(row).hex(), (sum(row) / len(row)).hex())
"""


def rows(count: int, seed: int) -> list[list[float]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        length = rnd.randrange(1, 16)
        kind = rnd.randrange(4)
        if kind == 0:  # cancellation, where compensation changes the answer
            row = [rnd.choice([1e16, -1e16, 1.0, -1.0, 0.1, 1e100, -1e100]) for _ in range(length)]
        elif kind == 1:
            row = [rnd.choice(SPECIALS) for _ in range(length)]
        elif kind == 2:  # table-like values
            row = [round(rnd.uniform(-1e5, 1e5), rnd.randrange(0, 4)) for _ in range(length)]
        else:
            row = [random_double(rnd) for _ in range(length)]
        out.append(row)
    return out


def core_sums(data: list[list[float]], rule: SumRule) -> list[str]:
    programs = []
    for row in data:
        steps = (CoreStep(Op.TABLE_SUM, CoreArg.row(0, len(row)), UNUSED_ARG),
                 CoreStep(Op.TABLE_AVERAGE, CoreArg.row(0, len(row)), UNUSED_ARG))
        programs.append(CoreProgram(steps, tuple(row)))
    results = get_core().execute_batch(programs, rule)
    return [f"{r.step_values[0].hex()} {r.step_values[1].hex()}" for r in results]


def same(mine: str, oracle: str) -> bool:
    return all(a == b or (math.isnan(float.fromhex(a)) and math.isnan(float.fromhex(b)))
               for a, b in zip(mine.split(), oracle.split()))


@pytest.mark.parametrize(("minor", "rule"), [(11, SumRule.PY311), (12, SumRule.PY312), (13, SumRule.PY312)])
def test_sum_rule_matches_that_cpython(minor: int, rule: SumRule) -> None:
    python = require_python(minor)
    data = rows(30_000, seed=minor)
    oracle = run_python(python, ORACLE, "".join(" ".join(x.hex() for x in row) + "\n" for row in data))
    expected = oracle.splitlines()
    mine = core_sums(data, rule)
    assert len(expected) == len(mine) == len(data)
    bad = [(row, m, e) for row, m, e in zip(data, mine, expected) if not same(m, e)]
    assert bad == [], f"{len(bad)} mismatches, e.g. {bad[:3]}"


def test_the_two_rules_differ_where_compensation_matters() -> None:
    """1e16 + 1 - 1e16 is 0 left to right and 1 compensated: the rules are really two."""
    mine_311, mine_312 = (core_sums([[1e16, 1.0, -1e16]], rule)[0] for rule in (SumRule.PY311, SumRule.PY312))
    assert float.fromhex(mine_311.split()[0]) == (1e16 + 1.0) - 1e16 == 0.0
    assert float.fromhex(mine_312.split()[0]) == 1.0
