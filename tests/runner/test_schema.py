"""The JSON Schema subset validator, against the draft 2020-12 semantics and the `jsonschema` library."""

from __future__ import annotations

import json
from decimal import Decimal
from importlib.util import find_spec
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from finscore.world import SchemaError
from finscore.world.schema import Schema

# The schemas of docs/contracts-format.md section 3.1, as transcribed in the hand-written test cases.
_CASES = Path(__file__).parent / "cases"
_TOOLS = {
    tool["name"]: tool["parameters"]
    for name in ("t-fv.json", "t-conc.json")
    for tool in json.loads((_CASES / name).read_text(encoding="utf-8"))["world"]["tools"]
}
FUTURE_VALUE = _TOOLS["calc_future_value"]
DATE = FUTURE_VALUE["properties"]["as_of"]
ID = FUTURE_VALUE["properties"]["scenario_id"]
AMOUNT = FUTURE_VALUE["properties"]["principal"]
RATE = FUTURE_VALUE["properties"]["annual_rate"]
YEARS = FUTURE_VALUE["properties"]["years"]
ORDER_SIDE = _TOOLS["place_order"]["properties"]["side"]


def valid(schema: dict, value: object) -> bool:
    return not Schema(schema).errors(value)


GOOD_CALL = {
    "scenario_id": "scenario-A",
    "as_of": "2026-09-01",
    "principal": "2500000",
    "annual_rate": "0.06",
    "years": 5,
}


def test_a_well_formed_call_passes() -> None:
    assert valid(FUTURE_VALUE, GOOD_CALL)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"years": "5"}, "years"),
        ({"years": 5.5}, "years"),
        ({"years": True}, "years"),
        ({"years": 0}, "minimum"),
        ({"years": 101}, "maximum"),
        ({"principal": "-1"}, "pattern"),
        ({"principal": -1}, "minimum"),
        ({"principal": "1e6"}, "pattern"),
        ({"principal": "2,500,000"}, "pattern"),
        ({"annual_rate": 2}, "maximum"),
        ({"as_of": "01-09-2026"}, "pattern"),
        ({"scenario_id": "-leading-dash"}, "pattern"),
        ({"extra": 1}, "unexpected property 'extra'"),
    ],
)
def test_each_broken_argument_is_named(change: dict, fragment: str) -> None:
    errors = Schema(FUTURE_VALUE).errors({**GOOD_CALL, **change})
    assert errors and fragment in " ".join(errors)


def test_a_missing_argument_is_named() -> None:
    call = dict(GOOD_CALL)
    del call["years"]
    assert Schema(FUTURE_VALUE).errors(call) == ["arguments: missing required property 'years'"]


def test_integral_decimal_is_an_integer_as_the_draft_says() -> None:
    # Draft 2020-12: "a number with a zero fractional part" is an integer (5.0 read exactly).
    assert valid(YEARS, Decimal("5.0"))
    assert not valid(YEARS, Decimal("5.5"))


def test_numbers_read_exactly_from_json_pass_amount() -> None:
    assert valid(AMOUNT, Decimal("0.06"))
    assert valid(AMOUNT, Decimal("1E+2"))
    assert valid(RATE, Decimal("1"))
    assert not valid(RATE, Decimal("1.0000000000000000000000001"))


def test_numeric_keywords_do_not_apply_to_strings() -> None:
    # Draft 2020-12: `maximum` constrains numbers only; a string rate is held to the pattern alone.
    assert valid(RATE, "1.5")


def test_dollar_matches_only_at_the_end_as_in_ecma_262() -> None:
    # Python's `$` also matches before a final newline; ECMA-262's (the draft's dialect) does not.
    assert not valid(DATE, "2026-09-01\n")
    assert not valid(ID, "H001\n")


def test_digit_class_is_ascii_as_in_ecma_262() -> None:
    assert valid({"type": "string", "pattern": "^\\d+$"}, "2026")
    assert not valid({"type": "string", "pattern": "^\\d+$"}, "२०२६")


def test_enum_tells_booleans_from_numbers() -> None:
    assert not valid({"enum": [1]}, True)
    assert not valid({"enum": [True]}, 1)
    assert valid({"enum": [1]}, Decimal("1.0"))
    assert valid(ORDER_SIDE, "sell") and not valid(ORDER_SIDE, "SELL")


def test_unsupported_keywords_are_refused_not_ignored() -> None:
    with pytest.raises(SchemaError, match="oneOf"):
        Schema({"type": "object", "oneOf": [{"required": ["a"]}]})
    with pytest.raises(SchemaError, match="format"):
        Schema({"type": "string", "format": "date"})


def test_a_pattern_that_does_not_compile_is_a_schema_error() -> None:
    with pytest.raises(SchemaError, match="pattern"):
        Schema({"type": "string", "pattern": "(["})


# --- differential test against the reference implementation, the jsonschema package ----------

_strings = st.text(alphabet="0123456789.-,eE aZH:_", max_size=14)
_non_integral = st.decimals(allow_nan=False, allow_infinity=False, places=3).filter(
    lambda d: d != d.to_integral_value()
)
_typical = st.sampled_from(["2026-09-01", "2026-9-1", "scenario-A", "0.06", "2500000", "1.5", "H001", "buy", "sell"])
_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), _non_integral, _strings, _typical)
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3), max_leaves=6)
_calls = st.dictionaries(
    st.sampled_from(["scenario_id", "as_of", "principal", "annual_rate", "years", "other"]), _values, max_size=6
)
_SCHEMAS = [FUTURE_VALUE, DATE, ID, AMOUNT, RATE, YEARS, ORDER_SIDE, {"type": "array", "items": YEARS, "maxItems": 2}]


@pytest.mark.skipif(find_spec("jsonschema") is None, reason="the differential test needs the jsonschema package")
@settings(max_examples=400, deadline=None)
@given(schema=st.sampled_from(_SCHEMAS), value=st.one_of(_values, _calls))
def test_agrees_with_the_jsonschema_library(schema: dict, value: object) -> None:
    """Same verdict as `jsonschema` on inputs where both follow the draft (no newlines, no integral Decimals)."""
    import jsonschema

    expected = jsonschema.Draft202012Validator(schema).is_valid(value)
    assert valid(schema, value) == expected
