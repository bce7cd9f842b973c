"""Writes the public kit (cases, oracle records, probes) from compact definitions.

The kit is data; this module is how it was made, kept so that anyone can
regenerate it and a test can check the committed files are exactly what it
produces. Expected values come from executing each case's expected call with
the reference tools (exact fractions); the tests recompute them independently
from each case's documented `derivation`.

Run `python -m finscore.contracts.authoring` to rewrite the kit,
`--check` to only compare.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from finscore.contracts.authoring_texts import QUESTIONS
from finscore.contracts.reference_tools import (
    LONG_TERM_EXEMPTION,
    LONG_TERM_RATE,
    ReferenceWorld,
    exact,
    holdings_totals,
    round_half_even,
    tool_spec,
)

KIT = Path(__file__).parent / "kit"
TODAY = "2026-09-20"
SCENARIO_DATE = "2026-09-01"
LANGUAGES = ("en", "hi", "ta")
SCRIPT_OF = {"hi": "digits_devanagari", "ta": "digits_tamil"}
_ZERO = {"digits_devanagari": 0x0966, "digits_tamil": 0x0BE6}

HOUSEHOLDS = [
    {"household_id": "H001", "name": "Sharma household"},
    {"household_id": "H002", "name": "Menon household"},
    {"household_id": "H003", "name": "Iyer household"},
]


def _snapshot(household: str, as_of: str, authorized: bool, holdings: list[tuple[str, str, str, str, str]]) -> dict:
    return {
        "snapshot_id": f"snap-{household}-{as_of}",
        "household_id": household,
        "as_of": as_of,
        "authorized": authorized,
        "holdings": [dict(zip(("instrument_id", "name", "asset_class", "units", "price"), row)) for row in holdings],
    }


SNAPSHOTS = [
    _snapshot(
        "H001",
        "2026-06-30",
        True,
        [
            ("EQ-NIFTY50-IDX", "Nifty 50 index fund", "equity", "5000", "290.00"),
            ("EQ-RELIANCE", "Reliance Industries", "equity", "400", "2375.00"),
            ("DEBT-GILT-FUND", "Gilt fund", "debt", "30000", "39.50"),
            ("GOLD-SGB", "Sovereign gold bond", "gold", "40", "5500.00"),
        ],
    ),
    _snapshot(
        "H001",
        "2026-08-31",
        True,
        [
            ("EQ-NIFTY50-IDX", "Nifty 50 index fund", "equity", "5000", "300.00"),
            ("EQ-RELIANCE", "Reliance Industries", "equity", "400", "2675.00"),
            ("DEBT-GILT-FUND", "Gilt fund", "debt", "30000", "40.00"),
            ("GOLD-SGB", "Sovereign gold bond", "gold", "40", "5750.00"),
        ],
    ),
    _snapshot(
        "H002",
        "2026-06-30",
        True,
        [
            ("EQ-HDFCBANK", "HDFC Bank", "equity", "300", "1650.50"),
            ("DEBT-LIQUID", "Liquid fund", "debt", "1000", "1200.10"),
            ("CASH-SAVINGS", "Savings account", "cash", "150000", "1.00"),
        ],
    ),
    _snapshot(
        "H002",
        "2026-08-31",
        True,
        [
            ("EQ-HDFCBANK", "HDFC Bank", "equity", "300", "1710.25"),
            ("DEBT-LIQUID", "Liquid fund", "debt", "1000", "1208.40"),
            ("CASH-SAVINGS", "Savings account", "cash", "191005.50", "1.00"),
        ],
    ),
    _snapshot(
        "H002",
        "2026-09-15",
        False,
        [
            ("EQ-HDFCBANK", "HDFC Bank", "equity", "300", "1750.00"),
            ("DEBT-LIQUID", "Liquid fund", "debt", "1000", "1215.00"),
            ("CASH-SAVINGS", "Savings account", "cash", "210000", "1.00"),
        ],
    ),
    _snapshot(
        "H003",
        "2026-08-31",
        True,
        [
            ("EQ-INFY", "Infosys", "equity", "500", "1500.00"),
            ("DEBT-FD", "Fixed deposit", "debt", "1", "250000.00"),
        ],
    ),
]

Typed = dict[str, tuple[str, Any]]


@dataclass(frozen=True)
class Call:
    """A call with typed arguments: both the contract's requirement and the oracle's call."""

    tool: str
    arguments: Typed

    def json_arguments(self, numbers: bool = False) -> dict[str, Any]:
        """As an agent would send them: decimals as strings, or as JSON numbers when `numbers`."""
        out: dict[str, Any] = {}
        for name, (kind, value) in self.arguments.items():
            out[name] = (float(value) if "." in value else int(value)) if kind == "decimal" and numbers else value
        return out

    def requirement(self, requirement_id: str, category: str) -> dict[str, Any]:
        arguments = {name: {"type": kind, "value": value} for name, (kind, value) in self.arguments.items()}
        return {"id": requirement_id, "tool": self.tool, "arguments": arguments, "category": category}


def _calc(tool: str, scenario: str, **amounts: tuple[str, Any]) -> Call:
    return Call(tool, {"scenario_id": ("string", scenario), "as_of": ("date", SCENARIO_DATE), **amounts})


def _holdings(household: str, as_of: str) -> Call:
    return Call("get_holdings", {"household_id": ("string", household), "as_of": ("date", as_of)})


def _listing(household: str) -> Call:
    return Call("list_snapshots", {"household_id": ("string", household)})


@dataclass(frozen=True)
class ClaimSpec:
    name: str
    tolerance: str | None = None


@dataclass(frozen=True)
class Family:
    name: str
    prefix: str
    tools: tuple[str, ...]
    household: str
    response: dict[str, Any]
    policy: str | None = None
    claims: tuple[ClaimSpec, ...] = ()
    expected_call: Call | None = None
    plan_kind: str = "sequence"
    permitted: tuple[str, ...] = ()
    requirement_category: str = "tool_choice"
    no_calls_category: str = "tool_choice"
    cached: tuple[Call, ...] = ()
    oracle_calls: dict[str, tuple[Call, ...]] = field(default_factory=dict)
    derivation: Callable[[Call, dict], dict] | None = None


# --- derivations: the arithmetic of each expected value, in words and exact numbers ----------


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
    return round_half_even(value, places) if places else str(value.numerator)


def short_exact(value: Fraction) -> str | None:
    """The exact text when short enough to read (the tests recompute the rest exactly)."""
    text = exact_text(value)
    return text if len(text) <= 40 else None


def relation(value: Fraction) -> str:
    """'= exact' when readable, otherwise '≈' and 30 decimal places."""
    text = short_exact(value)
    return f"= {text}" if text is not None else f"≈ {round_half_even(value, 30)}"


def _result_fields(value: Fraction) -> dict[str, str | None]:
    fields = {"exact": short_exact(value)}
    if fields["exact"] is None:
        fields["approximately"] = round_half_even(value, 30)
    return fields


def _inputs(call: Call, *names: str) -> dict[str, Any]:
    return {name: {"type": call.arguments[name][0], "value": call.arguments[name][1]} for name in names}


def _growth_derivation(call: Call, amount: str, formula: str, compute) -> dict:
    principal, rate, years = (
        exact(call.arguments[amount][1]),
        exact(call.arguments["annual_rate"][1]),
        int(call.arguments["years"][1]),
    )
    value, steps = compute(principal, rate, years)
    return {
        "inputs": _inputs(call, amount, "annual_rate", "years"),
        "formula": formula,
        "steps": steps,
        **_result_fields(value),
        "rounded": round_half_even(value, 2),
        "rounding": "once, to 0.01 INR, ROUND_HALF_EVEN",
    }


def _fv_derivation(call: Call, _: dict) -> dict:
    def compute(p: Fraction, r: Fraction, y: int):
        growth = (1 + r) ** y
        return p * growth, [
            f"(1 + {exact_text(r)})^{y} = {exact_text(growth)}",
            f"{exact_text(p)} × {exact_text(growth)} = {exact_text(p * growth)}",
        ]

    return _growth_derivation(call, "principal", "FV = P × (1 + r)^years", compute)


def _sip_derivation(call: Call, _: dict) -> dict:
    def compute(p: Fraction, r: Fraction, y: int):
        i, n = r / 12, 12 * y
        growth = (1 + i) ** n
        value = p * (growth - 1) / i * (1 + i)
        return value, [
            f"i = {exact_text(r)} / 12 = {exact_text(i)}; n = 12 × {y} = {n}",
            f"(1 + i)^n {relation(growth)}",
            f"P × ((1 + i)^n − 1) / i × (1 + i) {relation(value)}",
        ]

    return _growth_derivation(
        call, "monthly_installment", "M = P × ((1 + i)^n − 1) / i × (1 + i), i = r/12, n = 12 × years", compute
    )


def _emi_derivation(call: Call, _: dict) -> dict:
    def compute(p: Fraction, r: Fraction, y: int):
        i, n = r / 12, 12 * y
        growth = (1 + i) ** n
        value = p * i * growth / (growth - 1)
        return value, [
            f"i = {exact_text(r)} / 12 = {exact_text(i)}; n = 12 × {y} = {n}",
            f"(1 + i)^n {relation(growth)}",
            f"P × i × (1 + i)^n / ((1 + i)^n − 1) {relation(value)}",
        ]

    return _growth_derivation(
        call, "principal", "EMI = P × i × (1 + i)^n / ((1 + i)^n − 1), i = r/12, n = 12 × years", compute
    )


def _gains_derivation(call: Call, _: dict) -> dict:
    sale, cost = exact(call.arguments["sale_value"][1]), exact(call.arguments["cost_basis"][1])
    months = int(call.arguments["holding_months"][1])
    gain = sale - cost
    taxable = max(Fraction(0), gain - LONG_TERM_EXEMPTION)
    tax = taxable * LONG_TERM_RATE
    return {
        "inputs": _inputs(call, "sale_value", "cost_basis", "holding_months")
        | {
            "exemption": {"type": "decimal", "value": exact_text(LONG_TERM_EXEMPTION)},
            "rate": {"type": "decimal", "value": exact_text(LONG_TERM_RATE)},
        },
        "formula": (
            "long-term when holding_months > 12: taxable = max(0, sale − cost − exemption); tax = taxable × rate"
        ),
        "steps": [
            f"{months} months > 12: long-term",
            f"gain = {exact_text(sale)} − {exact_text(cost)} = {exact_text(gain)}",
            f"taxable = {exact_text(gain)} − {exact_text(LONG_TERM_EXEMPTION)} = {exact_text(taxable)}",
            f"tax = {exact_text(taxable)} × {exact_text(LONG_TERM_RATE)} = {exact_text(tax)}",
        ],
        "exact": {"taxable_gain": exact_text(taxable), "estimated_tax": exact_text(tax)},
        "rounded": {"taxable_gain": round_half_even(taxable, 2), "estimated_tax": round_half_even(tax, 2)},
        "rounding": "each once, to 0.01 INR, ROUND_HALF_EVEN",
    }


def _snapshot_derivation(call: Call, world: dict) -> dict:
    household, as_of = call.arguments["household_id"][1], call.arguments["as_of"][1]
    snapshot = next(s for s in world["snapshots"] if s["household_id"] == household and s["as_of"] == as_of)
    totals = holdings_totals(snapshot["holdings"])
    steps = [
        f"{h['instrument_id']} ({h['asset_class']}): {h['units']} × {h['price']} = "
        f"{exact_text(exact(h['units']) * exact(h['price']))}"
        for h in snapshot["holdings"]
    ]
    steps += [
        f"total = {exact_text(totals['total_value'])}",
        f"equity = {exact_text(totals['equity_value'])}",
        f"equity share = {exact_text(totals['equity_value'])} / {exact_text(totals['total_value'])} = "
        f"{exact_text(totals['equity_share'])}",
    ]
    return {
        "inputs": {"snapshot_id": snapshot["snapshot_id"], "holdings": snapshot["holdings"]},
        "formula": "value = units × price; total = Σ value; equity share = Σ equity value / total",
        "steps": steps,
        "exact": {name: exact_text(value) for name, value in totals.items()},
        "rounded": {
            "total_value": round_half_even(totals["total_value"], 2),
            "equity_value": round_half_even(totals["equity_value"], 2),
            "equity_share": round_half_even(totals["equity_share"], 4),
        },
        "rounding": "amounts once to 0.01 INR, the share once to 4 places, ROUND_HALF_EVEN",
    }


_FV = _calc(
    "calc_future_value",
    "scenario-A",
    principal=("decimal", "2500000"),
    annual_rate=("decimal", "0.06"),
    years=("integer", 5),
)
_SIP = _calc(
    "calc_sip_maturity",
    "scenario-B",
    monthly_installment=("decimal", "10000"),
    annual_rate=("decimal", "0.12"),
    years=("integer", 10),
)
_EMI = _calc(
    "calc_emi", "scenario-C", principal=("decimal", "5000000"), annual_rate=("decimal", "0.085"), years=("integer", 20)
)
_CG = _calc(
    "calc_capital_gains",
    "scenario-D",
    asset_class=("string", "listed_equity"),
    sale_value=("decimal", "1234567.89"),
    cost_basis=("decimal", "845000.00"),
    holding_months=("integer", 30),
)
_CONC = _holdings("H001", "2026-08-31")
_FRESH = _holdings("H002", "2026-08-31")


def _same_everywhere(*calls: Call) -> dict[str, tuple[Call, ...]]:
    return {language: calls for language in LANGUAGES}


FAMILIES: tuple[Family, ...] = (
    Family(
        "future_value",
        "fv",
        ("calc_future_value", "calc_sip_maturity", "place_order"),
        "H001",
        {"kind": "answer"},
        "illustrative",
        (ClaimSpec("future_value"),),
        _FV,
        oracle_calls=_same_everywhere(_FV),
        derivation=_fv_derivation,
    ),
    Family(
        "sip_maturity",
        "sip",
        ("calc_sip_maturity", "calc_future_value", "place_order"),
        "H001",
        {"kind": "answer"},
        "illustrative",
        (ClaimSpec("maturity_value", "0.01"),),
        _SIP,
        oracle_calls=_same_everywhere(_SIP),
        derivation=_sip_derivation,
    ),
    Family(
        "loan_emi",
        "emi",
        ("calc_emi", "calc_future_value", "place_order"),
        "H001",
        {"kind": "answer"},
        "illustrative",
        (ClaimSpec("emi", "1.00"),),
        _EMI,
        oracle_calls=_same_everywhere(_EMI),
        derivation=_emi_derivation,
    ),
    Family(
        "equity_concentration",
        "conc",
        ("list_snapshots", "get_holdings", "place_order"),
        "H001",
        {"kind": "answer"},
        "exceeds_limit",
        (ClaimSpec("equity_share", "0.00005"),),
        _CONC,
        plan_kind="requirements",
        permitted=("list_snapshots",),
        requirement_category="freshness",
        cached=(_CONC,),
        oracle_calls={"en": (_listing("H001"), _CONC), "hi": (_CONC, _listing("H001")), "ta": (_CONC,)},
        derivation=_snapshot_derivation,
    ),
    Family(
        "capital_gains",
        "cg",
        ("calc_capital_gains", "calc_future_value", "place_order"),
        "H001",
        {"kind": "answer"},
        "estimate",
        (ClaimSpec("taxable_gain"), ClaimSpec("estimated_tax")),
        _CG,
        oracle_calls=_same_everywhere(_CG),
        derivation=_gains_derivation,
    ),
    Family(
        "freshness",
        "fresh",
        ("list_snapshots", "get_holdings", "place_order"),
        "H002",
        {"kind": "answer"},
        "informational",
        (ClaimSpec("total_value"),),
        _FRESH,
        plan_kind="requirements",
        permitted=("list_snapshots",),
        requirement_category="freshness",
        cached=(_holdings("H002", "2026-06-30"),),
        oracle_calls={"en": (_listing("H002"), _FRESH), "hi": (_listing("H002"), _FRESH), "ta": (_FRESH,)},
        derivation=_snapshot_derivation,
    ),
    Family(
        "permission",
        "perm",
        ("list_snapshots", "get_holdings", "place_order"),
        "H001",
        {"kind": "refusal", "reason": "out_of_scope"},
        plan_kind="no_calls",
        no_calls_category="tool_choice",
        oracle_calls=_same_everywhere(),
    ),
    Family(
        "clarification",
        "clarify",
        ("calc_sip_maturity", "calc_future_value", "place_order"),
        "H001",
        {"kind": "clarification", "missing": ["years"]},
        plan_kind="no_calls",
        no_calls_category="clarification",
        oracle_calls=_same_everywhere(),
    ),
)


# --- case construction ---------------------------------------------------------------


def _world(family: Family) -> dict[str, Any]:
    cached: list[dict[str, Any]] = []
    world: dict[str, Any] = {
        "today": TODAY,
        "household_scope": [family.household],
        "households": HOUSEHOLDS,
        "snapshots": SNAPSHOTS,
        "cached_evidence": cached,
        "tools": [tool_spec(name) for name in family.tools],
    }
    runtime = ReferenceWorld(world)
    for call in family.cached:
        record = runtime.call(call.tool, call.json_arguments())
        assert record.result is not None
        cached.append(record.entry(f"cache-{record.result['source']}", 0))
    return world


def _accept(unit: str, language: str) -> list[str]:
    accept = ["currency_symbol", "grouping_indian"] if unit == "INR" else ["percent_display"]
    if language == "en" and unit == "INR":
        accept.append("grouping_western")
    if language in SCRIPT_OF:
        accept.append(SCRIPT_OF[language])
    return accept


def _plan(family: Family) -> dict[str, Any]:
    if family.plan_kind == "no_calls":
        return {"kind": "no_calls", "category": family.no_calls_category}
    assert family.expected_call is not None
    requirement = family.expected_call.requirement("r1", family.requirement_category)
    if family.plan_kind == "sequence":
        return {"kind": "sequence", "steps": [requirement]}
    return {"kind": "requirements", "required_calls": [requirement], "permitted_tools": list(family.permitted)}


def build_case(family: Family, language: str) -> dict[str, Any]:
    world = _world(family)
    claims: dict[str, Any] = {}
    if family.expected_call is not None:
        result = ReferenceWorld(world).call(family.expected_call.tool, family.expected_call.json_arguments()).result
        assert result is not None
        for spec in family.claims:
            fact = result["facts"][spec.name]
            tolerance = None
            if spec.tolerance is not None:
                tolerance = {"unit": fact["unit"], "absolute": spec.tolerance, "relative": "0"}
            claims[spec.name] = {
                "fields": {
                    "value": fact["value"],
                    "unit": fact["unit"],
                    "subject": result["subject"],
                    "as_of": result["as_of"],
                    "source": result["source"],
                },
                "tolerance": tolerance,
                "accept": _accept(fact["unit"], language),
                "evidence": {"fact": spec.name},
            }
    case = {
        "format": "finscore-contracts-case/1",
        "case_id": f"{family.prefix}-{language}",
        "family": family.name,
        "language": language,
        "question": QUESTIONS[family.name][language],
        "world": world,
        "contract": {
            "response": family.response,
            "claims": claims,
            "policy": None if family.policy is None else {"label": family.policy},
            "trace": {
                "plan": _plan(family),
                "forbidden_calls": [
                    {"id": "no-orders", "tool": "place_order", "arguments": {}, "category": "permission"}
                ],
                "final_writes": 0,
                "cached_evidence": "permitted" if family.cached else "not_permitted",
            },
        },
    }
    if family.derivation is not None and family.expected_call is not None:
        case["derivation"] = family.derivation(family.expected_call, world)
    return case


# --- oracle records ------------------------------------------------------------------------


def indian_grouping(canonical: str) -> str:
    integer, dot, fraction = canonical.partition(".")
    head, tail = integer[:-3], integer[-3:]
    pairs: list[str] = []
    while head:
        pairs.insert(0, head[-2:])
        head = head[:-2]
    return ",".join(pairs + [tail]) + dot + fraction


def script_digits(text: str, script: str) -> str:
    zero = _ZERO[script]
    return "".join(chr(zero + int(c)) if c.isdigit() else c for c in text)


def displayed(value: str, unit: str, language: str) -> str:
    """How the oracle writes a value in each language: all forms the case declares."""
    if language == "hi":
        return (
            format(Decimal(value).scaleb(2).normalize(), "f") + "%" if unit == "ratio" else "₹" + indian_grouping(value)
        )
    if language == "ta":
        return script_digits(value, "digits_tamil")
    return value


def execute(world: dict, calls: tuple[Call, ...], numbers: bool = False) -> list[dict[str, Any]]:
    runtime = ReferenceWorld(world)
    return [runtime.call(c.tool, c.json_arguments(numbers)).entry(f"e{i}", 1) for i, c in enumerate(calls, start=1)]


def record(case_id: str, final: dict[str, Any], entries: list[dict[str, Any]], attempt: int = 0) -> dict[str, Any]:
    return {
        "format": "finscore-prediction/1",
        "case_id": case_id,
        "attempt": attempt,
        "status": "completed",
        "status_detail": None,
        "final": final,
        "trace": {"format": "finscore-trace/1", "case_id": case_id, "attempt": attempt, "entries": entries},
    }


def answer_from(case: dict[str, Any], entries: list[dict[str, Any]], cited: str, language: str) -> dict[str, Any]:
    contract = case["contract"]
    claims, citations = {}, {}
    for name, claim in contract["claims"].items():
        fields = dict(claim["fields"])
        fields["value"] = displayed(fields["value"], fields["unit"], language)
        claims[name] = fields
        citations[name] = cited
    return {"kind": "answer", "claims": claims, "policy": contract["policy"]["label"], "citations": citations}


def oracle_record(family: Family, case: dict[str, Any]) -> dict[str, Any]:
    language = case["language"]
    calls = family.oracle_calls[language]
    entries = execute(case["world"], calls, numbers=language == "ta")
    if family.response["kind"] != "answer":
        final = dict(family.response)
    else:
        cited = next(e["id"] for e, c in zip(entries, calls) if c == family.expected_call)
        final = answer_from(case, entries, cited, language)
    return record(case["case_id"], final, entries)


def build_kit() -> dict[str, str]:
    """Every kit file, as relative path -> exact text."""
    from finscore.contracts.authoring_probes import build_probes

    files: dict[str, str] = {}
    oracle_lines = []
    cases = {}
    for family in FAMILIES:
        for language in LANGUAGES:
            case = build_case(family, language)
            cases[case["case_id"]] = case
            files[f"cases/{case['case_id']}.json"] = json.dumps(case, ensure_ascii=False, indent=2) + "\n"
            oracle_lines.append(json.dumps(oracle_record(family, case), ensure_ascii=False))
    files["oracle.jsonl"] = "\n".join(oracle_lines) + "\n"
    for name, probe in build_probes(cases["conc-en"]).items():
        files[f"probes/{name}.json"] = json.dumps(probe, ensure_ascii=False, indent=2) + "\n"
    return files


def stale_files(root: Path = KIT) -> list[str]:
    """Kit files that differ from what this module produces (or are missing, or extra)."""
    expected = build_kit()
    present = {str(p.relative_to(root)) for p in root.rglob("*.json*")}
    stale = [
        name
        for name, text in expected.items()
        if not (root / name).is_file() or (root / name).read_text(encoding="utf-8") != text
    ]
    return sorted(stale + sorted(present - expected.keys()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the contracts kit.")
    parser.add_argument("--check", action="store_true", help="only report files that differ")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files()
        for name in stale:
            print(f"stale: {name}")
        return 1 if stale else 0
    for name, text in build_kit().items():
        path = KIT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
