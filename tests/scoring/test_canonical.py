"""The one canonical-JSON writer writes the bytes each of its four former copies wrote.

The references are the standard library calls those copies made (json.dumps with their arguments)
and, for the exact form, bytes written out by hand from the JSON grammar.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from finscore.inputs import JsonValueError
from finscore.inputs.jsonfiles import dumps_canonical
from finscore.integrity.seal import canonical_bytes
from finscore.inputs.jsonvalues import canonical_exact_bytes
from finscore.scoring.canonical import canonical_digest_json, canonical_json

TRICKY: list[Any] = [
    {"b": 1, "a": [True, False, None], "é": "naïve ☃ \u2028 \x00 \"q\" \\"},
    {"z": {"y": {"x": []}}, "A": {}, "a": "", "10": 0, "9": -0.0},
    [1e300, 5e-324, 0.1, -1.5, 2**70, -(2**63)],
    "\ud800 lone surrogate",
    {"emoji": "\U0001f600", "tab": "\t", "ctl": "\x1f\x7f"},
    [],
    {},
    0,
    None,
]


def _strict_reference(value: Any) -> str:
    # What answers/decision.py and rewards/decisions.py wrote through their own encoder.
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _digest_reference(value: Any) -> str:
    # What inputs/jsonfiles.py's dumps_canonical wrote.
    def as_text(item: Any) -> Any:
        if isinstance(item, Decimal):
            return str(item)
        raise TypeError(f"cannot encode {type(item).__name__}")

    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=as_text)


@pytest.mark.parametrize("value", TRICKY)
def test_strict_writer_matches_the_standard_library(value: Any) -> None:
    assert canonical_json(value) == _strict_reference(value)


@pytest.mark.parametrize("value", TRICKY + [{"d": Decimal("1.10")}, [float("nan"), float("inf"), -float("inf")]])
def test_digest_writer_matches_the_standard_library(value: Any) -> None:
    assert canonical_digest_json(value) == _digest_reference(value) == dumps_canonical(value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), [-float("inf")]])
def test_strict_writer_refuses_what_is_not_json(value: Any) -> None:
    with pytest.raises(ValueError):
        _strict_reference(value)
    with pytest.raises(ValueError):
        canonical_json(value)


def test_strict_writer_refuses_a_decimal_like_the_standard_library() -> None:
    with pytest.raises(TypeError):
        _strict_reference(Decimal("1"))
    with pytest.raises(TypeError):
        canonical_json(Decimal("1"))


def test_exact_bytes_by_hand() -> None:
    value = {"b": Decimal("1.10"), "a": ["é", "\ud800", {"y": 2, "x": None}], "c": True}
    expected = b'{"a":["\xc3\xa9","\xed\xa0\x80",{"x":null,"y":2}],"b":1.10,"c":true}'
    assert canonical_exact_bytes(value) == expected
    assert canonical_bytes(value) == expected
    assert canonical_exact_bytes("\u2028\x01") == b'"\xe2\x80\xa8\\u0001"'


def test_exact_bytes_refuse_a_float() -> None:
    # Seals cover only values the runner made JSON data (floats become Decimals first).
    with pytest.raises(JsonValueError):
        canonical_exact_bytes({"x": 1.5})
