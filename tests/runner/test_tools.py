"""Tool arithmetic and results against hand-computed values and the decimal module's rounding."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from finscore.runner import load_fixtures
from finscore.runner.agent import ToolCall
from finscore.runner.sandbox import Sandbox
from finscore.world.arithmetic import round_half_even

SCENARIO = {"scenario_id": "scenario-A", "as_of": "2026-09-01"}


def calculator_case(case_by_id: dict[str, Any], tool: dict[str, Any]) -> dict[str, Any]:
    case = case_by_id["t-fv"]
    case["world"]["tools"] = [tool]
    return case


def run_one(case: dict[str, Any], name: str, arguments: Any) -> dict[str, Any]:
    sandbox = Sandbox(load_fixtures(case))
    sandbox.execute(1, ToolCall(name, arguments))
    return sandbox.entries[0]


def facts(entry: dict[str, Any]) -> dict[str, str]:
    assert entry["outcome"] == "ok", entry["message"]
    return {name: fact["value"] for name, fact in entry["result"]["facts"].items()}


@given(st.decimals(allow_nan=False, allow_infinity=False, places=6, min_value=-(10**9), max_value=10**9))
def test_rounding_is_the_decimal_modules_half_even(value: Decimal) -> None:
    assert round_half_even(Fraction(value), 2) == value.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)


@pytest.mark.parametrize(
    ("value", "expected"), [("0.005", "0.00"), ("0.015", "0.02"), ("0.025", "0.02"), ("2.675", "2.68")]
)
def test_ties_go_to_even(value: str, expected: str) -> None:
    assert str(round_half_even(Fraction(value), 2)) == expected


def test_future_value_of_the_format_document(case_by_id: dict[str, Any]) -> None:
    # docs/contracts-format.md 3.3: 2500000 × 1.06^5 = 3345563.944 exactly, so 3345563.94.
    entry = run_one(
        case_by_id["t-fv"], "calc_future_value", {**SCENARIO, "principal": "2500000", "annual_rate": "0.06", "years": 5}
    )
    assert entry["result"] == {
        "source": "calc-fv-v1",
        "subject": "scenario-A",
        "as_of": "2026-09-01",
        "facts": {"future_value": {"value": "3345563.94", "unit": "INR"}},
        "data": {},
    }


SIP = {
    "name": "calc_sip_maturity",
    "version": "calc-sip-v1",
    "effect": "read",
    "description": "SIP maturity",
    "parameters": {"type": "object"},
}
EMI = {
    "name": "calc_emi",
    "version": "calc-emi-v1",
    "effect": "read",
    "description": "EMI",
    "parameters": {"type": "object"},
}
CAPITAL_GAINS = {
    "name": "calc_capital_gains",
    "version": "calc-cg-v1",
    "effect": "read",
    "description": "capital gains",
    "parameters": {"type": "object"},
}


def test_sip_maturity_by_hand(case_by_id: dict[str, Any]) -> None:
    # i = 0.01, n = 12: 1.01^12 = 1.126825030131969720661201;
    # 1000 × 0.126825030131969720661201 / 0.01 × 1.01 = 12809.3280433289..., so 12809.33.
    entry = run_one(
        calculator_case(case_by_id, SIP),
        "calc_sip_maturity",
        {**SCENARIO, "monthly_installment": "1000", "annual_rate": "0.12", "years": 1},
    )
    assert facts(entry) == {"maturity_value": "12809.33", "total_invested": "12000.00"}


def test_sip_at_zero_rate_is_the_sum_of_instalments(case_by_id: dict[str, Any]) -> None:
    entry = run_one(
        calculator_case(case_by_id, SIP),
        "calc_sip_maturity",
        {**SCENARIO, "monthly_installment": "1000", "annual_rate": "0", "years": 2},
    )
    assert facts(entry) == {"maturity_value": "24000.00", "total_invested": "24000.00"}


def test_emi_by_hand(case_by_id: dict[str, Any]) -> None:
    # 100000 × 0.01 × 1.01^12 / (1.01^12 − 1) = 1000 × 1.126825030... / 0.126825030... = 8884.8788..., so 8884.88.
    entry = run_one(
        calculator_case(case_by_id, EMI),
        "calc_emi",
        {**SCENARIO, "principal": "100000", "annual_rate": "0.12", "years": 1},
    )
    assert facts(entry) == {"emi": "8884.88"}


def test_emi_at_zero_rate_divides_evenly(case_by_id: dict[str, Any]) -> None:
    entry = run_one(
        calculator_case(case_by_id, EMI), "calc_emi", {**SCENARIO, "principal": "120000", "annual_rate": 0, "years": 1}
    )
    assert facts(entry) == {"emi": "10000.00"}


@pytest.mark.parametrize(
    ("months", "sale", "cost", "expected", "term"),
    [
        # long term: gain 200000, minus the 125000 exemption = 75000, at 12.5 % = 9375
        (
            24,
            "500000",
            "300000",
            {"capital_gain": "200000.00", "taxable_gain": "75000.00", "estimated_tax": "9375.00"},
            "long",
        ),
        # exactly 12 months is not "more than 12": short term, no exemption, 20 % of 200000
        (
            12,
            "500000",
            "300000",
            {"capital_gain": "200000.00", "taxable_gain": "200000.00", "estimated_tax": "40000.00"},
            "short",
        ),
        # a loss is taxed at nothing
        (6, "100", "200.50", {"capital_gain": "-100.50", "taxable_gain": "0.00", "estimated_tax": "0.00"}, "short"),
    ],
)
def test_capital_gains_by_hand(
    case_by_id: dict[str, Any], months: int, sale: str, cost: str, expected: dict[str, str], term: str
) -> None:
    entry = run_one(
        calculator_case(case_by_id, CAPITAL_GAINS),
        "calc_capital_gains",
        {**SCENARIO, "asset_class": "listed_equity", "sale_value": sale, "cost_basis": cost, "holding_months": months},
    )
    assert facts(entry) == expected
    assert entry["result"]["data"] == {"term": term}


def test_holdings_of_the_latest_snapshot_by_hand(case_by_id: dict[str, Any]) -> None:
    # equity 5000 × 300.00 = 1500000.00; debt 1000 × 500.00 = 500000.00; share 0.75
    entry = run_one(case_by_id["t-conc"], "get_holdings", {"household_id": "H001", "as_of": "2026-08-31"})
    assert entry["result"]["source"] == "snap-H001-2026-08-31"
    assert entry["result"]["as_of"] == "2026-08-31"
    assert facts(entry) == {"total_value": "2000000.00", "equity_value": "1500000.00", "equity_share": "0.7500"}
    assert [row["value"] for row in entry["result"]["data"]["holdings"]] == ["1500000.00", "500000.00"]


def test_equity_share_is_rounded_once_to_four_places(case_by_id: dict[str, Any]) -> None:
    # 1000000 / 1500000 = 2/3 = 0.6666..., so 0.6667
    entry = run_one(case_by_id["t-conc"], "get_holdings", {"household_id": "H001", "as_of": "2026-07-31"})
    assert facts(entry)["equity_share"] == "0.6667"


def test_an_empty_portfolio_has_share_zero(case_by_id: dict[str, Any]) -> None:
    case = case_by_id["t-conc"]
    case["world"]["snapshots"][1]["holdings"] = []
    entry = run_one(case, "get_holdings", {"household_id": "H001", "as_of": "2026-08-31"})
    assert facts(entry) == {"total_value": "0.00", "equity_value": "0.00", "equity_share": "0"}


def test_snapshot_list_is_ordered_by_date_and_shows_unauthorized(case_by_id: dict[str, Any]) -> None:
    case = case_by_id["t-conc"]
    case["world"]["snapshots"].reverse()
    entry = run_one(case, "list_snapshots", {"household_id": "H001"})
    assert entry["result"]["source"] == "snapshot-index-H001"
    assert entry["result"]["as_of"] == "2026-09-01"  # world.today
    assert entry["result"]["data"]["snapshots"] == [
        {"snapshot_id": "snap-H001-2026-07-31", "as_of": "2026-07-31", "authorized": True},
        {"snapshot_id": "snap-H001-2026-08-31", "as_of": "2026-08-31", "authorized": True},
        {"snapshot_id": "snap-H001-2026-09-01", "as_of": "2026-09-01", "authorized": False},
    ]


def test_huge_amounts_are_refused_not_computed(case_by_id: dict[str, Any]) -> None:
    entry = run_one(
        case_by_id["t-fv"],
        "calc_future_value",
        {**SCENARIO, "principal": Decimal("1E+999999"), "annual_rate": "0.06", "years": 100},
    )
    assert entry["outcome"] == "error"
    assert "principal" in entry["message"]
