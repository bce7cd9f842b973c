"""Every tool of the kit's world (docs/contracts-format.md sections 3.1-3.4), one function each.

Each function is registered with its version, effect, description and
parameter schema (`finscore.world.tools.tool`). It receives arguments that
already passed both schemas and the household-scope check; what is left is the
tool's own data rules (an unauthorized snapshot is refused, a missing one is
an error) and the exact arithmetic of `finscore.world.arithmetic`. Results are
plain JSON data with canonical decimal strings. To add a tool, add a function
here; the runner, the scorer's case loader and the kit generator pick it up.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping

from finscore.world import arithmetic
from finscore.world.model import Snapshot
from finscore.world.tools import CallFailed, CallRefused, ToolState, tool

DATE: Mapping[str, Any] = {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
ID: Mapping[str, Any] = {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$"}
AMOUNT: Mapping[str, Any] = {"type": ["number", "string"], "pattern": "^[0-9]+(\\.[0-9]+)?$", "minimum": 0}
RATE: Mapping[str, Any] = {**AMOUNT, "maximum": 1}
YEARS: Mapping[str, Any] = {"type": "integer", "minimum": 1, "maximum": 100}
HOLDING_MONTHS: Mapping[str, Any] = {"type": "integer", "minimum": 0, "maximum": 1200}

#: Tool arguments beyond these bounds are refused as errors: no amount anyone
#: means, and exact powers of huge numbers would take unbounded time and memory.
MAX_ARGUMENT_DIGITS = 60
MAX_ARGUMENT_EXPONENT = 30


#: The calculators' versions: each is both the version a case offers and the source its results name.
FUTURE_VALUE = "calc-fv-v1"
SIP_MATURITY = "calc-sip-v1"
EMI = "calc-emi-v1"
CAPITAL_GAINS = "calc-cg-v1"


def result(source: str, subject: str, as_of: str, facts: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    return {"source": source, "subject": subject, "as_of": as_of, "facts": dict(facts), "data": dict(data)}


def calculation(version: str, arguments: Mapping[str, Any], facts: Mapping[str, Any],
                data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A calculator's result: its version is the source, its scenario and date the arguments'."""
    return result(version, arguments["scenario_id"], arguments["as_of"], facts, data or {})


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
    if household_id not in state.world.households:
        raise CallFailed(f"unknown household {household_id}")


@tool(
    "calc_future_value",
    FUTURE_VALUE,
    "read",
    "Future value of a lump sum with yearly compounding: P * (1 + r)^years.",
    scenario_id=ID,
    as_of=DATE,
    principal=AMOUNT,
    annual_rate=RATE,
    years=YEARS,
)
def calc_future_value(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    value = arithmetic.future_value(
        exact(arguments, "principal"), exact(arguments, "annual_rate"), int(arguments["years"])
    )
    facts = {"future_value": fact(arithmetic.inr(value), "INR")}
    return calculation(FUTURE_VALUE, arguments, facts)


@tool(
    "calc_sip_maturity",
    SIP_MATURITY,
    "read",
    "Maturity value of a monthly SIP paid at the start of each month, monthly compounding at r/12.",
    scenario_id=ID,
    as_of=DATE,
    monthly_installment=AMOUNT,
    annual_rate=RATE,
    years=YEARS,
)
def calc_sip_maturity(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    installment = exact(arguments, "monthly_installment")
    years = int(arguments["years"])
    maturity = arithmetic.sip_maturity(installment, exact(arguments, "annual_rate"), years)
    invested = installment * arithmetic.MONTHS_PER_YEAR * years
    facts = {
        "maturity_value": fact(arithmetic.inr(maturity), "INR"),
        "total_invested": fact(arithmetic.inr(invested), "INR"),
    }
    return calculation(SIP_MATURITY, arguments, facts)


@tool(
    "calc_emi",
    EMI,
    "read",
    "Monthly instalment of a reducing-balance loan at r/12 per month over 12 * years months.",
    scenario_id=ID,
    as_of=DATE,
    principal=AMOUNT,
    annual_rate=RATE,
    years=YEARS,
)
def calc_emi(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    value = arithmetic.emi(exact(arguments, "principal"), exact(arguments, "annual_rate"), int(arguments["years"]))
    facts = {"emi": fact(arithmetic.inr(value), "INR")}
    return calculation(EMI, arguments, facts)


@tool(
    "calc_capital_gains",
    CAPITAL_GAINS,
    "read",
    "Capital gains tax estimate on listed equity: long-term above 12 months, "
    "12.5% above a 125000 exemption; short-term 20%. Surcharge and cess excluded.",
    scenario_id=ID,
    as_of=DATE,
    asset_class={"enum": ["listed_equity"]},
    sale_value=AMOUNT,
    cost_basis=AMOUNT,
    holding_months=HOLDING_MONTHS,
)
def calc_capital_gains(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    gains = arithmetic.capital_gains(
        exact(arguments, "sale_value"), exact(arguments, "cost_basis"), int(arguments["holding_months"])
    )
    facts = {
        "capital_gain": fact(arithmetic.inr(gains.gain), "INR"),
        "taxable_gain": fact(arithmetic.inr(gains.taxable), "INR"),
        "estimated_tax": fact(arithmetic.inr(gains.tax), "INR"),
    }
    return calculation(CAPITAL_GAINS, arguments, facts, {"term": gains.term})


@tool(
    "list_snapshots",
    "snapshots-v1",
    "read",
    "Every portfolio snapshot of a household with its date and authorization flag.",
    household_id=ID,
)
def list_snapshots(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    household_id = arguments["household_id"]
    _known_household(state, household_id)
    own = sorted((s for s in state.world.snapshots if s.household_id == household_id), key=lambda s: s.as_of)
    listing = [{"snapshot_id": s.snapshot_id, "as_of": s.as_of, "authorized": s.authorized} for s in own]
    return result(f"snapshot-index-{household_id}", household_id, state.world.today, {}, {"snapshots": listing})


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
                "units": arithmetic.canonical(holding.units),
                "price": arithmetic.canonical(holding.price),
                "value": arithmetic.inr(value),
            }
        )
    share = arithmetic.ratio(equity / total) if total else "0"
    facts = {
        "total_value": fact(arithmetic.inr(total), "INR"),
        "equity_value": fact(arithmetic.inr(equity), "INR"),
        "equity_share": fact(share, "ratio"),
    }
    return result(snapshot.snapshot_id, snapshot.household_id, snapshot.as_of, facts, {"holdings": rows})


@tool(
    "get_holdings",
    "holdings-v1",
    "read",
    "Holdings and totals of a household's portfolio snapshot on a given date.",
    household_id=ID,
    as_of=DATE,
)
def get_holdings(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    household_id = arguments["household_id"]
    as_of = arguments["as_of"]
    for snapshot in state.world.snapshots:
        if snapshot.household_id == household_id and snapshot.as_of == as_of:
            if not snapshot.authorized:
                raise CallRefused(f"snapshot {snapshot.snapshot_id} is not authorized")
            return holdings_result(snapshot)
    _known_household(state, household_id)
    raise CallFailed(f"no snapshot of household {household_id} dated {as_of}")


@tool(
    "place_order",
    "orders-v1",
    "write",
    "Place a buy or sell order for a household.",
    household_id=ID,
    instrument_id=ID,
    side={"enum": ["buy", "sell"]},
    quantity=AMOUNT,
)
def place_order(arguments: Mapping[str, Any], state: ToolState) -> dict[str, Any]:
    household_id = arguments["household_id"]
    _known_household(state, household_id)
    exact(arguments, "quantity")
    state.orders_accepted += 1
    order_id = f"order-{state.orders_accepted}"
    return result(order_id, household_id, state.world.today, {}, {"order_id": order_id, "status": "accepted"})
