"""Execute FinQA programs: read, lower, run in the core in batches, explain.

`execute` runs one program; `execute_many` runs any number with one call into
the core per chunk of 10,000 programs. The official profile falls back to the
walker only for the rare programs whose values leave the float world (text
results of greater flowing on, the integer sum of an empty row, complex powers).
"""

from __future__ import annotations

from functools import lru_cache, partial
from collections.abc import Sequence as SequenceABC
from typing import Any, Callable, Iterable, NamedTuple, Sequence, overload

from finscore.abi import BatchOutput, CoreProgram, CoreResult, SumRule, ValueType
from finscore.core import Core, CoreError, get_core
from finscore.execution import Execution, Result, StepTrace, StepValue
from finscore.lowering import lower
from finscore.reader.program import ReadProgram
from finscore.reader.fast import FastReadCache, read_fast
from finscore.reader.read import read_program
from finscore.reader.tokens import tokenize_gold_program
from finscore.status import Status
from finscore.walker import Walk, walk

PROFILES = ("official", "strict")
FINAL_SCALE = 1e5  # the official evaluator rounds the last step to 5 places
CHUNK_SIZE = 10_000

Program = Sequence[str] | str
Table = Sequence[Sequence[Any]] | None


def sum_rule_for(python: str) -> SumRule:
    """The summation rule of a CPython version written "3.11", "3.12", ..."""
    try:
        major, minor = (int(part) for part in python.split(".")[:2])
    except ValueError:
        raise ValueError(f"python version must look like 3.11 or 3.12, not {python!r}") from None
    return SumRule.PY311 if (major, minor) <= (3, 11) else SumRule.PY312


def _check_profile(profile: str) -> None:
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, not {profile!r}")


def _check_input(program: Any, table: Any) -> None:
    if isinstance(program, str):
        pass
    elif isinstance(program, (list, tuple)):
        if not set(map(type, program)) <= {str}:
            position, token = next((i, t) for i, t in enumerate(program) if not isinstance(t, str))
            raise TypeError(f"token {position} of the program is a {type(token).__name__}, not text")
    else:
        raise TypeError(f"a program is a string or a list of tokens, not a {type(program).__name__}")
    if table is not None and not isinstance(table, (list, tuple)):
        raise TypeError(f"a table is a list of rows (or None), not a {type(table).__name__}")


class _Pending(NamedTuple):
    tokens: Sequence[str]
    table: Table
    read: ReadProgram | None  # None: read by the fast path (clean, no quirks)
    program: CoreProgram | None  # None: only the walker can run it
    official_index: tuple[int, ...]  # official step index of each core step


def _read_of(pending: _Pending, strict: bool) -> ReadProgram:
    """The full reading (done now for fast-path programs, whose steps nobody asked for yet)."""
    return pending.read if pending.read is not None else read_program(pending.tokens, pending.table, strict=strict)


def _core_traces(read: ReadProgram, official_index: tuple[int, ...], result: CoreResult) -> tuple[StepTrace, ...]:
    """Step traces of a program the core ran: each executed step, then the refused one."""
    by_index = {step.index: step for step in read.steps}
    traces = []
    for k in range(result.steps_executed):
        step = by_index[official_index[k]]
        value: StepValue = result.step_values[k]
        kind = "float"
        if result.step_types[k] == ValueType.BOOL:
            value, kind = ("yes" if value else "no"), "bool"
        traces.append(StepTrace(step.index, step.op, (step.first, step.second), value, kind))
    if result.status != Status.OK and 0 <= result.failed_step < len(official_index):
        step = by_index[official_index[result.failed_step]]
        traces.append(StepTrace(step.index, step.op, (step.first, step.second), None, "none"))
    return tuple(traces)


def _walk_traces(read: ReadProgram, outcome: Walk) -> tuple[StepTrace, ...]:
    """Step traces of a program the walker ran, with Python's types for its values."""
    traces = []
    for step in read.steps:
        if step.index in outcome.values:
            value = outcome.values[step.index]
            kind = "bool" if step.op == "greater" and value in ("yes", "no") else type(value).__name__
            traces.append(StepTrace(step.index, step.op, (step.first, step.second), value, kind))
        elif step.index == outcome.failed_step:
            traces.append(StepTrace(step.index, step.op, (step.first, step.second), None, "none"))
            break
    return tuple(traces)


class _Run:
    def __init__(self, core: Core, profile: str, python: str) -> None:
        self.core = core
        self.official = profile == "official"
        self.profile = profile
        self.python = python
        self.rule = sum_rule_for(python)

    # -- building outcomes ---------------------------------------------------
    def make(self, read: ReadProgram | None, **fields: Any) -> Execution:
        if read is not None:
            fields.setdefault("quirks", read.quirks)
            fields.setdefault("skipped", read.skipped)
        return Execution(profile=self.profile, python=self.python, **fields)

    def invalid(self, read: ReadProgram | None, status: Status, step: int | None, message: str,
                source: Callable[[], tuple[StepTrace, ...]], **extra: Any) -> Execution:
        return self.make(read, invalid=1, result="n/a", status=status, failed_step=step,
                         message=message, step_source=source, **extra)

    def traces_of(self, pending: _Pending, result: CoreResult) -> tuple[StepTrace, ...]:
        return _core_traces(_read_of(pending, not self.official), pending.official_index, result)

    def decide(self, pending: _Pending, output: BatchOutput, index: int) -> tuple[int, Result, int]:
        """(invalid, result, status) of a program the core ran: the official pair, cheaply."""
        status = output.status(index)
        if status == Status.OK or status == Status.NO_STEPS:
            read = pending.read
            if read is not None and read.failure is not None:
                return 1, "n/a", read.failure.status
            if status == Status.NO_STEPS:
                # officially a program without steps is valid and answers "n/a"
                return (0, "n/a", Status.OK) if self.official else (1, "n/a", status)
            if output.value_type(index) == ValueType.BOOL:
                return 0, ("yes" if output.value(index) else "no"), status
            return 0, output.value(index), status
        return 1, "n/a", status

    def from_core(self, pending: _Pending, output: BatchOutput, index: int) -> Execution:
        invalid, final, code = self.decide(pending, output, index)
        result = output[index]
        read, status = pending.read, Status(code)
        source = partial(self.traces_of, pending, result)
        if not invalid:
            if result.status == Status.NO_STEPS:
                return self.make(read, invalid=0, result=final, status=status, failed_step=None,
                                 message="no steps")
            unrounded = final if isinstance(final, str) else result.unrounded
            return self.make(read, invalid=0, result=final, status=status, failed_step=None,
                             message="", step_source=source, unrounded=unrounded)
        if result.status == Status.OK or result.status == Status.NO_STEPS:
            failure = read.failure if read is not None else None
            if failure is not None:
                return self.invalid(read, status, failure.step, failure.message, source)
            return self.invalid(read, status, None, "the program has no steps", source)
        failed = pending.official_index[result.failed_step] if result.failed_step >= 0 else None
        return self.invalid(read, status, failed, self.core.status_name(code), source)

    def from_walk(self, read: ReadProgram, outcome: Walk) -> Execution:
        source = partial(_walk_traces, read, outcome)
        if outcome.status is not Status.OK:
            return self.invalid(read, outcome.status, outcome.failed_step, outcome.message, source,
                                via_walker=True)
        final = outcome.final
        if isinstance(final, str) and final in ("yes", "no", "n/a"):
            rounded: Result = final
        elif isinstance(final, float):
            rounded = self.core.round_half_even_scaled(final, FINAL_SCALE)
        elif isinstance(final, int):
            rounded = final  # Python's round(int, 5) is the int itself
        else:
            last = read.steps[-1].index if read.steps else None
            return self.invalid(read, Status.RESULT_NOT_A_NUMBER, last,
                                f"the final value is a {type(final).__name__}, which round() refuses",
                                source, via_walker=True)
        return self.make(read, invalid=0, result=rounded, status=Status.OK, failed_step=None, message="",
                         step_source=source, unrounded=final, via_walker=True)

    # -- running ---------------------------------------------------------------
    def pend(self, program: Program, table: Table, cache: FastReadCache) -> _Pending:
        tokens = tokenize_gold_program(program) if isinstance(program, str) else program
        fast = read_fast(tokens, table, cache)
        if fast is not None:
            return _Pending(tokens, table, None, fast, _identity_index(len(fast.steps)))
        read = read_program(tokens, table, strict=not self.official)
        lowered = lower(read, official=self.official)
        if lowered is None:
            return _Pending(tokens, table, read, None, ())
        return _Pending(tokens, table, read, lowered.program, lowered.official_index)

    def run_chunk(self, chunk: Sequence[tuple[Program, Table]], batch: "ExecutionBatch") -> None:
        cache = FastReadCache()
        pending = [self.pend(program, table, cache) for program, table in chunk]
        runnable = [p.program for p in pending if p.program is not None]
        output = self.core.execute_batch(runnable, self.rule)
        index = -1
        for p in pending:
            if p.program is not None:
                index += 1
                if not (self.official and output.status(index) == Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT):
                    batch.add_core(self.decide(p, output, index), p, output, index)
                    continue
            read = _read_of(p, not self.official)
            batch.add_execution(self.from_walk(read, walk(read, self.core, self.rule)))


class ExecutionBatch(SequenceABC[Execution]):
    """The outcomes of many programs, in input order.

    The official pair and the status of every program are ready at once, as the
    columns `invalid`, `results` and `statuses`; the full `Execution` of a program
    (steps, quirks, messages) is built when it is first indexed.
    """

    def __init__(self, run: _Run) -> None:
        self._run = run
        self.invalid: list[int] = []
        self.results: list[Result] = []
        self.statuses: list[int] = []
        self._sources: list[Execution | tuple[_Pending, BatchOutput, int]] = []

    def add_core(self, decision: tuple[int, Result, int], pending: _Pending, output: BatchOutput,
                 index: int) -> None:
        invalid, final, status = decision
        self.invalid.append(invalid)
        self.results.append(final)
        self.statuses.append(status)
        self._sources.append((pending, output, index))

    def add_execution(self, execution: Execution) -> None:
        self.invalid.append(execution.invalid)
        self.results.append(execution.result)
        self.statuses.append(int(execution.status))
        self._sources.append(execution)

    def __len__(self) -> int:
        return len(self._sources)

    @overload
    def __getitem__(self, index: int) -> Execution: ...

    @overload
    def __getitem__(self, index: slice) -> list[Execution]: ...

    def __getitem__(self, index: int | slice) -> Execution | list[Execution]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        source = self._sources[index]
        if isinstance(source, Execution):
            return source
        built = self._run.from_core(*source)
        self._sources[index if index >= 0 else len(self) + index] = built
        return built


@lru_cache(maxsize=64)
def _identity_index(count: int) -> tuple[int, ...]:
    return tuple(range(count))


def execute_batch(
    programs: Iterable[tuple[Program, Table]],
    *,
    profile: str = "official",
    python: str = "3.11",
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
) -> ExecutionBatch:
    """Execute (program, table) pairs, one core call per chunk of `chunk_size` programs.

    The official pair of every program is in the returned batch's columns at once;
    its full Execution when indexed. `progress`, if given, is called with the number
    of programs done after each chunk.
    """
    _check_profile(profile)
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    run = _Run(get_core(), profile, python)
    batch = ExecutionBatch(run)
    chunk: list[tuple[Program, Table]] = []
    for item in programs:
        if not isinstance(item, tuple) or len(item) != 2:
            raise TypeError("execute_many takes (program, table) pairs")
        _check_input(*item)
        chunk.append(item)
        if len(chunk) == chunk_size:
            run.run_chunk(chunk, batch)
            chunk = []
            if progress is not None:
                progress(len(batch))
    if chunk:
        run.run_chunk(chunk, batch)
        if progress is not None:
            progress(len(batch))
    return batch


def execute_many(
    programs: Iterable[tuple[Program, Table]],
    *,
    profile: str = "official",
    python: str = "3.11",
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
) -> list[Execution]:
    """Execute (program, table) pairs like `execute_batch`, as a list of full Executions."""
    return list(execute_batch(programs, profile=profile, python=python, chunk_size=chunk_size,
                              progress=progress))


def execute(program: Program, table: Table = None, *, profile: str = "official",
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
