"""The page gives the same bits as the recorded official evaluator and as the package under CPython.

Every gold program with its FinQA table and every mutant of the recorded vectors
(tests/data/vectors), and a seeded sample of a tenth of each fuzz file (fuzz on
CPython 3.11, fuzz-py312 with the 3.12 sum), plus every fuzz row whose answer is
a special float, are executed by the page's own Python (Pyodide, the WebAssembly
core in the browser's engine) and compared with the recorded `invalid`/`result`
(bit-exact floats, NaN as NaN) and with `finscore.execute_many` run here under
CPython. The recording is the external oracle; the comparison with CPython runs
the same Python under two hosts, so it shows a host difference, never a logic
error the two share.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from finscore import execute_many

from support.shared import same_outcome, table_of

from .conftest import vector_rows

#: a claim rests on these tests: under CI a skip fails the run (tests/conftest.py)
pytestmark = pytest.mark.essential

#: Every gold and mutant row; a seeded sample of a tenth of each fuzz file (at least).
FUZZ_SHARE = 0.10
KINDS = ("gold", "mutants", "fuzz", "fuzz-py312")
SEED = 18
#: Rows per call into the page (one call per chunk keeps each message small).
CHUNK = 5_000


def _special(result: dict[str, str]) -> bool:
    """NaN, an infinity or a negative zero: the values a careless host loses."""
    if "float" not in result:
        return False
    value = float.fromhex(result["float"])
    return math.isnan(value) or math.isinf(value) or (value == 0.0 and math.copysign(1.0, value) < 0)


def _chosen(name: str, count: int) -> set[int] | None:
    """The row numbers to run: None for every row, else a seeded tenth of them."""
    if not name.startswith("fuzz"):
        return None
    return set(random.Random(f"{SEED}-{name}").sample(range(count), math.ceil(count * FUZZ_SHARE)))


def sample(name: str) -> tuple[int, list[dict[str, Any]]]:
    """(rows in the file, the rows to run) of one vector file."""
    every = list(vector_rows(name))
    chosen = _chosen(name, len(every))
    rows = []
    for number, row in enumerate(every):
        if row["invalid"] is None:  # a gold row whose table is not available: nothing was recorded
            continue
        special = row["invalid"] == 0 and _special(row["result"])
        if chosen is not None and number not in chosen and not special:
            continue
        available, table = table_of(row)
        assert available, row["id"]
        rows.append({"id": row["id"], "program": row["program"], "table": table, "python": row["python"],
                     "invalid": row["invalid"], "result": row["result"]})
    return len(every), rows


def _result(answer: dict[str, Any]) -> Any:
    """The Python value of a result written as the vectors write it."""
    return float.fromhex(answer["result"]["float"]) if "float" in answer["result"] else answer["result"]["str"]


@pytest.fixture(scope="module")
def samples() -> dict[str, tuple[int, list[dict[str, Any]]]]:
    return {name: sample(name) for name in KINDS}


def test_the_sample_covers_every_kind(samples: dict[str, tuple[int, list[dict[str, Any]]]]) -> None:
    for name, (count, rows) in samples.items():
        recorded = sum(1 for row in vector_rows(name) if row["invalid"] is not None)
        if name.startswith("fuzz"):
            assert len(rows) >= count * FUZZ_SHARE, name
        else:
            assert len(rows) == recorded, name  # every row that has a recorded outcome
        assert {row["invalid"] for row in rows} == ({0} if name == "gold" else {0, 1}), name
    assert {row["python"] for row in samples["fuzz-py312"][1]} == {"3.12"}
    specials = [row for _, rows in samples.values() for row in rows if row["invalid"] == 0 and _special(row["result"])]
    kinds = {("nan" if math.isnan(v) else "inf" if math.isinf(v) else "-0.0")
             for v in (float.fromhex(row["result"]["float"]) for row in specials)}
    assert kinds == {"nan", "inf", "-0.0"}


@pytest.mark.parametrize("name", KINDS)
def test_page_matches_recorded_vectors_and_cpython(page: Any, samples: dict[str, tuple[int, list[dict[str, Any]]]],
                                                   name: str) -> None:
    rows = samples[name][1]
    in_page: list[dict[str, Any]] = []
    for start in range(0, len(rows), CHUNK):
        request = [{"program": row["program"], "table": row["table"], "python": row["python"]}
                   for row in rows[start:start + CHUNK]]
        reply = page.evaluate("rows => window.finscore.executeRows(rows)", request)
        assert reply["ok"], reply
        in_page += reply["answers"]
    assert len(in_page) == len(rows)

    by_python: dict[str, list[int]] = {}
    for position, row in enumerate(rows):
        by_python.setdefault(row["python"], []).append(position)
    in_cpython: list[dict[str, Any] | None] = [None] * len(rows)
    for python, positions in by_python.items():
        executions = execute_many([(rows[p]["program"], rows[p]["table"]) for p in positions], python=python)
        for position, execution in zip(positions, executions):
            in_cpython[position] = {"invalid": execution.invalid, "result": execution.vector_result()}

    differ_from_recorded = [row["id"] for row, answer in zip(rows, in_page)
                            if not same_outcome(row, answer["invalid"], _result(answer))]
    differ_from_cpython = [row["id"] for row, mine, theirs in zip(rows, in_page, in_cpython) if mine != theirs]
    assert differ_from_recorded == [], f"{len(differ_from_recorded)} rows differ from the recording"
    assert differ_from_cpython == [], f"{len(differ_from_cpython)} rows differ from the package under CPython"


#: The digit zero of scripts whose decimal digits Unicode added after 14.0, the database of
#: CPython 3.11 (which the official evaluator ran): Kawi and Nag Mundari (Unicode 15.0), Garay
#: (16.0). CPython 3.11's float() and int() refuse them, so officially a program using one is invalid.
NEWER_ZEROS = ("\U00011f50", "\U0001e4f0", "\U00010d40")


def test_digits_newer_than_unicode_14_are_refused_in_the_page(page: Any) -> None:
    programs = []
    for zero in NEWER_ZEROS:
        one = chr(ord(zero) + 1)
        programs.append(["add(", one, "2", ")", "EOF"])  # officially: float() fails, invalid
        programs.append(["add(", "1", "2", ")", "add(", f"#{zero}", "1", ")", "EOF"])  # int() fails, invalid
    reply = page.evaluate("rows => window.finscore.executeRows(rows)", [{"program": p} for p in programs])
    assert [answer["invalid"] for answer in reply["answers"]] == [1] * len(programs)
