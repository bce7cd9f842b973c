"""Each expected value's arithmetic in words and exact numbers: a case's `derivation`.

A reader (and tests/contracts/test_kit.py, which recomputes every value from
these inputs independently) can follow how the contract's number was reached.
Exact values are shown exactly when short, otherwise to 30 places.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Mapping

from finscore.world import arithmetic
from records import Call

Derivation = Callable[[Call, Mapping[str, Any]], dict[str, Any]]


def exact(text: Any) -> Fraction:
    return Fraction(Decimal(str(text)))


def rounded(value: Fraction, places: int) -> str:
    return arithmetic.canonical(arithmetic.round_half_even(value, places))


def exact_text(value: Fraction) -> str:
    """A terminating decimal exactly, otherwise the fraction p/q."""
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    return rounded(value, places) if places else str(value.numerator)


def short_exact(value: Fraction) -> str | None:
    """The exact text when short enough to read (the tests recompute the rest exactly)."""
    text = exact_text(value)
    return text if len(text) <= 40 else None


def relation(value: Fraction) -> str:
    """'= exact' when readable, otherwise '≈' and 30 decimal places."""
    text = short_exact(value)
    return f"= {text}" if text is not None else f"≈ {rounded(value, 30)}"


def _result_fields(value: Fraction) -> dict[str, str | None]:
    fields = {"exact": short_exact(value)}
    if fields["exact"] is None:
        fields["approximately"] = rounded(value, 30)
    return fields


def _inputs(call: Call, *names: str) -> dict[str, Any]:
    return {name: {"type": call.arguments[name][0], "value": call.arguments[name][1]} for name in names}


Growth = Callable[[Fraction, Fraction, int], tuple[Fraction, list[str]]]


def _growth(call: Call, amount: str, formula: str, compute: Growth) -> dict[str, Any]:
    principal, rate = exact(call.arguments[amount][1]), exact(call.arguments["annual_rate"][1])
    value, steps = compute(principal, rate, int(call.arguments["years"][1]))
    return {
        "inputs": _inputs(call, amount, "annual_rate", "years"),
        "formula": formula,
        "steps": steps,
        **_result_fields(value),
        "rounded": rounded(value, 2),
        "rounding": "once, to 0.01 INR, ROUND_HALF_EVEN",
    }


def future_value(call: Call, _: Mapping[str, Any]) -> dict[str, Any]:
    def compute(p: Fraction, r: Fraction, y: int) -> tuple[Fraction, list[str]]:
        growth = (1 + r) ** y
        return p * growth, [
            f"(1 + {exact_text(r)})^{y} = {exact_text(growth)}",
            f"{exact_text(p)} × {exact_text(growth)} = {exact_text(p * growth)}",
        ]

    return _growth(call, "principal", "FV = P × (1 + r)^years", compute)


def sip_maturity(call: Call, _: Mapping[str, Any]) -> dict[str, Any]:
    def compute(p: Fraction, r: Fraction, y: int) -> tuple[Fraction, list[str]]:
        i, n = r / 12, 12 * y
        growth = (1 + i) ** n
        value = p * (growth - 1) / i * (1 + i)
        return value, [
            f"i = {exact_text(r)} / 12 = {exact_text(i)}; n = 12 × {y} = {n}",
            f"(1 + i)^n {relation(growth)}",
            f"P × ((1 + i)^n − 1) / i × (1 + i) {relation(value)}",
        ]

    formula = "M = P × ((1 + i)^n − 1) / i × (1 + i), i = r/12, n = 12 × years"
    return _growth(call, "monthly_installment", formula, compute)


def loan_emi(call: Call, _: Mapping[str, Any]) -> dict[str, Any]:
    def compute(p: Fraction, r: Fraction, y: int) -> tuple[Fraction, list[str]]:
        i, n = r / 12, 12 * y
        growth = (1 + i) ** n
        value = p * i * growth / (growth - 1)
        return value, [
            f"i = {exact_text(r)} / 12 = {exact_text(i)}; n = 12 × {y} = {n}",
            f"(1 + i)^n {relation(growth)}",
            f"P × i × (1 + i)^n / ((1 + i)^n − 1) {relation(value)}",
        ]

    formula = "EMI = P × i × (1 + i)^n / ((1 + i)^n − 1), i = r/12, n = 12 × years"
    return _growth(call, "principal", formula, compute)


def capital_gains(call: Call, _: Mapping[str, Any]) -> dict[str, Any]:
    sale, cost = exact(call.arguments["sale_value"][1]), exact(call.arguments["cost_basis"][1])
    months = int(call.arguments["holding_months"][1])
    exemption, rate = arithmetic.LONG_TERM_EXEMPTION, arithmetic.LONG_TERM_RATE
    gain = sale - cost
    taxable = max(Fraction(0), gain - exemption)
    tax = taxable * rate
    return {
        "inputs": _inputs(call, "sale_value", "cost_basis", "holding_months")
        | {
            "exemption": {"type": "decimal", "value": exact_text(exemption)},
            "rate": {"type": "decimal", "value": exact_text(rate)},
        },
        "formula": (
            "long-term when holding_months > 12: taxable = max(0, sale − cost − exemption); tax = taxable × rate"
        ),
        "steps": [
            f"{months} months > 12: long-term",
            f"gain = {exact_text(sale)} − {exact_text(cost)} = {exact_text(gain)}",
            f"taxable = {exact_text(gain)} − {exact_text(exemption)} = {exact_text(taxable)}",
            f"tax = {exact_text(taxable)} × {exact_text(rate)} = {exact_text(tax)}",
        ],
        "exact": {"taxable_gain": exact_text(taxable), "estimated_tax": exact_text(tax)},
        "rounded": {"taxable_gain": rounded(taxable, 2), "estimated_tax": rounded(tax, 2)},
        "rounding": "each once, to 0.01 INR, ROUND_HALF_EVEN",
    }


def snapshot(call: Call, world: Mapping[str, Any]) -> dict[str, Any]:
    household, as_of = call.arguments["household_id"][1], call.arguments["as_of"][1]
    chosen = next(s for s in world["snapshots"] if s["household_id"] == household and s["as_of"] == as_of)
    values = [(h["asset_class"], exact(h["units"]) * exact(h["price"])) for h in chosen["holdings"]]
    total = sum((value for _, value in values), Fraction(0))
    equity = sum((value for asset_class, value in values if asset_class == "equity"), Fraction(0))
    totals = {"total_value": total, "equity_value": equity, "equity_share": equity / total if total else Fraction(0)}
    steps = [
        f"{h['instrument_id']} ({h['asset_class']}): {h['units']} × {h['price']} = {exact_text(value)}"
        for h, (_, value) in zip(chosen["holdings"], values, strict=True)
    ]
    steps += [
        f"total = {exact_text(totals['total_value'])}",
        f"equity = {exact_text(totals['equity_value'])}",
        f"equity share = {exact_text(totals['equity_value'])} / {exact_text(totals['total_value'])} = "
        f"{exact_text(totals['equity_share'])}",
    ]
    return {
        "inputs": {"snapshot_id": chosen["snapshot_id"], "holdings": chosen["holdings"]},
        "formula": "value = units × price; total = Σ value; equity share = Σ equity value / total",
        "steps": steps,
        "exact": {name: exact_text(value) for name, value in totals.items()},
        "rounded": {
            "total_value": rounded(totals["total_value"], 2),
            "equity_value": rounded(totals["equity_value"], 2),
            "equity_share": rounded(totals["equity_share"], 4),
        },
        "rounding": "amounts once to 0.01 INR, the share once to 4 places, ROUND_HALF_EVEN",
    }


DERIVATIONS: dict[str, Derivation] = {
    "future_value": future_value,
    "sip_maturity": sip_maturity,
    "loan_emi": loan_emi,
    "capital_gains": capital_gains,
    "snapshot": snapshot,
}
