"""The turn limit is a limit: an agent that answers one turn too late has not completed.

The outcome (status, final answer, how many turns the agent was given) is checked,
not the wording of the message. Imports go through `finscore.runner`'s own exports.
The agents run in their own processes, so they are module-level (support.agents)
and count their turns through a TurnTally in this process: a loopback connection, which the
OS sandbox closes (tests/runner/test_os_sandbox.py), so these agents run without it.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from support.agents import FinishesOnTurn, FirstThen, Raises, Returns, TurnTally

from finscore.runner import CallTools, Finish, Limits, RunnerError, ToolCall, run_attempt
from finscore.runner.isolation import Isolation

#: The tally's loopback side channel needs the network the OS sandbox takes away.
NO_OS_SANDBOX = Isolation.for_deadline(30, os_sandbox="off")

FV_CALL = ToolCall(
    "calc_future_value",
    {"scenario_id": "scenario-A", "as_of": "2026-09-01", "principal": "2500000", "annual_rate": "0.06", "years": 5},
)
# 2,500,000 x 1.06^5 = 3,345,563.944... -> 3345563.94 (hand arithmetic, as in the case file)
ANSWER = {
    "kind": "answer",
    "claims": {"future_value": {"value": "3345563.94", "unit": "INR", "subject": "scenario-A",
                                "as_of": "2026-09-01", "source": "calc-fv-v1"}},
    "policy": "illustrative",
    "citations": {"future_value": "e1"},
}


@pytest.fixture()
def tally() -> Iterator[TurnTally]:
    counter = TurnTally()
    yield counter
    counter.close()


@pytest.mark.parametrize("max_turns", [1, 2, 4])
def test_finishing_on_the_last_allowed_turn_completes(
    case_by_id: dict[str, Any], max_turns: int, tally: TurnTally
) -> None:
    agent = FinishesOnTurn(max_turns, FV_CALL, ANSWER, tally.address)
    line = run_attempt(case_by_id["t-fv"], agent, Limits(deadline_seconds=30, max_turns=max_turns),
                        isolation=NO_OS_SANDBOX).prediction
    assert line["status"] == "completed"
    assert line["final"] == ANSWER
    assert tally.count == max_turns


@pytest.mark.parametrize("max_turns", [1, 2, 4])
def test_finishing_one_turn_past_the_limit_does_not_complete(
    case_by_id: dict[str, Any], max_turns: int, tally: TurnTally
) -> None:
    agent = FinishesOnTurn(max_turns + 1, FV_CALL, ANSWER, tally.address)
    line = run_attempt(case_by_id["t-fv"], agent, Limits(deadline_seconds=30, max_turns=max_turns),
                        isolation=NO_OS_SANDBOX).prediction
    assert line["status"] == "step_limit"
    assert line["final"] is None
    assert tally.count == max_turns  # the turn past the limit is never asked for


def test_the_tool_call_limit_allows_exactly_that_many_calls(case_by_id: dict[str, Any]) -> None:
    three_calls_then_answer = FirstThen(CallTools((FV_CALL,) * 3), Finish(ANSWER))
    limits = Limits(deadline_seconds=30, max_turns=4, max_tool_calls=3)
    line = run_attempt(case_by_id["t-fv"], three_calls_then_answer, limits).prediction
    assert line["status"] == "completed"
    assert [entry["outcome"] for entry in line["trace"]["entries"]] == ["ok", "ok", "ok"]
    tight = Limits(deadline_seconds=30, max_turns=4, max_tool_calls=2)
    line = run_attempt(case_by_id["t-fv"], three_calls_then_answer, tight).prediction
    assert line["status"] == "step_limit" and line["final"] is None
    assert [entry["outcome"] for entry in line["trace"]["entries"]] == ["ok", "ok", "error"]


def test_zero_tool_calls_is_a_limit_that_allows_none(case_by_id: dict[str, Any]) -> None:
    one_call = FirstThen(CallTools((FV_CALL,)), Finish(ANSWER))
    line = run_attempt(case_by_id["t-fv"], one_call, Limits(deadline_seconds=30, max_tool_calls=0)).prediction
    assert line["status"] == "step_limit" and line["final"] is None
    assert [entry["outcome"] for entry in line["trace"]["entries"]] == ["error"]  # recorded, not executed


def test_the_step_limit_names_the_call_that_went_over(case_by_id: dict[str, Any]) -> None:
    # two calls a turn under a limit of three: calls 1-2 on turn 1, call 3 on turn 2, call 4 refused
    line = run_attempt(case_by_id["t-fv"], Returns(CallTools((FV_CALL, FV_CALL))),
                       Limits(deadline_seconds=30, max_turns=4, max_tool_calls=3)).prediction
    assert line["status"] == "step_limit"
    assert "tool call 4," in line["status_detail"] and "limit of 3" in line["status_detail"]


@pytest.mark.parametrize(("field", "largest"), [("deadline_seconds", 86_400), ("max_turns", 10_000)])
def test_the_documented_upper_bounds_are_inclusive(field: str, largest: int) -> None:
    assert getattr(Limits(**{field: largest}), field) == largest
    with pytest.raises(RunnerError):
        Limits(**{field: largest + 1})
    with pytest.raises(RunnerError):
        Limits(**{field: largest + 0.5})  # type: ignore[arg-type]  # a float turn count is refused too


def test_a_long_failure_message_is_cut_to_a_bounded_detail(case_by_id: dict[str, Any]) -> None:
    message = "model output could not be parsed: " + "x" * 10_000
    line = run_attempt(case_by_id["t-fv"], Raises(message), Limits(deadline_seconds=30)).prediction
    detail = line["status_detail"]
    assert line["status"] == "crashed"
    assert detail.startswith("the agent raised ValueError: model output could not be parsed: xxx")
    assert detail.endswith("...") and len(detail) == 2_000  # the runner's bound on a detail
