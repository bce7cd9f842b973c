"""The case's tools as the model is offered them, and the model's calls as finscore's runtime takes them.

The model sees each tool of the case as an inspect `ToolInfo` (name,
description, the case's JSON Schema). Its calls are not run by inspect's tool
executor: that executor answers an unknown tool, unparseable arguments or
arguments outside the schema itself, without running anything, so such an
attempt (a malformed write, say) would never reach the trace. Every call goes
to finscore's runtime instead (`AttemptRecord.call_tools`), which decides,
executes and records it whatever it is, and the model is shown what was
recorded, exactly as `finscore run` shows a chat model.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageAssistant, ChatMessageTool
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.tool import ToolInfo, ToolParams

from finscore.inputs import dumps_json
from finscore.runner.agent import CallTools, CaseView, Finish, ToolCall, Turn, TurnRecord, UnreadableArguments


def offered_tools(view: CaseView) -> list[ToolInfo]:
    """Every tool the case offers, with its schema (keywords inspect's schema model lacks are not shown;
    the runtime still checks the whole schema)."""
    return [
        ToolInfo(
            name=tool.name, description=tool.description, parameters=ToolParams.model_validate(dict(tool.parameters))
        )
        for tool in view.tools
    ]


def runtime_call(call: InspectToolCall) -> ToolCall:
    """One inspect tool call as the runtime's `ToolCall`; arguments inspect could not parse stay unreadable."""
    arguments: Any = call.arguments
    if call.parse_error is not None:
        arguments = UnreadableArguments(text="", problem=call.parse_error)
    return ToolCall(name=call.function, arguments=arguments, call_id=call.id)


def requested_turn(message: ChatMessageAssistant) -> Turn:
    """What one model reply asks for: calls, or (with none) its text as the final response."""
    calls = message.tool_calls or []
    if calls:
        return CallTools(tuple(runtime_call(call) for call in calls), text=message.text or None)
    return Finish(message.text)


def recorded_results(turn: TurnRecord) -> list[ChatMessageTool]:
    """The runtime's record of each call of a turn, as the tool message answering it."""
    return [
        ChatMessageTool(
            content=dumps_json(observation.as_data()),
            tool_call_id=observation.call.call_id,
            function=str(observation.call.name),
        )
        for observation in turn.observations
    ]
