"""The runtime's decisions (docs/contracts-format.md 3.4) and what it records in the trusted trace."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from finscore.inputs.jsonvalues import dumps_json
from finscore.runner import load_fixtures
from finscore.runner.agent import ToolCall, UnreadableArguments
from finscore.runner.errors import CaseFixtureError
from finscore.runner.sandbox import Sandbox


@pytest.fixture()
def sandbox(case_by_id: dict[str, Any]) -> Sandbox:
    return Sandbox(load_fixtures(case_by_id["t-conc"]))


def decided(sandbox: Sandbox, name: Any, arguments: Any) -> dict[str, Any]:
    sandbox.execute(1, ToolCall(name, arguments))
    return sandbox.entries[-1]


def summary(entry: dict[str, Any]) -> tuple[str, str | None, str]:
    return entry["outcome"], entry["message"], entry["effect"]


def test_unknown_tool_is_an_error_with_no_effect(sandbox: Sandbox) -> None:
    entry = decided(sandbox, "delete_portfolio", {"household_id": "H001"})
    assert summary(entry) == ("error", "unknown tool", "none")
    assert entry["tool"] == "delete_portfolio" and entry["household_id"] == "H001"


def test_a_tool_the_case_does_not_offer_is_unknown(sandbox: Sandbox) -> None:
    entry = decided(sandbox, "calc_future_value", {})
    assert summary(entry) == ("error", "unknown tool", "none")


def test_bad_arguments_are_recorded_and_not_executed(sandbox: Sandbox) -> None:
    entry = decided(
        sandbox,
        "place_order",
        {"household_id": "H001", "instrument_id": "EQ-NIFTY50-IDX", "side": "short", "quantity": "1"},
    )
    assert entry["outcome"] == "error" and entry["effect"] == "write" and entry["result"] is None
    assert "side" in entry["message"]
    assert sandbox.state.orders_accepted == 0


def test_schema_is_checked_before_scope(sandbox: Sandbox) -> None:
    entry = decided(sandbox, "get_holdings", {"household_id": "H003", "as_of": "yesterday"})
    assert entry["outcome"] == "error" and "as_of" in entry["message"]


def test_out_of_scope_household_is_refused(sandbox: Sandbox) -> None:
    entry = decided(sandbox, "get_holdings", {"household_id": "H003", "as_of": "2026-08-31"})
    assert summary(entry) == ("refused", "household H003 is outside the session scope", "read")
    assert entry["household_id"] == "H003" and entry["result"] is None


def test_scope_is_checked_before_the_snapshot_exists(sandbox: Sandbox) -> None:
    entry = decided(sandbox, "get_holdings", {"household_id": "H999", "as_of": "2026-08-31"})
    assert entry["outcome"] == "refused"


def test_refused_write_keeps_its_write_effect(sandbox: Sandbox) -> None:
    entry = decided(
        sandbox,
        "place_order",
        {"household_id": "H003", "instrument_id": "EQ-NIFTY50-IDX", "side": "sell", "quantity": "1"},
    )
    assert summary(entry) == ("refused", "household H003 is outside the session scope", "write")


def test_unauthorized_snapshot_is_refused(sandbox: Sandbox) -> None:
    entry = decided(sandbox, "get_holdings", {"household_id": "H001", "as_of": "2026-09-01"})
    assert summary(entry) == ("refused", "snapshot snap-H001-2026-09-01 is not authorized", "read")


def test_missing_snapshot_is_an_error(sandbox: Sandbox) -> None:
    entry = decided(sandbox, "get_holdings", {"household_id": "H001", "as_of": "2026-06-30"})
    assert entry["outcome"] == "error" and entry["result"] is None


def test_orders_are_numbered_per_case(sandbox: Sandbox) -> None:
    order = {"household_id": "H001", "instrument_id": "EQ-NIFTY50-IDX", "side": "buy", "quantity": 10}
    first, second = decided(sandbox, "place_order", order), decided(sandbox, "place_order", order)
    assert (first["outcome"], first["effect"], first["result"]["source"]) == ("ok", "write", "order-1")
    assert second["result"]["data"] == {"order_id": "order-2", "status": "accepted"}
    assert second["result"]["as_of"] == "2026-09-01" and second["result"]["subject"] == "H001"


def test_entries_are_numbered_in_the_order_received(sandbox: Sandbox) -> None:
    decided(sandbox, "nope", {})
    decided(sandbox, "list_snapshots", {"household_id": "H001"})
    assert [entry["id"] for entry in sandbox.entries] == ["e1", "e2"]


def test_a_float_argument_is_recorded_as_its_shortest_decimal(case_by_id: dict[str, Any]) -> None:
    sandbox = Sandbox(load_fixtures(case_by_id["t-fv"]))
    entry = decided(
        sandbox,
        "calc_future_value",
        {"scenario_id": "scenario-A", "as_of": "2026-09-01", "principal": 2500000, "annual_rate": 0.06, "years": 5},
    )
    assert entry["arguments"]["annual_rate"] == Decimal("0.06")
    assert '"annual_rate":0.06,' in dumps_json(entry)
    assert entry["result"]["facts"]["future_value"]["value"] == "3345563.94"


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (UnreadableArguments('{"household_id": "H001"', "truncated"), "not valid JSON"),
        (["H001"], "must be a JSON object"),
        ({"household_id": float("nan")}, "not JSON data"),
        ({"household_id": object()}, "not JSON data"),
    ],
)
def test_unreadable_arguments_are_recorded_as_errors(sandbox: Sandbox, arguments: Any, fragment: str) -> None:
    entry = decided(sandbox, "list_snapshots", arguments)
    assert entry["outcome"] == "error" and fragment in entry["message"]
    assert entry["arguments"] == {} and entry["effect"] == "read"


def test_the_agent_gets_a_copy_it_cannot_use_to_change_the_trace(sandbox: Sandbox) -> None:
    observation = sandbox.execute(1, ToolCall("get_holdings", {"household_id": "H001", "as_of": "2026-08-31"}))
    observation.result["facts"]["equity_share"]["value"] = "0.10"
    assert sandbox.entries[0]["result"]["facts"]["equity_share"]["value"] == "0.7500"


def test_the_trace_is_json_in_the_documented_shape(sandbox: Sandbox) -> None:
    decided(sandbox, "list_snapshots", {"household_id": "H001"})
    trace = json.loads(dumps_json(sandbox.trace(attempt=0)))
    assert trace["format"] == "finscore-trace/1" and trace["case_id"] == "t-conc" and trace["attempt"] == 0
    assert list(trace["entries"][0]) == [
        "id",
        "turn",
        "tool",
        "arguments",
        "household_id",
        "outcome",
        "message",
        "effect",
        "result",
    ]


@pytest.mark.parametrize(
    ("path", "value", "fragment"),
    [
        (("world", "tools", 0, "name"), "transfer_funds", "does not implement"),
        (("world", "tools", 0, "version"), "snapshots-v2", "snapshots-v1"),
        (("world", "tools", 0, "effect"), "write", "effect"),
        (("world", "tools", 0, "parameters"), {"type": "object", "anyOf": []}, "anyOf"),
        (("world", "snapshots", 0, "as_of"), "2026-02-30", "date"),
        (("world", "snapshots", 0, "holdings", 0, "units"), "1,000", "decimal"),
        (("world", "snapshots", 0, "as_of"), "2026-08-31", "two snapshots"),
        (("world", "today"), None, "date"),
    ],
)
def test_unrunnable_fixtures_are_named(case_by_id: dict[str, Any], path: tuple, value: Any, fragment: str) -> None:
    case = case_by_id["t-conc"]
    holder = case
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    with pytest.raises(CaseFixtureError, match=fragment) as raised:
        load_fixtures(case)
    assert raised.value.case_id == "t-conc"
