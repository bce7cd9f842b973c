"""The exact executor of FinQA programs, from text to bits.

A program (token list or gold program string) and its table take one of three
paths, decided in `routing`: the core's own plain reader (`core.plain_text`, then
one call into the WebAssembly core), the full `reader` plus `lowering` then the
core, or the `walker` for the rare values that leave the float world (it still
sends every float operation to the core). `verdict` decides a program's official
pair from what the core reported; `explanation` builds what a user sees of it
(Execution, steps, quirks); `results` holds the outcomes of a batch; `options` the
profile and the CPython version; `api` is the public entry point, re-exported by
the top-level `finscore` package.
"""

from finscore.engine.api import (
    PROFILES,
    PYTHON_VERSIONS,
    ExecutionBatch,
    Profile,
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
    "PYTHON_VERSIONS",
    "Execution",
    "ExecutionBatch",
    "Profile",
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
