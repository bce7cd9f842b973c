"""One attempt end to end, its agent in its own process: deadlines, crashes, unreadable output, what is recorded."""

from __future__ import annotations

import json
import multiprocessing
import time
from decimal import Decimal
from typing import Any

import pytest
from support.agents import (
    FV_CALL,
    FirstThen,
    Returns,
    answer_agent,
    crashing_agent,
    exits_at_once,
    hangs_up_and_lives_on,
    never_returns,
    slow_second_turn,
    timing_out_agent,
    view_reporter,
)

from finscore.contracts import load_kit_cases
from finscore.runner.agent import CallTools, Finish, ToolCall
from finscore.runner.episode import MAX_DETAIL, _detail, run_attempt
from finscore.runner.errors import RunnerError
from finscore.runner.agents.faulty import HangingAgent
from finscore.runner.limits import Limits

SHORT = Limits(deadline_seconds=5, max_turns=4, max_tool_calls=3)


def test_a_small_agent_completes(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-fv"], answer_agent, SHORT).prediction
    assert (line["status"], line["status_detail"]) == ("completed", None)
    assert line["final"]["claims"]["future_value"]["value"] == "3345563.94"
    assert line["final"]["citations"] == {"future_value": "e1"}
    assert [entry["turn"] for entry in line["trace"]["entries"]] == [1]


def test_the_agent_sees_the_question_tools_and_scope_but_not_the_contract(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-conc"], view_reporter, SHORT, attempt=2).prediction
    view = json.loads(line["final"]["text"])
    assert (view["case_id"], view["attempt"], view["today"], view["household_scope"]) == (
        "t-conc",
        2,
        "2026-09-01",
        ["H001"],
    )
    assert view["tools"] == ["list_snapshots", "get_holdings", "place_order"]
    assert "contract" not in view["view"] and "snap-H001" not in view["view"]


def test_a_hanging_agent_times_out_and_the_run_goes_on(case_by_id: dict[str, Any]) -> None:
    agent = HangingAgent([case_by_id["t-fv"]])
    line = run_attempt(case_by_id["t-fv"], agent, Limits(deadline_seconds=0.2)).prediction
    assert line["status"] == "timeout" and line["final"] is None
    assert "deadline" in line["status_detail"]
    assert line["trace"]["entries"] == []


def test_an_agent_that_never_returns_is_killed_at_its_deadline(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-fv"], never_returns, Limits(deadline_seconds=0.2)).prediction
    assert line["status"] == "timeout" and "turn 1" in line["status_detail"]
    assert multiprocessing.active_children() == []  # the agent's process is gone, not abandoned


def test_a_process_that_exits_without_answering_is_a_crash_with_its_exit_code(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-fv"], exits_at_once, SHORT).prediction
    assert (line["status"], line["status_detail"]) == (
        "crashed",
        "the agent's process ended without answering (exit code 3)",
    )


def test_a_process_that_hangs_up_but_lives_on_is_killed_by_its_deadline(case_by_id: dict[str, Any]) -> None:
    """Its pipe says it is gone; it is not. Waiting for it to exit would wait forever."""
    started = time.monotonic()
    line = run_attempt(case_by_id["t-fv"], hangs_up_and_lives_on, Limits(deadline_seconds=1)).prediction
    assert (line["status"], line["status_detail"]) == (
        "crashed",
        "the agent's process ended without answering (exit code -9)",
    )
    assert time.monotonic() - started < 60  # one deadline and a process start, not forever
    assert multiprocessing.active_children() == []


def test_a_hang_after_calls_keeps_the_calls_in_the_trace(case_by_id: dict[str, Any]) -> None:
    # the first turn (a call, its result) must fit in the deadline even on a loaded machine
    line = run_attempt(case_by_id["t-fv"], slow_second_turn, Limits(deadline_seconds=2)).prediction
    assert line["status"] == "timeout" and "turn 2" in line["status_detail"]
    assert len(line["trace"]["entries"]) == 1


def test_too_many_turns_is_a_step_limit(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-fv"], Returns(CallTools(())), SHORT).prediction
    assert line["status"] == "step_limit" and "4 turns" in line["status_detail"]


def test_too_many_tool_calls_is_a_step_limit_and_the_extra_call_is_recorded(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-fv"], Returns(CallTools((FV_CALL, FV_CALL))), SHORT).prediction
    entries = line["trace"]["entries"]
    assert line["status"] == "step_limit" and "over the limit of 3" in line["status_detail"]
    assert [entry["outcome"] for entry in entries] == ["ok", "ok", "ok", "error"]
    assert entries[-1]["result"] is None and "not executed" in entries[-1]["message"]


def test_a_crash_is_recorded_with_its_message(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-fv"], crashing_agent, SHORT).prediction
    assert (line["status"], line["status_detail"]) == (
        "crashed",
        "the agent raised ValueError: model output could not be parsed",
    )


def test_a_timeout_the_agent_raises_is_a_timeout_not_a_crash(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-fv"], timing_out_agent, SHORT).prediction
    assert (line["status"], line["status_detail"]) == (
        "timeout",
        "the agent timed out: the endpoint did not answer within 120 s",
    )


def test_returning_something_else_than_a_turn_is_malformed_output(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-fv"], Returns("42"), SHORT).prediction
    assert line["status"] == "malformed_output" and "str" in line["status_detail"]


@pytest.mark.parametrize(
    ("output", "status", "final"),
    [
        ('{"kind": "refusal", "reason": "out_of_scope"}', "completed", {"kind": "refusal", "reason": "out_of_scope"}),
        (
            '```json\n{"kind": "clarification", "missing": ["years"]}\n```',
            "completed",
            {"kind": "clarification", "missing": ["years"]},
        ),
        (
            '{"kind": "answer", "claims": {"x": {"value": 0.1}}}',
            "completed",
            {"kind": "answer", "claims": {"x": {"value": Decimal("0.1")}}},
        ),
        (
            {"kind": "answer", "claims": {"x": {"value": 0.1}}},
            "completed",
            {"kind": "answer", "claims": {"x": {"value": Decimal("0.1")}}},
        ),
        ('Here it is: {"kind": "refusal"}', "malformed_output", None),
        ('["kind", "answer"]', "malformed_output", None),
        ('{"kind": "answer", "kind": "refusal"}', "malformed_output", None),
        ('{"kind": "answer", "claims": {"x": {"value": NaN}}}', "malformed_output", None),
        ({"kind": "answer", "claims": {"x": {"value": float("inf")}}}, "malformed_output", None),
        (None, "malformed_output", None),
        ("__import__('os').getcwd()", "malformed_output", None),
        ("{'kind': 'refusal', 'reason': 'out_of_scope'}", "malformed_output", None),
        ('{"kind": "refusal", "reason": "\\ud800"}', "malformed_output", None),  # JSON's escape of a lone surrogate
    ],
)
def test_final_output_is_read_as_json_never_evaluated(
    case_by_id: dict[str, Any], output: Any, status: str, final: Any
) -> None:
    line = run_attempt(case_by_id["t-perm"], Returns(Finish(output)), SHORT).prediction
    assert (line["status"], line["final"]) == (status, final)
    assert line["raw_output"] == (output if isinstance(output, str) else None)


class RaisesWithALoneSurrogate:
    def __call__(self, view: Any, history: Any) -> Any:
        raise ValueError("cannot read \ud800")


LONE_SURROGATE_REPLIES = {
    "final text": Returns(Finish("42\ud800")),
    "final object": Returns(Finish({"kind": "answer\ud800"})),
    "tool name": Returns(CallTools((ToolCall("calc_future_value\ud800", {}),))),
    "text beside calls": Returns(CallTools((), text="thinking\ud800")),
}


@pytest.mark.parametrize("agent", LONE_SURROGATE_REPLIES.values(), ids=LONE_SURROGATE_REPLIES.keys())
def test_a_lone_surrogate_in_a_reply_is_malformed_output(case_by_id: dict[str, Any], agent: Any) -> None:
    """No Unicode text holds a lone surrogate, and no UTF-8 trace can: the reply is the agent's
    malformed output, named, never a crash of its process or of the runtime."""
    line = run_attempt(case_by_id["t-fv"], agent, SHORT).prediction
    assert line["status"] == "malformed_output" and "lone surrogate" in line["status_detail"], line["status_detail"]
    assert line["final"] is None
    json.dumps(line, ensure_ascii=False).encode("utf-8")  # the line is writable as it is


def test_a_lone_surrogate_in_tool_arguments_is_an_error_observation(case_by_id: dict[str, Any]) -> None:
    agent = FirstThen(CallTools((ToolCall("calc_future_value", {"principal": "\ud800"}),)), Finish("{}"))
    entries = run_attempt(case_by_id["t-fv"], agent, SHORT).prediction["trace"]["entries"]
    assert entries[0]["outcome"] == "error" and "lone surrogate" in entries[0]["message"]


def test_an_exception_message_with_a_lone_surrogate_is_a_crash_shown_escaped(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-fv"], RaisesWithALoneSurrogate(), SHORT).prediction
    assert (line["status"], line["status_detail"]) == ("crashed", "the agent raised ValueError: cannot read \\ud800")


def test_a_shape_error_is_left_to_the_scorer(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-perm"], Returns(Finish({"kind": "poem"})), SHORT).prediction
    assert (line["status"], line["final"]) == ("completed", {"kind": "poem"})


def test_an_unrunnable_case_is_recorded_as_incomplete(case_by_id: dict[str, Any]) -> None:
    case = case_by_id["t-fv"]
    case["world"]["tools"][0]["version"] = "calc-fv-v9"
    line = run_attempt(case, answer_agent, SHORT).prediction
    assert line["status"] == "incomplete" and "calc-fv-v9" in line["status_detail"]
    assert line["trace"] == {"format": "finscore-trace/1", "case_id": "t-fv", "attempt": 0, "entries": []}


@pytest.mark.parametrize(
    "arguments",
    [{"deadline_seconds": 0}, {"max_turns": 0}, {"max_tool_calls": 2000}, {"deadline_seconds": -1}],
)
def test_limits_out_of_range_are_refused(arguments: dict[str, Any]) -> None:
    with pytest.raises(RunnerError):
        Limits(**arguments)


def test_the_agent_in_its_process_is_given_the_case_document_passages() -> None:
    # the kit's concentration cases give the household's investment policy as a passage, which
    # an answer may cite (docs/contracts-format.md §2.1); the agent must be shown it, as written
    case = next(c.raw for c in load_kit_cases() if c.case_id == "conc-en")
    written = case["world"]["documents"]
    assert written, "conc-en gives document passages"
    line = run_attempt(json.loads(json.dumps(case)), view_reporter, SHORT).prediction
    assert json.loads(line["final"]["text"])["documents"] == written


def test_an_attempt_reports_the_time_it_took(case_by_id: dict[str, Any]) -> None:
    for case in (case_by_id["t-fv"], {"case_id": "t-broken"}):  # run, and refused before it starts
        before = time.monotonic()
        result = run_attempt(case, answer_agent, SHORT)
        wall = time.monotonic() - before
        assert 0.0 < result.seconds <= wall
    assert result.prediction["status"] == "incomplete"


def test_a_status_detail_is_kept_whole_up_to_its_bound_and_cut_past_it() -> None:
    whole = "x" * MAX_DETAIL
    assert _detail(whole) == whole
    cut = _detail(whole + "y")
    assert len(cut) == MAX_DETAIL and cut.endswith("...") and whole.startswith(cut[:-3])
