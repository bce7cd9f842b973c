"""The candidate interface: a Python callable driven turn by turn.

An agent is any callable `agent(view, history) -> CallTools | Finish`. It sees
the case as a user would give it (`CaseView`) and everything that happened so
far (`history`); it never touches the world. It asks the runtime to make calls
(`CallTools`) or gives its final response (`Finish`). The runtime executes the
calls itself and records them, so what an agent says about its own calls is
never evidence of anything.

A complete agent in a few lines::

    def agent(view, history):
        if not history:
            return CallTools((ToolCall("calc_emi", {"scenario_id": "loan-A", ...}),))
        seen = history[-1].observations[0]
        return Finish({"kind": "answer", "claims": {...}, "citations": {"emi": seen.entry_id}})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence, Union


@dataclass(frozen=True)
class ToolOffer:
    """A tool as shown to the agent: its name, what it does, its JSON Schema, read or write."""

    name: str
    description: str
    parameters: Mapping[str, Any]
    effect: str


@dataclass(frozen=True)
class CaseView:
    """What the agent is told: the question, the session and the tools, never the contract."""

    case_id: str
    attempt: int
    language: str
    question: str
    today: str
    household_scope: tuple[str, ...]
    tools: tuple[ToolOffer, ...]
    cached_evidence: tuple[Mapping[str, Any], ...]
    #: the case's document passages ({"id", "text", "source"}), which an answer may cite by id
    documents: tuple[Mapping[str, str], ...] = ()


@dataclass(frozen=True)
class UnreadableArguments:
    """Arguments an agent gave as text that is not JSON (kept for the record, never executed)."""

    text: str
    problem: str


@dataclass(frozen=True)
class NotJsonArguments:
    """Arguments an agent gave as Python values that are not JSON data (described, never sent)."""

    problem: str


@dataclass(frozen=True)
class ToolCall:
    """One call the agent asks for. `call_id` is the agent's own handle (chat APIs need it)."""

    name: str
    arguments: Any
    call_id: str | None = None


@dataclass(frozen=True)
class CallTools:
    """Ask the runtime to make these calls, in this order, in this turn."""

    calls: Sequence[ToolCall]
    text: str | None = None


@dataclass(frozen=True)
class Finish:
    """The final response: a `final` object (section 4), or text that should contain one."""

    output: Any


Turn = Union[CallTools, Finish]


@dataclass(frozen=True)
class Observation:
    """What the runtime returns for one call: the recorded entry's id, outcome and data."""

    call: ToolCall
    entry_id: str
    outcome: str
    message: str | None
    result: Mapping[str, Any] | None

    def as_data(self) -> dict[str, Any]:
        """The observation as plain JSON data, as a chat model is shown it."""
        return {"entry_id": self.entry_id, "outcome": self.outcome, "message": self.message, "result": self.result}


@dataclass(frozen=True)
class TurnRecord:
    """One past turn: the agent's request and what each call returned."""

    number: int
    request: CallTools
    observations: tuple[Observation, ...] = field(default_factory=tuple)


class Agent(Protocol):
    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn: ...
