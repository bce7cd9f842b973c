"""The JSON messages between the runtime and an agent's process, and their Python objects.

The runtime sends the view and the history (`turn` request); the agent's
process answers with one reply: calls to make, a final output, or what went
wrong (the agent raised, returned something else). Everything crosses the pipe
as JSON text, so nothing but data ever reaches the runtime: no object, no
reference, no code. Agent values that are not JSON are described, not sent,
and the runtime records them as the problems they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from finscore.inputs import JsonValueError, dumps_json, loads_json, to_json_value
from finscore.integrity.jcs import canonical_numbers
from finscore.runner.agent import (
    CallTools,
    CaseView,
    Finish,
    NotJsonArguments,
    Observation,
    ToolCall,
    ToolOffer,
    Turn,
    TurnRecord,
    UnreadableArguments,
)
from finscore.streams import as_written

#: The largest reply an agent's process may send (a final output is at most 8 MiB of text).
MAX_REPLY_BYTES = 16 << 20
MAX_NAME_REPR = 200


class WireError(ValueError):
    """A message that is not part of the protocol."""


@dataclass(frozen=True)
class UnusableOutput:
    """A final output that is neither text nor JSON data; `problem` says what it was."""

    problem: str


@dataclass(frozen=True)
class AgentFault:
    """The turn ended without a turn: the agent raised, or returned the wrong kind of thing."""

    status: str
    detail: str


Reply = Turn | AgentFault


def encode(message: Mapping[str, Any]) -> bytes:
    return dumps_json(message).encode("utf-8")


def decode(data: bytes) -> dict[str, Any]:
    """A message as JSON data, its numbers in the canonical form a seal covers (RFC 8785: `5.0` is 5),
    so the runtime executes exactly what it records and seals."""
    try:
        value = canonical_numbers(loads_json(data.decode("utf-8")))
    except (UnicodeDecodeError, JsonValueError) as error:
        raise WireError(f"not a JSON message: {error}") from None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise WireError("a message must be a JSON object with a type")
    return value


# --- runtime -> agent: the view and the history ---------------------------------------


def view_data(view: CaseView) -> dict[str, Any]:
    return {
        "case_id": view.case_id,
        "attempt": view.attempt,
        "language": view.language,
        "question": view.question,
        "today": view.today,
        "household_scope": list(view.household_scope),
        "tools": [
            {"name": t.name, "description": t.description, "parameters": t.parameters, "effect": t.effect}
            for t in view.tools
        ],
        "cached_evidence": list(view.cached_evidence),
        "documents": [dict(passage) for passage in view.documents],
    }


def view_from_data(data: Mapping[str, Any]) -> CaseView:
    return CaseView(
        case_id=data["case_id"],
        attempt=data["attempt"],
        language=data["language"],
        question=data["question"],
        today=data["today"],
        household_scope=tuple(data["household_scope"]),
        tools=tuple(ToolOffer(**tool) for tool in data["tools"]),
        cached_evidence=tuple(data["cached_evidence"]),
        documents=tuple(data.get("documents", ())),
    )


def call_data(call: ToolCall) -> dict[str, Any]:
    """A call as JSON; names that are not text and unusable arguments are described, not sent."""
    data: dict[str, Any] = {"call_id": call.call_id if isinstance(call.call_id, str) else None}
    name: Any = call.name  # typed str, but an agent's object may carry anything: it is data here
    if isinstance(name, str):
        data["name"] = name
    else:
        data["name_repr"] = repr(name)[:MAX_NAME_REPR]
    arguments = call.arguments
    if isinstance(arguments, UnreadableArguments):
        data["unreadable"] = {"text": arguments.text, "problem": arguments.problem}
    elif isinstance(arguments, NotJsonArguments):
        data["not_json"] = arguments.problem
    else:
        try:
            data["arguments"] = to_json_value(arguments)
        except JsonValueError as error:
            data["not_json"] = str(error)
    return data


class NotTextName:
    """A tool name the agent gave as something other than text; shown (and recorded) as its repr."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def call_from_data(data: Mapping[str, Any]) -> ToolCall:
    name: Any = data["name"] if "name" in data else NotTextName(str(data["name_repr"]))
    if "unreadable" in data:
        arguments: Any = UnreadableArguments(data["unreadable"]["text"], data["unreadable"]["problem"])
    elif "not_json" in data:
        arguments = NotJsonArguments(data["not_json"])
    else:
        arguments = data["arguments"]
    return ToolCall(name=name, arguments=arguments, call_id=data.get("call_id"))


def history_data(history: Sequence[TurnRecord]) -> list[dict[str, Any]]:
    return [
        {
            "number": turn.number,
            "calls": [call_data(call) for call in turn.request.calls],
            "text": turn.request.text,
            "observations": [observation.as_data() for observation in turn.observations],
        }
        for turn in history
    ]


def history_from_data(data: Sequence[Mapping[str, Any]]) -> tuple[TurnRecord, ...]:
    turns = []
    for turn in data:
        calls = tuple(call_from_data(call) for call in turn["calls"])
        observations = tuple(
            Observation(
                call=call,
                entry_id=seen["entry_id"],
                outcome=seen["outcome"],
                message=seen["message"],
                result=seen["result"],
            )
            for call, seen in zip(calls, turn["observations"])
        )
        turns.append(TurnRecord(turn["number"], CallTools(calls, text=turn["text"]), observations))
    return tuple(turns)


# --- agent -> runtime: one reply per turn ----------------------------------------------


def reply_data(turn: Any) -> dict[str, Any]:
    """What the agent returned, as a reply message (run in the agent's process)."""
    if isinstance(turn, Finish):
        output = turn.output
        if isinstance(output, str):
            return {"type": "finish", "text": output}
        if isinstance(output, Mapping):
            try:
                return {"type": "finish", "object": to_json_value(output)}
            except JsonValueError as error:
                return {"type": "finish", "unusable": f"the final output is not JSON data: {error}"}
        problem = f"the final output is a {type(output).__name__}, not a JSON object or text"
        return {"type": "finish", "unusable": problem}
    if isinstance(turn, CallTools):
        calls = turn.calls
        if not isinstance(calls, (list, tuple)) or not all(isinstance(call, ToolCall) for call in calls):
            return {"type": "fault", "status": "malformed_output", "detail": "CallTools.calls must be a sequence of ToolCall"}
        text = turn.text if isinstance(turn.text, str) else None
        return {"type": "calls", "calls": [call_data(call) for call in calls], "text": text}
    detail = f"the agent returned a {type(turn).__name__}, not CallTools or Finish"
    return {"type": "fault", "status": "malformed_output", "detail": detail}


def raised_data(error: BaseException) -> dict[str, Any]:
    try:
        text = as_written(str(error))  # a lone surrogate, escaped
    except Exception:  # an exception whose __str__ fails still ends the turn as a crash
        text = "<the exception's message cannot be shown>"
    if isinstance(error, TimeoutError):  # e.g. the chat adapter's HTTP request timed out
        return {"type": "fault", "status": "timeout", "detail": f"the agent timed out: {text}"}
    return {"type": "fault", "status": "crashed", "detail": f"the agent raised {type(error).__name__}: {text}"}


def encode_reply(reply: Mapping[str, Any]) -> bytes:
    """The reply message as bytes; a reply holding text UTF-8 cannot carry (a lone surrogate in a
    final text, a tool name or the text beside calls) becomes a malformed_output fault naming it."""
    try:
        return encode(reply)
    except UnicodeEncodeError as error:
        shown = repr(error.object[error.start:error.end])
        return encode({"type": "fault", "status": "malformed_output",
                       "detail": f"the agent's reply holds {shown}, a lone surrogate, which is not Unicode text"})


def reply_from_data(data: Mapping[str, Any]) -> Reply:
    """The turn (or fault) a reply stands for; raises WireError for anything else."""
    try:
        kind = data["type"]
        if kind == "finish":
            if "text" in data:
                return Finish(str(data["text"]))
            if "object" in data and isinstance(data["object"], dict):
                return Finish(data["object"])
            return Finish(UnusableOutput(str(data["unusable"])))
        if kind == "calls":
            text = data.get("text")
            return CallTools(tuple(call_from_data(call) for call in data["calls"]), text=text if isinstance(text, str) else None)
        if kind == "fault" and data["status"] in ("crashed", "malformed_output", "timeout"):
            return AgentFault(str(data["status"]), str(data["detail"]))
    except (KeyError, TypeError, AttributeError) as error:
        raise WireError(f"a {data.get('type')!r} reply without its fields ({error})") from None
    raise WireError(f"an unknown reply {data.get('type')!r}")
