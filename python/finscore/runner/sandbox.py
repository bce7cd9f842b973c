"""One case's sandbox: decides every attempted call and records it in the trusted trace.

The decision is the world's (`finscore.world.decide_call`, the order of
docs/contracts-format.md section 3.4), which the scorer's replay also uses.
Every attempt is recorded whatever the decision, because an attempted write or
an attempted out-of-scope read is exactly what the scorer must see. The agent
gets a copy of what was recorded, so nothing it does can change the trace.
"""

from __future__ import annotations

import copy
from typing import Any, Mapping

from finscore.contracts.formats.traces import MAX_ENTRIES as MAX_ENTRIES  # the trace format owns it
from finscore.inputs import JsonValueError, to_json_value
from finscore.runner.agent import NotJsonArguments, Observation, ToolCall, UnreadableArguments
from finscore.world import CaseWorld, ToolState, decide_call, offered_effect

MAX_TOOL_NAME = 200


class TraceFull(Exception):
    """The trace reached the format's entry limit; the episode must stop."""


def _recorded_name(name: Any) -> str:
    text = name if isinstance(name, str) else repr(name)
    return text if len(text) <= MAX_TOOL_NAME else text[:MAX_TOOL_NAME]


def _readable_arguments(raw: Any) -> tuple[dict[str, Any], str | None]:
    """The arguments as a JSON object to record, or `{}` and why they are not one."""
    if isinstance(raw, UnreadableArguments):
        return {}, f"arguments are not valid JSON: {raw.problem}"
    if isinstance(raw, NotJsonArguments):
        return {}, f"arguments are not JSON data: {raw.problem}"
    try:
        value = to_json_value(raw)
    except JsonValueError as error:
        return {}, f"arguments are not JSON data: {error}"
    if not isinstance(value, dict):
        return {}, "arguments must be a JSON object"
    return value, None


class Sandbox:
    """Executes one attempt's calls against its case's world and keeps the trace entries."""

    def __init__(self, fixtures: CaseWorld) -> None:
        self.fixtures = fixtures
        self.state = ToolState(fixtures.world)
        self.entries: list[dict[str, Any]] = []

    def _record(
        self,
        turn: int,
        call: ToolCall,
        arguments: Mapping[str, Any],
        outcome: str,
        message: str | None,
        effect: str,
        result: Mapping[str, Any] | None,
    ) -> Observation:
        if len(self.entries) >= MAX_ENTRIES:
            raise TraceFull(f"the trace holds {MAX_ENTRIES} entries, the format's limit")
        household = arguments.get("household_id")
        entry_id = f"e{len(self.entries) + 1}"
        self.entries.append(
            {
                "id": entry_id,
                "turn": turn,
                "tool": _recorded_name(call.name),
                "arguments": dict(arguments),
                "household_id": household if isinstance(household, str) else None,
                "outcome": outcome,
                "message": message,
                "effect": effect,
                "result": None if result is None else dict(result),
            }
        )
        return Observation(call=call, entry_id=entry_id, outcome=outcome, message=message, result=copy.deepcopy(result))

    def execute(self, turn: int, call: ToolCall) -> Observation:
        """Decide, execute if allowed, record, and return what the agent is shown."""
        arguments, unreadable = _readable_arguments(call.arguments)
        world = self.fixtures.world
        if unreadable is not None and isinstance(call.name, str) and call.name in world.tools:
            return self._record(turn, call, arguments, "error", unreadable, offered_effect(world, call.name), None)
        decision = decide_call(world, self.state, call.name, arguments)
        return self._record(turn, call, arguments, decision.outcome, decision.message, decision.effect, decision.result)

    def record_unexecuted(self, turn: int, call: ToolCall, message: str) -> Observation:
        """Record a call the runtime did not execute (over the step limit): it was still attempted."""
        arguments, _ = _readable_arguments(call.arguments)
        effect = offered_effect(self.fixtures.world, call.name)
        return self._record(turn, call, arguments, "error", message, effect, None)

    def trace(self, attempt: int) -> dict[str, Any]:
        return {
            "format": "finscore-trace/1",
            "case_id": self.fixtures.case_id,
            "attempt": attempt,
            "entries": copy.deepcopy(self.entries),
        }
