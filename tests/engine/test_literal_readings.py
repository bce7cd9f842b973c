"""Percent and constant literals read to CPython's own bits, on literals where a wrong reading shows.

Officially a literal is `float(text)` with commas removed; failing that, `x%` is
`float(x) / 100`; `const_N` is `float(N)` and `const_m1` is -1 (the specification,
from evaluate.py). The oracle here is this CPython's float() (its reading of ASCII
text is the same in every version). Hand-picked literals such as `12%` give the same
bits whether `x%` is divided by 100 or multiplied by 0.01; about one ordinary
two-decimal value in eight does not, so only such literals are generated.

Each literal is run twice: alone in a plain program (the core's own reader takes
it) and beside `-0e0`, which the core leaves to the full reader in Python, so both
readers are pinned. The step's own value is compared (the answer is rounded to 5
places, which would hide a last-bit error).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from finscore import execute, execute_many

#: The second argument, -0.0 (x + -0.0 is x to the bit, -0.0 included): `-0` keeps the program
#: plain (the core reads it), `-0e0` leaves it to the full reader.
SECOND_ARGUMENTS = ("-0", "-0e0")


def _grouped(integer: int) -> str:
    return f"{integer:,}"


def _percent_text(integer: int, fraction: str, negative: bool, grouped: bool) -> str:
    whole = _grouped(integer) if grouped else str(integer)
    return f"{'-' if negative else ''}{whole}.{fraction}%"


def _official_percent(text: str) -> float:
    """evaluate.py's reading of `x%`: float() of x without its commas, divided by 100."""
    return float(text.replace(",", "").removesuffix("%")) / 100


def _wrong_percent(text: str) -> float:
    return float(text.replace(",", "").removesuffix("%")) * 0.01


def _reads_as_differ(text: str) -> bool:
    return _official_percent(text) != _wrong_percent(text)


def _step_value(literal: str, second: str) -> float:
    execution = execute(["add(", literal, second, ")", "EOF"])
    assert execution.invalid == 0 and execution.status_name == "ok", (literal, execution.status_name)
    value = execution.steps[0].value
    assert isinstance(value, float)
    return value


def _seeded_percent_literals(count: int, seed: int) -> list[str]:
    """`count` ordinary percent literals (up to 4 decimals, some grouped) whose two readings differ."""
    rnd = random.Random(seed)
    found: list[str] = []
    for _ in range(200 * count):  # about one in eight qualifies: bounded, and always enough
        digits = rnd.choice((1, 2, 2, 2, 3, 4))
        text = _percent_text(rnd.randrange(0, 10**rnd.randrange(1, 8)), f"{rnd.randrange(10**digits):0{digits}d}",
                             rnd.random() < 0.3, rnd.random() < 0.3)
        if _reads_as_differ(text):
            found.append(text)
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} differing literals found")


def test_hand_picked_literals_cannot_tell_the_readings_apart_but_generated_ones_do() -> None:
    # why the generated literals are filtered: these four give the same bits either way
    assert not any(_reads_as_differ(text) for text in ("12%", "-7.5%", "1e5%", "12.5%"))
    two_decimals = [f"{n // 100}.{n % 100:02d}%" for n in range(10_000)]
    share = sum(map(_reads_as_differ, two_decimals)) / len(two_decimals)
    assert 0.05 < share < 0.5, share


@pytest.mark.parametrize("second", SECOND_ARGUMENTS)
def test_seeded_percent_literals_are_cpythons_float_divided_by_100(second: str) -> None:
    literals = _seeded_percent_literals(2_000, seed=18)
    executions = execute_many([(["add(", text, second, ")", "EOF"], None) for text in literals])
    wrong = []
    for text, execution in zip(literals, executions):
        value = execution.steps[0].value if execution.invalid == 0 else None
        if not (isinstance(value, float) and value.hex() == _official_percent(text).hex()):
            wrong.append((text, execution.status_name, value, _official_percent(text)))
    assert wrong == [], f"{len(wrong)} of {len(literals)} misread, e.g. {wrong[:3]}"


@settings(derandomize=True, max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(integer=st.integers(0, 10**7), fraction=st.from_regex(r"[0-9]{1,4}", fullmatch=True), negative=st.booleans(),
       grouped=st.booleans(), second=st.sampled_from(SECOND_ARGUMENTS))
def test_property_percent_literal_bits(integer: int, fraction: str, negative: bool, grouped: bool, second: str) -> None:
    text = _percent_text(integer, fraction, negative, grouped)
    expected = _official_percent(text)
    assert _step_value(text, second).hex() == expected.hex(), (text, second)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(mantissa=st.integers(1, 10**9), exponent=st.integers(-12, 12), second=st.sampled_from(SECOND_ARGUMENTS))
def test_property_exponent_percent_literals_take_the_same_rule(mantissa: int, exponent: int, second: str) -> None:
    # `1234e-2%` is not plain: the full reader reads it, whatever the other argument
    text = f"{mantissa}e{exponent}%"
    assert _step_value(text, second).hex() == (float(f"{mantissa}e{exponent}") / 100).hex(), text


@settings(derandomize=True, max_examples=100, deadline=None)
@given(n=st.integers(0, 2**53), second=st.sampled_from(SECOND_ARGUMENTS))
def test_property_constants_are_their_number(n: int, second: str) -> None:
    assert _step_value(f"const_{n}", second).hex() == float(n).hex()


@pytest.mark.parametrize("second", SECOND_ARGUMENTS)
def test_const_m1_is_minus_one(second: str) -> None:
    assert _step_value("const_m1", second) == float("-1")
    # and it changes the answer: 5 + const_m1 is 4, 5 - const_m1 is 6
    assert execute(["add(", "5", "const_m1", ")", "EOF"]).result == float("4")
    assert execute(["subtract(", "5", "const_m1", ")", "EOF"]).result == float("6")
    assert execute(["add(", "5e0", "const_m1", ")", "EOF"]).result == float("4")


def _spec_reading(text: str) -> float | None:
    """evaluate.py's literal reading, restated from the specification on CPython's float():
    without commas; else without "%" and divided by 100; else without "const_" ("m1" is -1)."""
    text = text.replace(",", "")
    for candidate, scale in ((text, None), *(((text.replace("%", ""), 100.0),) if "%" in text else ())):
        try:
            value = float(candidate)
        except ValueError:
            continue
        return value if scale is None else value / scale
    if "%" in text or "const" not in text:
        return None
    rest = text.replace("const_", "")
    try:
        return float("-1" if rest == "m1" else rest)
    except ValueError:
        return None


@pytest.mark.parametrize("second", SECOND_ARGUMENTS)
@pytest.mark.parametrize("text", [".", "-.", "+.", ".%", "-.%", "1,", ",5", "1,00.5", "%", "const_", "const_-1",
                                  "const_1e2", "const_1_0", "const_.5", "const_m1", "const_x", "1_0%", "const_5%"])
def test_texts_float_refuses_are_invalid_and_the_others_its_value(text: str, second: str) -> None:
    expected = _spec_reading(text)
    execution = execute(["add(", text, second, ")", "EOF"])
    if expected is None:
        assert execution.invalid == 1, (text, execution.status_name)
    else:
        assert execution.invalid == 0, (text, execution.status_name)
        value = execution.steps[0].value
        assert isinstance(value, float) and value.hex() == expected.hex(), text
