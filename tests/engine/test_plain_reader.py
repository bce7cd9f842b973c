"""The core's plain reader reads exactly as the full (Python) reader does, or defers.

Wherever the core reads a program itself (anything but status DEFERRED), the full
reader, in both profiles, must read it with no failure and no quirk and lower it
to the very same core program, literal bits and table cells included. Checked on
every program of the recorded vectors and on generated token lists.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.plain_readings import read_keeping_programs
from support.shared import table_of, vector_rows

from finscore.engine.core.binding import get_core
from finscore.engine.core.plain_text import lay_out
from finscore.engine.lowering import lower
from finscore.engine.options import Profile
from finscore.engine.reader.read import read_program
from finscore.engine.status import Status

#: a claim rests on these tests: under CI a skip fails the run (tests/conftest.py)
pytestmark = pytest.mark.essential


def key(program):  # type: ignore[no-untyped-def]
    """A core program as comparable data: literal bits exact, NaN as NaN."""
    def number(x: float) -> object:
        return "nan" if math.isnan(x) else x.hex()
    steps = [(int(s.op), tuple((int(a.kind), a.index, a.length, number(a.number)) for a in (s.first, s.second)))
             for s in program.steps]
    return steps, [number(v) for v in program.table_values]


#: Reading failures the core decides itself, where certain (see fs_read_execute_batch).
STOPPED = (Status.BAD_NUMBER, Status.UNKNOWN_ROW, Status.SELF_REFERENCE, Status.FORWARD_REFERENCE,
           Status.REFERENCE_OUT_OF_RANGE, Status.MALFORMED_STRUCTURE)


def check(items: list) -> tuple[int, int]:  # type: ignore[type-arg]
    """(read by the core, sent to the core); asserts agreement on every one read.

    Where the core's reading stopped at a step (STOPPED), the full reader must stop at
    that very step with that status, in both profiles, having read the same steps before;
    the core's outcome is then that status, unless a step before it was refused. A whole
    program refused by the position check stops at no step (the core's failed_step -1).
    """
    plain = lay_out([tokens for tokens, _ in items], [table for _, table in items])
    output, programs = read_keeping_programs(get_core(), plain)
    taken = 0
    for k, position in enumerate(plain.indices):
        if output.status(k) == Status.DEFERRED:
            continue
        taken += 1
        tokens, table = items[position]
        result, steps_read = output[k], output.step_count(k)
        for profile in Profile:
            read = read_program(tokens, table, profile=profile)
            assert (read.quirks, read.skipped) == ((), ()), tokens
            if read.failure is None:
                assert result.status not in STOPPED, tokens
            else:
                whole = read.failure.status == Status.MALFORMED_STRUCTURE
                assert read.failure.status in STOPPED and read.failure.step == (None if whole else steps_read), tokens
                if result.status in STOPPED:
                    assert (result.status, result.failed_step, result.steps_executed) == (
                        read.failure.status, -1 if whole else steps_read, steps_read), tokens
                else:  # refused while running an earlier step, which comes first
                    assert result.status != Status.OK and 0 <= result.failed_step < steps_read, tokens
            lowered = lower(read, profile=profile)
            assert lowered is not None and key(lowered.program) == key(programs[k]), tokens
    return taken, len(plain.indices)


@pytest.mark.parametrize(("name", "share"), [("gold", 0.95), ("mutants", 0.8), ("fuzz", 0.05)])
def test_the_core_reads_vector_programs_as_the_full_reader_does(name: str, share: float) -> None:
    items = []
    for row in vector_rows(name):
        available, table = table_of(row)
        if available:
            items.append((row["program"], table))
    taken, sent = check(items)
    assert taken >= share * len(items), (taken, sent, len(items))


TOKEN_TEXTS = [
    "add(", "subtract(", "multiply(", "divide(", "exp(", "greater(", "table_max(", "table_sum(", ")", "EOF",
    "#0", "#1", "#2", "#01", " #0", "#", "1", "2.5", "-3", "+4", ".5", "5.", "-.5", "1,000", "12,34", "1,234.5",
    "12%", "-7.5%", "%", "const_100", "const_m1", "const_", "nan", "1e5", "007", "0", "-0", "revenue",
    "x", "none", "", "a|b", "1)", "(", "9007199254740993", "0.1234567890123456789012",
    "total", "Infinity", "-inf", "in,f", "in%f", "iconst_nf", "const", "cash flow", "-", "NaN", "e", "_", "$",
    "201c4.25%", "12b", "1e5%", "1,0a", "$1", "1 2", "tiny", "1_0%", "inf%", "0x1p3", "1e", "-.e1", "nan%",
    "#7", "#13", "#999999999", "#1234567890", "add", "((add(", "Add(", "add (", "The answer is 12%.", "]",
]
TOKENS = st.sampled_from(TOKEN_TEXTS)
TABLE = [["", "2019"], ["revenue", "$ 1,000", "2.5%", "( 3 )"], ["x", "1"], ["x", "2"], ["none", "3"]]


@settings(max_examples=3000, deadline=None)
@given(st.lists(TOKENS, max_size=14), st.booleans())
def test_generated_token_lists(tokens: list[str], with_eof: bool) -> None:
    check([(tokens + ["EOF"] if with_eof else tokens, TABLE)])


def test_the_core_reads_a_share_of_such_token_lists_itself() -> None:
    """check() asserts only on what the core reads: a core deferring every list would pass the test above."""
    rng = random.Random(20261202)
    items = []
    for _ in range(600):
        tokens = [rng.choice(TOKEN_TEXTS) for _ in range(rng.randrange(15))]
        items.append((tokens + ["EOF"] if rng.random() < 0.5 else tokens, TABLE))
    taken, sent = check(items)
    assert taken >= 0.3 * len(items), (taken, sent)


STEP_CELLS = ["1", "$ 1,234", "12.5%", "( 1,234 )", "1 ( a )", "$", "", "\u00a012", "12\u00a0",
              "１２", "1_0", "nan", "-", "3.25 $", " 7 ", "4e2"]
CELLS = st.sampled_from(STEP_CELLS)


@settings(max_examples=2000, deadline=None)
@given(st.lists(CELLS, min_size=0, max_size=4), st.sampled_from(["table_max(", "table_sum(", "table_average("]))
def test_generated_cells(cells: list[str], op: str) -> None:
    table = [["", "2019"], ["row", *cells]]
    check([([op, "row", "none", ")", "EOF"], table)])


def test_the_core_reads_a_share_of_such_cells_itself() -> None:
    """As for the token lists: check() asserts only on what the core reads."""
    rng = random.Random(20261202)
    items = []
    for _ in range(600):
        cells = [rng.choice(STEP_CELLS) for _ in range(rng.randrange(5))]
        op = rng.choice(["table_max(", "table_sum(", "table_average("])
        items.append(([op, "row", "none", ")", "EOF"], [["", "2019"], ["row", *cells]]))
    taken, sent = check(items)
    # about a tenth: most lists hold a cell the plain reader leaves to the full one ("$", "１２", ...)
    assert taken >= 0.05 * len(items), (taken, sent)


ROWS = [["", "2019"], ["revenue", "$ 1,000", "2.5%"]]


@pytest.mark.parametrize(
    ("tokens", "table", "steps_before"),
    [
        (["subtract(", "400.0", "total", ")", "EOF"], None, 0),
        (["add(", "1", "2", ")", "divide(", "#0", "cash flow", ")", "EOF"], None, 1),
        (["add(", "-", "2", ")", "add(", "1", "a|b", ")", "EOF"], None, None),  # a delimiter later comes first
        (["add(", "in,f", "2", ")", "EOF"], None, None),                       # float() of "inf" after all
        (["subtract(", "400.0", "201c4.25%", ")", "EOF"], None, 0),            # 'c' is in no float() text
        (["add(", "1e5%", "2", ")", "EOF"], None, None),                       # 1e5 / 100 after all
        (["table_max(", "2", "none", ")", "EOF"], ROWS, 0),
        (["add(", "1", "2", ")", "table_sum(", "revenues", "none", ")", "EOF"], ROWS, 1),
        (["table_sum(", "revenue", "none", ")", "table_sum(", "x", "none", ")", "add(", "1", ")"], ROWS, None),
        (["add(", "1", "2", ")", "add(", "#1", "1", ")", "EOF"], None, 1),             # the step itself
        (["add(", "#0", "2", ")", "EOF"], None, 0),
        (["add(", "#1", "2", ")", "add(", "3", "4", ")", "EOF"], None, 0),             # a later step
        (["add(", "1", "2", ")", "add(", "1", "#6", ")", "EOF"], None, 1),             # no such step
        (["add(", "#01", "2", ")", "EOF"], None, 0),                                     # #1, past the end
        (["add(", "#1", "2", ")", "add(", "a|b", "4", ")", "EOF"], None, None),        # a delimiter later
        (["add(", "#1234567890", "2", ")", "EOF"], None, None),                          # ten digits
        (["table_sum(", "#3", "none", ")", "EOF"], ROWS, None),                          # a reused row
        (["The answer is 14.1%.", "EOF"], None, 0),                                      # free text
        (["((add", "1", "2", ")", "Add(", "1", "2", ")", "EOF"], None, 0),              # the position check
        (["add", "1", "2", ")", "subtract(", "1", "2", "]", "EOF"], None, 0),
        (["The answer is 14.1%.", "done"], None, None),                                  # no EOF: strictly refused first
        (["((add", "1", "2", ")", "EOF"], None, None),                                   # passes the check
    ],
)
def test_what_the_core_decides_when_reading_stops(tokens: list[str], table: object,
                                                  steps_before: int | None) -> None:
    """Certain reading failures are decided by the core, as the full reader decides them;
    anything less certain is deferred (steps_before None)."""
    output = get_core().read_execute_batch(lay_out([tokens], [table]))
    if steps_before is None:
        assert output.status(0) == Status.DEFERRED
    else:
        assert output.status(0) in STOPPED and output.step_count(0) == steps_before
    check([(tokens, table)])


@pytest.mark.parametrize(
    ("tokens", "table"),
    [
        (["add(", "1", "2", ")"], None),                            # no EOF: the official quirk
        (["EOF"], None),                                             # no steps
        (["add(", "1\x1f2", "2", ")", "EOF"], None),                 # a separator inside a token
        (["table_sum(", "r", "none", ")", "EOF"], [["r", "1"], []]),   # an odd table
        (["table_sum(", "r", "none", ")", "EOF"], [["r", "1\x1e"]]),    # a separator in a cell
        (["table_sum(", "r", "none", ")", "EOF"], {"r": ["1"]}),        # not a list of rows
        (["add(", "\u00a01", "2", ")", "EOF"], None),                # non-ASCII at an edge
        (["add(", "9007199254740993", "1", ")", "EOF"], None),       # a mantissa past 2**53
        (["add(", "\ud800", "1", ")", "EOF"], None),                 # a lone surrogate
        (["add(", "1", "1", ")"] * 70 + ["EOF"], None),              # more than 64 steps
    ],
)
def test_what_the_core_leaves_to_the_full_reader(tokens: list[str], table: object) -> None:
    plain = lay_out([tokens], [table])
    output = get_core().read_execute_batch(plain)
    assert not plain.indices or output.status(0) == Status.DEFERRED


SEPARATOR_TOKENS = st.sampled_from(["add(", "1", ")", "EOF", "table_sum(", "x", "", "\x1f", "\x1e", "a\x1fb",
                                    "\x1f\x1e\x1f", "\x1e\x1f"])


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.lists(SEPARATOR_TOKENS, max_size=6), min_size=1, max_size=5))
def test_lay_out_is_its_definition(programs: list[list[str]]) -> None:
    """The chunk-wide join and counts give what joining program by program gives, leave out
    exactly the programs whose tokens hold a separator, that have no tokens, or whose last
    token is empty (the core refuses an empty program and one ending in 0x1F), and lay out a
    table for exactly the programs that mention a table op."""
    tables = [[["x", str(i)]] for i in range(len(programs))]
    plain = lay_out(programs, tables)
    clean = [i for i, tokens in enumerate(programs)
             if tokens and tokens[-1] != "" and not any("\x1f" in t or "\x1e" in t for t in tokens)]
    assert list(plain.indices) == clean
    assert plain.text() == "\x1e".join("\x1f".join(programs[i]) for i in clean).encode("utf-8", "surrogatepass")
    with_tables = [i for i in clean if any("table_" in t for t in programs[i])]
    laid = {clean[k]: plain.table(which) for k, which in enumerate(plain.program_tables) if which >= 0}
    assert sorted(laid) == with_tables
    assert all(laid[i] == f"x\x1f{i}".encode() for i in with_tables)


CELL_TEXTS = st.sampled_from(["", "x", "1", "$ 2", "\x1f", "\x1e", "a\x1fb", "é"])


@settings(max_examples=2000, deadline=None)
@given(st.one_of(
    st.lists(st.lists(CELL_TEXTS, max_size=4), max_size=4),
    st.lists(st.one_of(st.lists(CELL_TEXTS, max_size=3), st.integers(), st.text(max_size=2), st.none()), max_size=3),
    st.lists(st.lists(st.one_of(CELL_TEXTS, st.integers(), st.none()), max_size=3), max_size=3),
))
def test_table_text_is_its_definition(table: list) -> None:  # type: ignore[type-arg]
    """A table is laid out exactly when it is a non-empty list of non-empty lists of text
    with no separator in any cell and no row of one empty cell (the core refuses an empty
    row), and then as rows joined by 0x1E of cells joined by 0x1F."""
    from finscore.engine.core.plain_text import table_text

    assert table_text(table) == _expected_table_text(table)


def _expected_table_text(table: object) -> str | None:
    plain = (isinstance(table, list) and bool(table)
             and all(type(row) is list and row and row != [""] and all(type(c) is str for c in row)
                     for row in table)
             and not any("\x1f" in c or "\x1e" in c for row in table for c in row))
    return "\x1e".join("\x1f".join(row) for row in table) if plain else None  # type: ignore[union-attr]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.one_of(
    st.lists(st.lists(CELL_TEXTS, max_size=4), max_size=4),
    st.lists(st.one_of(st.lists(CELL_TEXTS, max_size=3), st.integers(), st.none()), max_size=3),
    st.none(),
), min_size=1, max_size=4))
def test_tables_laid_out_together_are_each_its_definition(tables: list) -> None:  # type: ignore[type-arg]
    """Several tables in one batch (laid out at once, or one by one when any is odd): each
    program gets exactly its own table's text, or none when that table cannot be laid out."""
    programs = [["table_sum(", "x", "none", ")", "EOF"] for _ in tables]
    plain = lay_out(programs, tables)
    for k, which in enumerate(plain.program_tables):
        expected = _expected_table_text(tables[k])
        got = plain.table(which).decode("utf-8", "surrogatepass") if which >= 0 else None
        assert got == expected, (k, tables)
    # the core's table_values size: each program's table's value cells (its 0x1F bytes), summed
    assert plain.table_value_cells == sum(
        text.count("\x1f") for text in map(_expected_table_text, tables) if text is not None)
