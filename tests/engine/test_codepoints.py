"""Every code point, as CPython itself reads it: the reader's imitation of CPython, swept.

Each code point U+0000..U+10FFFF goes in as the prefix, the suffix and an inner
character of a literal, a #reference, a table cell and a row name. What each should
give is decided by CPython's own float(), int() and str.strip() in the interpreter
the `python` rule names: this one for 3.11, CPython 3.12 and 3.13 (found by
tests/support/pythons.py) for theirs, skipped with the reason where they are absent.
The oracle only follows the official evaluator's order of calls (strip the argument;
a `#` means int() of the text without `#`; else float() after removing `,`, then the
`%` rule; a cell loses `$` and what follows `(`); every decision in it is CPython's.

Two sweeps, to stay within a minute on a shared machine:
- every code point, every shape and kind, through the reader's own readings of
  numbers, references, cells and row names (`NumberReading`, `read_cells`,
  `TableIndex`), about a microsecond each;
- end to end through `execute_batch`, every code point that is not a plain "no" for
  both CPython and finscore's tables (every ASCII character, every digit, every
  whitespace of either, everything the oracle reads as valid) and a seeded sample
  of 20,000 of the others, in every shape and kind.
`|`, `(` and `)` re-split program text and are left out of the argument positions
(the differential recordings cover them: tests/fuzz/test_recordings.py).
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any, Iterator

import pytest
from support.pythons import find_python, run_python

from finscore import execute_batch
from finscore.engine.options import Profile
from finscore.engine.reader.numbers import NumberReading, number_reading
from finscore.engine.reader.table import TableIndex, TableReadError, read_cells

EOF_ = "EOF"
DELIMITERS = frozenset("|()")
SHAPES = ("prefix", "suffix", "inner")
SAMPLE = 20_000

#: Run in each oracle interpreter. Prints, for every code point where any shape of a
#: literal, reference or cell is valid, CPython's answers, and every code point that
#: str.strip() removes (a row name holding it at an end is then not found).
ORACLE = r'''
import json, sys

def number(text):
    text = text.replace(",", "")
    try:
        return float(text).hex()
    except ValueError:
        pass
    if "%" in text:
        try:
            return (float(text.replace("%", "")) / 100.0).hex()
        except ValueError:
            return None
    return None

def argument(raw):
    text = raw.strip()
    if "#" in text:
        try:
            return ["ref", int(text.replace("#", ""))]
        except ValueError:
            return None
    value = number(text)
    return None if value is None else ["num", value]

def cell(raw):
    return number(raw.replace("$", "").strip().split("(")[0].strip())

valid, stripped = {}, []
for code in range(sys.maxunicode + 1):
    c = chr(code)
    raws = (c + "7", "7" + c, "7" + c + "5")
    answers = [argument(raw) for raw in raws] + [cell(raw) for raw in raws]
    if any(answer is not None for answer in answers):
        valid[code] = answers
    if (c + "7").strip() != c + "7":
        stripped.append(code)
print(json.dumps({"valid": valid, "stripped": stripped}))
'''


def _raw(shape: str, c: str) -> str:
    return {"prefix": c + "7", "suffix": "7" + c, "inner": "7" + c + "5"}[shape]


def _oracle(minor: int) -> tuple[dict[int, list[Any]], frozenset[int]]:
    """CPython 3.<minor>'s answers: per code point, the six argument and cell answers
    (absent: all invalid), and the code points str.strip() removes."""
    if sys.version_info[:2] == (3, minor):
        captured: list[str] = []
        exec(compile(ORACLE, "oracle", "exec"), {"print": captured.append})  # the test's own oracle code
        text = captured[0]
    else:
        python = find_python(minor)
        if python is None:
            pytest.skip(f"CPython 3.{minor} is not installed here (pyenv versions lists what is)")
        text = run_python(python, ORACLE, "")
    found = json.loads(text)
    return {int(code): answers for code, answers in found["valid"].items()}, frozenset(found["stripped"])


def _argument(numbers: NumberReading, raw: str) -> Any:
    """The reader's reading of an arithmetic argument, after the official strip."""
    text = raw.strip()
    if "#" in text:
        step = numbers.official_reference(text)
        return None if step is None else ["ref", step]
    value = numbers.official_number(text)
    return None if value is None else ["num", value.hex()]


def _cell(numbers: NumberReading, raw: str) -> Any:
    try:
        return read_cells([raw], profile=Profile.OFFICIAL, numbers=numbers)[0].hex()
    except TableReadError:
        return None


@pytest.fixture(scope="module", params=[11, 12, 13], ids=["3.11", "3.12", "3.13"])
def oracle(request: pytest.FixtureRequest) -> tuple[int, dict[int, list[Any]], frozenset[int]]:
    minor: int = request.param
    return (minor, *_oracle(minor))


@pytest.mark.essential
def test_every_code_point_is_read_as_cpython_reads_it(oracle: tuple[int, dict[int, list[Any]], frozenset[int]]) -> None:
    minor, valid, stripped = oracle
    numbers = number_reading(f"3.{minor}")
    nothing = [None] * 6
    mismatches: list[tuple[Any, ...]] = []
    for code in range(sys.maxunicode + 1):
        c = chr(code)
        raws = [_raw(shape, c) for shape in SHAPES]
        ours = [_argument(numbers, raw) for raw in raws] + [_cell(numbers, raw) for raw in raws]
        if ours != valid.get(code, nothing):
            mismatches.append((f"U+{code:04X}", valid.get(code, nothing), ours))
    # row names: every name of every shape in one table, looked up as the reader looks them up
    names = [_raw(shape, chr(code)) for code in range(sys.maxunicode + 1) for shape in SHAPES]
    index = TableIndex.of([[name, "4"] for name in names])
    for position, name in enumerate(names):
        code, shape = divmod(position, 3)
        found = name.strip() in index.rows and index.rows[name.strip()] == ["4"]
        # at either end, a character str.strip() removes makes the stripped argument miss the name
        if found != (shape == 2 or code not in stripped):
            mismatches.append((f"U+{code:04X}", "row", SHAPES[shape], found))
    assert not mismatches, f"{len(mismatches)} mismatches under 3.{minor}, first: {mismatches[:10]}"


def _special(minor: int, valid: dict[int, list[Any]], stripped: frozenset[int]) -> list[int]:
    """Every code point that is not a plain "no" for CPython or for finscore's tables,
    and a seeded sample of the others."""
    rule = number_reading(f"3.{minor}").rule
    special = set(range(128)) | set(valid) | set(stripped) | set(rule.number_spaces) | set(rule.strip_spaces)
    special |= {zero + value for zero in rule.digit_zeros for value in range(10)}
    others = [code for code in range(sys.maxunicode + 1) if code not in special]
    return sorted(special | set(random.Random(minor).sample(others, SAMPLE)))


def _programs(codes: list[int]) -> Iterator[tuple[str, int, int, list[str], Any]]:
    for code in codes:
        c = chr(code)
        for shape_index, shape in enumerate(SHAPES):
            raw = _raw(shape, c)
            if c not in DELIMITERS:
                # step 0 is 2 + 3; step 1 adds the argument (a literal, or a reference)
                yield "argument", shape_index, code, ["add(", "2", "3", ")", "add(", raw, "1", ")", EOF_], None
            yield "cell", shape_index, code, ["table_max(", "x", "none", ")", EOF_], [["x", raw]]
            if c not in DELIMITERS and c != "#":
                yield "row", shape_index, code, ["table_max(", raw, "none", ")", EOF_], [[raw, "4"]]


def _expected(kind: str, shape: int, code: int, valid: dict[int, list[Any]],
              stripped: frozenset[int]) -> tuple[int, Any]:
    """The official pair CPython's answers give for the sweep's program of that kind."""
    if kind == "row":
        raw = _raw(SHAPES[shape], chr(code))
        return (0, 4.0) if raw.strip() == raw else (1, "n/a")  # the argument is stripped, the name not
    answers = valid.get(code, [None] * 6)
    answer = answers[shape] if kind == "argument" else answers[3 + shape]
    if answer is None:
        return 1, "n/a"
    if kind == "cell":
        return 0, round(float.fromhex(answer), 5)
    what, value = answer
    if what == "ref":
        return (0, round(2.0 + 3.0 + 1.0, 5)) if value == 0 else (1, "n/a")
    return 0, round(float.fromhex(value) + 1.0, 5)


@pytest.mark.essential
def test_the_special_code_points_run_as_cpython_reads_them(
        oracle: tuple[int, dict[int, list[Any]], frozenset[int]]) -> None:
    minor, valid, stripped = oracle
    cases = list(_programs(_special(minor, valid, stripped)))
    batch = execute_batch(((program, table) for _, _, _, program, table in cases), python=f"3.{minor}")
    mismatches = []
    for (kind, shape, code, _, _), invalid, result in zip(cases, batch.invalid, batch.results):
        expected = _expected(kind, shape, code, valid, stripped)
        if (invalid, result) != expected:
            mismatches.append((kind, SHAPES[shape], f"U+{code:04X}", expected, (invalid, result)))
    assert not mismatches, f"{len(mismatches)} mismatches under 3.{minor}, first: {mismatches[:10]}"
    assert len(cases) > 3 * SAMPLE
