"""The core's exact rounding against CPython's own round(x, n), the oracle."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.doubles import double_to_bits, near_decimal_tie, random_double

from finscore import round_half_even_scaled

#: a claim rests on these tests: under CI a skip fails the run (tests/conftest.py)
pytestmark = pytest.mark.essential

# The six double-rounding traps of the FinQA specification, with their expected answers.
TRAPS = [
    (3.268485, 3.26849),
    (1.276875, 1.27687),
    (-0.771875, -0.77187),
    (0.115625, 0.11563),
    (0.128525, 0.12853),
    (0.178125, 0.17813),
]


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or double_to_bits(a) == double_to_bits(b)


@pytest.mark.parametrize(("x", "expected"), TRAPS)
def test_double_rounding_traps(x: float, expected: float) -> None:
    assert round_half_even_scaled(x, 1e5) == expected == round(x, 5)
    # a single rounded multiply decides the tie on the wrong number
    assert round(x * 1e5) / 1e5 != expected


@pytest.mark.parametrize(
    ("x", "scale", "expected"),
    [(0.125, 100.0, 0.12), (-0.125, 100.0, -0.12), (1.5, 1.0, 2.0), (2.5, 1.0, 2.0), (2.675, 100.0, 2.67)],
)
def test_ties_go_to_even_on_the_exact_binary_value(x: float, scale: float, expected: float) -> None:
    assert round_half_even_scaled(x, scale) == expected


@pytest.mark.parametrize("x", [0.0, -0.0, -1e-9, 1e-9, 5e-324, -5e-324])
def test_zero_keeps_its_sign(x: float) -> None:
    assert same(round_half_even_scaled(x, 1e5), round(x, 5))
    assert math.copysign(1.0, round_half_even_scaled(x, 1e5)) == math.copysign(1.0, x)


@pytest.mark.parametrize("x", [math.inf, -math.inf, math.nan, 1e300, -1.7976931348623157e308, 2.0**52 + 0.5])
def test_non_finite_and_huge_values_give_cpythons_answer(x: float) -> None:
    for n in (0, 5, 22):
        assert same(round_half_even_scaled(x, 10.0**n), round(x, n))


@pytest.mark.parametrize("scale", [0.0, 3.0, 1e23, -1e5, 1e5 + 1e-11, math.nan])
def test_a_scale_that_is_not_a_power_of_ten_is_refused(scale: float) -> None:
    with pytest.raises(ValueError, match="scale"):
        round_half_even_scaled(1.0, scale)


def test_wrong_types_are_refused() -> None:
    with pytest.raises(TypeError):
        round_half_even_scaled("1.5", 1e5)  # type: ignore[arg-type]


@settings(max_examples=3000, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True), st.integers(min_value=0, max_value=15))
def test_property_every_double_matches_cpython(x: float, n: int) -> None:
    assert same(round_half_even_scaled(x, 10.0**n), round(x, n))


@settings(max_examples=3000, deadline=None)
@given(st.integers(min_value=-(10**12), max_value=10**12), st.integers(min_value=0, max_value=15),
       st.integers(min_value=-4, max_value=4))
def test_property_values_near_a_decimal_tie_match_cpython(k: int, n: int, ulps: int) -> None:
    x = (k + 0.5) / 10**n
    for _ in range(abs(ulps)):
        x = math.nextafter(x, math.copysign(math.inf, ulps))
    assert same(round_half_even_scaled(x, 10.0**n), round(x, n))


def test_seeded_sweep_of_every_magnitude_and_scale() -> None:
    rnd = random.Random(20261130)
    bad = []
    for _ in range(20_000):
        n = rnd.randrange(0, 23)
        x = random_double(rnd) if rnd.random() < 0.7 else near_decimal_tie(rnd, min(n, 15))
        if not same(round_half_even_scaled(x, 10.0**n), round(x, n)):
            bad.append((x, n))
    assert bad == []
