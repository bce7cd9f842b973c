"""Reading claimed values: exact decimals, declared normalizations only, never an exception.

External oracles: CPython's own `Decimal` and `int` (which read Unicode digits
and grouping-free text), `fractions.Fraction` for tolerance arithmetic, and
hand-written expectations.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from finscore.contracts.checks.values import read_value, within_tolerance
from finscore.contracts.formats.models import NORMALIZATIONS
from finscore.contracts.formats.models import ClaimTolerance as Tolerance

ALL = frozenset(NORMALIZATIONS)
NONE: frozenset[str] = frozenset()

bounded_decimals = st.decimals(
    min_value=Decimal("-1e15"), max_value=Decimal("1e15"), allow_nan=False, allow_infinity=False, places=4
)


def value_of(raw, accept=NONE, unit="INR"):
    return read_value(raw, frozenset(accept), unit).value


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("3345563.94", Decimal("3345563.94")),
        ("3345563.940", Decimal("3345563.94")),
        ("-12", Decimal("-12")),
        (Decimal("0.06"), Decimal("0.06")),
        (5, Decimal(5)),
    ],
)
def test_canonical_text_and_json_numbers_are_read_exactly(raw, expected):
    assert value_of(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "NaN",
        "nan",
        "Infinity",
        "-inf",
        "1e999",
        "1e3",
        "3.3 million",
        "about 3345563.94",
        " 3345563.94",
        "3345563.94 ",
        "",
        ".5",
        "5.",
        "+5",
        "--5",
        "1_000",
        "0x10",
        True,
        False,
        None,
        [],
        {},
        ["3"],
        Decimal("NaN"),
        Decimal("Infinity"),
        Decimal("1E+999"),
        10**40,
        "9" * 300,
    ],
)
def test_unreadable_values_fail_without_raising(raw):
    reading = read_value(raw, ALL, "INR")
    assert reading.value is None and reading.problem


def test_issue_example_forms_are_read_only_when_declared():
    assert value_of("33,45,563.94", {"grouping_indian"}) == Decimal("3345563.94")
    assert value_of("33,45,563.94") is None
    assert value_of("₹33,45,563.94", {"grouping_indian", "currency_symbol"}) == Decimal("3345563.94")
    assert value_of("₹33,45,563.94", {"grouping_indian"}) is None
    assert value_of("₹ 3345563.94", {"currency_symbol"}) == Decimal("3345563.94")
    assert value_of("3,345,563.94", {"grouping_western"}) == Decimal("3345563.94")


@pytest.mark.parametrize(
    "text, declared",
    [
        ("3,345,563.94", {"grouping_indian"}),  # western places under an Indian declaration
        ("33,45,563.94", {"grouping_western"}),  # Indian places under a western declaration
        ("3345,563.94", {"grouping_indian", "grouping_western"}),
        ("33,45,563,94", {"grouping_indian", "grouping_western"}),
        ("1,00,0", {"grouping_indian"}),
        (",123", {"grouping_indian", "grouping_western"}),
    ],
)
def test_misplaced_grouping_is_unreadable(text, declared):
    assert value_of(text, declared) is None


def test_percent_is_divided_by_100_only_in_the_declared_percent_form():
    assert value_of("64.25%", {"percent_display"}, "ratio") == Decimal("0.6425")
    assert value_of("64.25", {"percent_display"}, "percent") == Decimal("0.6425")
    assert value_of("64.25", {"percent_display"}, "ratio") == Decimal("64.25")
    assert value_of("64.25%", NONE, "ratio") is None
    assert value_of("64.25", NONE, "percent") == Decimal("64.25")
    reading = read_value("64.25%", frozenset({"percent_display"}), "ratio")
    assert reading.as_percent and reading.applied == ("percent_display",)


def test_unicode_digits_only_from_the_declared_script():
    devanagari, tamil = "३३४५५६३.९४", "௩௩௪௫௫௬௩.௯௪"
    assert value_of(devanagari, {"digits_devanagari"}) == Decimal("3345563.94")
    assert value_of(devanagari) is None
    assert value_of(devanagari, {"digits_tamil"}) is None
    assert value_of(tamil, {"digits_tamil"}) == Decimal("3345563.94")
    assert value_of("३3", {"digits_devanagari"}) is None  # mixed scripts
    assert value_of("٣٣", ALL) is None  # Arabic-Indic digits are never declared by any normalization
    assert value_of("३३,४५,५६३.९४", {"digits_devanagari", "grouping_indian"}) == Decimal("3345563.94")


@settings(max_examples=300, deadline=None)
@given(bounded_decimals)
def test_canonical_text_round_trips_against_decimal(value):
    text = format(value, "f")
    assert read_value(text, NONE, "INR").value == Decimal(text)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=10**14), st.integers(min_value=0, max_value=99))
def test_western_grouping_from_python_formatting(integer, cents):
    text = f"{integer:,}.{cents:02d}"  # CPython's own thousands grouping
    expected = Decimal(f"{integer}.{cents:02d}")
    assert value_of(text, {"grouping_western"}) == expected
    assert value_of(text) == (expected if integer < 1000 else None)


def _indian(integer: int) -> str:
    """Indian grouping, written here independently: last three digits, then pairs."""
    digits = str(integer)
    if len(digits) <= 3:
        return digits
    head, tail = digits[:-3], digits[-3:]
    groups = [head[max(0, i - 2) : i] for i in range(len(head), 0, -2)][::-1]
    return ",".join(groups + [tail])


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=10**14))
def test_indian_grouping_is_read_as_declared(integer):
    text = _indian(integer)
    assert value_of(text, {"grouping_indian"}) == Decimal(integer)
    if integer >= 100_000:  # from one lakh on, Indian and western places differ
        assert value_of(text, {"grouping_western"}) is None


@settings(max_examples=300, deadline=None)
@given(
    bounded_decimals.filter(lambda d: d >= 0),
    st.sampled_from([("digits_devanagari", 0x0966), ("digits_tamil", 0x0BE6)]),
)
def test_script_digits_agree_with_cpython(value, script):
    name, zero = script
    text = "".join(chr(zero + int(c)) if c.isdigit() else c for c in format(value, "f"))
    read = value_of(text, {name})
    if name == "digits_devanagari":
        assert read == Decimal(text)  # CPython's Decimal reads Devanagari digits itself
    else:
        assert read == Decimal(format(value, "f"))
    assert value_of(text) is None


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40),
        st.integers(),
        st.floats(allow_nan=True),
        st.booleans(),
        st.none(),
        st.lists(st.integers(), max_size=3),
    ),
    st.sets(st.sampled_from(sorted(ALL))),
    st.sampled_from(["INR", "ratio", "percent", 3, None]),
)
def test_any_json_value_reads_or_fails_cleanly(raw, declared, unit):
    reading = read_value(raw, frozenset(declared), unit)
    assert (reading.value is None) == (reading.problem is not None)
    if reading.value is not None:
        assert reading.value.is_finite()
        assert set(reading.applied) <= set(declared)


@settings(max_examples=500, deadline=None)
@given(
    bounded_decimals,
    bounded_decimals,
    st.decimals(min_value=0, max_value=10, places=3),
    st.decimals(min_value=0, max_value=1, places=4),
)
def test_tolerance_agrees_with_fraction_arithmetic(value, gold, absolute, relative):
    tolerance = Tolerance("INR", absolute, relative)
    difference = abs(Fraction(value) - Fraction(gold))
    bound = max(Fraction(absolute), Fraction(relative) * abs(Fraction(gold)))
    assert within_tolerance(value, gold, tolerance) == (difference <= bound)
    assert within_tolerance(value, gold, None) == (Fraction(value) == Fraction(gold))


def test_tolerance_boundaries_by_hand():
    paisa = Tolerance("INR", Decimal("0.01"), Decimal("0"))
    assert within_tolerance(Decimal("3345563.95"), Decimal("3345563.94"), paisa)
    assert not within_tolerance(Decimal("3345563.951"), Decimal("3345563.94"), paisa)
    one_percent = Tolerance("INR", Decimal("0"), Decimal("0.01"))
    assert within_tolerance(Decimal("101"), Decimal("100"), one_percent)
    assert not within_tolerance(Decimal("101.0001"), Decimal("100"), one_percent)
    assert not within_tolerance(Decimal("3345563.95"), Decimal("3345563.94"), None)


def test_a_value_text_over_200_characters_is_refused_for_its_length():
    # docs/contracts-format.md §2.3 (accept): a bound on model output, said in the reason
    assert read_value("1" * 201, NONE, "INR").problem == "value text longer than 200 characters"
    at_bound = read_value("1" * 200, NONE, "INR")
    assert at_bound.value is None and at_bound.problem == "not a decimal number within bounds"


def test_text_without_digits_is_not_a_number_rather_than_a_script_problem():
    for text in ("abc", "-", "."):
        assert read_value(text, frozenset(ALL), "INR").problem == "not a decimal number within bounds", text


def test_any_ascii_digit_mixed_with_a_declared_script_is_unreadable():
    # the ASCII digits are 0-9, the nine included: "9" beside Devanagari digits is two scripts
    for ascii_digit in "0123456789":
        text = ascii_digit + "\u0967"
        reading = read_value(text, frozenset({"digits_devanagari"}), "INR")
        assert reading.problem == "digits of an undeclared script, or of several scripts", text
