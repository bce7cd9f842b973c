"""The outcome of executing one program: the official pair, and why.

`invalid` and `result` are exactly what the official evaluator's `eval_program`
returns (for a valid program; an invalid one's result carries no meaning there,
and is "n/a" here). Everything else explains it: the status, the step that
failed, each step's own unrounded value, and the quirks the reading relied on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Union

from finscore.engine.reader.program import Argument, Ignored, Literal, Quirk, Reference, Row
from finscore.engine.status import DESCRIPTIONS, Status

StepValue = Union[float, int, str, complex]
Result = Union[float, int, str]


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
