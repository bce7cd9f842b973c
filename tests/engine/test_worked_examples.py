"""Worked gold programs from the FinQA specification, each also checked against CPython.

The expected answers are the ones the specification states; CPython evaluating
the same arithmetic (every intermediate unrounded, one round(x, 5) at the end)
is the second oracle.
"""

from __future__ import annotations

import pytest

from finscore import execute

TABLE = [
    ["", "2019", "2018"],
    ["revenue", "$ 13,053", "$ 18,874"],
    ["margin", "13.14", "10.64"],
    ["headcount", "208", "212"],
]


@pytest.mark.parametrize(
    ("program", "expected", "by_cpython"),
    [
        ("divide(100, 100), divide(3.8, #0)", 3.8, round(3.8 / (100.0 / 100.0), 5)),
        ("subtract(34.8, 1.2), divide(#0, 34.8), multiply(#1, const_100)", 96.55172,
         round((34.8 - 1.2) / 34.8 * 100.0, 5)),
        ("table_average(revenue, none)", 15963.5, round((0 + 13053.0 + 18874.0) / 2, 5)),
        ("table_max(margin, none)", 13.14, round(max(13.14, 10.64), 5)),
        ("table_min(headcount, none)", 208.0, round(min(208.0, 212.0), 5)),
        ("table_sum(revenue, none)", 31927.0, round(sum([13053.0, 18874.0]), 5)),
    ],
)
def test_worked_gold_program(program: str, expected: float, by_cpython: float) -> None:
    outcome = execute(program, TABLE)
    assert (outcome.invalid, outcome.result) == (0, expected)
    assert outcome.result == by_cpython


def test_only_the_last_step_is_rounded() -> None:
    """Rounding step 1 to five places first would give 96.552, not 96.55172."""
    outcome = execute("subtract(34.8, 1.2), divide(#0, 34.8), multiply(#1, const_100)")
    rounded_early = round(round((34.8 - 1.2) / 34.8, 5) * 100.0, 5)
    assert rounded_early == 96.552 != outcome.result
    assert [s.value for s in outcome.steps] == [34.8 - 1.2, (34.8 - 1.2) / 34.8, (34.8 - 1.2) / 34.8 * 100.0]
    assert outcome.unrounded == (34.8 - 1.2) / 34.8 * 100.0


def test_greater_answers_yes_or_no() -> None:
    assert execute("greater(5, 3)").result == "yes"
    assert execute("greater(3, 5)").result == "no"
    assert execute("greater(nan, 1)").result == "no"  # a comparison with nan is false


def test_token_list_and_string_forms_agree() -> None:
    tokens = ["subtract(", "34.8", "1.2", ")", "divide(", "#0", "34.8", ")", "EOF"]
    assert execute(tokens).result == execute("subtract(34.8, 1.2), divide(#0, 34.8)").result == round((34.8 - 1.2) / 34.8, 5)
