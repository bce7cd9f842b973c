"""One attempt of one case: the agent's turns, the runtime's calls, the prediction line.

Whatever happens (a crash, a hang, a run past the step limit, unreadable
output, a case whose fixtures cannot be run) the attempt ends with a
prediction line carrying its status and the trace recorded so far, so every
case stays in the denominator. The line holds no clock reading or random id:
a deterministic agent gives the same bytes on every run. The agent runs in
its own process (`agent_process`); the sandbox, the fixtures and the trace
stay here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from finscore.contracts import KIT_DIRECTORY
from finscore.runner.agent import Agent, CallTools, CaseView, Finish, Observation, ToolOffer, TurnRecord
from finscore.runner.agent_process import AgentProcess, TimedOut
from finscore.runner.cases import load_fixtures
from finscore.runner.errors import CaseFixtureError
from finscore.runner.final_output import read_final
from finscore.runner.isolation import Isolation
from finscore.runner.limits import Deadline, Limits
from finscore.runner.sandbox import Sandbox, TraceFull
from finscore.runner.wire import AgentFault, UnusableOutput, raised_data
from finscore.world import CaseWorld

MAX_DETAIL = 2000


@dataclass(frozen=True)
class TimedPrediction:
    """A prediction line (deterministic) and how long it took (not deterministic, kept apart)."""

    prediction: dict[str, Any]
    seconds: float


#: The public name (finscore.runner.AttemptResult); the class has its own so that AttemptResult
#: names one class, contracts' scored attempt.
AttemptResult = TimedPrediction


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
        documents=tuple({"id": p.id, "text": p.text, "source": p.source} for p in world.documents),
    )


def default_isolation(limits: Limits) -> Isolation:
    """The limits' deadline, and the shipped kit (gold contracts, every household's fixtures) protected."""
    return Isolation.for_deadline(limits.deadline_seconds, protected_paths=(str(KIT_DIRECTORY),))


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


class AttemptRecord:
    """One attempt's runtime state, whoever asks for the turns: the sandbox, the history, the ending.

    `status` stays None until the attempt ends. The process-driven episode below
    and the harness adapters (finscore.integrations) feed it turns the same way,
    so calls are executed, limited and recorded one way and the line is the same.
    """

    def __init__(self, fixtures: CaseWorld, limits: Limits, attempt: int) -> None:
        self.fixtures = fixtures
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

    def timed_out(self, turn: int) -> None:
        seconds = f"{self.limits.deadline_seconds:g} s"
        self.end("timeout", f"no response from the agent within the {seconds} deadline (turn {turn})")

    def out_of_turns(self) -> None:
        self.end("step_limit", f"no final response within the limit of {self.limits.max_turns} turns")

    def agent_raised(self, error: BaseException) -> None:
        """The agent failed with `error` (a harness's model call, say): crashed, or timeout for a TimeoutError."""
        fault = raised_data(error)
        self.end(str(fault["status"]), str(fault["detail"]))

    def finish(self, turn: Finish) -> None:
        if isinstance(turn.output, UnusableOutput):
            return self.end("malformed_output", turn.output.problem)
        reading = read_final(turn.output)
        self.raw_output = reading.raw_output
        if reading.final is None:
            return self.end("malformed_output", reading.problem)
        self.final = reading.final
        return self.end("completed")

    def call_tools(self, number: int, turn: CallTools) -> None:
        calls = turn.calls
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


class _Episode(AttemptRecord):
    """The turn loop of one attempt, with the agent in its own process."""

    def __init__(self, fixtures: CaseWorld, agent: Agent, limits: Limits, attempt: int, isolation: Isolation) -> None:
        super().__init__(fixtures, limits, attempt)
        self.agent = agent
        self.isolation = isolation

    def run(self) -> None:
        with AgentProcess(self.agent, self.isolation) as process:
            self.drive(process)

    def drive(self, process: AgentProcess) -> None:
        fault = process.start()
        if fault is not None:
            return self.end(fault.status, fault.detail)
        deadline = Deadline(self.limits.deadline_seconds)
        for number in range(1, self.limits.max_turns + 1):
            reply = process.turn(self.view, tuple(self.history), deadline)
            if isinstance(reply, TimedOut):
                return self.timed_out(number)
            if isinstance(reply, AgentFault):
                return self.end(reply.status, reply.detail)
            if isinstance(reply, Finish):
                return self.finish(reply)
            self.call_tools(number, reply)
            if self.status is not None:
                return None
        return self.out_of_turns()


def _case_id(case: Any) -> str:
    value = case.get("case_id") if isinstance(case, Mapping) else None
    return value if isinstance(value, str) else "<no case_id>"


def start_attempt(case: Mapping[str, Any], limits: Limits, attempt: int) -> AttemptRecord | dict[str, Any]:
    """The attempt's record, or, for a case whose fixtures cannot be run, its finished `incomplete` line."""
    try:
        fixtures = load_fixtures(case)
    except CaseFixtureError as error:
        empty = {"format": "finscore-trace/1", "case_id": _case_id(case), "attempt": attempt, "entries": []}
        return prediction_line(
            _case_id(case), attempt, "incomplete", f"the case cannot be run: {error}", None, None, empty
        )
    return AttemptRecord(fixtures, limits, attempt)


def run_attempt(
    case: Mapping[str, Any], agent: Agent, limits: Limits, attempt: int = 0, isolation: Isolation | None = None
) -> TimedPrediction:
    """Run `agent` on one case once, in its own process, and return its prediction line.

    Never raises for agent faults. `isolation` defaults to the limits' deadline and
    the shipped kit as the protected path.
    """
    started = time.monotonic()
    started_attempt = start_attempt(case, limits, attempt)
    if not isinstance(started_attempt, AttemptRecord):
        return TimedPrediction(started_attempt, time.monotonic() - started)
    episode = _Episode(started_attempt.fixtures, agent, limits, attempt, isolation or default_isolation(limits))
    episode.run()
    return TimedPrediction(episode.prediction(), time.monotonic() - started)
