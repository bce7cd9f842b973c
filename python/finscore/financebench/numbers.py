"""Numbers in FinanceBench text (answers and filing passages), read by one bounded left-to-right scan.

No regular expression: each character is looked at a fixed number of times, so a hostile answer
costs time linear in its length (and the text is cut at `MAX_SCANNED_CHARS` characters first). A number is
digits with optional thousands commas and a decimal part; around it the scan records what the text
says of it: a `$` before it, a minus sign or an opening parenthesis (the accounting negative, when a
closing one follows), a `%` or the word "percent" after it, and a scale word (thousand, million,
billion, trillion and their short forms). Text extracted from PDFs splits a cell across lines
(`$\\n5,363`, `(1,577) \\n`): white space, newlines included, may separate the sign, the dollar and
the digits. A number glued to letters (`FY2018`, `10-K`, `Q3`, `dg01`) is a name, not a value, and
is marked so; a four-digit integer between 1900 and 2099 with nothing around it is a year, and a
day of a date (1-31 after a month name, "December 31, 2018") is marked `year` too: a date, not a value.
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

#: The longest text scanned; the rest is not read (an answer or a filing page is far shorter).
MAX_SCANNED_CHARS = 200_000
#: The most digits one number may have (a longer run is not a financial value).
MAX_DIGITS = 30

#: Scale words after a number, and the power of ten each means.
SCALE_WORDS: dict[str, int] = {
    "thousand": 3, "thousands": 3, "k": 3,
    "million": 6, "millions": 6, "mn": 6, "mm": 6, "m": 6, "mil": 6,
    "billion": 9, "billions": 9, "bn": 9, "b": 9,
    "trillion": 12, "trillions": 12, "tn": 12,
    "cents": -2, "cent": -2,
}
#: Phrases after a number that give its scale ("$5,466,312 in USD millions").
SCALE_PHRASES: tuple[tuple[str, int], ...] = (
    ("in usd thousands", 3), ("in usd millions", 6), ("in usd billions", 9),
    ("in thousands", 3), ("in millions", 6), ("in billions", 9),
)

_SPACE = " \t\r\n\u00a0"
_MINUS = "-\u2212\u2013"


class Number(NamedTuple):
    """One number as the text writes it.

    `value` is the number as written (sign applied, no scale, no percent); `decimals` the digits after
    its point; `start`/`end` its span in the text (sign, `$`, parentheses and suffix included);
    `digits_start`/`digits_end` the span of its digits alone."""

    value: Decimal
    decimals: int
    start: int
    end: int
    digits_start: int
    digits_end: int
    dollar: bool
    negative: bool
    parenthesized: bool
    percent: bool
    scale: int
    commas: bool
    glued: bool
    year: bool

    @property
    def scaled(self) -> Decimal:
        """The value with its scale word applied (in units)."""
        return self.value.scaleb(self.scale)


MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec")


def _day_of_month(text: str, begin: int, end: int, value: Decimal, marked: bool) -> bool:
    """A day of a date ("December 31, 2018"): 1-31 after a month name. Marked as a year (a date, not a value)."""
    if marked or not 1 <= value <= 31 or end - begin > 2 or begin < 2 or not text[begin - 2].isalpha():
        return False
    before = text[max(0, begin - 11):begin].rstrip(" .").lower()
    month = next((m for m in MONTHS if before.endswith(m)), None)
    if month is None:
        return False
    return len(before) == len(month) or not before[-len(month) - 1].isalpha()


def _word_after(text: str, position: int) -> tuple[str, int]:
    """The lower-case letters starting at `position` (at most 12) and where they end."""
    end = position
    while end < len(text) and end - position < 12 and text[end].isalpha() and text[end].isascii():
        end += 1
    if end < len(text) and text[end].isalpha():
        return "", position  # a longer word: not a scale word
    return text[position:end].lower(), end


def _skip_space(text: str, position: int, limit: int = 8) -> int:
    end = position
    while end < len(text) and end - position < limit and text[end] in _SPACE:
        end += 1
    return end


def _back_space(text: str, position: int, limit: int = 8) -> int:
    start = position
    while start > 0 and position - start < limit and text[start - 1] in _SPACE:
        start -= 1
    return start


def scan(text: str) -> list[Number]:
    """Every number of `text` (cut at MAX_SCANNED_CHARS), in order."""
    text = text[:MAX_SCANNED_CHARS]
    numbers: list[Number] = []
    position = 0
    length = len(text)
    while position < length:
        char = text[position]
        starts = char.isdigit() and char.isascii() and (position == 0 or not (text[position - 1].isdigit()))
        if not starts and char == "." and position + 1 < length and text[position + 1].isdigit() \
                and text[position + 1].isascii() and (position == 0 or not text[position - 1].isalnum()):
            starts = True
        if not starts:
            position += 1
            continue
        number, position = _read(text, position)
        if number is not None:
            numbers.append(number)
    return numbers


def _read(text: str, begin: int) -> tuple[Number | None, int]:
    """The number whose digits begin at `begin`, and where the scan goes on."""
    length = len(text)
    end = begin
    integer: list[str] = []
    commas = False
    while end < length and len(integer) <= MAX_DIGITS:
        char = text[end]
        if char.isdigit() and char.isascii():
            integer.append(char)
            end += 1
        elif char == "," and integer and end + 3 < length + 1 and text[end + 1:end + 4].isdigit() \
                and text[end + 1:end + 4].isascii() and not (end + 4 < length and text[end + 4].isdigit()):
            commas = True
            end += 1
        else:
            break
    fraction: list[str] = []
    if end + 1 < length and text[end] == "." and text[end + 1].isdigit() and text[end + 1].isascii():
        end += 1
        while end < length and text[end].isdigit() and text[end].isascii() and len(fraction) <= MAX_DIGITS:
            fraction.append(text[end])
            end += 1
    if len(integer) + len(fraction) > MAX_DIGITS:
        while end < length and (text[end].isdigit() or text[end] in ",."):
            end += 1
        return None, end
    digits_end = end
    glued = (begin > 0 and text[begin - 1].isalpha()) or (end < length and text[end].isalpha()) \
        or (begin > 0 and text[begin - 1] == "-" and begin > 1 and text[begin - 2].isalpha()) \
        or (end + 1 < length and text[end] == "-" and text[end + 1].isalpha())
    value = Decimal("".join(integer or ["0"]) + ("." + "".join(fraction) if fraction else ""))
    # what precedes: $, then a sign or an opening parenthesis
    start = begin
    before = _back_space(text, start)
    dollar = before > 0 and text[before - 1] == "$"
    if dollar:
        start = before - 1
        before = _back_space(text, start)
    negative = parenthesized = False
    if before > 0 and text[before - 1] in _MINUS and (before == 1 or not text[before - 2].isalnum()):
        negative = True
        start = before - 1
        if not dollar:
            before2 = _back_space(text, start)
            if before2 > 0 and text[before2 - 1] == "$":
                dollar = True
                start = before2 - 1
    elif before > 0 and text[before - 1] == "(":
        closing = _skip_space(text, end)
        if closing < length and text[closing] == ")":
            parenthesized = negative = True
            start = before - 1
            end = closing + 1
            if not dollar:
                before2 = _back_space(text, start)
                if before2 > 0 and text[before2 - 1] == "$":
                    dollar = True
                    start = before2 - 1
    # what follows: %, "percent", or a scale word
    percent = False
    scale = 0
    after = _skip_space(text, end, 2)
    if after < length and text[after] == "%":
        percent = True
        end = after + 1
    elif not glued or (end < length and text[end].isalpha()):
        word, word_end = _word_after(text, after if not glued else end)
        if word in ("percent", "pct", "percentage"):
            percent = True
            end = word_end
            glued = False
        elif word in SCALE_WORDS and (len(word) > 1 or dollar) and not (word == "cent" and text[end - 4:end]
                                                                         .lower() == "per "):
            scale = SCALE_WORDS[word]
            end = word_end
            glued = False
        elif word == "in" and not glued:
            following = " ".join(text[after:after + 24].lower().split())
            phrase = next(((p, power) for p, power in SCALE_PHRASES if following.startswith(p)), None)
            if phrase is not None:
                scale = phrase[1]
                end = after + len(phrase[0])
    if parenthesized and end < length and text[end] == ")" and end == digits_end:
        end += 1
    marked = bool(fraction or commas or dollar or percent or scale)
    year = (not marked and not negative and len(integer) == 4 and 1900 <= int(value) <= 2099) \
        or _day_of_month(text, begin, digits_end, value, marked)  # a date's day: not a value either
    return Number(-value if negative else value, len(fraction), start, end, begin, digits_end, dollar, negative,
                  parenthesized, percent, scale, commas, glued, year), digits_end
