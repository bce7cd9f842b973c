"""RFC 8785 canonical bytes, checked against an outside implementation (Trail of Bits' `rfc8785`).

The seal's canonical form must be the one JCS defines, not finscore's idea of it: every double's
ECMAScript text, every string's escapes and the UTF-16 member order are compared with `rfc8785`
(in the test extra; CI installs it). Canonical numbers are then what the exact reader reads back
from that text, so a number written another way (`5e0`, `5.0`) is not canonical.
"""

from __future__ import annotations

import math
import struct
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from finscore.inputs import JsonValueError
from finscore.integrity.jcs import canonical_numbers, canonicalize, first_noncanonical_number, number_text

rfc8785 = pytest.importorskip("rfc8785", reason="rfc8785 (the test extra's outside JCS) is not installed")

SAFE = 2**53 - 1  # rfc8785 refuses integers beyond I-JSON's exact range; finscore rounds them to doubles

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-SAFE, max_value=SAFE)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(), children, max_size=5),
    max_leaves=30,
)


@pytest.mark.essential
@settings(max_examples=400, deadline=None)
@given(json_values)
def test_canonical_bytes_are_rfc8785s(value: Any) -> None:
    assert canonicalize(value) == rfc8785.dumps(value)


@pytest.mark.essential
@settings(max_examples=3000, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_every_double_is_written_as_rfc8785_writes_it(bits: int) -> None:
    double = struct.unpack(">d", struct.pack(">Q", bits))[0]
    if not math.isfinite(double):
        with pytest.raises(JsonValueError):
            number_text(double)
        return
    assert number_text(double) == rfc8785.dumps(double).decode("ascii")


@pytest.mark.essential
@pytest.mark.parametrize(
    "double",
    [0.0, -0.0, 5e-324, -5e-324, 1.7976931348623157e308, 1e21, 1e20, 1e-6, 1e-7, 9007199254740992.0,
     295147905179352830000.0, 1e23, 0.000001, 333333333.3333333, 1424953923781206.2, 0.06],
)
def test_the_boundaries_of_ecmascripts_number_form(double: float) -> None:
    """The layouts ECMAScript switches between (integer digits up to 21, then an exponent; six leading
    zeros, then an exponent) and the extremes of the double range."""
    assert number_text(double) == rfc8785.dumps(double).decode("ascii")


@pytest.mark.essential
def test_member_order_is_by_utf16_code_units() -> None:
    """RFC 8785 section 3.2.3 sorts by UTF-16 code units: an astral character (a surrogate pair,
    0xD83D...) sorts before U+FB33, though its code point is larger."""
    value = {"\ufb33": 1, "\U0001f600": 2, "\u20ac": 3, "\r": 4, "1": 5}
    assert canonicalize(value) == rfc8785.dumps(value)
    assert list(canonicalize(value).decode("utf-8")).index("\U0001f600") < list(canonicalize(value).decode()).index(
        "\ufb33"
    )


def test_a_lone_surrogate_is_not_i_json() -> None:
    with pytest.raises(JsonValueError):
        canonicalize({"text": "\ud800"})


@pytest.mark.parametrize(
    ("number", "canonical"),
    [
        (Decimal("5"), 5),  # 5e0 as the exact reader reads it
        (Decimal("5.0"), 5),
        (Decimal("1E+2"), 100),
        (Decimal("0.10"), Decimal("0.1")),
        (Decimal("0.1000000000000000000001"), Decimal("0.1")),  # no double holds it: the nearest one
        (2**53 + 1, 2**53),
        (10**21, Decimal("1E+21")),
    ],
)
def test_a_number_written_another_way_is_not_canonical(number: int | Decimal, canonical: int | Decimal) -> None:
    assert first_noncanonical_number({"n": number}) is not None
    rewritten = canonical_numbers({"n": number})["n"]
    assert type(rewritten) is type(canonical) and rewritten == canonical
    assert first_noncanonical_number({"n": rewritten}) is None
    assert canonicalize({"n": number}) == rfc8785.dumps({"n": float(number)})


@pytest.mark.parametrize("number", [0, 5, -7, 2**53, Decimal("0.06"), Decimal("3345563.94"), Decimal("1E+21")])
def test_numbers_already_in_canonical_form_stay(number: int | Decimal) -> None:
    assert first_noncanonical_number([number]) is None and canonical_numbers([number]) == [number]
