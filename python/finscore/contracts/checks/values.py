"""Reading a claimed value as an exact decimal, under the case's declared normalizations.

A value is never guessed into shape: `33,45,563.94`, `₹`, `64.25%` or
Devanagari digits are read only when the case's `accept` list names that form,
and a percentage is divided by 100 only once it has matched the declared
percent form. Anything else is unreadable; nothing here raises on model output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Context, Decimal
from typing import Any

from finscore.contracts.formats.models import ClaimTolerance
from finscore.inputs.fields import canonical_decimal, json_decimal

MAX_VALUE_TEXT = 200
_INDIAN = re.compile(r"[0-9]{1,2}(,[0-9]{2})*,[0-9]{3}")
_WESTERN = re.compile(r"[0-9]{1,3}(,[0-9]{3})+")
_SCRIPTS: dict[str, int] = {"digits_devanagari": 0x0966, "digits_tamil": 0x0BE6}
#: Enough digits that every subtraction and product of bounded values is exact.
_EXACT = Context(prec=400, Emax=10_000, Emin=-10_000)


@dataclass(frozen=True)
class ValueReading:
    """The exact value read, which declared normalizations it took, or why it is unreadable."""

    value: Decimal | None
    applied: tuple[str, ...]
    as_percent: bool
    problem: str | None


def _unreadable(problem: str) -> ValueReading:
    return ValueReading(None, (), False, problem)


def _ascii_digits(text: str, accept: frozenset[str], applied: list[str]) -> str | None:
    """Map the digits of one declared script to ASCII; None if undeclared or mixed."""
    scripts: set[str] = set()
    out = []
    for char in text:
        script = "ascii" if "0" <= char <= "9" else None
        for name, zero in _SCRIPTS.items():
            if zero <= ord(char) <= zero + 9:
                script, char = name, chr(ord(char) - zero + ord("0"))
        if script is not None:
            scripts.add(script)
        out.append(char)
    if len(scripts) > 1:
        return None
    (script,) = scripts or {"ascii"}
    if script != "ascii":
        if script not in accept:
            return None
        applied.append(script)
    return "".join(out)


def _without_grouping(text: str, accept: frozenset[str], applied: list[str]) -> str | None:
    if "," not in text:
        return text
    integer, dot, fraction = text.partition(".")
    for name, pattern in (("grouping_indian", _INDIAN), ("grouping_western", _WESTERN)):
        if name in accept and pattern.fullmatch(integer):
            applied.append(name)
            return integer.replace(",", "") + dot + fraction
    return None


def _read_text(text: str, accept: frozenset[str], applied: list[str]) -> Decimal | str:
    """The decimal in `text`, or the reason it is not readable."""
    negative = text.startswith("-")
    body = text[1:] if negative else text
    if body.startswith("\u20b9"):
        if "currency_symbol" not in accept:
            return "a rupee sign, and the case does not declare currency_symbol"
        applied.append("currency_symbol")
        body = body[1:]
        body = body[1:] if body.startswith(" ") else body
    digits = _ascii_digits(body, accept, applied)
    if digits is None:
        return "digits of an undeclared script, or of several scripts"
    plain = _without_grouping(digits, accept, applied)
    if plain is None:
        return "digit grouping the case does not declare, or misplaced separators"
    if plain.startswith(("-", "+")):
        return "not a decimal number"
    value = canonical_decimal(("-" if negative else "") + plain)
    return value if value is not None else "not a decimal number within bounds"


def read_value(raw: Any, accept: frozenset[str], claim_unit: Any) -> ValueReading:
    """Read a predicted claim value exactly; never raises on any JSON value."""
    applied: list[str] = []
    percent_unit = claim_unit == "percent" and "percent_display" in accept
    if isinstance(raw, str):
        if len(raw) > MAX_VALUE_TEXT:
            return _unreadable(f"value text longer than {MAX_VALUE_TEXT} characters")
        text = raw
        percent_sign = text.endswith("%")
        if percent_sign:
            if "percent_display" not in accept:
                return _unreadable("a percent sign, and the case does not declare percent_display")
            text = text[:-1]
        value_or_problem = _read_text(text, accept, applied)
        if isinstance(value_or_problem, str):
            return _unreadable(value_or_problem)
        value = value_or_problem
        as_percent = percent_sign or percent_unit
    else:
        number = json_decimal(raw)
        if number is None:
            return _unreadable(f"not a finite number within bounds: {type(raw).__name__}")
        value, as_percent = number, percent_unit
    if as_percent:
        applied.insert(0, "percent_display")
        value = value.scaleb(-2, _EXACT)
    return ValueReading(value, tuple(applied), as_percent, None)


def within_tolerance(value: Decimal, gold: Decimal, tolerance: ClaimTolerance | None) -> bool:
    """|value - gold| <= max(absolute, relative * |gold|), exactly; equality when undeclared."""
    difference = _EXACT.abs(_EXACT.subtract(value, gold))
    if tolerance is None:
        return difference == 0
    bound = max(tolerance.absolute, _EXACT.multiply(tolerance.relative, _EXACT.abs(gold)))
    return difference <= bound
