"""From what the core (or the walker) reported to an Execution, for one profile.

The official pair (invalid, result) of a program the core ran is decided cheaply
here (`decide`), for every program of a batch; the full Execution, with its step
traces and messages, is built only when asked for (`from_core`, `from_walk`).
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any, Callable, NamedTuple, Sequence

from finscore.engine.core.abi import BatchOutput, CoreResult, SumRule, ValueType
from finscore.engine.core.binding import Core
from finscore.engine.explanation import Execution, Result, StepTrace, StepValue
from finscore.engine.lowering import lower
from finscore.engine.reader.program import ReadFailure, ReadProgram
from finscore.engine.reader.read import read_program
from finscore.engine.status import Status
from finscore.engine.walker import Walk, walk

FINAL_SCALE = 1e5  # the official evaluator rounds the last step to 5 places
_STATUS_OF = {int(status): status for status in Status}
#: Reading failures the core's plain reader reports itself (see fs_read_execute_batch).
_READ_BY_CORE = frozenset((int(Status.BAD_NUMBER), int(Status.UNKNOWN_ROW)))
_OK, _NO_STEPS = int(Status.OK), int(Status.NO_STEPS)
#: Byte translations from a status's low byte to its official invalid flag (see decide_all).
_INVALID_STRICT = bytes(0 if code == _OK & 0xFF else 1 for code in range(256))
_INVALID_OFFICIAL = bytes(0 if code in (_OK & 0xFF, _NO_STEPS & 0xFF) else 1 for code in range(256))
_FLOAT, _BOOL = int(ValueType.FLOAT), int(ValueType.BOOL)
Table = Any


def sum_rule_for(python: str) -> SumRule:
    """The summation rule of a CPython version written "3.11", "3.12", ..."""
    try:
        major, minor = (int(part) for part in python.split(".")[:2])
    except ValueError:
        raise ValueError(f"python version must look like 3.11 or 3.12, not {python!r}") from None
    return SumRule.PY311 if (major, minor) <= (3, 11) else SumRule.PY312


class Pending(NamedTuple):
    tokens: Sequence[str]
    table: Table
    read: ReadProgram | None  # None: read by the core's plain reader (no quirk involved)
    program: CoreProgram | None  # None: only the walker can run it
    official_index: tuple[int, ...]  # official step index of each core step


def _read_of(pending: Pending, strict: bool, python: str = "3.11") -> ReadProgram:
    """The full reading (done now for programs the core read, when someone asks for their steps)."""
    return (pending.read if pending.read is not None
            else read_program(pending.tokens, pending.table, strict=strict, python=python))


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


class Outcomes:
    """Turns what the core or the walker reported into Executions, for one profile."""

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

    def full_reading(self, pending: Pending) -> ReadProgram:
        return _read_of(pending, not self.official, self.python)

    def traces_of(self, pending: Pending, result: CoreResult) -> tuple[StepTrace, ...]:
        return _core_traces(_read_of(pending, not self.official, self.python), pending.official_index, result)

    def decide(self, status: int, value_type: int, value: float,
               failure: ReadFailure | None = None) -> tuple[int, Result, int]:
        """(invalid, result, status) of a program the core ran: the official pair.

        `failure` is where the reading stopped after the steps the core ran, if it did.
        The same rules as `decide_all`, for one program.
        """
        if failure is not None and (status == _OK or status == _NO_STEPS):
            return 1, "n/a", failure.status
        if status == _NO_STEPS and self.official:
            status = _OK
        if status != _OK:
            return 1, "n/a", status
        if value_type == _FLOAT:
            return 0, value, status
        return 0, ("yes" if value else "no") if value_type == _BOOL else "n/a", status

    def decide_all(self, output: BatchOutput, statuses: list[int]) -> tuple[list[int], list[Result], list[int]]:
        """The official pairs of every program of a core batch whose reading did not stop
        early, as columns (invalid flags, results, statuses), at C speed: the flags by
        translating the statuses' low bytes, the results as the values with only the
        positions that hold no float changed.

        The core gives a value only with status ok: a float, or a boolean (1.0/0.0) that
        answers "yes"/"no". Officially a program without steps is valid and answers "n/a".
        `statuses`: output.statuses(), which the caller has already made.
        """
        if self.official and _NO_STEPS in statuses:
            statuses = [_OK if s == _NO_STEPS else s for s in statuses]
        invalid = list(output.status_low_bytes().translate(
            _INVALID_OFFICIAL if self.official else _INVALID_STRICT))
        results: list[Result] = output.values()
        kinds = output.value_type_bytes()
        if kinds.count(_FLOAT) != len(kinds):
            for kind, answer in ((0, None), (_BOOL, ("no", "yes"))):
                at = kinds.find(kind)
                while at != -1:
                    results[at] = "n/a" if answer is None else answer[results[at] != 0.0]
                    at = kinds.find(kind, at + 1)
        return invalid, results, statuses

    def from_core(self, pending: Pending, output: BatchOutput, index: int) -> Execution:
        """The Execution of program `index` of a core batch. Built field by field from the
        output's columns (the full CoreResult only when its steps are asked for): scoring
        builds one per prediction and profile."""
        core_status = output.status(index)
        read = pending.read
        failure = read.failure if read is not None else None
        invalid, final, code = self.decide(core_status, output.value_type(index), output.value(index), failure)
        quirks, skipped = (read.quirks, read.skipped) if read is not None else ((), ())
        status = _STATUS_OF[code]
        if not invalid and core_status == _NO_STEPS:
            return Execution(invalid=0, result=final, status=status, failed_step=None, message="no steps",
                             quirks=quirks, skipped=skipped, profile=self.profile, python=self.python)
        source = partial(self._traces_at, pending, output, index)
        if not invalid:
            unrounded = final if isinstance(final, str) else output.unrounded(index)
            return Execution(invalid=0, result=final, status=status, failed_step=None, message="",
                             quirks=quirks, skipped=skipped, unrounded=unrounded, profile=self.profile,
                             python=self.python, step_source=source)
        if core_status == _OK or core_status == _NO_STEPS:
            failed, message = ((failure.step, failure.message) if failure is not None
                               else (None, "the program has no steps"))
        elif code in _READ_BY_CORE and read is None:  # the core's plain reader stopped: say why as the reader does
            stopped = self.full_reading(pending).failure
            if stopped is None or stopped.status != code:
                raise AssertionError(f"the core and the reader disagree on {list(pending.tokens)!r}")
            failed, message = stopped.step, stopped.message
        else:
            failed_step = output.failed_step(index)
            failed = pending.official_index[failed_step] if failed_step >= 0 else None
            message = self.core.status_name(code)
        return Execution(invalid=1, result="n/a", status=status, failed_step=failed, message=message,
                         quirks=quirks, skipped=skipped, profile=self.profile, python=self.python,
                         step_source=source)

    def _traces_at(self, pending: Pending, output: BatchOutput, index: int) -> tuple[StepTrace, ...]:
        return self.traces_of(pending, output[index])

    def unread(self, pending: Pending) -> Execution:
        """A program whose reading failed at its first step: refused before anything runs,
        as the core would refuse its empty remainder (no steps, the reading's failure)."""
        read = pending.read
        if read is None or read.failure is None or read.failure.step != 0:
            raise ValueError("unread() is for a program whose reading failed at its first step")
        failure = read.failure
        return Execution(invalid=1, result="n/a", status=Status(failure.status), failed_step=failure.step,
                         message=failure.message, quirks=read.quirks, skipped=read.skipped,
                         profile=self.profile, python=self.python)

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

    # -- reading and walking -------------------------------------------------
    def pend(self, tokens: Sequence[str], table: Table) -> Pending:
        """A program read by the full reader, lowered for the core where it can be."""
        read = read_program(tokens, table, strict=not self.official, python=self.python)
        lowered = lower(read, official=self.official)
        if lowered is None:
            return Pending(tokens, table, read, None, ())
        return Pending(tokens, table, read, lowered.program, lowered.official_index)

    def plain(self, tokens: Sequence[str], table: Table, step_count: int) -> Pending:
        """A program the core's plain reader read (no quirk, no failure in its reading)."""
        return Pending(tokens, table, None, None, _identity_index(step_count))

    def past_bounds(self, pending: Pending, what: str) -> Execution:
        """A program refused before it runs: it would need more of the core's memory than
        finscore's declared bounds allow (see finscore.engine.bounds)."""
        return self.invalid(pending.read, Status.EXCEEDS_BOUNDS, None,
                            f"{what}, past finscore's declared bounds", tuple)

    def walked(self, pending: Pending) -> Execution:
        read = _read_of(pending, not self.official, self.python)
        return self.from_walk(read, walk(read, self.core, self.rule))


@lru_cache(maxsize=256)
def _identity_index(count: int) -> tuple[int, ...]:
    return tuple(range(count))
