"""Turn read steps into the core's flat form, when the core's semantics are the program's.

The core knows floats and booleans. The official evaluator also lets the text
results of `greater`, the integer 0 that `sum()` gives for an empty row, and the
copy made by an unrecognised table op flow into later steps; such programs are
left to the walker (see `finscore.engine.walker`). The strict profile always lowers: its
reader refuses the quirks, and the core refuses the rest (a reference to a
boolean, an empty row) with its own statuses.
"""

from __future__ import annotations

from dataclasses import dataclass

from finscore.engine.core.abi import UNUSED_ARG, CoreArg, CoreProgram, CoreStep, Op
from finscore.engine.options import Profile
from finscore.engine.reader.program import Literal, ReadProgram, Reference, Row, StepKind
from finscore.engine.reader.tokens import OPS


@dataclass(frozen=True)
class Lowered:
    program: CoreProgram
    official_index: tuple[int, ...]  # official step index of each core step


def lower(program: ReadProgram, *, profile: Profile) -> Lowered | None:
    """The core program for these steps, or None when only the walker can run them officially."""
    official = profile.reads_officially
    core_index: dict[int, int] = {}
    not_float: set[int] = set()  # official steps whose value is not a float
    steps: list[CoreStep] = []
    table: list[float] = []
    for step in program.steps:
        if step.kind is StepKind.COPY:
            return None  # in strict reading this never gets here
        op = Op(OPS.index(step.op))
        if step.kind is StepKind.TABLE:
            row = step.first
            assert isinstance(row, Row)
            if official and not row.values and op is Op.TABLE_SUM:
                return None  # officially sum([]) is the integer 0
            first = CoreArg.row(len(table), len(row.values))
            table.extend(row.values)
            steps.append(CoreStep(op, first, UNUSED_ARG))
        else:
            args = []
            for argument in (step.first, step.second):
                if isinstance(argument, Literal):
                    args.append(CoreArg.literal(argument.value))
                else:
                    assert isinstance(argument, Reference)
                    if official and argument.step in not_float:
                        return None  # text "yes"/"no" flowing on
                    args.append(CoreArg.reference(core_index[argument.step]))
            steps.append(CoreStep(op, args[0], args[1]))
            if op is Op.GREATER:
                not_float.add(step.index)
        core_index[step.index] = len(steps) - 1
    return Lowered(CoreProgram(tuple(steps), tuple(table)), tuple(core_index))
