"""Under the default python rule (3.11) digits are Unicode 14.0's, as in CPython 3.11
where the official evaluator ran.

A newer interpreter (3.12+, or 3.14 under Pyodide) reads more code points as
digits; under the 3.11 rule a program holding one must still be invalid, as it was
officially (the 3.12 and 3.13 rules: tests/fuzz/test_divergences.py and
tests/engine/test_codepoints.py).
"""

from __future__ import annotations

import sys
import unicodedata

import pytest
from support.pythons import require_python, run_python

from finscore import execute
from finscore.engine.reader.numbers import number_reading, official_number, official_reference

UNICODE_14_DIGITS = [zero + value for zero in number_reading("3.11").rule.digit_zeros for value in range(10)]

#: a claim rests on these tests: under CI a skip fails the run (tests/conftest.py)
pytestmark = pytest.mark.essential

# Decimal digits added after Unicode 14.0 (Unicode 15.0: Kawi, Nag Mundari; 16.0: Garay,
# outlined digits), and Unicode 14.0 ones, for contrast.
NEWER = [0x11F50, 0x11F59, 0x1E4F0, 0x10D40, 0x1CCF0]
OLDER = [0x0966, 0x0BE7, 0xFF11, 0x1D7CE, 0x1FBF9]

ORACLE = r"""
import sys
for line in sys.stdin:
    text = chr(int(line))
    try:
        print(repr(float(text)), repr(int(text)))
    except ValueError:
        print("invalid")
"""


def test_the_runs_are_cpython_311s_decimal_digits() -> None:
    python = require_python(11)
    listed = [ord(str(d)) for d in range(10)] + UNICODE_14_DIGITS
    code = ("import sys, unicodedata; print(unicodedata.unidata_version, *(c for c in range(sys.maxunicode + 1)"
            " if unicodedata.decimal(chr(c), None) is not None))")
    version, *found = run_python(python, code, "").split()
    assert version == "14.0.0"
    assert sorted(listed) == [int(code) for code in found]


def test_newer_digits_are_not_numbers_older_ones_are() -> None:
    python = require_python(11)
    oracle = run_python(python, ORACLE, "".join(f"{c}\n" for c in NEWER + OLDER)).splitlines()
    for code, seen in zip(NEWER + OLDER, oracle):
        text = chr(code)
        if seen == "invalid":
            assert official_number(text) is None and official_reference("#" + text) is None
        else:
            as_float, as_int = seen.split()
            assert repr(official_number(text)) == as_float and repr(official_reference("#" + text)) == as_int
    assert oracle[: len(NEWER)] == ["invalid"] * len(NEWER)


@pytest.mark.parametrize("code", NEWER)
def test_a_program_with_a_newer_digit_is_invalid(code: int) -> None:
    assert execute(["add(", chr(code), "2", ")", "EOF"]).invalid == 1
    assert execute(["table_sum(", "x", "none", ")", "EOF"], [["x", chr(code)]]).invalid == 1


def test_this_interpreter_knows_at_least_unicode_14() -> None:
    """finscore supports CPython 3.11+ (Unicode 14.0+): 3.10's Unicode 13.0 lacks digits 3.11 reads."""
    assert tuple(map(int, unicodedata.unidata_version.split("."))) >= (14, 0, 0)
    listed = set(UNICODE_14_DIGITS)
    assert all(unicodedata.decimal(chr(code), None) is not None for code in listed)
    assert sys.maxunicode == 0x10FFFF
