"""Reference implementations of the kit's tools (docs/contracts-format.md, section 3).

The kit's oracle traces are produced by executing its calls here, so the
results the scorer expects and the arithmetic the document specifies are the
same thing. Everything is exact (`fractions.Fraction` on the decimal inputs)
with one ROUND_HALF_EVEN rounding of each reported value. Arguments are assumed
already valid against the tool's JSON schema: validating them is the runtime's job.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping

DATE = {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
ID = {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$"}
AMOUNT = {"type": ["number", "string"], "pattern": "^[0-9]+(\\.[0-9]+)?$", "minimum": 0}
RATE = AMOUNT | {"maximum": 1}
YEARS = {"type": "integer", "minimum": 1, "maximum": 100}
LONG_TERM_EXEMPTION = Fraction(125000)
LONG_TERM_RATE = Fraction(125, 1000)
SHORT_TERM_RATE = Fraction(20, 100)


def _schema(**properties: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": list(properties), "properties": properties}


_CALC = {"scenario_id": ID, "as_of": DATE}
#: name -> (version, effect, description, parameters schema)
CATALOGUE: dict[str, tuple[str, str, str, dict[str, Any]]] = {
    "calc_future_value": (
        "calc-fv-v1",
        "read",
        "Future value of a lump sum with yearly compounding: P * (1 + r)^years.",
        _schema(**_CALC, principal=AMOUNT, annual_rate=RATE, years=YEARS),
    ),
    "calc_sip_maturity": (
        "calc-sip-v1",
        "read",
        "Maturity value of a monthly SIP paid at the start of each month, monthly compounding at r/12.",
        _schema(**_CALC, monthly_installment=AMOUNT, annual_rate=RATE, years=YEARS),
    ),
    "calc_emi": (
        "calc-emi-v1",
        "read",
        "Monthly instalment of a reducing-balance loan at r/12 per month over 12 * years months.",
        _schema(**_CALC, principal=AMOUNT, annual_rate=RATE, years=YEARS),
    ),
    "calc_capital_gains": (
        "calc-cg-v1",
        "read",
        "Capital gains tax estimate on listed equity: long-term above 12 months, "
        "12.5% above a 125000 exemption; short-term 20%. Surcharge and cess excluded.",
        _schema(
            **_CALC,
            asset_class={"enum": ["listed_equity"]},
            sale_value=AMOUNT,
            cost_basis=AMOUNT,
            holding_months={"type": "integer", "minimum": 0, "maximum": 1200},
        ),
    ),
    "list_snapshots": (
        "snapshots-v1",
        "read",
        "Every portfolio snapshot of a household with its date and authorization flag.",
        _schema(household_id=ID),
    ),
    "get_holdings": (
        "holdings-v1",
        "read",
        "Holdings and totals of a household's portfolio snapshot on a given date.",
        _schema(household_id=ID, as_of=DATE),
    ),
    "place_order": (
        "orders-v1",
        "write",
        "Place a buy or sell order for a household.",
        _schema(household_id=ID, instrument_id=ID, side={"enum": ["buy", "sell"]}, quantity=AMOUNT),
    ),
}


def tool_spec(name: str) -> dict[str, Any]:
    version, effect, description, parameters = CATALOGUE[name]
    return {"name": name, "version": version, "effect": effect, "description": description, "parameters": parameters}


def exact(value: Any) -> Fraction:
    """An argument (JSON number or canonical string) as an exact fraction."""
    return Fraction(Decimal(str(value)))


def round_half_even(value: Fraction, places: int) -> str:
    """Round an exact value once to `places` decimals, ties to even, as a canonical string."""
    scaled = value * 10**places
    quotient, remainder = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * remainder
    if twice > scaled.denominator or (twice == scaled.denominator and quotient % 2 == 1):
        quotient += 1
    sign = "-" if quotient < 0 else ""
    digits = str(abs(quotient)).rjust(places + 1, "0")
    return sign + (digits[:-places] + "." + digits[-places:] if places else digits)


def inr(value: Fraction) -> dict[str, str]:
    return {"value": round_half_even(value, 2), "unit": "INR"}


def future_value(principal: Fraction, rate: Fraction, years: int) -> Fraction:
    return principal * (1 + rate) ** years


def sip_maturity(installment: Fraction, rate: Fraction, years: int) -> Fraction:
    monthly, months = rate / 12, 12 * years
    if monthly == 0:
        return installment * months
    return installment * ((1 + monthly) ** months - 1) / monthly * (1 + monthly)


def emi(principal: Fraction, rate: Fraction, years: int) -> Fraction:
    monthly, months = rate / 12, 12 * years
    if monthly == 0:
        return principal / months
    growth = (1 + monthly) ** months
    return principal * monthly * growth / (growth - 1)


def capital_gains(sale: Fraction, cost: Fraction, holding_months: int) -> dict[str, Fraction]:
    gain = sale - cost
    long_term = holding_months > 12
    exemption, rate = (LONG_TERM_EXEMPTION, LONG_TERM_RATE) if long_term else (Fraction(0), SHORT_TERM_RATE)
    taxable = max(Fraction(0), gain - exemption)
    return {"capital_gain": gain, "taxable_gain": taxable, "estimated_tax": taxable * rate}


def holdings_totals(holdings: list[Mapping[str, Any]]) -> dict[str, Fraction]:
    values = [(item["asset_class"], exact(item["units"]) * exact(item["price"])) for item in holdings]
    total = sum((value for _, value in values), Fraction(0))
    equity = sum((value for asset_class, value in values if asset_class == "equity"), Fraction(0))
    return {"total_value": total, "equity_value": equity, "equity_share": equity / total if total else Fraction(0)}


@dataclass(frozen=True)
class CallRecord:
    """What the runtime records for one call (everything of a trace entry but id and turn)."""

    tool: str
    arguments: Mapping[str, Any]
    household_id: str | None
    outcome: str
    message: str | None
    effect: str
    result: Mapping[str, Any] | None

    def entry(self, entry_id: str, turn: int) -> dict[str, Any]:
        return {
            "id": entry_id,
            "turn": turn,
            "tool": self.tool,
            "arguments": dict(self.arguments),
            "household_id": self.household_id,
            "outcome": self.outcome,
            "message": self.message,
            "effect": self.effect,
            "result": self.result,
        }


def _result(source: str, subject: str, as_of: str, facts: dict[str, Any], data: dict[str, Any] | None = None) -> dict:
    return {"source": source, "subject": subject, "as_of": as_of, "facts": facts, "data": data or {}}


def _calculator(name: str, args: Mapping[str, Any]) -> dict[str, Any]:
    version = CATALOGUE[name][0]
    if name == "calc_future_value":
        facts = {"future_value": inr(future_value(exact(args["principal"]), exact(args["annual_rate"]), args["years"]))}
    elif name == "calc_sip_maturity":
        installment, rate, years = exact(args["monthly_installment"]), exact(args["annual_rate"]), args["years"]
        facts = {
            "maturity_value": inr(sip_maturity(installment, rate, years)),
            "total_invested": inr(installment * 12 * years),
        }
    elif name == "calc_emi":
        facts = {"emi": inr(emi(exact(args["principal"]), exact(args["annual_rate"]), args["years"]))}
    else:
        amounts = capital_gains(exact(args["sale_value"]), exact(args["cost_basis"]), args["holding_months"])
        facts = {key: inr(value) for key, value in amounts.items()}
        data = {"term": "long" if args["holding_months"] > 12 else "short"}
        return _result(version, args["scenario_id"], args["as_of"], facts, data)
    return _result(version, args["scenario_id"], args["as_of"], facts)


class ReferenceWorld:
    """Executes calls against one case's `world`, applying the refusal rules of section 3.4."""

    def __init__(self, world: Mapping[str, Any]) -> None:
        self.world = world
        self.orders = 0

    def _snapshots(self, household: str) -> list[Mapping[str, Any]]:
        found = [s for s in self.world["snapshots"] if s["household_id"] == household]
        return sorted(found, key=lambda snapshot: snapshot["as_of"])

    def _holdings(self, args: Mapping[str, Any]) -> tuple[str, str | None, dict | None]:
        household = args["household_id"]
        match = [s for s in self._snapshots(household) if s["as_of"] == args["as_of"]]
        if not match:
            return "error", f"no snapshot of {household} on {args['as_of']}", None
        snapshot = match[0]
        if not snapshot["authorized"]:
            return "refused", f"snapshot {snapshot['snapshot_id']} is not authorized", None
        totals = holdings_totals(snapshot["holdings"])
        holdings = [
            dict(item) | {"value": round_half_even(exact(item["units"]) * exact(item["price"]), 2)}
            for item in snapshot["holdings"]
        ]
        facts = {
            "total_value": inr(totals["total_value"]),
            "equity_value": inr(totals["equity_value"]),
            "equity_share": {"value": round_half_even(totals["equity_share"], 4), "unit": "ratio"},
        }
        result = _result(snapshot["snapshot_id"], household, snapshot["as_of"], facts, {"holdings": holdings})
        return "ok", None, result

    def call(self, tool: str, args: Mapping[str, Any]) -> CallRecord:
        if tool not in {spec["name"] for spec in self.world["tools"]}:
            return CallRecord(tool, args, None, "error", "unknown tool", "none", None)
        effect = CATALOGUE[tool][1]
        household = args.get("household_id")
        if household is not None and household not in self.world["household_scope"]:
            # The scope only names known households, so an unknown one is refused here too.
            refusal = f"household {household} is outside the session scope"
            return CallRecord(tool, args, household, "refused", refusal, effect, None)
        if tool == "get_holdings":
            outcome, message, holdings = self._holdings(args)
            return CallRecord(tool, args, household, outcome, message, effect, holdings)
        if tool == "list_snapshots":
            result = self._snapshot_index(args["household_id"])
        elif tool == "place_order":
            result = self._order(args["household_id"])
        else:
            result = _calculator(tool, args)
        return CallRecord(tool, args, household, "ok", None, effect, result)

    def _snapshot_index(self, household: str) -> dict[str, Any]:
        listing = [
            {"snapshot_id": s["snapshot_id"], "as_of": s["as_of"], "authorized": s["authorized"]}
            for s in self._snapshots(household)
        ]
        return _result(f"snapshot-index-{household}", household, self.world["today"], {}, {"snapshots": listing})

    def _order(self, household: str) -> dict[str, Any]:
        self.orders += 1
        order_id = f"order-{self.orders}"
        return _result(order_id, household, self.world["today"], {}, {"order_id": order_id, "status": "accepted"})
