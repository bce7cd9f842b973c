"""`ExecutionBatch`: the outcomes of many programs, chunk by chunk, in input order.

Each chunk is routed once (`finscore.engine.routing`); the verdicts land in the
batch's columns at once, and a program's full Execution is made by the chunk's
`Explainer` when the program is first indexed.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Iterator

from finscore.engine.core.binding import Core
from finscore.engine.explanation import Execution, Explainer
from finscore.engine.options import Profile, profile_of, sum_rule_for
from finscore.engine.routing import ChunkTooLarge, RoutedChunk, route_chunk
from finscore.engine.sequences import LazySequence
from finscore.engine.verdict import Result


class ExecutionBatch(LazySequence[Execution]):
    """The outcomes of many programs, in input order.

    The official pair and the status of every program are ready at once, as the
    columns `invalid`, `results` and `statuses`; the full `Execution` of a program
    (steps, quirks, messages) is built when it is first indexed.
    """

    def __init__(self, core: Core, profile: str | Profile = Profile.OFFICIAL, python: str = "3.11") -> None:
        self._core = core
        self._rule = sum_rule_for(python)
        self._explainer = Explainer(core, profile_of(profile), python)
        self.invalid: list[int] = []
        self.results: list[Result] = []
        self.statuses: list[int] = []
        self._chunks: list[RoutedChunk] = []
        self._starts: list[int] = []
        self._built: dict[int, Execution] = {}

    def run(self, programs: list[Any], tables: list[Any], token_lists_only: bool = False) -> None:
        """Run one chunk: programs and their tables, position by position. `token_lists_only`
        says the caller has checked that every program is a list or tuple of tokens."""
        start = len(self.invalid)
        try:
            chunk = route_chunk(self._core, self._rule, self._explainer, programs, tables,
                                (self.invalid, self.results, self.statuses), token_lists_only)
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

    def failed_step(self, index: int) -> int | None:
        """`self[index].failed_step`, without making the Execution where the core already
        knows the step (scoring thousands of rewards asks for the step alone)."""
        if not 0 <= index < len(self):
            raise IndexError(f"ExecutionBatch index {index} out of range")
        built = self._built.get(index)
        if built is not None:
            return built.failed_step
        which = bisect_right(self._starts, index) - 1
        return self._chunks[which].failed_step(index - self._starts[which])

    def _item(self, index: int) -> Execution:
        built = self._built.get(index)
        if built is None:
            which = bisect_right(self._starts, index) - 1
            built = self._chunks[which].execution(index - self._starts[which])
            self._built[index] = built
        return built
