"""Numbers and references as the official evaluator reads them, and the strict grammar.

The official reading is Python's own `float()` and `int()`, so the grammar it
accepts is CPython's: surrounding whitespace, `_` between digits, `inf`/`nan`,
any Unicode decimal digit. Those are used here as they are (they are the oracle);
the strict profile additionally requires the plain ASCII forms FinQA's gold data
uses, and reports anything looser as a quirk.
"""

from __future__ import annotations

import re

# A plain decimal: optional sign, ASCII digits (optionally grouped by thousands),
# optional fraction, optional percent sign. Leading-dot forms (".45") occur in gold data.
_STRICT_NUMBER = re.compile(
    r"[+-]?(?:[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?|[0-9]+(?:\.[0-9]*)?|\.[0-9]+)%?"
)
_STRICT_CONSTANT = re.compile(r"const_(?:[0-9]+|m1)")
_STRICT_REFERENCE = re.compile(r"#[0-9]+")


def official_number(text: str) -> float | None:
    """The official literal reading, or None where it gives up (the program is then invalid).

    Every `,` is removed and Python's float() tried; failing that, text with `%`
    loses every `%` and is divided by 100.0; failing that, text with `const` loses
    `const_` (`m1` meaning -1). The division by 100.0 is one IEEE division, the same
    bits in every host, and belongs to how the literal is read.
    """
    text = text.replace(",", "")
    try:
        return float(text)
    except ValueError:
        pass
    if "%" in text:
        try:
            return float(text.replace("%", "")) / 100.0
        except ValueError:
            return None
    if "const" in text:
        text = text.replace("const_", "")
        if text == "m1":
            text = "-1"
        try:
            return float(text)
        except ValueError:
            return None
    return None


#: CPython 3.11's default limit on digits in int() of a string (the official evaluator
#: ran under it); past it int() raises ValueError, whatever this process is configured to.
INT_MAX_STR_DIGITS = 4300


def official_reference(text: str) -> int | None:
    """Step index of a `#` argument: Python int() of the text with every `#` removed."""
    text = text.replace("#", "").strip()
    if len(text.replace("_", "").lstrip("+-")) > INT_MAX_STR_DIGITS:
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
