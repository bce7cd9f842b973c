"""Deciding one tool call against a case world: the one decision the runtime and the replay share.

The order is docs/contracts-format.md section 3.4: unknown tool, schema,
household scope, the tool's own refusals and errors, then execution. The
runtime records what this returns; the scorer's replay calls it again on a
recorded call and compares, so both must go through this one function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from finscore.world.model import World
from finscore.world.schema import validation_message
from finscore.world.tools import CATALOGUE, CallFailed, CallRefused, ToolState


@dataclass(frozen=True)
class CallDecision:
    """What one call came to: outcome, message (when not ok), declared effect, result (when ok)."""

    outcome: str
    message: str | None
    effect: str
    result: Mapping[str, Any] | None


def offered_effect(world: World, name: Any) -> str:
    """The effect the case declares for this tool, or `none` for a tool it does not offer."""
    offered = world.tools.get(name) if isinstance(name, str) else None
    return offered.effect if offered is not None else "none"


def decide_call(world: World, state: ToolState, name: Any, arguments: Mapping[str, Any]) -> CallDecision:
    """Check and, if allowed, execute one call whose arguments are a JSON object."""
    offered = world.tools.get(name) if isinstance(name, str) else None
    if offered is None:
        return CallDecision("error", "unknown tool", "none", None)
    implemented = CATALOGUE[offered.name]
    problems = offered.schema.errors(arguments) or implemented.schema.errors(arguments)
    if problems:
        return CallDecision("error", validation_message(problems), offered.effect, None)
    household = arguments.get("household_id")
    if household is not None and household not in world.household_scope:
        return CallDecision("refused", f"household {household} is outside the session scope", offered.effect, None)
    try:
        outcome = implemented.run(arguments, state)
    except CallRefused as refusal:
        return CallDecision("refused", str(refusal), offered.effect, None)
    except CallFailed as failure:
        return CallDecision("error", str(failure), offered.effect, None)
    return CallDecision("ok", None, offered.effect, outcome)
