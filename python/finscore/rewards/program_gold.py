"""The gold of a program reward row: the official answer, the table, the gold program.

Trainers carry ground truth as one value per row (verl's `ground_truth`, a TRL
dataset column, an OpenRLHF label), so a program reward's gold is one JSON object:
`{"exe_ans": 14.1 or "yes"/"no", "table": [[row name, cell, ...], ...] or null,
"program": "subtract(5, 3), divide(#0, 3)"}` (the program only for program
equivalence). JSON text or an already decoded mapping are both accepted. A gold
that does not have this shape is the caller's mistake, never the model's.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, NamedTuple

from finscore.rewards.errors import RewardInputError


class ProgramGold(NamedTuple):
    answer: float | int | str
    table: list[list[Any]] | None
    program: str | None


def read_program_gold(value: Any, *, row: int, column: str) -> ProgramGold:
    """The gold of one row (decoded JSON); RewardInputError naming the row and column when malformed."""
    if type(value) is not dict and not isinstance(value, Mapping):  # JSON gives a dict: the ABC only for others
        raise RewardInputError(f"the gold must be a JSON object with exe_ans, not a {type(value).__name__}",
                               column=column, row=row)
    if "exe_ans" not in value:
        raise RewardInputError("the gold has no exe_ans", column=column, row=row)
    answer = value["exe_ans"]
    if isinstance(answer, bool) or not isinstance(answer, (int, float, str)):
        raise RewardInputError(f"exe_ans must be a number or text, not {type(answer).__name__}",
                               column=column, row=row)
    if isinstance(answer, float) and not math.isfinite(answer):
        raise RewardInputError(f"exe_ans must be finite, not {answer!r}", column=column, row=row)
    table = value.get("table")
    if table is not None and not (isinstance(table, list) and (set(map(type, table)) <= {list}  # JSON's rows: at once
                                                               or all(isinstance(r, list) for r in table))):
        raise RewardInputError("table must be a list of rows (lists) or null", column=column, row=row)
    program = value.get("program")
    if program is not None and not isinstance(program, str):
        raise RewardInputError("program must be the gold program text", column=column, row=row)
    return ProgramGold(answer, table, program)
