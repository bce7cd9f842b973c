"""What a document passage states: the numbers in its text, read under a claim's declared normalizations.

A passage supports a claim only if one of the numbers written in it, read
exactly as a claimed value would be (the same `accept` list, the same unit),
equals the claimed value within the claim's tolerance. No model reads the text:
numbers are found by one bounded, linear regular expression.
"""

from __future__ import annotations

import re
from decimal import Decimal

from finscore.contracts.checks.values import read_value

_DIGIT = "0-9\u0966-\u096f\u0be6-\u0bef"
#: A number as written in prose: optional sign and rupee sign, digits of one of the kit's scripts
#: with separators, an optional fraction and percent sign. Character classes only: linear time.
_NUMBER = re.compile(rf"(?<![{_DIGIT}.,])-?(?:\u20b9 ?)?[{_DIGIT}][{_DIGIT},]*(?:\.[{_DIGIT}]+)?%?")
MAX_NUMBERS = 1000


def stated_values(text: str, accept: frozenset[str], unit: str) -> list[Decimal]:
    """Every number the passage writes that reads as a value under `accept` (at most MAX_NUMBERS)."""
    values: list[Decimal] = []
    for index, match in enumerate(_NUMBER.finditer(text)):
        if index >= MAX_NUMBERS:
            break
        token = match.group().rstrip(",")
        reading = read_value(token, accept, unit)
        if reading.value is not None:
            values.append(reading.value)
    return values
