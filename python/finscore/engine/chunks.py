"""Running a batch of programs: the core reads and runs the plain ones, the rest follow.

Per chunk (10,000 programs by default): one call lets the core read and run
every plain token program; the full reader takes the others, and what it lowers
runs in a second call; the walker takes what leaves the float world. The
official pair of every program goes into columns at once; a program's full
Execution is built when it is indexed.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Iterator, Sequence

from finscore.engine.bounds import MAX_CORE_CALL_BYTES, core_program_bytes
from finscore.engine.core.abi import BatchOutput
from finscore.engine.explanation import Execution, Result
from finscore.engine.paths import Outcomes, Pending
from finscore.engine.core.plain_text import PlainBatch, lay_out
from finscore.engine.reader.tokens import tokenize_gold_program
from finscore.engine.sequences import LazySequence, positions_of
from finscore.engine.status import Status

_DEFERRED = int(Status.DEFERRED)
_COMPLEX = int(Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT)


class ChunkTooLarge(Exception):
    """A chunk of several programs whose core call would pass MAX_CORE_CALL_BYTES: run it in parts."""


def _by_bytes(positions: list[int], rest: dict[int, Pending]) -> list[list[int]]:
    """Runnable programs in consecutive groups, each one core call within MAX_CORE_CALL_BYTES."""
    groups: list[list[int]] = [[]]
    used = 0
    for position in positions:
        program = rest[position].program
        assert program is not None
        size = core_program_bytes(len(program.steps), len(program.table_values))
        if groups[-1] and used + size > MAX_CORE_CALL_BYTES:
            groups.append([])
            used = 0
        groups[-1].append(position)
        used += size
    return groups


def check_tokens(tokens: Sequence[Any]) -> None:
    """A clear TypeError naming the first token that is not text."""
    for position, token in enumerate(tokens):
        if not isinstance(token, str):
            raise TypeError(f"token {position} of the program is a {type(token).__name__}, not text")


class _Chunk:
    """What one chunk needs to build the Execution of any of its programs later."""

    def __init__(self, outcomes: Outcomes, token_lists: list[Sequence[str]], tables: list[Any],
                 plain_output: BatchOutput, plain_index: list[int] | None,
                 others: dict[int, Execution | tuple[Pending, BatchOutput, int]]) -> None:
        self.outcomes = outcomes
        self.token_lists = token_lists
        self.tables = tables
        self.plain_output = plain_output
        # per position not in `others`: its index in plain_output (None: the position itself)
        self.plain_index = plain_index
        self.others = others

    def execution(self, position: int) -> Execution:
        other = self.others.get(position)
        if other is not None:
            return other if isinstance(other, Execution) else self.outcomes.from_core(*other)
        k = position if self.plain_index is None else self.plain_index[position]
        pending = self.outcomes.plain(self.token_lists[position], self.tables[position],
                                      self.plain_output.step_count(k))
        return self.outcomes.from_core(pending, self.plain_output, k)


def run_chunk(outcomes: Outcomes, programs: list[Any], tables: list[Any],
              columns: tuple[list[int], list[Result], list[int]], token_lists_only: bool = False) -> _Chunk:
    """Run one chunk of programs (token lists or gold program strings) and their tables,
    appending each program's invalid flag, result and status to columns."""
    token_lists = programs
    if not token_lists_only and not set(map(type, programs)) <= {list, tuple}:  # gold program strings among them
        token_lists = [tokenize_gold_program(p) if isinstance(p, str) else p for p in programs]
    count = len(token_lists)
    decide, official = outcomes.decide, outcomes.official

    # 1. the core reads and runs the plain programs itself, in one call
    try:
        plain = lay_out(token_lists, tables)
    except TypeError:  # a token that is not text: say which
        for tokens in token_lists:
            check_tokens(tokens)
        raise
    if plain.call_bytes() > MAX_CORE_CALL_BYTES:  # sized by bytes, not by program count
        if count > 1:
            raise ChunkTooLarge
        plain = PlainBatch()  # one huge program: the full reader takes it, with a leaner layout
    plain_output = outcomes.core.read_execute_batch(plain, outcomes.rule)
    plain_statuses = plain_output.statuses()
    left = positions_of(plain_statuses, _DEFERRED)  # for the full reader
    if official and _COMPLEX in plain_statuses:
        left = sorted(left + positions_of(plain_statuses, _COMPLEX))
    decided = outcomes.decide_all(plain_output, plain_statuses)
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

    # 2. the full reader takes the rest; what it lowers runs in the core, in one call
    others: dict[int, Execution | tuple[Pending, BatchOutput, int]] = {}
    rest = {position: outcomes.pend(token_lists[position], tables[position]) for position in rest_positions}
    for position, pending in rest.items():
        if (pending.program is not None and not pending.program.steps and pending.read is not None
                and pending.read.failure is not None and pending.read.failure.step == 0):
            others[position] = execution = outcomes.unread(pending)  # nothing for the core to run
            invalid[position], results[position], statuses[position] = 1, "n/a", int(execution.status)
    runnable = []
    for position, pending in rest.items():
        if pending.program is None or position in others:
            continue
        cells = len(pending.program.table_values)
        if core_program_bytes(len(pending.program.steps), cells) > MAX_CORE_CALL_BYTES:
            others[position] = execution = outcomes.past_bounds(pending, f"a table of {cells} cells")
            invalid[position], results[position], statuses[position] = 1, "n/a", int(execution.status)
        else:
            runnable.append(position)
    for group in _by_bytes(runnable, rest) if runnable else []:
        output = outcomes.core.execute_batch([rest[p].program for p in group], outcomes.rule)  # type: ignore[misc]
        for k, position in enumerate(group):
            pending = rest[position]
            if official and output.status(k) == _COMPLEX:
                continue  # left to the walker below
            failure = pending.read.failure if pending.read is not None else None
            invalid[position], results[position], statuses[position] = decide(
                output.status(k), output.value_type(k), output.value(k), failure)
            others[position] = (pending, output, k)

    # 3. the walker: values that leave the float world, under the official profile
    for position, pending in rest.items():
        if position not in others:
            execution = outcomes.walked(pending)
            others[position] = execution
            invalid[position], results[position] = execution.invalid, execution.result
            statuses[position] = int(execution.status)

    columns[0].extend(invalid)
    columns[1].extend(results)
    columns[2].extend(statuses)
    return _Chunk(outcomes, token_lists, tables, plain_output, plain_index, others)


class ExecutionBatch(LazySequence[Execution]):
    """The outcomes of many programs, in input order.

    The official pair and the status of every program are ready at once, as the
    columns `invalid`, `results` and `statuses`; the full `Execution` of a program
    (steps, quirks, messages) is built when it is first indexed.
    """

    def __init__(self, outcomes: Outcomes) -> None:
        self._outcomes = outcomes
        self.invalid: list[int] = []
        self.results: list[Result] = []
        self.statuses: list[int] = []
        self._chunks: list[_Chunk] = []
        self._starts: list[int] = []
        self._built: dict[int, Execution] = {}

    def run(self, programs: list[Any], tables: list[Any], token_lists_only: bool = False) -> None:
        """Run one chunk: programs and their tables, position by position. `token_lists_only`
        says the caller has checked that every program is a list or tuple of tokens."""
        start = len(self.invalid)
        try:
            chunk = run_chunk(self._outcomes, programs, tables, (self.invalid, self.results, self.statuses),
                              token_lists_only)
        except ChunkTooLarge:  # nothing of it was recorded: run it in halves
            half = len(programs) // 2
            self.run(programs[:half], tables[:half], token_lists_only)
            self.run(programs[half:], tables[half:], token_lists_only)
            return
        self._starts.append(start)
        self._chunks.append(chunk)

    def __len__(self) -> int:
        return len(self.invalid)

    def __iter__(self) -> Iterator[Execution]:
        """Every Execution in order, chunk by chunk (no per-item search for the chunk)."""
        built = self._built
        for start, chunk, end in zip(self._starts, self._chunks, self._starts[1:] + [len(self)]):
            for index in range(start, end):
                execution = built.get(index)
                if execution is None:
                    execution = built[index] = chunk.execution(index - start)
                yield execution

    def _item(self, index: int) -> Execution:
        built = self._built.get(index)
        if built is None:
            which = bisect_right(self._starts, index) - 1
            built = self._chunks[which].execution(index - self._starts[which])
            self._built[index] = built
        return built
