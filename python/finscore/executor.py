"""Execute FinQA programs: read, lower, run in the core in batches, explain.

`execute` runs one program; `execute_many` runs any number with one call into
the core per chunk of 10,000 programs. The official profile falls back to the
walker only for the rare programs whose values leave the float world (text
results of greater flowing on, the integer sum of an empty row, complex powers).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Iterable, Sequence

from finscore.abi import CoreResult, SumRule, ValueType
from finscore.core import Core, CoreError, get_core
from finscore.execution import Execution, Result, StepTrace, StepValue
from finscore.lowering import Lowered, lower
from finscore.reader.program import ReadProgram
from finscore.reader.read import read_program
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
        for position, token in enumerate(program):
            if not isinstance(token, str):
                raise TypeError(f"token {position} of the program is a {type(token).__name__}, not text")
    else:
        raise TypeError(f"a program is a string or a list of tokens, not a {type(program).__name__}")
    if table is not None and not isinstance(table, (list, tuple)):
        raise TypeError(f"a table is a list of rows (or None), not a {type(table).__name__}")


@dataclass
class _Pending:
    read: ReadProgram
    lowered: Lowered | None


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
    def make(self, read: ReadProgram, **fields: Any) -> Execution:
        return Execution(quirks=read.quirks, skipped=read.skipped, profile=self.profile,
                         python=self.python, **fields)

    def invalid(self, read: ReadProgram, status: Status, step: int | None, message: str,
                source: Callable[[], tuple[StepTrace, ...]], **extra: Any) -> Execution:
        return self.make(read, invalid=1, result="n/a", status=status, failed_step=step,
                         message=message, step_source=source, **extra)

    def from_core(self, pending: _Pending, result: CoreResult) -> Execution:
        read, lowered = pending.read, pending.lowered
        assert lowered is not None
        source = partial(_core_traces, read, lowered.official_index, result)
        status = Status(result.status)
        if status is Status.OK or status is Status.NO_STEPS:
            if read.failure is not None:
                f = read.failure
                return self.invalid(read, f.status, f.step, f.message, source)
            if status is Status.NO_STEPS:
                if self.official:  # officially a program without steps is valid, "n/a"
                    return self.make(read, invalid=0, result="n/a", status=Status.OK, failed_step=None,
                                     message="no steps")
                return self.invalid(read, status, None, "the program has no steps", source)
            final: Result = result.value
            unrounded: StepValue = result.unrounded
            if result.value_type == ValueType.BOOL:
                final = unrounded = "yes" if result.value else "no"
            return self.make(read, invalid=0, result=final, status=Status.OK, failed_step=None,
                             message="", step_source=source, unrounded=unrounded)
        failed = lowered.official_index[result.failed_step] if result.failed_step >= 0 else None
        return self.invalid(read, status, failed, self.core.status_name(result.status), source)

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
    def run_chunk(self, chunk: Sequence[tuple[Program, Table]]) -> list[Execution]:
        pending = []
        for program, table in chunk:
            read = read_program(program, table, strict=not self.official)
            pending.append(_Pending(read, lower(read, official=self.official)))
        lowered = [p for p in pending if p.lowered is not None]
        results = self.core.execute_batch([p.lowered.program for p in lowered], self.rule)  # type: ignore[union-attr]
        by_id = {id(p): r for p, r in zip(lowered, results)}
        out = []
        for p in pending:
            result = by_id.get(id(p))
            needs_walker = result is None or (
                self.official and result.status == Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT
            )
            if needs_walker:
                out.append(self.from_walk(p.read, walk(p.read, self.core, self.rule)))
            else:
                assert result is not None
                out.append(self.from_core(p, result))
        return out


def execute_many(
    programs: Iterable[tuple[Program, Table]],
    *,
    profile: str = "official",
    python: str = "3.11",
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
) -> list[Execution]:
    """Execute (program, table) pairs, one core call per chunk; results in input order.

    `progress`, if given, is called with the number of programs done after each chunk.
    """
    _check_profile(profile)
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    run = _Run(get_core(), profile, python)
    out: list[Execution] = []
    chunk: list[tuple[Program, Table]] = []
    for item in programs:
        if not isinstance(item, tuple) or len(item) != 2:
            raise TypeError("execute_many takes (program, table) pairs")
        _check_input(*item)
        chunk.append(item)
        if len(chunk) == chunk_size:
            out.extend(run.run_chunk(chunk))
            chunk = []
            if progress is not None:
                progress(len(out))
    if chunk:
        out.extend(run.run_chunk(chunk))
        if progress is not None:
            progress(len(out))
    return out


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
