"""Execute FinQA programs: the public entry points.

`execute` runs one program; `execute_batch` and `execute_many` run any number,
one chunk of 10,000 programs at a time. Which path each program takes is decided in
`finscore.engine.routing`; what a user sees of its outcome is built in
`finscore.engine.explanation`. This module only checks the arguments and cuts chunks.
"""

from __future__ import annotations

from itertools import chain, islice
from typing import Any, Callable, Iterable, Sequence

from finscore.engine.core.binding import CoreError, get_core
from finscore.engine.explanation import Execution
from finscore.engine.options import PROFILES, PYTHON_VERSIONS, Profile, check_options, sum_rule_for
from finscore.engine.results import ExecutionBatch

__all__ = ["CHUNK_SIZE", "PROFILES", "PYTHON_VERSIONS", "ExecutionBatch", "Profile", "check_options", "execute",
           "execute_batch", "execute_many", "round_half_even_scaled", "sum_rule_for"]

CHUNK_SIZE = 10_000

Program = Sequence[str] | str
Table = Sequence[Sequence[Any]] | None


_PROGRAM_TYPES = frozenset((str, list, tuple))
_TABLE_TYPES = frozenset((list, tuple, type(None)))
_TOKEN_LIST_TYPES = frozenset((list, tuple))
_ROW_TYPES = frozenset((list, tuple))


def _is_cells(value: Any) -> bool:
    """A sequence the Table type promises (text is a sequence too, but not of cells)."""
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def check_table(table: Any) -> None:
    """A clear TypeError, naming the row, unless the table is None or a sequence of
    sequences of cells (lists, tuples, any Sequence but text)."""
    if table is None:
        return
    if not _is_cells(table):
        raise TypeError(f"a table is a sequence of rows (or None), not a {type(table).__name__}")
    for number, row in enumerate(table):
        if not _is_cells(row):
            raise TypeError(f"table row {number} is a {type(row).__name__}, not a sequence of cells")


def _check_tables(tables: list[Any]) -> None:
    """check_table for a chunk's tables: at once when every row is a list or tuple. Each distinct
    table object is looked at once (rows of a GRPO group, a conversation's turns, share theirs)."""
    distinct = {id(t): t for t in tables}.values()
    if set(map(type, chain.from_iterable(t for t in distinct if type(t) in _ROW_TYPES))) <= _ROW_TYPES and all(
            t is None or type(t) in _ROW_TYPES for t in distinct):
        return
    for table in tables:
        check_table(table)


def _split_chunk(chunk: list[Any]) -> tuple[list[Any], list[Any], bool]:
    """The programs and the tables of a chunk of (program, table) pairs (tuples or lists
    of two), and whether every program is a token list; a clear TypeError for a malformed
    pair. Checked for the whole chunk at once, and item by item only to name a culprit;
    token types are checked where the tokens are first joined (see
    `finscore.engine.routing.check_tokens`)."""
    try:
        programs, tables = map(list, zip(*chunk, strict=True))
    except (TypeError, ValueError):  # not all pairs, or pairs of different lengths: say which below
        pass
    else:
        program_types = set(map(type, programs))
        if program_types <= _PROGRAM_TYPES and set(map(type, tables)) <= _TABLE_TYPES:
            _check_tables(tables)
            return programs, tables, program_types <= _TOKEN_LIST_TYPES
    for item in chunk:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise TypeError("execute_many takes (program, table) pairs")
        program, table = item
        if not isinstance(program, (str, list, tuple)):
            raise TypeError(f"a program is a string or a list of tokens, not a {type(program).__name__}")
        check_table(table)
    return [program for program, _ in chunk], [table for _, table in chunk], False


def execute_batch(
    programs: Iterable[tuple[Program, Table]],
    *,
    profile: str | Profile = Profile.OFFICIAL,
    python: str = "3.11",
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
) -> ExecutionBatch:
    """Execute (program, table) pairs, one core call per chunk of `chunk_size` programs.

    The official pair of every program is in the returned batch's columns at once;
    its full Execution when indexed. `progress`, if given, is called with the number
    of programs done after each chunk.
    """
    check_options(profile, python)
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    batch = ExecutionBatch(get_core(), profile, python)
    items = iter(programs)
    while chunk := list(islice(items, chunk_size)):
        batch.run(*_split_chunk(chunk))
        if progress is not None:
            progress(len(batch))
    return batch


def execute_many(
    programs: Iterable[tuple[Program, Table]],
    *,
    profile: str | Profile = Profile.OFFICIAL,
    python: str = "3.11",
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
) -> list[Execution]:
    """Execute (program, table) pairs like `execute_batch`, as a list of full Executions."""
    return list(execute_batch(programs, profile=profile, python=python, chunk_size=chunk_size,
                              progress=progress))


def execute(program: Program, table: Table = None, *, profile: str | Profile = Profile.OFFICIAL,
            python: str = "3.11") -> Execution:
    """Execute one program (a token list or a gold program string) against a table."""
    return execute_many([(program, table)], profile=profile, python=python)[0]


def round_half_even_scaled(x: float, scale: float) -> float:
    """CPython's round(x, n) with scale = 10.0 ** n (n from 0 to 22), computed by the core."""
    if not isinstance(x, (float, int)) or isinstance(x, bool):
        raise TypeError(f"x must be a float, not {type(x).__name__}")
    if not isinstance(scale, (float, int)) or isinstance(scale, bool):
        raise TypeError(f"scale must be a float, not {type(scale).__name__}")
    try:
        return get_core().round_half_even_scaled(float(x), float(scale))
    except CoreError as error:
        raise ValueError(f"scale must be exactly 10.0 ** n for n in 0..22, not {scale!r}") from error
