"""What each tool does once its call has been accepted (docs/contracts-format.md 3.2-3.4).

Implementations receive arguments that already passed both schemas and the
household-scope check; what is left for them is the tool's own data rules
(an unauthorized snapshot is refused, a missing one is an error) and the exact
arithmetic. Results are plain JSON data with canonical decimal strings.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Mapping

from finscore.runner import calculators
from finscore.runner.fixtures import Fixtures, Snapshot

#: Tool arguments beyond these bounds are refused as errors: no amount anyone
#: means, and exact powers of huge numbers would take unbounded time and memory.
MAX_ARGUMENT_DIGITS = 60
MAX_ARGUMENT_EXPONENT = 30


class CallRefused(Exception):
    """Authorization refuses the call (outcome `refused`)."""


class CallFailed(Exception):
    """The call cannot be carried out on these fixtures (outcome `error`)."""


class ToolState:
    """The mutable part of one case's world: the orders accepted so far."""

    def __init__(self, fixtures: Fixtures) -> None:
        self.fixtures = fixtures
        self.orders_accepted = 0


def result(source: str, subject: str, as_of: str, facts: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    return {"source": source, "subject": subject, "as_of": as_of, "facts": dict(facts), "data": dict(data)}


def fact(value: str, unit: str) -> dict[str, str]:
    return {"value": value, "unit": unit}


def exact(arguments: Mapping[str, Any], name: str) -> Fraction:
    """An AMOUNT or RATE argument (a JSON number or canonical string) as an exact fraction."""
    value = Decimal(arguments[name])
    if not value.is_zero() and (
        len(value.as_tuple().digits) > MAX_ARGUMENT_DIGITS or abs(value.adjusted()) > MAX_ARGUMENT_EXPONENT
    ):
        raise CallFailed(f"argument {name} is outside the supported range")
    return Fraction(value)


def _known_household(state: ToolState, household_id: str) -> None:
    if household_id not in state.fixtures.households:
        raise CallFailed(f"unknown household {household_id}")


def _calc_future_value(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    value = calculators.future_value(
        exact(arguments, "principal"), exact(arguments, "annual_rate"), int(arguments["years"])
    )
    return result(
        "calc-fv-v1",
        arguments["scenario_id"],
        arguments["as_of"],
        {"future_value": fact(calculators.inr(value), "INR")},
        {},
    )


def _calc_sip_maturity(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    installment = exact(arguments, "monthly_installment")
    years = int(arguments["years"])
    maturity = calculators.sip_maturity(installment, exact(arguments, "annual_rate"), years)
    invested = installment * calculators.MONTHS_PER_YEAR * years
    facts = {
        "maturity_value": fact(calculators.inr(maturity), "INR"),
        "total_invested": fact(calculators.inr(invested), "INR"),
    }
    return result("calc-sip-v1", arguments["scenario_id"], arguments["as_of"], facts, {})


def _calc_emi(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    value = calculators.emi(exact(arguments, "principal"), exact(arguments, "annual_rate"), int(arguments["years"]))
    return result(
        "calc-emi-v1", arguments["scenario_id"], arguments["as_of"], {"emi": fact(calculators.inr(value), "INR")}, {}
    )


def _calc_capital_gains(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    gains = calculators.capital_gains(
        exact(arguments, "sale_value"), exact(arguments, "cost_basis"), int(arguments["holding_months"])
    )
    facts = {
        "capital_gain": fact(calculators.inr(gains.gain), "INR"),
        "taxable_gain": fact(calculators.inr(gains.taxable), "INR"),
        "estimated_tax": fact(calculators.inr(gains.tax), "INR"),
    }
    return result("calc-cg-v1", arguments["scenario_id"], arguments["as_of"], facts, {"term": gains.term})


def _list_snapshots(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    household_id = arguments["household_id"]
    _known_household(state, household_id)
    own = sorted((s for s in state.fixtures.snapshots if s.household_id == household_id), key=lambda s: s.as_of)
    listing = [{"snapshot_id": s.snapshot_id, "as_of": s.as_of, "authorized": s.authorized} for s in own]
    return result(f"snapshot-index-{household_id}", household_id, state.fixtures.today, {}, {"snapshots": listing})


def holdings_result(snapshot: Snapshot) -> dict[str, Any]:
    """What `get_holdings` returns for an authorized snapshot: values and sums exact, rounded once."""
    rows = []
    total = Fraction(0)
    equity = Fraction(0)
    for holding in snapshot.holdings:
        value = Fraction(holding.units) * Fraction(holding.price)
        total += value
        if holding.asset_class == "equity":
            equity += value
        rows.append(
            {
                "instrument_id": holding.instrument_id,
                "name": holding.name,
                "asset_class": holding.asset_class,
                "units": calculators.canonical(holding.units),
                "price": calculators.canonical(holding.price),
                "value": calculators.inr(value),
            }
        )
    share = calculators.ratio(equity / total) if total else "0"
    facts = {
        "total_value": fact(calculators.inr(total), "INR"),
        "equity_value": fact(calculators.inr(equity), "INR"),
        "equity_share": fact(share, "ratio"),
    }
    return result(snapshot.snapshot_id, snapshot.household_id, snapshot.as_of, facts, {"holdings": rows})


def _get_holdings(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    household_id = arguments["household_id"]
    as_of = arguments["as_of"]
    for snapshot in state.fixtures.snapshots:
        if snapshot.household_id == household_id and snapshot.as_of == as_of:
            if not snapshot.authorized:
                raise CallRefused(f"snapshot {snapshot.snapshot_id} is not authorized")
            return holdings_result(snapshot)
    _known_household(state, household_id)
    raise CallFailed(f"no snapshot of household {household_id} dated {as_of}")


def _place_order(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    household_id = arguments["household_id"]
    _known_household(state, household_id)
    exact(arguments, "quantity")
    state.orders_accepted += 1
    order_id = f"order-{state.orders_accepted}"
    return result(order_id, household_id, state.fixtures.today, {}, {"order_id": order_id, "status": "accepted"})


Implementation = Callable[[Mapping[str, Any], ToolState], dict[str, Any]]

IMPLEMENTATIONS: Mapping[str, Implementation] = {
    "calc_future_value": _calc_future_value,
    "calc_sip_maturity": _calc_sip_maturity,
    "calc_emi": _calc_emi,
    "calc_capital_gains": _calc_capital_gains,
    "list_snapshots": _list_snapshots,
    "get_holdings": _get_holdings,
    "place_order": _place_order,
}
