"""Numbers and references as the official evaluator reads them, and the strict grammar.

The official reading is Python's own `float()` and `int()`, so the grammar it
accepts is CPython's: surrounding whitespace, `_` between digits, `inf`/`nan`,
any Unicode decimal digit. Those are used here as they are (they are the oracle),
except that digits are those of Unicode 14.0, which CPython 3.11 (where the
official evaluator ran) knows, whatever this interpreter knows. The strict
profile additionally requires the plain ASCII forms FinQA's gold data uses, and
reports anything looser as a quirk.
"""

from __future__ import annotations

import re
from bisect import bisect_right

# A plain decimal: optional sign, ASCII digits (optionally grouped by thousands),
# optional fraction, optional percent sign. Leading-dot forms (".45") occur in gold data.
_STRICT_NUMBER = re.compile(
    r"[+-]?(?:[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?|[0-9]+(?:\.[0-9]*)?|\.[0-9]+)%?"
)
_STRICT_CONSTANT = re.compile(r"const_(?:[0-9]+|m1)")
_STRICT_REFERENCE = re.compile(r"#[0-9]+")


#: The decimal digits of Unicode 14.0, as runs of code points: the digits CPython 3.11's
#: float() and int() accept (the official evaluator ran there). Newer interpreters know
#: more (Python 3.14 under Pyodide has Unicode 16.0: Kawi, Nag Mundari, Garay...), and
#: text holding one of those newer digits must stay invalid, as it was officially.
UNICODE_14_DECIMAL_RUNS: tuple[tuple[int, int], ...] = (
    (0x0030, 0x0039), (0x0660, 0x0669), (0x06F0, 0x06F9), (0x07C0, 0x07C9), (0x0966, 0x096F),
    (0x09E6, 0x09EF), (0x0A66, 0x0A6F), (0x0AE6, 0x0AEF), (0x0B66, 0x0B6F), (0x0BE6, 0x0BEF),
    (0x0C66, 0x0C6F), (0x0CE6, 0x0CEF), (0x0D66, 0x0D6F), (0x0DE6, 0x0DEF), (0x0E50, 0x0E59),
    (0x0ED0, 0x0ED9), (0x0F20, 0x0F29), (0x1040, 0x1049), (0x1090, 0x1099), (0x17E0, 0x17E9),
    (0x1810, 0x1819), (0x1946, 0x194F), (0x19D0, 0x19D9), (0x1A80, 0x1A89), (0x1A90, 0x1A99),
    (0x1B50, 0x1B59), (0x1BB0, 0x1BB9), (0x1C40, 0x1C49), (0x1C50, 0x1C59), (0xA620, 0xA629),
    (0xA8D0, 0xA8D9), (0xA900, 0xA909), (0xA9D0, 0xA9D9), (0xA9F0, 0xA9F9), (0xAA50, 0xAA59),
    (0xABF0, 0xABF9), (0xFF10, 0xFF19), (0x104A0, 0x104A9), (0x10D30, 0x10D39), (0x11066, 0x1106F),
    (0x110F0, 0x110F9), (0x11136, 0x1113F), (0x111D0, 0x111D9), (0x112F0, 0x112F9),
    (0x11450, 0x11459), (0x114D0, 0x114D9), (0x11650, 0x11659), (0x116C0, 0x116C9),
    (0x11730, 0x11739), (0x118E0, 0x118E9), (0x11950, 0x11959), (0x11C50, 0x11C59),
    (0x11D50, 0x11D59), (0x11DA0, 0x11DA9), (0x16A60, 0x16A69), (0x16AC0, 0x16AC9),
    (0x16B50, 0x16B59), (0x1D7CE, 0x1D7FF), (0x1E140, 0x1E149), (0x1E2F0, 0x1E2F9),
    (0x1E950, 0x1E959), (0x1FBF0, 0x1FBF9),
)
_RUN_STARTS = tuple(start for start, _ in UNICODE_14_DECIMAL_RUNS)


def _decimal_in_unicode_14(char: str) -> bool:
    code = ord(char)
    run = bisect_right(_RUN_STARTS, code) - 1
    return run >= 0 and code <= UNICODE_14_DECIMAL_RUNS[run][1]


def _has_newer_digit(text: str) -> bool:
    return not text.isascii() and any(c.isdecimal() and not _decimal_in_unicode_14(c) for c in text)


def _float_311(text: str) -> float:
    """Python's float() as CPython 3.11 reads text: newer Unicode digits are not digits."""
    if _has_newer_digit(text):
        raise ValueError(f"{text!r} holds a digit newer than Unicode 14.0")
    return float(text)


def official_number(text: str) -> float | None:
    """The official literal reading, or None where it gives up (the program is then invalid).

    Every `,` is removed and Python's float() tried; failing that, text with `%`
    loses every `%` and is divided by 100.0; failing that, text with `const` loses
    `const_` (`m1` meaning -1). The division by 100.0 is one IEEE division, the same
    bits in every host, and belongs to how the literal is read.
    """
    text = text.replace(",", "")
    try:
        return _float_311(text)
    except ValueError:
        pass
    if "%" in text:
        try:
            return _float_311(text.replace("%", "")) / 100.0
        except ValueError:
            return None
    if "const" in text:
        text = text.replace("const_", "")
        if text == "m1":
            text = "-1"
        try:
            return _float_311(text)
        except ValueError:
            return None
    return None


#: CPython 3.11's default limit on digits in int() of a string (the official evaluator
#: ran under it); past it int() raises ValueError, whatever this process is configured to.
INT_MAX_STR_DIGITS = 4300


def official_reference(text: str) -> int | None:
    """Step index of a `#` argument: Python int() of the text with every `#` removed."""
    text = text.replace("#", "").strip()
    if len(text.replace("_", "").lstrip("+-")) > INT_MAX_STR_DIGITS or _has_newer_digit(text):
        return None
    try:
        return int(text)
    except ValueError:
        return None


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
