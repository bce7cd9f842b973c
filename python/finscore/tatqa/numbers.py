"""How the official TAT-QA metric reads a number out of answer text.

The rules are those of `tatqa_utils.py` (NExTplusplus/TAT-QA, MIT): strip
currency and bracket characters, take the first number, multiply by a scale
word that follows a number, by -1 for a bracketed amount and by 0.01 for a
percent sign, then round to 4 places with Python's round. Every function here
computes with the same Python types in the same order, so an int stays an int
(`str()` of the result is part of the compared text) and floats agree bit for
bit. The official regular expressions backtrack quadratically on long runs of
digits; the equivalent searches below are linear, so a huge answer cannot stall
a run.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any, Union

Number = Union[int, float]

#: Characters removed before a number is read (currency signs, quotes, brackets, ...).
_NOT_IN_NUMBERS = str.maketrans("", "", "'\"\\$€£¥%(),[]")

#: The first number: an optional sign, digits, an optional fraction; or a bare fraction.
#: A bare fraction (".5") is found but, as officially, read as no number.
_FIRST_NUMBER = re.compile(r"([+-]?\d+(?:\.\d+)?)|[+-]?\.\d+")
#: A bracketed amount such as "(134)": digits, dots and spaces only inside.
_BRACKETED = re.compile(r"\([\d.\s]+\)")
#: A percent sign right after a digit, dot or space ("12%", "12 %").
_PERCENT = re.compile(r"[\d.\s]%")
#: Digits and dots, at most one space, then ASCII letters ("1.2 million", "5bn"); the
#: match starts where the digit run starts, which the official leftmost match also does.
_NUMBER_AND_WORD = re.compile(r"(?<![\d.])[\d.]+\s?[a-zA-Z]+")
#: A text that is one number literal and nothing else (once the marks are removed).
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


class OfficialCrash(Exception):
    """The official script would raise here (the text names its exception); finscore reports it."""


def scale_factor(scale: Any) -> Number:
    """The multiplier a scale word names (the first of hundred, thousand, million, billion, percent in it)."""
    if not isinstance(scale, str):
        raise OfficialCrash(f"AttributeError: {type(scale).__name__!r} object has no attribute 'lower' "
                            f"(scale {scale!r})")
    lowered = scale.lower()
    if "hundred" in lowered:
        return 100
    if "thousand" in lowered:
        return 1000
    if "million" in lowered:
        return 1000000
    if "billion" in lowered:
        return 1000000000
    if "percent" in lowered:
        return 0.01
    return 1


def strip_number_marks(text: Any) -> str:
    """`str(text)` without the characters the official reader ignores inside numbers."""
    return str(text).translate(_NOT_IN_NUMBERS)


def _literal_value(literal: str) -> Number:
    """A number literal as the official code reads it: float if it has a fraction, else int."""
    try:
        return float(literal) if "." in literal else int(literal)
    except ValueError as error:  # an integer longer than CPython's int() digit limit
        raise OfficialCrash(f"ValueError: {error}") from None


def first_number(text: Any) -> Number | None:
    """The first number in the text, an int unless it has a fraction; None when there is none."""
    found = _FIRST_NUMBER.search(strip_number_marks(text))
    if found is None or found.group(1) is None:
        return None
    return _literal_value(found.group(1))


#: looks_numeric and read_number are pure functions of their text, asked again and again for the same texts.
_CACHED_TEXTS = 1 << 16


#: float() reads a text without a decimal digit only as an infinity or a NaN.
_DIGIT = re.compile(r"\d")
_DIGITLESS_FLOATS = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})


def _looks_numeric(text: str) -> bool:
    """The official is_number: the first word reads as a float (not NaN), and a second word, if any, is a scale."""
    # Removing those characters word by word, as officially, or from the whole text splits alike.
    return _stripped_looks_numeric(strip_number_marks(text))


def _stripped_looks_numeric(stripped: str) -> bool:
    """_looks_numeric of a text whose number marks are already removed."""
    words = stripped.split(None, 2)
    if not words:
        return False
    if _DIGIT.search(words[0]) is None and words[0].lower() not in _DIGITLESS_FLOATS:
        return False  # what float() would refuse (NaN, which it reads, is not a number here either)
    try:
        value = float(words[0])
    except ValueError:
        return False
    if math.isnan(value):
        return False
    return len(words) < 2 or scale_factor(words[1]) != 1


looks_numeric = lru_cache(maxsize=_CACHED_TEXTS)(_looks_numeric)


def sign_factor(text: str) -> int:
    """-1 for a bracketed amount anywhere in the text, else 1."""
    return -1 if _BRACKETED.search(text.strip()) else 1


def percent_factor(text: str) -> Number:
    """0.01 when a percent sign follows a digit, dot or space, else 1."""
    return 0.01 if _PERCENT.search(text.strip()) else 1


def word_scale_factor(text: str) -> Number:
    """The scale of the first number followed by a word ("2.3 million" gives 1000000), else 1."""
    found = _NUMBER_AND_WORD.search(text)
    return 1 if found is None else scale_factor(found.group(0).lower())


def _read_number(text: str) -> Number | None:
    """The official to_number: first number x scale word x sign x percent, rounded to 4 places."""
    number = first_number(text)
    scale = word_scale_factor(text)
    sign = sign_factor(text)
    percent = percent_factor(text)
    if number is None:
        return None
    try:
        return round(number * scale * sign * percent, 4)
    except OverflowError as error:  # an integer of over 308 digits times the float 0.01
        raise OfficialCrash(f"OverflowError: {error}") from None


read_number = lru_cache(maxsize=_CACHED_TEXTS)(_read_number)


class _NotANumber:
    """The type of NOT_A_NUMBER (a sentinel that no reading can equal)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_A_NUMBER"


#: What number_reading gives for a text the official is_number refuses.
NOT_A_NUMBER = _NotANumber()


@lru_cache(maxsize=_CACHED_TEXTS)
def number_reading(text: str) -> Number | None | _NotANumber:
    """`read_number(text) if looks_numeric(text) else NOT_A_NUMBER`, once per distinct text.

    The official code asks is_number and then to_number of the same text at
    every place it reads a number; this is that pair, in one cached call.
    """
    stripped = text.translate(_NOT_IN_NUMBERS)
    if _PLAIN_NUMBER.fullmatch(stripped) is not None and "(" not in text and "%" not in text:
        # A plain literal once the marks are gone ("1,234.5", "$-12"): is_number takes it, and
        # with no letter, bracket or percent sign its scale, sign and percent factors are all 1.
        return round(_literal_value(stripped), 4)
    return _read_number(text) if _stripped_looks_numeric(stripped) else NOT_A_NUMBER
