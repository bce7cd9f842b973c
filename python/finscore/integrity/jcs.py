"""RFC 8785 (JSON Canonicalization Scheme): the one byte form a seal covers, and canonical numbers.

JCS writes a JSON value one way only: object members sorted by the UTF-16 code
units of their names, no whitespace, strings with the shortest escapes
(ECMAScript's JSON.stringify), numbers as IEEE-754 doubles in ECMAScript's
Number-to-String form (`5`, `0.06`, `1e+21`, `5e-324`). Its input must be
I-JSON (RFC 7493): no lone surrogate, every number a double.

finscore reads numbers exactly (int, or Decimal of their text), so a number is
*canonical* when reading its JCS text back gives the same value, type included:
`5` is, `5.0` and `5e0` are not (their JCS text is `5`, read back as the int 5),
nor is a number no double holds (`0.1000000000000000000001`). A sealed line must
hold canonical numbers only, so one sealed byte string stands for one line as the
scorer reads it; `canonical_numbers` rewrites a value into that form.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Mapping

from finscore.inputs.errors import JsonValueError
from finscore.inputs.jsonfiles import loads_exact

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def number_text(value: int | float | Decimal) -> str:
    """ECMAScript's Number::toString of the double nearest `value` (RFC 8785 section 3.2.2.3)."""
    if isinstance(value, bool):
        raise JsonValueError("a boolean is not a JSON number")
    try:
        double = float(value)
    except OverflowError:
        raise JsonValueError(f"{value} is beyond the range of an IEEE-754 double (I-JSON)") from None
    if not math.isfinite(double):
        raise JsonValueError(f"{value} is not a finite IEEE-754 double (I-JSON)")
    if double == 0:
        return "0"
    sign = "-" if double < 0 else ""
    # repr gives the shortest digits that read back as this double; only their layout differs.
    digits_tuple, exponent = Decimal(repr(abs(double))).normalize().as_tuple()[1:]
    digits = "".join(str(digit) for digit in digits_tuple)
    k = len(digits)
    n = k + int(exponent)  # the value is 0.DIGITS x 10^n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        power = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        text = f"{mantissa}e{'+' if power > 0 else '-'}{abs(power)}"
    return sign + text


def _string_text(text: str) -> str:
    parts = ['"']
    for char in text:
        escaped = _ESCAPES.get(char)
        if escaped is not None:
            parts.append(escaped)
        elif char < " ":
            parts.append(f"\\u{ord(char):04x}")
        elif "\ud800" <= char <= "\udfff":
            raise JsonValueError(f"a lone surrogate ({char!r}) is not I-JSON text")
        else:
            parts.append(char)
    parts.append('"')
    return "".join(parts)


def _utf16_order(name: str) -> bytes:
    return name.encode("utf-16-be", "surrogatepass")


def _write(value: Any, parts: list[str]) -> None:
    if value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, str):
        parts.append(_string_text(value))
    elif isinstance(value, (int, float, Decimal)):
        parts.append(number_text(value))
    elif isinstance(value, Mapping):
        parts.append("{")
        for index, key in enumerate(sorted(value, key=_utf16_order)):
            if not isinstance(key, str):
                raise JsonValueError(f"an object key of type {type(key).__name__}, not a string")
            if index:
                parts.append(",")
            parts.append(_string_text(key))
            parts.append(":")
            _write(value[key], parts)
        parts.append("}")
    elif isinstance(value, (list, tuple)):
        parts.append("[")
        for index, item in enumerate(value):
            if index:
                parts.append(",")
            _write(item, parts)
        parts.append("]")
    else:
        raise JsonValueError(f"a {type(value).__name__} is not JSON data")


def canonicalize(value: Any) -> bytes:
    """The RFC 8785 bytes of `value` (UTF-8); JsonValueError for a value that is not I-JSON."""
    parts: list[str] = []
    _write(value, parts)
    return "".join(parts).encode("utf-8")


def canonical_number(value: int | Decimal) -> int | Decimal:
    """The number as the exact reader reads its JCS text: the one form a sealed line holds."""
    read = loads_exact(number_text(value))
    assert isinstance(read, (int, Decimal))  # the text of a finite double is a JSON number
    return read


def _same_number(left: Any, right: Any) -> bool:
    return type(left) is type(right) and str(left) == str(right)


def canonical_numbers(value: Any) -> Any:
    """A copy of JSON data with every number in its canonical form (`5.0` -> `5`, `1e2` -> `100`)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, Decimal)):
        return canonical_number(value)
    if isinstance(value, float):
        return canonical_number(Decimal(repr(value)))
    if isinstance(value, Mapping):
        return {key: canonical_numbers(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [canonical_numbers(item) for item in value]
    raise JsonValueError(f"a {type(value).__name__} is not JSON data")


def _described(number: Any) -> str:
    if isinstance(number, int):
        return f"the integer {number}"
    return f"the decimal {number} (a number written with a fraction or an exponent)"


def first_noncanonical_number(value: Any, path: str = "") -> str | None:
    """Where the first number not in its canonical form is, with its text and the canonical one; or None."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    if isinstance(value, (int, Decimal, float)):
        try:
            canonical = canonical_number(Decimal(repr(value)) if isinstance(value, float) else value)
        except JsonValueError as error:
            return f"{path or 'the value'}: {error}"
        if not _same_number(value, canonical):
            return f"{path or 'the value'} is {_described(value)}, whose canonical (RFC 8785) form is {_described(canonical)}"
        return None
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = first_noncanonical_number(item, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
        return None
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = first_noncanonical_number(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


__all__ = ["canonical_number", "canonical_numbers", "canonicalize", "first_noncanonical_number", "number_text"]
