"""The outcome of executing one program: the official pair, and why.

`invalid` and `result` are exactly what the official evaluator's `eval_program`
returns (for a valid program; an invalid one's result carries no meaning there,
and is "n/a" here). Everything else explains it: the status, the step that
failed, each step's own unrounded value, and the quirks the reading relied on.

`Explainer` builds an Execution from what a program's path reported (see
`finscore.engine.routing`): the core's batch output, the walker's walk, or a
reading refused before anything ran. Step traces are made only when asked for:
scoring thousands of programs rarely needs them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from typing import Any, Callable, Sequence, Union

from finscore.engine.core.abi import BatchOutput, CoreResult, ValueType
from finscore.engine.core.binding import Core
from finscore.engine.options import Profile
from finscore.engine.reader.program import Argument, Ignored, Literal, Quirk, ReadProgram, Reference, Row
from finscore.engine.reader.read import read_program
from finscore.engine.status import DESCRIPTIONS, Status
from finscore.engine.verdict import Result, verdict
from finscore.engine.walker import Walk

StepValue = Union[float, int, str, complex]
Table = Any

FINAL_SCALE = 1e5  # the official evaluator rounds the last step to 5 places
_STATUS_OF = {int(status): status for status in Status}
#: Reading failures the core's plain reader reports itself (see fs_read_execute_batch): the
#: statuses of the layer "core+reader" in core/abi.toml.
_READ_BY_CORE = frozenset(int(status) for status in Status if status.layer == "core+reader")
_OK, _NO_STEPS = int(Status.OK), int(Status.NO_STEPS)


@dataclass(frozen=True)
class StepTrace:
    """One step as it ran: op, resolved arguments, its own (unrounded) value."""

    index: int  # the official step index, as #index refers to it
    op: str
    arguments: tuple[Argument, Argument]
    value: StepValue | None
    value_type: str  # "float", "bool", "int", "str", "complex" or "none" (refused)

    @property
    def value_hex(self) -> str | None:
        return self.value.hex() if isinstance(self.value, float) else None

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "op": self.op,
            "arguments": [argument_json(a) for a in self.arguments],
            "value": json_value(self.value),
            "value_type": self.value_type,
            "hex": self.value_hex,
        }


def argument_json(argument: Argument) -> dict[str, Any]:
    if isinstance(argument, Literal):
        return {"kind": "literal", "text": argument.text, "value": json_value(argument.value),
                "hex": argument.value.hex()}
    if isinstance(argument, Reference):
        return {"kind": "reference", "text": argument.text, "step": argument.step}
    if isinstance(argument, Row):
        return {"kind": "row", "text": argument.text, "row": argument.name,
                "values": [json_value(v) for v in argument.values], "reused_from": argument.reused_from}
    assert isinstance(argument, Ignored)
    return {"kind": "ignored", "text": argument.text}


def json_value(value: StepValue | None) -> Any:
    """A JSON-safe rendering: floats that JSON cannot hold become their repr text."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, complex):
        return repr(value)
    return value


def _no_steps() -> tuple[StepTrace, ...]:
    return ()


@dataclass(frozen=True)
class Execution:
    """`steps` is built on first access: scoring thousands of programs rarely needs them."""

    invalid: int
    result: Result
    status: Status
    failed_step: int | None
    message: str
    quirks: tuple[Quirk, ...] = ()
    skipped: tuple[int, ...] = ()
    unrounded: StepValue | None = None
    profile: str = "official"
    python: str = "3.11"
    via_walker: bool = field(default=False, compare=False)
    step_source: Callable[[], tuple[StepTrace, ...]] = field(default=_no_steps, compare=False, repr=False)

    @cached_property
    def steps(self) -> tuple[StepTrace, ...]:
        """Each step that ran (and the refused one, with no value), in order."""
        return self.step_source()

    @property
    def ok(self) -> bool:
        return self.invalid == 0

    @property
    def status_name(self) -> str:
        return self.status.label

    @property
    def status_description(self) -> str:
        return DESCRIPTIONS[self.status]

    def vector_result(self) -> dict[str, str]:
        """The result as `../shared/vectors/` records it: {"float": hex} or {"str": text}."""
        if isinstance(self.result, float):
            return {"float": self.result.hex()}
        return {"str": str(self.result)}

    def to_json(self) -> dict[str, Any]:
        return {
            "invalid": self.invalid,
            "result": self.vector_result(),
            "status": int(self.status),
            "status_name": self.status_name,
            "failed_step": self.failed_step,
            "message": self.message,
            "unrounded": json_value(self.unrounded),
            "unrounded_hex": self.unrounded.hex() if isinstance(self.unrounded, float) else None,
            "steps": [s.to_json() for s in self.steps],
            "quirks": [{"status": q.status.label, "step": q.step, "message": q.message} for q in self.quirks],
            "skipped_steps": list(self.skipped),
            "profile": self.profile,
            "python": self.python,
        }


# -- building Executions from what a path reported ------------------------------------

def _core_traces(reading: ReadProgram, official_index: tuple[int, ...], result: CoreResult) -> tuple[StepTrace, ...]:
    """Step traces of a program the core ran: each executed step, then the refused one."""
    by_index = {step.index: step for step in reading.steps}
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


def _walk_traces(reading: ReadProgram, outcome: Walk) -> tuple[StepTrace, ...]:
    """Step traces of a program the walker ran, with Python's types for its values."""
    traces = []
    for step in reading.steps:
        if step.index in outcome.values:
            value = outcome.values[step.index]
            kind = "bool" if step.op == "greater" and value in ("yes", "no") else type(value).__name__
            traces.append(StepTrace(step.index, step.op, (step.first, step.second), value, kind))
        elif step.index == outcome.failed_step:
            traces.append(StepTrace(step.index, step.op, (step.first, step.second), None, "none"))
            break
    return tuple(traces)


@lru_cache(maxsize=256)
def _identity_index(count: int) -> tuple[int, ...]:
    return tuple(range(count))


class Explainer:
    """Builds Executions for one profile and CPython version, from what a program's path reported."""

    def __init__(self, core: Core, profile: Profile, python: str) -> None:
        self.core = core
        self.profile = profile
        self.python = python
        self._profile_name = profile.value

    def _reading(self, tokens: Sequence[str], table: Table, reading: ReadProgram | None) -> ReadProgram:
        """The full reading: the one made already, or one made now for a program the core's
        plain reader read (when someone asks for its steps or why it stopped)."""
        return (reading if reading is not None
                else read_program(tokens, table, profile=self.profile, python=self.python))

    def core_read(self, tokens: Sequence[str], table: Table, output: BatchOutput, index: int) -> Execution:
        """A program the core's plain reader read and ran (no quirk, no failure in its reading)."""
        return self.core_ran(tokens, table, None, _identity_index(output.step_count(index)), output, index)

    def plain_failed_step(self, output: BatchOutput, index: int) -> int | None:
        """The `failed_step` of core_read's Execution, without making it: where the plain
        reader stopped, the full reader stops at the very step the core counted (checked on
        every vector program, tests/engine/test_plain_reader.py), so nothing is read again."""
        status = output.status(index)
        if status == _OK or status == _NO_STEPS:
            return None
        failed_step = output.failed_step(index)
        return failed_step if failed_step >= 0 else None

    def core_ran(self, tokens: Sequence[str], table: Table, reading: ReadProgram | None,
                 official_index: tuple[int, ...], output: BatchOutput, index: int) -> Execution:
        """Program `index` of a core batch. Built field by field from the output's columns (the
        full CoreResult only when its steps are asked for): scoring builds one per prediction
        and profile. `official_index`: the official step index of each core step."""
        core_status = output.status(index)
        failure = reading.failure if reading is not None else None
        invalid, final, code = verdict(core_status, output.value_type(index), output.value(index), self.profile,
                                       failure)
        quirks, skipped = (reading.quirks, reading.skipped) if reading is not None else ((), ())
        status = _STATUS_OF[code]
        if not invalid and core_status == _NO_STEPS:
            return Execution(invalid=0, result=final, status=status, failed_step=None, message="no steps",
                             quirks=quirks, skipped=skipped, profile=self._profile_name, python=self.python)
        source = partial(self._core_traces_at, tokens, table, reading, official_index, output, index)
        if not invalid:
            unrounded = final if isinstance(final, str) else output.unrounded(index)
            return Execution(invalid=0, result=final, status=status, failed_step=None, message="",
                             quirks=quirks, skipped=skipped, unrounded=unrounded, profile=self._profile_name,
                             python=self.python, step_source=source)
        failed: int | None
        if core_status == _OK or core_status == _NO_STEPS:
            failed, message = ((failure.step, failure.message) if failure is not None
                               else (None, "the program has no steps"))
        elif code in _READ_BY_CORE and reading is None:  # the core's plain reader stopped: say why as the reader does
            full = self._reading(tokens, table, None)
            stopped = full.failure
            core_step = output.failed_step(index)
            if stopped is None or stopped.status != code or stopped.step != (core_step if core_step >= 0 else None):
                return self.disagreement(full, code, core_step)
            failed, message = stopped.step, stopped.message
        else:
            failed_step = output.failed_step(index)
            failed = official_index[failed_step] if failed_step >= 0 else None
            message = self.core.status_name(code)
        return Execution(invalid=1, result="n/a", status=status, failed_step=failed, message=message,
                         quirks=quirks, skipped=skipped, profile=self._profile_name, python=self.python,
                         step_source=source)

    def disagreement(self, full: ReadProgram, code: int, core_step: int) -> Execution:
        """A program the core's plain reader refused (status `code` at `core_step`) that the full
        reader reads otherwise. The two must agree on every program (tests/engine/test_plain_reader.py,
        the recorded literal vectors): this outcome is a finscore defect, typed for that one row so
        the rest of the batch stands, and no official outcome."""
        where = f" at step {core_step}" if core_step >= 0 else ""
        stopped = full.failure
        said = ("reads it without a failure" if stopped is None
                else f"says {Status(stopped.status).label}" + (f" at step {stopped.step}" if stopped.step is not None
                                                               else ""))
        return Execution(invalid=1, result="n/a", status=Status.READING_DISAGREEMENT, failed_step=None,
                         message=f"the core's plain reader says {self.core.status_name(code)}{where} but the full "
                                 f"reader {said}: a finscore defect, please report it",
                         quirks=full.quirks, skipped=full.skipped, profile=self._profile_name, python=self.python)

    def _core_traces_at(self, tokens: Sequence[str], table: Table, reading: ReadProgram | None,
                        official_index: tuple[int, ...], output: BatchOutput, index: int) -> tuple[StepTrace, ...]:
        return _core_traces(self._reading(tokens, table, reading), official_index, output[index])

    def refused_reading(self, reading: ReadProgram) -> Execution:
        """A program whose reading failed at its first step: refused before anything runs,
        as the core would refuse its empty remainder (no steps, the reading's failure)."""
        failure = reading.failure
        if failure is None or failure.step != 0:
            raise ValueError("refused_reading() is for a program whose reading failed at its first step")
        return Execution(invalid=1, result="n/a", status=Status(failure.status), failed_step=failure.step,
                         message=failure.message, quirks=reading.quirks, skipped=reading.skipped,
                         profile=self._profile_name, python=self.python)

    def past_bounds(self, reading: ReadProgram, what: str) -> Execution:
        """A program refused before it runs: it would need more of the core's memory than
        finscore's declared bounds allow (see finscore.engine.bounds); not an official outcome."""
        return Execution(invalid=1, result="n/a", status=Status.EXCEEDS_BOUNDS, failed_step=None,
                         message=f"{what}, past finscore's declared bounds", quirks=reading.quirks,
                         skipped=reading.skipped, profile=self._profile_name, python=self.python)

    def walked(self, reading: ReadProgram, outcome: Walk) -> Execution:
        """A program the walker ran, with the official evaluator's Python value semantics."""
        source = partial(_walk_traces, reading, outcome)
        common: dict[str, Any] = {"quirks": reading.quirks, "skipped": reading.skipped, "profile": self._profile_name,
                                  "python": self.python, "via_walker": True, "step_source": source}
        if outcome.status is not Status.OK:
            return Execution(invalid=1, result="n/a", status=outcome.status, failed_step=outcome.failed_step,
                             message=outcome.message, **common)
        final = outcome.final
        rounded: Result
        if isinstance(final, str) and final in ("yes", "no", "n/a"):
            rounded = final
        elif isinstance(final, float):
            rounded = self.core.round_half_even_scaled(final, FINAL_SCALE)
        elif isinstance(final, int):
            rounded = final  # Python's round(int, 5) is the int itself
        else:
            last = reading.steps[-1].index if reading.steps else None
            return Execution(invalid=1, result="n/a", status=Status.RESULT_NOT_A_NUMBER, failed_step=last,
                             message=f"the final value is a {type(final).__name__}, which round() refuses",
                             **common)
        return Execution(invalid=0, result=rounded, status=Status.OK, failed_step=None, message="",
                         unrounded=final, **common)
