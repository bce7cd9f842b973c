"""The official evaluator's value semantics where the core's do not reach.

Officially a step's value is whatever Python made of it: a float, but also the
text "yes"/"no" of `greater` (which `add` concatenates and `greater` compares as
text), the integer 0 that `sum()` gives for an empty row, a complex number from a
negative base raised to a fractional power, or the copy kept by an unrecognised
table op. The walker runs such programs step by step with those Python types.

Every float operation still goes to the core, one step at a time, so floats get
the same bits as everywhere else. What stays in Python is what the core has no
type for: text (concatenation, repetition, comparison), exact integer arithmetic
(integers only arise from the empty-row sum), and complex numbers (they never
reach a result: one that flows into the final value or a comparison makes the
program invalid, so only whether their operations raise matters). Integers and
text are bounded by finscore's declared bounds (`finscore.engine.bounds`), checked
before a value is made, so a hostile program cannot exhaust memory; crossing one
ends the program with the status exceeds_bounds, which is not an official outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union

from finscore.engine.bounds import (
    MAX_CORE_CALL_BYTES,
    MAX_INTEGER_BITS,
    MAX_PROGRAM_VALUE_BYTES,
    MAX_TEXT_CHARACTERS,
    core_program_bytes,
    integer_bytes,
    power_bits,
)
from finscore.engine.core.abi import UNUSED_ARG, CoreArg, CoreProgram, CoreStep, Op, SumRule, ValueType
from finscore.engine.core.binding import Core
from finscore.engine.reader.program import Literal, ReadProgram, ReadStep, Reference, Row, StepKind
from finscore.engine.reader.tokens import OPS
from finscore.engine.status import Status, StatusError

Value = Union[float, int, str, complex]

class WalkRefusal(StatusError):
    """A step Python would have raised on (TypeError, ZeroDivisionError, OverflowError...)."""


@dataclass(frozen=True)
class Walk:
    """Values of the steps that ran (official index -> value), and how it ended."""

    values: dict[int, Value]
    final: Value
    status: Status
    failed_step: int | None
    message: str


def _kind(value: Value) -> str:
    return type(value).__name__


def _past_bounds(what: str) -> WalkRefusal:
    return WalkRefusal(Status.EXCEEDS_BOUNDS, f"{what}, past finscore's declared bounds")


def _check_size(value: Value) -> Value:
    if isinstance(value, int) and value.bit_length() > MAX_INTEGER_BITS:
        raise _past_bounds(f"an integer of {value.bit_length()} bits")
    if isinstance(value, str) and len(value) > MAX_TEXT_CHARACTERS:
        raise _past_bounds(f"a text of {len(value)} characters")
    return value


def _held_bytes(value: Value) -> int:
    """What a step's value counts for against MAX_PROGRAM_VALUE_BYTES (floats: nothing)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, int):
        return integer_bytes(value)
    return 0


def _as_float(value: int | float) -> float:
    """Python's int-to-float conversion, which refuses integers beyond the float range."""
    try:
        return float(value)
    except OverflowError:
        raise WalkRefusal(Status.VALUE_TOO_LARGE, "an integer too large for a float") from None


class _Walker:
    def __init__(self, core: Core, sum_rule: SumRule) -> None:
        self.core = core
        self.sum_rule = sum_rule

    # -- float work, in the core -------------------------------------------
    def core_step(self, op: Op, first: CoreArg, second: CoreArg, table: tuple[float, ...] = ()) -> float | str:
        result = self.core.execute_batch([CoreProgram((CoreStep(op, first, second),), table)], self.sum_rule)[0]
        if result.status != Status.OK:
            raise WalkRefusal(Status(result.status), self.core.status_name(result.status))
        value = result.step_values[0]
        if result.step_types[0] == ValueType.BOOL:
            return "yes" if value else "no"
        return value

    def floats(self, op: Op, a: float, b: float) -> Value:
        try:
            return self.core_step(op, CoreArg.literal(a), CoreArg.literal(b))
        except WalkRefusal as refusal:
            if refusal.status is Status.NEGATIVE_BASE_FRACTIONAL_EXPONENT:
                power: complex = a**b  # Python's own complex power: the value only matters if it raises later
                return power
            raise

    # -- one arithmetic op on Python values --------------------------------
    def arithmetic(self, op: Op, a: Value, b: Value) -> Value:
        if isinstance(a, complex) or isinstance(b, complex):
            return self.complex_op(op, a, b)
        if isinstance(a, str) or isinstance(b, str):
            return self.text_op(op, a, b)
        if isinstance(a, float) and isinstance(b, float):
            return self.floats(op, a, b)
        return self.integer_op(op, a, b)

    def text_op(self, op: Op, a: Value, b: Value) -> Value:
        if op is Op.ADD and isinstance(a, str) and isinstance(b, str):
            if len(a) + len(b) > MAX_TEXT_CHARACTERS:
                raise _past_bounds(f"a text of {len(a) + len(b)} characters")
            return a + b
        if op is Op.GREATER and isinstance(a, str) and isinstance(b, str):
            return "yes" if a > b else "no"
        if op is Op.MULTIPLY and isinstance(a, str) != isinstance(b, str):
            text, count = (a, b) if isinstance(a, str) else (b, a)
            if isinstance(count, int):
                # text is the str of the pair
                if count > 0 and len(text) * count > MAX_TEXT_CHARACTERS:  # type: ignore[arg-type]
                    raise _past_bounds("a repeated text")
                return text * count
        raise WalkRefusal(Status.TYPE_ERROR, f"{OPS[op]} of {_kind(a)} and {_kind(b)}")

    def integer_op(self, op: Op, a: int | float, b: int | float) -> Value:
        """At least one operand is an int (the other an int or a float), as in Python."""
        both_int = isinstance(a, int) and isinstance(b, int)
        if op is Op.GREATER:
            return "yes" if a > b else "no"  # Python compares int and float exactly
        if both_int:
            if op is Op.ADD:
                return _check_size(a + b)
            if op is Op.SUBTRACT:
                return _check_size(a - b)
            if op is Op.MULTIPLY:
                # the product has the sum of the bit lengths, or one bit less
                # both_int: both are ints
                if a.bit_length() + b.bit_length() - 1 > MAX_INTEGER_BITS:  # type: ignore[union-attr]
                    raise _past_bounds("an integer product")
                return _check_size(a * b)
            if op is Op.DIVIDE:
                if b == 0:
                    raise WalkRefusal(Status.DIVIDE_BY_ZERO, "division by zero")
                try:
                    return a / b  # Python's correctly rounded integer true division
                except OverflowError:
                    raise WalkRefusal(Status.VALUE_TOO_LARGE, "a quotient too large for a float") from None
            if op is Op.EXP and b >= 0:
                assert isinstance(a, int) and isinstance(b, int)
                if a not in (0, 1, -1) and b > 0:
                    least, greatest = power_bits(a, b)
                    if least > MAX_INTEGER_BITS:
                        raise _past_bounds(f"an integer power of at least {least} bits")
                power: int = a**b
                return _check_size(power) if b > 0 and a not in (0, 1, -1) else power
            # int ** negative int: Python converts both to float and uses float pow
        return self.floats(op, _as_float(a), _as_float(b))

    def complex_op(self, op: Op, a: Value, b: Value) -> Value:
        if isinstance(a, str) or isinstance(b, str) or op is Op.GREATER:
            raise WalkRefusal(Status.TYPE_ERROR, f"{OPS[op]} of {_kind(a)} and {_kind(b)}")
        operations: dict[Op, Callable[[Any, Any], Any]] = {
            Op.ADD: lambda x, y: x + y,
            Op.SUBTRACT: lambda x, y: x - y,
            Op.MULTIPLY: lambda x, y: x * y,
            Op.DIVIDE: lambda x, y: x / y,
            Op.EXP: lambda x, y: x**y,
        }
        try:
            value: Value = operations[op](a, b)
            return value
        except ZeroDivisionError:
            raise WalkRefusal(Status.DIVIDE_BY_ZERO, "complex division or power of zero") from None
        except OverflowError:
            if op is Op.EXP:
                raise WalkRefusal(Status.EXP_COMPLEX_OVERFLOW, "complex power overflows") from None
            raise WalkRefusal(Status.VALUE_TOO_LARGE, "an integer too large for a complex") from None

    # -- table ops -----------------------------------------------------------
    def table(self, op: Op, values: tuple[float, ...]) -> Value:
        if not values:
            if op is Op.TABLE_SUM:
                return 0  # Python's sum([]) is the integer 0
            raise WalkRefusal(Status.EMPTY_ROW, "a table operation on an empty row")
        if core_program_bytes(1, len(values)) > MAX_CORE_CALL_BYTES:
            raise _past_bounds(f"a table row of {len(values)} cells")
        return self.core_step(op, CoreArg.row(0, len(values)), UNUSED_ARG, values)

    # -- the walk ------------------------------------------------------------
    def step_value(self, step: ReadStep, values: dict[int, Value], previous: Value) -> Value:
        if step.kind is StepKind.COPY:
            return previous
        op = Op(OPS.index(step.op))
        if step.kind is StepKind.TABLE:
            assert isinstance(step.first, Row)
            return self.table(op, step.first.values)
        operands: list[Value] = []
        for argument in (step.first, step.second):
            if isinstance(argument, Literal):
                operands.append(argument.value)
            else:
                assert isinstance(argument, Reference)
                operands.append(values[argument.step])
        return self.arithmetic(op, operands[0], operands[1])

    def walk(self, program: ReadProgram) -> Walk:
        values: dict[int, Value] = {}
        current: Value = "n/a"
        held = 0
        for step in program.steps:
            try:
                current = self.step_value(step, values, current)
                held += _held_bytes(current)
                if held > MAX_PROGRAM_VALUE_BYTES:
                    raise _past_bounds(f"{held} bytes of text and integer values in one program")
            except WalkRefusal as refusal:
                return Walk(values, current, refusal.status, step.index, str(refusal))
            values[step.index] = current
        if program.failure is not None:
            failure = program.failure
            return Walk(values, current, failure.status, failure.step, failure.message)
        return Walk(values, current, Status.OK, None, "")


def walk(program: ReadProgram, core: Core, sum_rule: SumRule) -> Walk:
    """Run a read program with the official evaluator's Python value semantics."""
    return _Walker(core, sum_rule).walk(program)
