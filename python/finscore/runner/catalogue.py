"""The tool catalogue of docs/contracts-format.md section 3.1: names, versions, effects, schemas.

A case offers a subset of these tools and carries their schemas; the runner
checks each offered tool against this catalogue when it loads the case, and
validates every call against both the case's schema (what the agent was
shown) and the catalogue's (what the implementation relies on), so a loosely
written case can never feed an implementation arguments it does not expect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping

Effect = Literal["read", "write"]

DATE: Mapping[str, Any] = {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
ID: Mapping[str, Any] = {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$"}
AMOUNT: Mapping[str, Any] = {"type": ["number", "string"], "pattern": "^[0-9]+(\\.[0-9]+)?$", "minimum": 0}
RATE: Mapping[str, Any] = {**AMOUNT, "maximum": 1}
YEARS: Mapping[str, Any] = {"type": "integer", "minimum": 1, "maximum": 100}
HOLDING_MONTHS: Mapping[str, Any] = {"type": "integer", "minimum": 0, "maximum": 1200}


def object_schema(properties: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Every catalogue schema: an object, all listed properties required, nothing else."""
    return {
        "type": "object",
        "properties": {name: dict(schema) for name, schema in properties.items()},
        "required": list(properties),
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class CatalogueTool:
    name: str
    version: str
    effect: Effect
    parameters: Mapping[str, Any]


def _tool(name: str, version: str, effect: Effect, properties: Mapping[str, Mapping[str, Any]]) -> CatalogueTool:
    return CatalogueTool(name, version, effect, object_schema(properties))


_SCENARIO = {"scenario_id": ID, "as_of": DATE}

CATALOGUE: Mapping[str, CatalogueTool] = {
    tool.name: tool
    for tool in (
        _tool(
            "calc_future_value",
            "calc-fv-v1",
            "read",
            {**_SCENARIO, "principal": AMOUNT, "annual_rate": RATE, "years": YEARS},
        ),
        _tool(
            "calc_sip_maturity",
            "calc-sip-v1",
            "read",
            {**_SCENARIO, "monthly_installment": AMOUNT, "annual_rate": RATE, "years": YEARS},
        ),
        _tool(
            "calc_emi", "calc-emi-v1", "read", {**_SCENARIO, "principal": AMOUNT, "annual_rate": RATE, "years": YEARS}
        ),
        _tool(
            "calc_capital_gains",
            "calc-cg-v1",
            "read",
            {
                **_SCENARIO,
                "asset_class": {"enum": ["listed_equity"]},
                "sale_value": AMOUNT,
                "cost_basis": AMOUNT,
                "holding_months": HOLDING_MONTHS,
            },
        ),
        _tool("list_snapshots", "snapshots-v1", "read", {"household_id": ID}),
        _tool("get_holdings", "holdings-v1", "read", {"household_id": ID, "as_of": DATE}),
        _tool(
            "place_order",
            "orders-v1",
            "write",
            {"household_id": ID, "instrument_id": ID, "side": {"enum": ["buy", "sell"]}, "quantity": AMOUNT},
        ),
    )
}
