"""Typed argument matching and one-to-one matching of calls to requirements.

A requirement is met by its own call: two requirements for the same tool need
two calls. Maximum bipartite matching (augmenting paths, iterative so that no
trace can exhaust the stack) decides this exactly instead of greedily, so a
valid plan is never rejected because of the order its calls came in.
"""

from __future__ import annotations

from collections import deque
from decimal import Decimal
from typing import Any, Callable, Mapping, Sequence, TypeVar

from finscore.contracts.formats.models import ArgumentSpec, CallPattern, TraceEntry
from finscore.inputs.fields import json_decimal

R = TypeVar("R")
C = TypeVar("C")


def argument_matches(spec: ArgumentSpec, value: Any) -> bool:
    """Typed equality: 0.060 meets decimal 0.06, 5.0 meets integer 5, "5" meets neither."""
    if spec.type == "decimal":
        number = json_decimal(value)
        return number is not None and number == spec.value
    if spec.type == "integer":
        if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
            return False
        number = json_decimal(value)
        return number is not None and number == number.to_integral_value() and number == spec.value
    return isinstance(value, str) and value == spec.value


def argument_differences(pattern: CallPattern, arguments: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """For a report: each required argument the call does not meet, expected and actual."""
    differences = {}
    for name, spec in pattern.arguments.items():
        actual = arguments.get(name)
        if not argument_matches(spec, actual):
            differences[name] = {"expected": {"type": spec.type, "value": spec.value}, "actual": actual}
    return differences


def call_matches(pattern: CallPattern, entry: TraceEntry) -> bool:
    """Same tool and every named argument met; other arguments are free."""
    return entry.tool == pattern.tool and not argument_differences(pattern, entry.arguments)


def maximum_matching(
    requirements: Sequence[R], candidates: Sequence[C], fits: Callable[[R, C], bool]
) -> dict[int, int]:
    """A maximum one-to-one matching, as {requirement index: candidate index}."""
    adjacency = [[c for c, candidate in enumerate(candidates) if fits(req, candidate)] for req in requirements]
    owner: dict[int, int] = {}
    for start in range(len(requirements)):
        reached_from: dict[int, int] = {}
        entered_by: dict[int, int | None] = {start: None}
        queue = deque([start])
        free: int | None = None
        while queue and free is None:
            requirement = queue.popleft()
            for candidate in adjacency[requirement]:
                if candidate in reached_from:
                    continue
                reached_from[candidate] = requirement
                if candidate not in owner:
                    free = candidate
                    break
                entered_by[owner[candidate]] = candidate
                queue.append(owner[candidate])
        step = free
        while step is not None:
            requirement = reached_from[step]
            owner[step] = requirement
            step = entered_by[requirement]
    return {requirement: candidate for candidate, requirement in owner.items()}
