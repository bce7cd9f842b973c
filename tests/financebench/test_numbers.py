"""The bounded number scan: what a filing's extracted text and an answer write around a number."""

from __future__ import annotations

import time
from decimal import Decimal

from finscore.financebench.numbers import MAX_DIGITS, MAX_SCANNED_CHARS, scan


def _values(text: str) -> list[tuple[Decimal, int, bool]]:
    return [(n.value, n.scale, n.year) for n in scan(text)]


def test_a_dollar_cell_split_across_lines_keeps_its_dollar() -> None:
    [number] = scan("Net income\n \n$\n5,363 \n")
    assert (number.value, number.dollar, number.commas) == (Decimal("5363"), True, True)


def test_parentheses_are_negative_and_span_the_closing_one() -> None:
    text = "Purchases of PP&E\n \n \n(1,577) \n"
    [number] = scan(text)
    assert (number.value, number.parenthesized) == (Decimal("-1577"), True)
    assert text[number.start:number.end] == "(1,577)"


def test_a_dollar_before_parentheses_and_a_scale_word() -> None:
    [number] = scan("net income is $(546) million")
    assert (number.value, number.dollar, number.scale, number.scaled) == (Decimal("-546"), True, 6, Decimal("-5.46E+8"))


def test_minus_signs_percent_and_percent_word() -> None:
    assert [(n.value, n.percent) for n in scan("-1.53% and 4 percent and −2")] == [
        (Decimal("-1.53"), True), (Decimal("4"), True), (Decimal("-2"), False)]


def test_scale_words_and_phrases() -> None:
    assert _values("$1.577 billion, $5M, 389 thousand, $5,466,312 in USD millions, 68 cents") == [
        (Decimal("1.577"), 9, False), (Decimal("5"), 6, False), (Decimal("389"), 3, False),
        (Decimal("5466312"), 6, False), (Decimal("68"), -2, False)]


def test_names_glued_to_letters_are_not_values() -> None:
    assert all(n.glued for n in scan("FY2018 10-K Q3 dg01 3M"))


def test_years_and_the_days_of_dates_are_marked() -> None:
    assert _values("December 31, 2018 and 2017") == [
        (Decimal("31"), 0, True), (Decimal("2018"), 0, True), (Decimal("2017"), 0, True)]
    assert _values("May 5 units and 2,018") == [(Decimal("5"), 0, True), (Decimal("2018"), 0, False)]


def test_bounds_a_run_of_digits_too_long_is_no_number_and_text_is_cut() -> None:
    assert [n.value for n in scan("1" * (MAX_DIGITS + 1) + " and 7")] == [Decimal("7")]
    assert scan("x" * MAX_SCANNED_CHARS + " 5") == []


def test_a_hostile_text_costs_linear_time() -> None:
    started = time.perf_counter()
    scan("(1," * 60_000)
    scan("$ " * 90_000)
    assert time.perf_counter() - started < 5
