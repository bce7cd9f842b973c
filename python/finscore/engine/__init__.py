"""The exact executor of FinQA programs, from text to bits.

A program (token list or gold program string) and its table are read by `reader`
(official or strict profile), lowered to the core's flat records (`lowering`), run
by the WebAssembly core (`core`) or, for the rare values that leave the float world,
by the `walker` (which still sends every float operation to the core). `paths`
decides which of those paths each program takes and its official outcome;
`explanation` holds what a user sees of it (Execution, steps, quirks); `api` is the
public entry point, re-exported by the top-level `finscore` package.
"""

from finscore.engine.api import (
    PROFILES,
    ExecutionBatch,
    check_options,
    execute,
    execute_batch,
    execute_many,
    round_half_even_scaled,
    sum_rule_for,
)
from finscore.engine.explanation import Execution, StepTrace
from finscore.engine.status import Status, status_label

__all__ = [
    "PROFILES",
    "Execution",
    "ExecutionBatch",
    "Status",
    "StepTrace",
    "check_options",
    "execute",
    "execute_batch",
    "execute_many",
    "round_half_even_scaled",
    "status_label",
    "sum_rule_for",
]
