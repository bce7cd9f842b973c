"""One attempt of one case: the agent's turns, the runtime's calls, the prediction line.

Whatever happens (a crash, a hang, a run past the step limit, unreadable
output, a case whose fixtures cannot be run) the attempt ends with a
prediction line carrying its status and the trace recorded so far, so every
case stays in the denominator. The line holds no clock reading or random id:
a deterministic agent gives the same bytes on every run.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from finscore.runner.agent import Agent, CallTools, CaseView, Finish, Observation, ToolCall, ToolOffer, TurnRecord
from finscore.runner.cases import load_fixtures
from finscore.runner.errors import CaseFixtureError
from finscore.runner.final_output import read_final
from finscore.runner.limits import Deadline, Limits, call_before_deadline
from finscore.runner.sandbox import Sandbox, TraceFull
from finscore.world import CaseWorld

MAX_DETAIL = 2000


@dataclass(frozen=True)
class AttemptResult:
    """A prediction line (deterministic) and how long it took (not deterministic, kept apart)."""

    prediction: dict[str, Any]
    seconds: float


def case_view(fixtures: CaseWorld, attempt: int) -> CaseView:
    world = fixtures.world
    tools = tuple(
        ToolOffer(name=tool.name, description=tool.description, parameters=tool.parameters, effect=tool.effect)
        for tool in world.tools.values()
    )
    return CaseView(
        case_id=fixtures.case_id,
        attempt=attempt,
        language=fixtures.language,
        question=fixtures.question,
        today=world.today,
        household_scope=world.household_scope,
        tools=tools,
        cached_evidence=world.cached_evidence,
    )


def _detail(text: str) -> str:
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 3] + "..."


def prediction_line(
    case_id: str,
    attempt: int,
    status: str,
    detail: str | None,
    final: Mapping[str, Any] | None,
    raw_output: str | None,
    trace: Mapping[str, Any],
) -> dict[str, Any]:
    return {
        "format": "finscore-prediction/1",
        "case_id": case_id,
        "attempt": attempt,
        "status": status,
        "status_detail": None if detail is None else _detail(detail),
        "final": final,
        "raw_output": raw_output,
        "trace": trace,
    }


class _Episode:
    """The turn loop of one attempt; `status` stays None until the attempt ends."""

    def __init__(self, fixtures: CaseWorld, agent: Agent, limits: Limits, attempt: int) -> None:
        self.fixtures = fixtures
        self.agent = agent
        self.limits = limits
        self.attempt = attempt
        self.sandbox = Sandbox(fixtures)
        self.view = case_view(fixtures, attempt)
        self.history: list[TurnRecord] = []
        self.calls_made = 0
        self.status: str | None = None
        self.detail: str | None = None
        self.final: dict[str, Any] | None = None
        self.raw_output: str | None = None

    def end(self, status: str, detail: str | None = None) -> None:
        self.status, self.detail = status, detail

    def run(self) -> None:
        deadline = Deadline(self.limits.deadline_seconds)
        for number in range(1, self.limits.max_turns + 1):
            history: Sequence[TurnRecord] = tuple(self.history)
            turn_call = functools.partial(self.agent, self.view, history)
            outcome = call_before_deadline(turn_call, deadline, f"agent-{self.view.case_id}")
            if outcome.timed_out:
                seconds = f"{self.limits.deadline_seconds:g} s"
                return self.end("timeout", f"no response from the agent within the {seconds} deadline (turn {number})")
            if outcome.error is not None:
                error = outcome.error
                return self.end("crashed", f"the agent raised {type(error).__name__}: {error}")
            turn = outcome.value
            if isinstance(turn, Finish):
                return self.finish(turn)
            if not isinstance(turn, CallTools):
                return self.end(
                    "malformed_output", f"the agent returned a {type(turn).__name__}, not CallTools or Finish"
                )
            self.call_tools(number, turn)
            if self.status is not None:
                return None
        return self.end("step_limit", f"no final response within the limit of {self.limits.max_turns} turns")

    def finish(self, turn: Finish) -> None:
        reading = read_final(turn.output)
        self.raw_output = reading.raw_output
        if reading.final is None:
            return self.end("malformed_output", reading.problem)
        self.final = reading.final
        return self.end("completed")

    def call_tools(self, number: int, turn: CallTools) -> None:
        calls = turn.calls
        if not isinstance(calls, (list, tuple)) or not all(isinstance(call, ToolCall) for call in calls):
            return self.end("malformed_output", "CallTools.calls must be a sequence of ToolCall")
        observations: list[Observation] = []
        try:
            for call in calls:
                limit = self.limits.max_tool_calls
                if self.calls_made >= limit:
                    message = f"step limit: the limit of {limit} tool calls was reached; not executed"
                    self.sandbox.record_unexecuted(number, call, message)
                    asked = self.calls_made + 1
                    return self.end("step_limit", f"the agent asked for tool call {asked}, over the limit of {limit}")
                self.calls_made += 1
                observations.append(self.sandbox.execute(number, call))
        except TraceFull as full:
            return self.end("step_limit", str(full))
        self.history.append(TurnRecord(number=number, request=turn, observations=tuple(observations)))
        return None

    def prediction(self) -> dict[str, Any]:
        return prediction_line(
            self.fixtures.case_id,
            self.attempt,
            self.status or "incomplete",
            self.detail,
            self.final,
            self.raw_output,
            self.sandbox.trace(self.attempt),
        )


def _case_id(case: Any) -> str:
    value = case.get("case_id") if isinstance(case, Mapping) else None
    return value if isinstance(value, str) else "<no case_id>"


def run_attempt(case: Mapping[str, Any], agent: Agent, limits: Limits, attempt: int = 0) -> AttemptResult:
    """Run `agent` on one case once and return its prediction line; never raises for agent faults."""
    started = time.monotonic()
    try:
        fixtures = load_fixtures(case)
    except CaseFixtureError as error:
        empty = {"format": "finscore-trace/1", "case_id": _case_id(case), "attempt": attempt, "entries": []}
        line = prediction_line(
            _case_id(case), attempt, "incomplete", f"the case cannot be run: {error}", None, None, empty
        )
        return AttemptResult(line, time.monotonic() - started)
    episode = _Episode(fixtures, agent, limits, attempt)
    episode.run()
    return AttemptResult(episode.prediction(), time.monotonic() - started)
