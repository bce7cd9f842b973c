"""Reading and validating cases and case sets (section 2 of docs/contracts-format.md).

A case is the ground truth, so every inconsistency (a tolerance in another
unit, a requirement on a tool the case does not offer, a normalization that
does not fit the unit) is refused when the case is loaded, not discovered
while scoring someone's answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from finscore.contracts.failures import Category
from finscore.contracts.formats.models import (
    ARGUMENT_TYPES,
    NORMALIZATIONS,
    PLAN_KINDS,
    RESPONSE_KINDS,
    ArgumentSpec,
    CallPattern,
    Case,
    ClaimContract,
    ClaimTolerance,
    Plan,
    ResponseContract,
    TraceContract,
    TraceEntry,
)
from finscore.contracts.formats.traces import parse_entry
from finscore.inputs.bounds import MAX_CASE_ITEMS as MAX_ITEMS
from finscore.inputs.errors import InputFormatError
from finscore.inputs.fields import FieldReader
from finscore.inputs.jsonfiles import read_json_document
from finscore.world import OfferedTool, World, parse_case_world

CASE_SET_FORMAT = "finscore-contracts-cases/1"
MAX_CASES = 100_000
CATEGORIES = tuple(category.value for category in Category)


def _arguments(reader: FieldReader, raw: Any, where: str) -> dict[str, ArgumentSpec]:
    specs: dict[str, ArgumentSpec] = {}
    for name, spec in reader.mapping(raw, where).items():
        spec_where = f"{where}.{name}"
        reader.keys(reader.mapping(spec, spec_where), spec_where, {"type", "value"})
        kind = reader.choice(spec["type"], f"{spec_where}.type", ARGUMENT_TYPES)
        value_where = f"{spec_where}.value"
        value: Any
        if kind == "decimal":
            value = reader.decimal(spec["value"], value_where)
        elif kind == "integer":
            value = reader.integer(spec["value"], value_where, -(10**15), 10**15)
        elif kind == "date":
            value = reader.date(spec["value"], value_where)
        else:
            value = reader.string(spec["value"], value_where)
        specs[name] = ArgumentSpec(kind, value)  # type: ignore[arg-type]  # kind is one of the Literal's, checked above
    return specs


def _call_pattern(reader: FieldReader, raw: Any, where: str, default_id: str) -> CallPattern:
    call = reader.mapping(raw, where)
    reader.keys(call, where, {"tool"}, {"id", "arguments", "category"})
    return CallPattern(
        id=reader.identifier(call.get("id", default_id), f"{where}.id"),
        tool=reader.string(call["tool"], f"{where}.tool"),
        arguments=_arguments(reader, call.get("arguments", {}), f"{where}.arguments"),
        category=Category(reader.choice(call.get("category", "tool_choice"), f"{where}.category", CATEGORIES)),
    )


def _calls(reader: FieldReader, raw: Any, where: str, prefix: str) -> tuple[CallPattern, ...]:
    items = reader.array(raw, where, MAX_ITEMS)
    calls = tuple(_call_pattern(reader, item, f"{where}[{i}]", f"{prefix}{i + 1}") for i, item in enumerate(items))
    ids = [call.id for call in calls]
    if len(set(ids)) != len(ids):
        raise reader.fail(where, "requirement ids must be unique")
    return calls


def _plan(reader: FieldReader, raw: Any, where: str) -> Plan:
    plan = reader.mapping(raw, where)
    kind = reader.choice(plan.get("kind"), f"{where}.kind", PLAN_KINDS)
    if kind == "sequence":
        reader.keys(plan, where, {"kind", "steps"})
        return Plan("sequence", _calls(reader, plan["steps"], f"{where}.steps", "s"), frozenset(), Category.TOOL_CHOICE)
    if kind == "requirements":
        reader.keys(plan, where, {"kind", "required_calls", "permitted_tools"})
        calls = _calls(reader, plan["required_calls"], f"{where}.required_calls", "r")
        permitted = reader.array(plan["permitted_tools"], f"{where}.permitted_tools", MAX_ITEMS)
        tools = frozenset(reader.string(t, f"{where}.permitted_tools[{i}]") for i, t in enumerate(permitted))
        return Plan("requirements", calls, tools, Category.TOOL_CHOICE)
    reader.keys(plan, where, {"kind", "category"})
    category = Category(reader.choice(plan["category"], f"{where}.category", CATEGORIES))
    return Plan("no_calls", (), frozenset(), category)


def _trace_contract(reader: FieldReader, raw: Any, tools: Mapping[str, OfferedTool]) -> TraceContract:
    where = "contract.trace"
    trace = reader.mapping(raw, where)
    reader.keys(trace, where, {"plan", "forbidden_calls", "final_writes", "cached_evidence"})
    plan = _plan(reader, trace["plan"], f"{where}.plan")
    for call in plan.calls:
        if call.tool not in tools:
            raise reader.fail(
                f"{where}.plan", f"requirement {call.id} names tool {call.tool!r}, which the case does not offer"
            )
    for tool in plan.permitted_tools:
        if tool not in tools:
            raise reader.fail(f"{where}.plan.permitted_tools", f"{tool!r} is not offered by the case")
    cached = reader.choice(trace["cached_evidence"], f"{where}.cached_evidence", ("permitted", "not_permitted"))
    return TraceContract(
        plan=plan,
        forbidden_calls=_calls(reader, trace["forbidden_calls"], f"{where}.forbidden_calls", "f"),
        final_writes=reader.integer(trace["final_writes"], f"{where}.final_writes", 0, 10_000),
        cached_evidence_permitted=cached == "permitted",
    )


def is_date_unit(unit: str) -> bool:
    """A unit that encodes a date as a number (`date`, `yyyymmdd`, `epoch_days`, `excel_serial_date`...)."""
    lowered = unit.lower()
    return "date" in lowered or lowered in {"yyyymmdd", "yyyymm", "epoch_days", "epoch_day", "days_since_epoch"}


def _tolerance(reader: FieldReader, raw: Any, where: str, unit: str) -> ClaimTolerance | None:
    if raw is None:
        return None
    if is_date_unit(unit):
        raise reader.fail(
            where,
            f"a claim in unit {unit!r} is a date written as a number: a tolerance on it would accept "
            "numbers that are not dates (20260899) or the wrong day; declare no tolerance",
        )
    tolerance = reader.mapping(raw, where)
    reader.keys(tolerance, where, {"unit", "absolute", "relative"})
    tolerance_unit = reader.string(tolerance["unit"], f"{where}.unit")
    if tolerance_unit != unit:
        raise reader.fail(f"{where}.unit", f"a tolerance in {tolerance_unit!r} cannot apply to a claim in {unit!r}")
    absolute = reader.decimal(tolerance["absolute"], f"{where}.absolute")
    relative = reader.decimal(tolerance["relative"], f"{where}.relative")
    if absolute < 0 or relative < 0:
        raise reader.fail(where, "tolerances cannot be negative")
    return ClaimTolerance(tolerance_unit, absolute, relative)


def _claim(reader: FieldReader, name: str, raw: Any, where: str) -> ClaimContract:
    claim = reader.mapping(raw, where)
    reader.keys(claim, where, {"fields", "tolerance", "accept", "evidence"})
    fields = reader.mapping(claim["fields"], f"{where}.fields")
    if "value" not in fields or "unit" not in fields:
        raise reader.fail(f"{where}.fields", "a claim needs at least value and unit")
    for field_name, field_value in fields.items():
        reader.string(field_value, f"{where}.fields.{field_name}")
    value = reader.decimal(fields["value"], f"{where}.fields.value")
    unit = fields["unit"]
    accept_raw = reader.array(claim["accept"], f"{where}.accept", len(NORMALIZATIONS))
    accept = frozenset(reader.choice(a, f"{where}.accept[{i}]", NORMALIZATIONS) for i, a in enumerate(accept_raw))
    if "currency_symbol" in accept and unit != "INR":
        raise reader.fail(f"{where}.accept", "currency_symbol only applies to unit INR")
    if "percent_display" in accept and unit != "ratio":
        raise reader.fail(f"{where}.accept", "percent_display only applies to unit ratio")
    evidence = reader.mapping(claim["evidence"], f"{where}.evidence")
    reader.keys(evidence, f"{where}.evidence", set(), {"fact"})
    return ClaimContract(
        name=name,
        fields=dict(fields),
        value=value,
        tolerance=_tolerance(reader, claim["tolerance"], f"{where}.tolerance", unit),
        accept=accept,
        evidence_fact=reader.string(evidence.get("fact", name), f"{where}.evidence.fact"),
    )


def _accepted(reader: FieldReader, raw: Any, missing: frozenset[str]) -> dict[str, frozenset[str]]:
    """For each missing name, the names that ask for it; one name can ask for one missing thing only."""
    where = "contract.response.accepted"
    declared = reader.mapping(raw, where)
    unknown = sorted(set(declared) - missing)
    if unknown:
        raise reader.fail(where, f"names {', '.join(unknown)}, which the clarification does not list as missing")
    accepted: dict[str, frozenset[str]] = {}
    owner: dict[str, str] = {}
    for name in sorted(missing):
        items = reader.array(declared.get(name, []), f"{where}.{name}", MAX_ITEMS)
        names = {reader.identifier(item, f"{where}.{name}[{i}]") for i, item in enumerate(items)} | {name}
        for alias in names:
            if owner.setdefault(alias, name) != name:
                raise reader.fail(where, f"{alias!r} would ask for both {owner[alias]!r} and {name!r}")
        accepted[name] = frozenset(names)
    return accepted


def _response(reader: FieldReader, raw: Any) -> ResponseContract:
    where = "contract.response"
    response = reader.mapping(raw, where)
    kind = reader.choice(response.get("kind"), f"{where}.kind", RESPONSE_KINDS)
    if kind == "clarification":
        reader.keys(response, where, {"kind", "missing"}, {"accepted"})
        missing = reader.array(response["missing"], f"{where}.missing", MAX_ITEMS)
        names = frozenset(reader.string(m, f"{where}.missing[{i}]") for i, m in enumerate(missing))
        if not names:
            raise reader.fail(f"{where}.missing", "a clarification must name what is missing")
        return ResponseContract("clarification", names, None, _accepted(reader, response.get("accepted", {}), names))
    if kind == "refusal":
        reader.keys(response, where, {"kind", "reason"})
        return ResponseContract("refusal", frozenset(), reader.identifier(response["reason"], f"{where}.reason"))
    reader.keys(response, where, {"kind"})
    return ResponseContract("answer", frozenset(), None)


def _cached_entries(reader: FieldReader, world: World) -> dict[str, TraceEntry]:
    """The world's cached items (already checked for id, turn and outcome) read as trace entries."""
    return {
        str(item["id"]): parse_entry(reader, item, f"world.cached_evidence[{index}]")
        for index, item in enumerate(world.cached_evidence)
    }


def parse_case(raw: Any, source: str) -> Case:
    """A validated case, or InputFormatError naming the source and the JSON path.

    Everything but the contract is read by the world's one case reader
    (`finscore.world.parse_case_world`), so the runner and the scorer accept
    exactly the same cases.
    """
    reader = FieldReader(source)
    case_world = parse_case_world(raw, source)
    case = reader.mapping(raw, "")
    contract = reader.mapping(case["contract"], "contract")
    reader.keys(contract, "contract", {"response", "claims", "policy", "trace"})
    response = _response(reader, contract["response"])
    claims_raw = reader.mapping(contract["claims"], "contract.claims")
    claims = {name: _claim(reader, name, item, f"contract.claims.{name}") for name, item in claims_raw.items()}
    policy_raw = contract["policy"]
    policy_label = None
    if policy_raw is not None:
        reader.keys(reader.mapping(policy_raw, "contract.policy"), "contract.policy", {"label"})
        policy_label = reader.identifier(policy_raw["label"], "contract.policy.label")
    if response.kind == "answer" and not claims:
        raise reader.fail("contract.claims", "an answer case needs at least one claim")
    if response.kind != "answer" and (claims or policy_label is not None):
        raise reader.fail("contract", f"a {response.kind} case declares no claims and no policy")
    return Case(
        case_id=case_world.case_id,
        family=case_world.family,
        language=case_world.language,
        question=case_world.question,
        world=case_world.world,
        cached_evidence=_cached_entries(reader, case_world.world),
        response=response,
        claims=claims,
        policy_label=policy_label,
        trace=_trace_contract(reader, contract["trace"], case_world.world.tools),
        raw=case,
    )


def load_cases(path: Path) -> list[Case]:
    """A case set: a directory of `*.json` case files or one case-set document."""
    if path.is_dir():
        files = sorted(path.glob("*.json"))
        if len(files) > MAX_CASES:
            raise InputFormatError(str(path), "", f"{len(files)} case files, over {MAX_CASES}")
        cases = [parse_case(read_json_document(file), str(file)) for file in files]
    else:
        document = read_json_document(path, limit=256 << 20)
        reader = FieldReader(str(path))
        reader.keys(reader.mapping(document, ""), "", {"format", "cases"})
        if document["format"] != CASE_SET_FORMAT:
            raise reader.fail("format", f"expected {CASE_SET_FORMAT}, found {document['format']!r}")
        items = reader.array(document["cases"], "cases", MAX_CASES)
        cases = [parse_case(item, f"{path} cases[{index}]") for index, item in enumerate(items)]
    if not cases:
        raise InputFormatError(str(path), "", "no cases found")
    seen: set[str] = set()
    for case in cases:
        if case.case_id in seen:
            raise InputFormatError(str(path), "", f"case id {case.case_id!r} appears twice")
        seen.add(case.case_id)
    return sorted(cases, key=lambda case: case.case_id)
