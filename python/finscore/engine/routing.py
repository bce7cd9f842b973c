"""The paths a program can take, decided in one place, for one chunk of programs.

1. The core's plain reader: one call reads and runs every plain token program of
   the chunk (no quirk, no separator in a token, a table of text rows). What it
   cannot read for certain it defers (status DEFERRED). A chunk of program text is
   laid out whole from its text; its token lists are cut only where needed.
2. The full reader and lowering: the deferred programs are read in Python, under the
   profile, and lowered to the core's flat records; what lowers runs in a second
   core call. A reading that failed at its first step has nothing to run.
3. The walker: under the official profile, programs whose values leave the float
   world (text from `greater`, the integer 0 of an empty row's sum, a complex power)
   are walked step by step with Python's types, every float operation still in the core.

The verdict of every program (its official pair and status) goes into the chunk's
columns at once; what a program's Execution needs later is kept in the `RoutedChunk`.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made (FullReading is made at start-up).

from typing import Any, NamedTuple, Sequence

from finscore.engine.core.abi import BatchOutput, CoreProgram, SumRule
from finscore.engine.core.binding import Core
from finscore.engine.bounds import MAX_CORE_CALL_BYTES, core_program_bytes
from finscore.engine.core.plain_text import (RECORD_SEPARATOR, TOKEN_SEPARATOR, PlainBatch, lay_out,
                                             lay_out_program_texts)
from finscore.engine.explanation import Execution, Explainer
from finscore.engine.lowering import Lowered, lower
from finscore.engine.options import Profile
from finscore.engine.reader.convfinqa import apply_selections
from finscore.engine.reader.program import ReadProgram
from finscore.engine.reader.read import read_program
from finscore.engine.reader.tokens import tokenize_gold_program
from finscore.engine.sequences import LazySequence, positions_of
from finscore.engine.status import Status
from finscore.engine.verdict import Result, verdict, verdict_columns
from finscore.engine.walker import walk

_DEFERRED = int(Status.DEFERRED)
_COMPLEX = int(Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT)

Columns = tuple[list[int], list[Result], list[int]]  # invalid flags, results, statuses


class FullReading(NamedTuple):
    """A program the full reader read, and its lowering for the core (None: only the walker runs it)."""

    tokens: Sequence[str]
    table: Any
    reading: ReadProgram
    lowered: Lowered | None


#: Where a program that did not stay on the plain path ended: its Execution already made
#: (the walker, or a reading refused at once), or its place in the second core call.
Elsewhere = Execution | tuple[FullReading, BatchOutput, int]


class TokensOnDemand(LazySequence[list[str]]):
    """The token lists of a chunk of program texts, each cut when first asked for: a chunk
    laid out from its text (lay_out_program_texts) needs the tokens of only the programs
    the core defers or someone asks to explain."""

    def __init__(self, programs: list[str]) -> None:
        self._programs = programs
        self._cut: dict[int, list[str]] = {}

    def __len__(self) -> int:
        return len(self._programs)

    def _item(self, index: int) -> list[str]:
        tokens = self._cut.get(index)
        if tokens is None:
            tokens = self._cut[index] = tokenize_gold_program(self._programs[index])
        return tokens


def _one_token_programs(plain: PlainBatch) -> list[int] | None:
    """The positions of the one-token programs (number selections), read off a chunk laid out
    whole from its text; None when the batch does not hold every program's text."""
    if plain.joined is None:
        return None
    return [k for k, text in enumerate(plain.joined.split(RECORD_SEPARATOR)) if text.count(TOKEN_SEPARATOR) == 1]


def check_tokens(tokens: Sequence[Any]) -> None:
    """A clear TypeError naming the first token that is not text."""
    for position, token in enumerate(tokens):
        if not isinstance(token, str):
            raise TypeError(f"token {position} of the program is a {type(token).__name__}, not text")


class RoutedChunk:
    """What one chunk needs to explain any of its programs later."""

    def __init__(self, explainer: Explainer, token_lists: Sequence[Sequence[str]], tables: list[Any],
                 plain_output: BatchOutput, plain_index: list[int] | None, elsewhere: dict[int, Elsewhere]) -> None:
        self.explainer = explainer
        self.token_lists = token_lists
        self.tables = tables
        self.plain_output = plain_output
        # per position not in `elsewhere`: its index in plain_output (None: the position itself)
        self.plain_index = plain_index
        self.elsewhere = elsewhere

    def execution(self, position: int) -> Execution:
        """The full Execution of the program at `position` in the chunk."""
        other = self.elsewhere.get(position)
        if other is None:
            k = position if self.plain_index is None else self.plain_index[position]
            return self.explainer.core_read(self.token_lists[position], self.tables[position], self.plain_output, k)
        if isinstance(other, Execution):
            return other
        full, output, k = other
        assert full.lowered is not None
        return self.explainer.core_ran(full.tokens, full.table, full.reading, full.lowered.official_index, output, k)

    def failed_step(self, position: int) -> int | None:
        """`execution(position).failed_step`, without making the Execution of a program the
        core's plain reader decided (a reward needs the step, not the explanation)."""
        other = self.elsewhere.get(position)
        if other is None:
            k = position if self.plain_index is None else self.plain_index[position]
            return self.explainer.plain_failed_step(self.plain_output, k)
        return (other if isinstance(other, Execution) else self.execution(position)).failed_step


class ChunkTooLarge(Exception):
    """A chunk of several programs whose core call would pass MAX_CORE_CALL_BYTES: run it in parts."""


def _lowered(full: FullReading) -> Lowered:
    assert full.lowered is not None  # only runnable programs are grouped
    return full.lowered


def _by_bytes(positions: list[int], rest: dict[int, FullReading]) -> list[list[int]]:
    """Runnable programs in consecutive groups, each one core call within MAX_CORE_CALL_BYTES."""
    groups: list[list[int]] = []
    used = 0
    for position in positions:
        program = _lowered(rest[position]).program
        size = core_program_bytes(len(program.steps), len(program.table_values))
        if not groups or (groups[-1] and used + size > MAX_CORE_CALL_BYTES):
            groups.append([])
            used = 0
        groups[-1].append(position)
        used += size
    return groups


def read_fully(tokens: Sequence[str], table: Any, profile: Profile, python: str) -> FullReading:
    """A program read by the full reader (numbers as `python`'s float() and int() read
    them), lowered for the core where it can be."""
    reading = read_program(tokens, table, profile=profile, python=python)
    return FullReading(tokens, table, reading, lower(reading, profile=profile))


def route_chunk(core: Core, rule: SumRule, explainer: Explainer, programs: list[Any], tables: list[Any],
                columns: Columns, token_lists_only: bool = False) -> RoutedChunk:
    """Run one chunk of programs (token lists or gold program strings) and their tables, each
    on its path, appending each program's invalid flag, result and status to `columns`.
    `token_lists_only` says the caller has checked that every program is a list or tuple."""
    profile = explainer.profile
    official = profile.reads_officially
    token_lists: Sequence[Sequence[str]] = programs
    plain: PlainBatch | None = None
    kinds = set() if token_lists_only else set(map(type, programs))
    if not kinds <= {list, tuple}:  # gold program strings among them
        if kinds == {str}:  # all text: laid out from the text, tokens cut on demand
            plain = lay_out_program_texts(programs, tables)
        token_lists = (TokensOnDemand(programs) if plain is not None
                       else [tokenize_gold_program(p) if isinstance(p, str) else p for p in programs])
    count = len(token_lists)

    # 1. the core's plain reader reads and runs the plain programs, in one call
    if plain is None:
        try:
            plain = lay_out(token_lists, tables)
        except TypeError:  # a token that is not text: say which
            for tokens in token_lists:
                check_tokens(tokens)
            raise
    if plain.call_bytes() > MAX_CORE_CALL_BYTES:  # chunks are sized by bytes, not by program count
        if count > 1:
            raise ChunkTooLarge
        plain = PlainBatch()  # one huge program: the full reader takes it, with a leaner layout
    plain_output = core.read_execute_batch(plain, rule)
    plain_statuses = plain_output.statuses()
    left = positions_of(plain_statuses, _DEFERRED)  # for the full reader
    if official and _COMPLEX in plain_statuses:
        left = sorted(left + positions_of(plain_statuses, _COMPLEX))
    decided = verdict_columns(plain_output, plain_statuses, profile)
    plain_index: list[int] | None = None  # every program was laid out: positions are plain indices
    if len(plain.indices) == count:
        invalid, results, statuses = decided  # the left ones are overwritten below
        rest_positions: Sequence[int] = left
    else:
        invalid, results, statuses = [1] * count, ["n/a"] * count, [0] * count
        plain_index = [-1] * count
        left_set = set(left)
        for k, (position, flag, result, status) in enumerate(zip(plain.indices, *decided)):
            if k not in left_set:
                plain_index[position] = k
                invalid[position], results[position], statuses[position] = flag, result, status
        rest_positions = [position for position in range(count) if plain_index[position] < 0]

    # 2. the full reader and lowering take the rest; what lowers runs in the core, in one call
    elsewhere: dict[int, Elsewhere] = {}
    rest = {position: read_fully(token_lists[position], tables[position], profile, explainer.python)
            for position in rest_positions}
    runnable: list[int] = []
    for position, full in rest.items():
        failure = full.reading.failure
        if full.lowered is None:
            continue  # for the walker
        if not full.lowered.program.steps and failure is not None and failure.step == 0:
            elsewhere[position] = execution = explainer.refused_reading(full.reading)  # nothing for the core to run
            invalid[position], results[position], statuses[position] = 1, "n/a", int(execution.status)
            continue
        cells = len(full.lowered.program.table_values)
        if core_program_bytes(len(full.lowered.program.steps), cells) > MAX_CORE_CALL_BYTES:
            elsewhere[position] = execution = explainer.past_bounds(full.reading, f"a table of {cells} cells")
            invalid[position], results[position], statuses[position] = 1, "n/a", int(execution.status)
        else:
            runnable.append(position)
    for group in _by_bytes(runnable, rest):  # each group one core call within the declared bound
        output = core.execute_batch([_lowered(rest[p]).program for p in group], rule)
        for k, position in enumerate(group):
            if official and output.status(k) == _COMPLEX:
                continue  # for the walker
            invalid[position], results[position], statuses[position] = verdict(
                output.status(k), output.value_type(k), output.value(k), profile, rest[position].reading.failure)
            elsewhere[position] = (rest[position], output, k)

    # 3. the walker: values that leave the float world, under the official profile
    for position, full in rest.items():
        if position not in elsewhere:
            execution = explainer.walked(full.reading, walk(full.reading, core, rule))
            elsewhere[position] = execution
            invalid[position], results[position] = execution.invalid, execution.result
            statuses[position] = int(execution.status)

    # 4. ConvFinQA reads a one-token program as a number selection, whatever FinQA's reading made of it
    if profile is Profile.CONVFINQA:
        known = _one_token_programs(plain) if isinstance(token_lists, TokensOnDemand) else None
        apply_selections(explainer, token_lists, elsewhere, (invalid, results, statuses), known)

    columns[0].extend(invalid)
    columns[1].extend(results)
    columns[2].extend(statuses)
    return RoutedChunk(explainer, token_lists, tables, plain_output, plain_index, elsewhere)
