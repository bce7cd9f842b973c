"""Typed field readers shared by every loader of JSON data (cases, worlds, predictions, traces, reports).

Each reader either returns a value of the documented type or raises
`InputFormatError` naming the file and the JSON path, so a malformed input is
reported where it is wrong instead of failing somewhere later.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import AbstractSet, Any, Mapping, TypeVar

from finscore.inputs.bounds import MAX_STRING as MAX_STRING  # defined once there; importable from here still
from finscore.inputs.errors import InputFormatError
from finscore.inputs.naming import JSON_WITH_ARTICLES, json_type

IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
CANONICAL_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
#: Canonical decimals beyond these bounds are refused: they are no amount anyone
#: means, and bounding them keeps every comparison exact and cheap.
MAX_DECIMAL_DIGITS = 60
MAX_DECIMAL_EXPONENT = 30

T = TypeVar("T")


def is_identifier(value: Any) -> bool:
    return isinstance(value, str) and IDENTIFIER.fullmatch(value) is not None


def is_date(value: Any) -> bool:
    if not isinstance(value, str) or DATE.fullmatch(value) is None:
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def decimal_in_bounds(value: Decimal) -> bool:
    """Finite, at most MAX_DECIMAL_DIGITS digits, magnitude within 10**±MAX_DECIMAL_EXPONENT."""
    if not value.is_finite():
        return False
    if value.is_zero():
        return True
    digits = len(value.as_tuple().digits)
    return digits <= MAX_DECIMAL_DIGITS and abs(value.adjusted()) <= MAX_DECIMAL_EXPONENT


def canonical_decimal(text: str) -> Decimal | None:
    """The value of a canonical decimal string (`-?[0-9]+(.[0-9]+)?`), else None."""
    if len(text) > 2 * MAX_DECIMAL_DIGITS or CANONICAL_DECIMAL.fullmatch(text) is None:
        return None
    value = Decimal(text)
    return value if decimal_in_bounds(value) else None


def json_decimal(value: Any) -> Decimal | None:
    """An exact decimal from a JSON number (int or Decimal) or canonical string, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        value = Decimal(value)
    if isinstance(value, Decimal):
        return value if decimal_in_bounds(value) else None
    if isinstance(value, str):
        return canonical_decimal(value)
    return None


class FieldReader:
    """Reads typed fields out of parsed JSON, reporting the JSON path on error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> InputFormatError:
        return InputFormatError(self.source, where, problem)

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected an object, found {_kind(value)}")
        return value

    def keys(
        self, value: Mapping[str, Any], where: str, required: AbstractSet[str], optional: AbstractSet[str] = frozenset()
    ) -> None:
        missing = sorted(required - value.keys())
        extra = sorted(value.keys() - required - optional)
        if missing:
            raise self.fail(where, "missing field(s): " + ", ".join(missing))
        if extra:
            raise self.fail(where, "unknown field(s): " + ", ".join(extra))

    def array(self, value: Any, where: str, limit: int) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected an array, found {_kind(value)}")
        if len(value) > limit:
            raise self.fail(where, f"{len(value)} items, over the limit of {limit}")
        return value

    def string(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"expected a string, found {_kind(value)}")
        if len(value) > MAX_STRING:
            raise self.fail(where, f"string of {len(value)} characters, over {MAX_STRING}")
        return value

    def optional_string(self, value: Any, where: str) -> str | None:
        return None if value is None else self.string(value, where)

    def identifier(self, value: Any, where: str) -> str:
        if not is_identifier(value):
            raise self.fail(where, f"expected an identifier ([A-Za-z0-9][A-Za-z0-9._:-]{{0,63}}), found {_show(value)}")
        return str(value)

    def date(self, value: Any, where: str) -> str:
        if not is_date(value):
            raise self.fail(where, f"expected a date YYYY-MM-DD, found {_show(value)}")
        return str(value)

    def decimal(self, value: Any, where: str) -> Decimal:
        if not isinstance(value, str) or (parsed := canonical_decimal(value)) is None:
            raise self.fail(where, f"expected a canonical decimal string, found {_show(value)}")
        return parsed

    def integer(self, value: Any, where: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(where, f"expected a whole number from {low} to {high}, found {_show(value)}")
        return value

    def boolean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, found {_show(value)}")
        return value

    def choice(self, value: Any, where: str, choices: tuple[str, ...]) -> str:
        if value not in choices or not isinstance(value, str):
            raise self.fail(where, f"expected one of {', '.join(choices)}, found {_show(value)}")
        return value


def _kind(value: Any) -> str:
    return json_type(value, JSON_WITH_ARTICLES)


def _show(value: Any) -> str:
    text = repr(value) if not isinstance(value, Decimal) else str(value)
    return text if len(text) <= 80 else text[:77] + "..."
