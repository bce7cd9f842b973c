"""Deciding one attempt: its claims, evidence, trace and response kind against the case's contract.

`score_attempt` runs every check and returns an `AttemptResult` with typed
failures (`finscore.contracts.failures`); the other modules are its parts.
"""

from finscore.contracts.checks.attempt import AttemptResult, not_attempted, score_attempt
from finscore.contracts.checks.claims import ClaimCheck
from finscore.contracts.checks.values import ValueReading, read_value, within_tolerance

__all__ = [
    "AttemptResult",
    "ClaimCheck",
    "ValueReading",
    "not_attempted",
    "read_value",
    "score_attempt",
    "within_tolerance",
]
