"""Every code point, as CPython itself reads it: the reader's imitation of CPython, swept.

Each code point U+0000..U+10FFFF goes in as the prefix, the suffix and an inner
character of a literal, a #reference, a table cell and a row name. What each should
give is decided by CPython's own float(), int() and str.strip() in the interpreter
the `python` rule names: this one for 3.11, CPython 3.12 and 3.13 (found by
tests/support/pythons.py) for theirs, skipped with the reason where they are absent.
The oracle only follows the official evaluator's order of calls (strip the argument;
a `#` means int() of the text without `#`; else float() after removing `,`, then the
`%` rule; a cell loses `$` and what follows `(`); every decision in it is CPython's.

Two sweeps, to stay within a minute on a shared machine (the first spread over the
machine's cores, in ranges of code points: both the oracle interpreters and the reader's
side, tests/support/codepoint_sweep.py):
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

import concurrent.futures
import json
import multiprocessing
import os
import random
import sys
from typing import Any, Iterator

import pytest
from support.codepoint_sweep import SHAPES, mismatches_in, raw
from support.pythons import find_python, run_python

from finscore import execute_batch
from finscore.engine.reader.numbers import number_reading

EOF_ = "EOF"
DELIMITERS = frozenset("|()")
SAMPLE = 20_000
#: Ranges of code points swept apart (in parallel, as many at a time as the machine has cores).
RANGES = 16

#: Run in each oracle interpreter, over the range "start stop" read on standard input.
#: Prints, for every code point of it where any shape of a literal, reference or cell is
#: valid, CPython's answers, and every code point that str.strip() removes (a row name
#: holding it at an end is then not found).
ORACLE = r'''
import json, sys
start, stop = map(int, sys.stdin.read().split())

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
for code in range(start, stop):
    c = chr(code)
    raws = (c + "7", "7" + c, "7" + c + "5")
    answers = [argument(raw) for raw in raws] + [cell(raw) for raw in raws]
    if any(answer is not None for answer in answers):
        valid[code] = answers
    if (c + "7").strip() != c + "7":
        stripped.append(code)
print(json.dumps({"valid": valid, "stripped": stripped}))
'''


def _ranges() -> list[tuple[int, int]]:
    """The code points U+0000..U+10FFFF in RANGES contiguous ranges [start, stop)."""
    bounds = [round(i * (sys.maxunicode + 1) / RANGES) for i in range(RANGES + 1)]
    return list(zip(bounds, bounds[1:]))


def _oracle(minor: int) -> tuple[dict[int, list[Any]], frozenset[int]]:
    """CPython 3.<minor>'s answers: per code point, the six argument and cell answers
    (absent: all invalid), and the code points str.strip() removes."""
    python = sys.executable if sys.version_info[:2] == (3, minor) else find_python(minor)
    if python is None:
        pytest.skip(f"CPython 3.{minor} is not installed here (pyenv versions lists what is)")
    valid: dict[int, list[Any]] = {}
    stripped: set[int] = set()
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:  # each call waits on its own process
        texts = pool.map(lambda bounds: run_python(python, ORACLE, "%d %d" % bounds), _ranges())
        for text in texts:
            found = json.loads(text)
            valid.update((int(code), answers) for code, answers in found["valid"].items())
            stripped.update(found["stripped"])
    return valid, frozenset(stripped)


@pytest.fixture(scope="module", params=[11, 12, 13], ids=["3.11", "3.12", "3.13"])
def oracle(request: pytest.FixtureRequest) -> tuple[int, dict[int, list[Any]], frozenset[int]]:
    minor: int = request.param
    return (minor, *_oracle(minor))


@pytest.mark.essential
def test_every_code_point_is_read_as_cpython_reads_it(oracle: tuple[int, dict[int, list[Any]], frozenset[int]]) -> None:
    minor, valid, stripped = oracle
    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: no fork of this process's threads
    mismatches: list[tuple[Any, ...]] = []
    with concurrent.futures.ProcessPoolExecutor(os.cpu_count() or 1, mp_context=spawn) as pool:
        sweeps = [
            pool.submit(mismatches_in, minor, start, stop,
                        {code: answers for code, answers in valid.items() if start <= code < stop},
                        frozenset(code for code in stripped if start <= code < stop))
            for start, stop in _ranges()
        ]
        for sweep in sweeps:
            mismatches.extend(sweep.result())
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
            raw_text = raw(shape, c)
            if c not in DELIMITERS:
                # step 0 is 2 + 3; step 1 adds the argument (a literal, or a reference)
                yield "argument", shape_index, code, ["add(", "2", "3", ")", "add(", raw_text, "1", ")", EOF_], None
            yield "cell", shape_index, code, ["table_max(", "x", "none", ")", EOF_], [["x", raw_text]]
            if c not in DELIMITERS and c != "#":
                yield "row", shape_index, code, ["table_max(", raw_text, "none", ")", EOF_], [[raw_text, "4"]]


def _expected(kind: str, shape: int, code: int, valid: dict[int, list[Any]],
              stripped: frozenset[int]) -> tuple[int, Any]:
    """The official pair CPython's answers give for the sweep's program of that kind."""
    if kind == "row":
        text = raw(SHAPES[shape], chr(code))
        return (0, 4.0) if text.strip() == text else (1, "n/a")  # the argument is stripped, the name not
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
