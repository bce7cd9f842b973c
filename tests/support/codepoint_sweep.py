"""The reader's side of tests/engine/test_codepoints.py, one range of code points at a time.

A module of its own so that the sweep can run in worker processes (multiprocessing
`spawn` imports it by name): the 1,114,112 code points, each in six readings and
three row names, take about 40 s in one process; the ranges are independent, so
the test spreads them over the machine's cores. What each reading should be is
decided by CPython (the test's oracle), never here.
"""

from __future__ import annotations

from typing import Any

from finscore.engine.options import Profile
from finscore.engine.reader.numbers import NumberReading, number_reading
from finscore.engine.reader.table import TableIndex, TableReadError, read_cells

SHAPES = ("prefix", "suffix", "inner")


def raw(shape: str, c: str) -> str:
    """The text of shape `shape` around the character `c`."""
    return {"prefix": c + "7", "suffix": "7" + c, "inner": "7" + c + "5"}[shape]


def _argument(numbers: NumberReading, text_as_written: str) -> Any:
    """The reader's reading of an arithmetic argument, after the official strip."""
    text = text_as_written.strip()
    if "#" in text:
        step = numbers.official_reference(text)
        return None if step is None else ["ref", step]
    value = numbers.official_number(text)
    return None if value is None else ["num", value.hex()]


def _cell(numbers: NumberReading, text_as_written: str) -> Any:
    try:
        return read_cells([text_as_written], profile=Profile.OFFICIAL, numbers=numbers)[0].hex()
    except TableReadError:
        return None


def mismatches_in(minor: int, start: int, stop: int, valid: dict[int, list[Any]],
                  stripped: frozenset[int]) -> list[tuple[Any, ...]]:
    """Every code point in [start, stop) whose readings or row names differ from CPython 3.<minor>'s
    answers (`valid`: the six answers where any is valid; `stripped`: what str.strip() removes)."""
    numbers = number_reading(f"3.{minor}")
    nothing = [None] * 6
    found: list[tuple[Any, ...]] = []
    for code in range(start, stop):
        c = chr(code)
        raws = [raw(shape, c) for shape in SHAPES]
        ours = [_argument(numbers, text) for text in raws] + [_cell(numbers, text) for text in raws]
        if ours != valid.get(code, nothing):
            found.append((f"U+{code:04X}", valid.get(code, nothing), ours))
    # row names: every name of every shape of the range in one table, looked up as the reader
    # looks them up. One table a range is one table in all: a stripped name that differs from
    # its name is "7", no name of the sweep; the one repeated name, "77" (prefix and suffix of
    # "7"), is a single code point's and so always in one range.
    names = [raw(shape, chr(code)) for code in range(start, stop) for shape in SHAPES]
    index = TableIndex.of([[name, "4"] for name in names])
    for position, name in enumerate(names):
        offset, shape = divmod(position, 3)
        code = start + offset
        is_found = name.strip() in index.rows and index.rows[name.strip()] == ["4"]
        # at either end, a character str.strip() removes makes the stripped argument miss the name
        if is_found != (shape == 2 or code not in stripped):
            found.append((f"U+{code:04X}", "row", SHAPES[shape], is_found))
    return found
