"""Numbers and references as the official evaluator reads them, and the strict grammar.

The official reading is Python's own `float()` and `int()`, so the grammar it
accepts is CPython's: surrounding whitespace, `_` between digits, `inf`/`nan`,
any Unicode decimal digit. Which characters are digits and whitespace is the
chosen CPython's (3.11: Unicode 14.0, 3.12: 15.0, 3.13: 15.1), from tables taken
from those interpreters, whatever this interpreter knows. The strict
profile additionally requires the plain ASCII forms FinQA's gold data uses, and
reports anything looser as a quirk.
"""

from __future__ import annotations

import re
from functools import lru_cache

from finscore.engine.reader.unicode_data import RULES, UnicodeRule

# A plain decimal: optional sign, ASCII digits (optionally grouped by thousands),
# optional fraction, optional percent sign. Leading-dot forms (".45") occur in gold data.
_STRICT_NUMBER = re.compile(
    r"[+-]?(?:[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?|[0-9]+(?:\.[0-9]*)?|\.[0-9]+)%?"
)
_STRICT_CONSTANT = re.compile(r"const_(?:[0-9]+|m1)")
_STRICT_REFERENCE = re.compile(r"#[0-9]+")


class NumberReading:
    """CPython's float() and int() of text, as one CPython version reads them, in any interpreter.

    For a text holding a non-ASCII character, CPython first rewrites it in ASCII: a
    character that is whitespace becomes a space, a decimal digit its ASCII digit, and
    any other makes the text invalid; ASCII characters stay as they are (so U+001C-U+001F,
    which str.strip() removes, are not whitespace to float() and int()). Which characters
    are digits and whitespace depends on the interpreter's Unicode version: here it comes
    from the tables of `unicode_data` for the chosen version, and the rewritten ASCII text
    goes to this interpreter's float() and int(), whose ASCII grammar every CPython from
    3.11 on shares.
    """

    def __init__(self, minor: int, rule: UnicodeRule) -> None:
        self.minor = minor
        self.rule = rule
        table: dict[int, str] = {code: " " for code in rule.number_spaces}
        for zero in rule.digit_zeros:
            table.update((zero + value, chr(48 + value)) for value in range(10))
        self._to_ascii = table

    @property
    def unicode_version(self) -> str:
        return self.rule.unicode

    def ascii_text(self, text: str) -> str | None:
        """The ASCII text CPython's float() and int() parse, or None where they fail at once."""
        if text.isascii():
            return text
        rewritten = text.translate(self._to_ascii)
        return rewritten if rewritten.isascii() else None

    def to_float(self, text: str) -> float:
        """float(text) as the chosen CPython: ValueError where it raises."""
        ascii_text = self.ascii_text(text)
        if ascii_text is None:
            raise ValueError(f"{text!r} holds a character that is no digit in Unicode {self.rule.unicode}")
        return float(ascii_text)

    def to_int(self, text: str) -> int | None:
        """int(text) as the chosen CPython, with its default limit of 4,300 digits; None where it raises."""
        ascii_text = self.ascii_text(text)
        if ascii_text is None:
            return None
        digits = ascii_text.strip(_ASCII_WHITESPACE).lstrip("+-").replace("_", "")
        if len(digits) > INT_MAX_STR_DIGITS:
            return None
        try:
            return int(ascii_text)
        except ValueError:
            return None

    def official_number(self, text: str) -> float | None:
        """The official literal reading, or None where it gives up (the program is then invalid).

        Every `,` is removed and Python's float() tried; failing that, text with `%`
        loses every `%` and is divided by 100.0; failing that, text with `const` loses
        `const_` (`m1` meaning -1). The division by 100.0 is one IEEE division, the same
        bits in every host, and belongs to how the literal is read.
        """
        text = text.replace(",", "")
        try:
            return self.to_float(text)
        except ValueError:
            pass
        if "%" in text:
            try:
                return self.to_float(text.replace("%", "")) / 100.0
            except ValueError:
                return None
        if "const" in text:
            text = text.replace("const_", "")
            if text == "m1":
                text = "-1"
            try:
                return self.to_float(text)
            except ValueError:
                return None
        return None

    def official_reference(self, text: str) -> int | None:
        """Step index of a `#` argument: Python int() of the text with every `#` removed
        (nothing else: int() strips its own whitespace, which excludes U+001C-U+001F)."""
        return self.to_int(text.replace("#", ""))


#: CPython's default limit on digits in int() of a string (3.11 onwards); past it int()
#: raises ValueError, whatever this process is configured to.
INT_MAX_STR_DIGITS = 4300
_ASCII_WHITESPACE = " \t\n\v\f\r"  # what int() strips from ASCII text (Py_ISSPACE)


@lru_cache(maxsize=None)
def number_reading(python: str = "3.11") -> NumberReading:
    """The reading of the CPython a `python` rule names ("3.11", "3.12", "3.13").

    A version older than 3.11 reads as 3.11 and a newer one than 3.13 as 3.13: the
    tables hold those three (see `unicode_data`).
    """
    try:
        minor = int(python.split(".")[1])
    except (IndexError, ValueError):
        raise ValueError(f"python version must look like 3.11 or 3.12, not {python!r}") from None
    known = sorted(RULES)
    chosen = max([m for m in known if m <= minor], default=known[0])
    return NumberReading(chosen, RULES[chosen])


def official_number(text: str, python: str = "3.11") -> float | None:
    """`NumberReading.official_number` under the named python rule."""
    return number_reading(python).official_number(text)


def official_reference(text: str, python: str = "3.11") -> int | None:
    """`NumberReading.official_reference` under the named python rule."""
    return number_reading(python).official_reference(text)


# Characters of the commonest plain forms ("34.8", "-0.5", "1234"). Every text made of
# these alone that float() accepts has the form -?(d+(.d*)?|.d+), which the strict
# pattern matches: the shortcut only saves the regular expression on the common case.
_PLAIN_CHARACTERS = str.maketrans("", "", "0123456789.-")


def _only_plain_characters(text: str) -> bool:
    return text.isascii() and not text.translate(_PLAIN_CHARACTERS)


def is_strict_number(text: str) -> bool:
    """A literal in the plain form gold programs use (`1,234.5`, `23.6%`, `const_100`).

    Only asked of text the official reading accepted as a number.
    """
    if _only_plain_characters(text):
        return True
    return bool(_STRICT_NUMBER.fullmatch(text) or _STRICT_CONSTANT.fullmatch(text))


def is_strict_cell(text: str) -> bool:
    """A table cell (after the official `$` removal and `(` cut) in plain decimal form."""
    if _only_plain_characters(text):
        return True
    return bool(_STRICT_NUMBER.fullmatch(text))


def is_strict_reference(text: str) -> bool:
    if text[:1] == "#" and text[1:].isascii() and text[1:].isdigit():
        return True
    return bool(_STRICT_REFERENCE.fullmatch(text))
