"""The official reading's quirks, and the strict profile's refusal of each.

Expected official outcomes follow the specification (docs/finqa-official.md)
with the arithmetic done by CPython in the test itself; the recorded vectors
(test_vectors.py) cover the same ground on 200,000 programs.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from finscore import Status, execute, execute_many

ROWS = [["", "2019", "2018"], ["revenue", "$ 13,053", "18,874"], ["x", "1"], ["x", "2"], ["empty"],
        ["words", "abc"], ["paren", "( 1,234 )"]]

EOF = "EOF"

# name: (program, table, official (invalid, result), strict status)
CASES = {
    "loose reference 1#": (["add(", "1", "2", ")", "add(", "3", "4", ")", "multiply(", "1#", "#0", ")", EOF],
                           None, (0, (3.0 + 4.0) * (1.0 + 2.0)), Status.LOOSE_REFERENCE_SYNTAX),
    "loose reference '# 0'": (["add(", "1", "2", ")", "add(", "# 0", "1", ")", EOF], None, (0, 4.0),
                              Status.LOOSE_REFERENCE_SYNTAX),
    "underscore literal": (["add(", "1_000", "1", ")", EOF], None, (0, float("1_000") + 1.0), Status.LOOSE_NUMBER_SYNTAX),
    "fullwidth digits": (["add(", "１２", "1", ")", EOF], None, (0, float("１２") + 1.0), Status.LOOSE_NUMBER_SYNTAX),
    "inf literal": (["greater(", "inf", "1e308", ")", EOF], None, (0, "yes"), Status.LOOSE_NUMBER_SYNTAX),
    "commas anywhere": (["add(", "1,2,3", "0", ")", EOF], None, (0, 123.0), Status.LOOSE_NUMBER_SYNTAX),
    "row reuse with #": (["table_sum(", "revenue", "none", ")", "table_max(", "#0", "none", ")", EOF], ROWS,
                         (0, max(13053.0, 18874.0)), Status.TABLE_ROW_REUSE),
    "duplicate row name": (["table_max(", "x", "none", ")", EOF], ROWS, (0, 2.0), Status.AMBIGUOUS_ROW_NAME),
    "greater text compared": (["greater(", "1", "2", ")", "greater(", "5", "4", ")", "greater(", "#0", "#1", ")", EOF],
                              None, (0, "yes" if "no" > "yes" else "no"), Status.REFERENCE_TO_BOOLEAN),
    "greater text concatenated": (["greater(", "1", "2", ")", "greater(", "3", "4", ")", "add(", "#0", "#1", ")", EOF],
                                  None, (1, "n/a"), Status.REFERENCE_TO_BOOLEAN),
    "empty row sums to integer 0": (["table_sum(", "empty", "none", ")", EOF], ROWS, (0, 0), Status.EMPTY_ROW),
    "integer 0 then float": (["table_sum(", "empty", "none", ")", "add(", "#0", "2.5", ")", EOF], ROWS,
                             (0, 0 + 2.5), Status.EMPTY_ROW),
    "integer power 0 ** 0": (["table_sum(", "empty", "none", ")", "exp(", "#0", "#0", ")", EOF], ROWS,
                             (0, 0**0), Status.EMPTY_ROW),
    "text repeated by an integer": (["greater(", "2", "1", ")", "table_sum(", "empty", "none", ")", "exp(", "#1", "#1", ")",
                                     "multiply(", "#0", "#2", ")", EOF], ROWS, (0, "yes" * (0**0)), Status.EMPTY_ROW),
    "unused complex intermediate": (["exp(", "-8", "0.5", ")", "add(", "1", "2", ")", EOF], None, (0, 3.0),
                                    Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT),
    "complex final value": (["exp(", "-8", "0.5", ")", EOF], None, (1, "n/a"), Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT),
    "complex zero divides": (["exp(", "-8", "0.5", ")", "subtract(", "#0", "#0", ")", "divide(", "1", "#1", ")", EOF],
                             None, (1, "n/a"), Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT),
    "delimiter splits a step": (["add(", "1", "2)foo(x|y", ")", EOF], None, (0, 3.0), Status.DELIMITER_IN_ARGUMENT),
    "unrecognised table op copies": (["add(", "1", "2)table_x(revenue|none", ")", EOF], ROWS, (0, 3.0),
                                     Status.DELIMITER_IN_ARGUMENT),
    "last token not EOF": (["add(", "1", "2", ")"], None, (0, "n/a"), Status.LAST_TOKEN_NOT_EOF),
    "trailing tokens": (["add(", "1", "2", ")", "add(", EOF], None, (0, 3.0), Status.TRAILING_TOKENS),
    "no steps": ([EOF], None, (0, "n/a"), Status.NO_STEPS),
    "empty token list": ([], None, (0, "n/a"), Status.LAST_TOKEN_NOT_EOF),
}


@pytest.mark.parametrize("name", CASES)
def test_official_outcome_and_strict_refusal(name: str) -> None:
    program, table, official, strict_status = CASES[name]
    outcome = execute(program, table)
    assert (outcome.invalid, outcome.result) == official
    assert type(outcome.result) is type(official[1])
    strict = execute(program, table, profile="strict")
    assert (strict.invalid, strict.status) == (1, strict_status)


REFUSED = {
    "structure": (["add(", "1", "2", "3", EOF], None, Status.MALFORMED_STRUCTURE, None),
    "two '(' in a step": (["add(", "1(", "2", ")", EOF], None, Status.MALFORMED_STEP, 0),
    "not a number": (["add(", "one", "2", ")", EOF], None, Status.BAD_NUMBER, 0),
    "const that is not a number": (["add(", "const_x", "2", ")", EOF], None, Status.BAD_NUMBER, 0),
    "reference that is not an integer": (["add(", "#a", "2", ")", EOF], None, Status.BAD_REFERENCE, 0),
    "forward reference": (["add(", "#1", "2", ")", "add(", "1", "2", ")", EOF], None, Status.FORWARD_REFERENCE, 0),
    "self reference": (["add(", "#0", "2", ")", EOF], None, Status.SELF_REFERENCE, 0),
    "reference out of range": (["add(", "#-1", "2", ")", EOF], None, Status.REFERENCE_OUT_OF_RANGE, 0),
    "reference to a skipped step": (["add(", "1", "2)foo(x|y", ")", "add(", "#1", "1", ")", EOF], None,
                                    Status.REFERENCE_TO_MISSING_STEP, 2),
    "unknown row": (["table_max(", "nope", "none", ")", EOF], ROWS, Status.UNKNOWN_ROW, 0),
    "cell that is not a number": (["table_max(", "words", "none", ")", EOF], ROWS, Status.BAD_CELL, 0),
    "accounting negative cell": (["table_max(", "paren", "none", ")", EOF], ROWS, Status.BAD_CELL, 0),
    "row reuse without an earlier table step": (["add(", "1", "2", ")", "table_max(", "#0", "none", ")", EOF], ROWS,
                                                Status.NO_EARLIER_TABLE_STEP, 1),
    "empty table row": (["table_max(", "x", "none", ")", EOF], [["x", "1"], []], Status.MALFORMED_TABLE, 0),
    "max of an empty row": (["table_max(", "empty", "none", ")", EOF], ROWS, Status.EMPTY_ROW, 0),
    "average of an empty row": (["table_average(", "empty", "none", ")", EOF], ROWS, Status.EMPTY_ROW, 0),
    "divide by zero": (["divide(", "1", "0", ")", EOF], None, Status.DIVIDE_BY_ZERO, 0),
    "exp overflow": (["exp(", "10", "400", ")", EOF], None, Status.EXP_OVERFLOW, 0),
    "text minus text": (["greater(", "1", "2", ")", "subtract(", "#0", "#0", ")", EOF], None, Status.TYPE_ERROR, 1),
    "complex compared": (["exp(", "-8", "0.5", ")", "greater(", "#0", "1", ")", EOF], None, Status.TYPE_ERROR, 1),
}


@pytest.mark.parametrize("name", REFUSED)
def test_invalid_in_both_profiles(name: str) -> None:
    program, table, status, step = REFUSED[name]
    outcome = execute(program, table)
    assert (outcome.invalid, outcome.result, outcome.status, outcome.failed_step) == (1, "n/a", status, step)
    assert execute(program, table, profile="strict").invalid == 1


def test_a_malformed_table_only_matters_to_table_steps() -> None:
    assert execute(["add(", "1", "2", ")", EOF], [[]]).result == 3.0


def test_quirks_are_recorded_in_the_official_profile() -> None:
    outcome = execute(["table_sum(", "revenue", "none", ")", "table_max(", "#0", "none", ")", EOF], ROWS)
    assert [(q.status, q.step) for q in outcome.quirks] == [(Status.TABLE_ROW_REUSE, 1)]
    assert outcome.steps[1].arguments[0].reused_from == 0


def test_the_failing_step_is_reported_with_the_steps_before_it() -> None:
    outcome = execute("add(1, 2), divide(#0, 0), add(1, 1)")
    assert (outcome.failed_step, outcome.status_name) == (1, "divide_by_zero")
    assert [(s.index, s.value) for s in outcome.steps] == [(0, 3.0), (1, None)]


def test_misuse_raises_clear_exceptions() -> None:
    with pytest.raises(TypeError, match="string or a list of tokens"):
        execute(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="token 1"):
        execute(["add(", 1, "2", ")", EOF])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="table"):
        execute("add(1, 2)", {"rows": []})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="profile"):
        execute("add(1, 2)", profile="lenient")
    with pytest.raises(ValueError, match="python version"):
        execute("add(1, 2)", python="three")
    with pytest.raises(TypeError, match="pairs"):
        execute_many(["add(1, 2)"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="pairs"):  # one triple among pairs is never cut short
        execute_many([("add(1, 2)", None), ("add(1, 2)", None, None)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="pairs"):
        execute_many([("add(1, 2)",)])  # type: ignore[list-item]


def test_a_table_shared_by_many_programs_is_checked_like_one_alone() -> None:
    """A chunk's tables are checked once per distinct object (a GRPO group shares its table): a bad
    row in a shared table is still named, and a good one shared by many programs runs for each."""
    shared = [["revenue", "1", "2"], {"cells": ["3"]}]
    with pytest.raises(TypeError, match="table row 1 is a dict, not a sequence of cells"):
        execute_many([("add(1, 2)", None), *[("add(1, 2)", shared)] * 50])  # type: ignore[list-item]
    good = [["revenue", "1", "2"]]
    outcomes = execute_many([("table_sum(revenue, none)", good)] * 50 + [("add(1, 2)", None)])
    assert [o.result for o in outcomes] == [3.0] * 50 + [3.0]


def test_pairs_may_be_lists_of_two() -> None:
    outcomes = execute_many([["add(1, 2)", None], ("multiply(2, 4)", None)])  # type: ignore[list-item]
    assert [o.result for o in outcomes] == [1 + 2, 2 * 4]


def test_many_programs_keep_their_order_across_chunks() -> None:
    items = [(f"add({k}, 0.5)", None) for k in range(2500)]
    done = []
    outcomes = execute_many(items, chunk_size=1000, progress=done.append)
    assert [o.result for o in outcomes] == [k + 0.5 for k in range(2500)]
    assert done == [1000, 2000, 2500]


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="0123456789.-", min_size=1, max_size=8))
def test_plain_character_shortcut_agrees_with_the_strict_pattern(text: str) -> None:
    """Texts of digits, '.' and '-' that float() accepts are exactly those the pattern accepts."""
    from finscore.engine.reader import numbers

    try:
        float(text)
    except ValueError:
        return
    assert numbers.is_strict_number(text)
    assert numbers._STRICT_NUMBER.fullmatch(text)
