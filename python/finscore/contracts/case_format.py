"""Reading and validating cases (section 2 of docs/contracts-format.md).

A case is the ground truth, so every inconsistency (a tolerance in another
unit, a requirement on a tool the case does not offer, a normalization that
does not fit the unit) is refused when the case is loaded, not discovered
while scoring someone's answer.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Mapping

from finscore.contracts.errors import InputFormatError
from finscore.contracts.failures import Category
from finscore.contracts.jsonio import read_json_document
from finscore.contracts.models import (
    ARGUMENT_TYPES,
    EFFECTS,
    NORMALIZATIONS,
    PLAN_KINDS,
    RESPONSE_KINDS,
    ArgumentSpec,
    CallPattern,
    Case,
    ClaimContract,
    Plan,
    ResponseContract,
    Tolerance,
    ToolSpec,
    TraceContract,
    World,
)
from finscore.contracts.trace_format import parse_entry
from finscore.contracts.validation import FieldReader

CASE_FORMAT = "finscore-contracts-case/1"
CASE_SET_FORMAT = "finscore-contracts-cases/1"
MAX_CASES = 100_000
MAX_ITEMS = 1000
LANGUAGE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{1,8})*")
ASSET_CLASSES = ("equity", "debt", "gold", "cash")
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
        specs[name] = ArgumentSpec(kind, value)  # type: ignore[arg-type]
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


def _trace_contract(reader: FieldReader, raw: Any, tools: Mapping[str, ToolSpec]) -> TraceContract:
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


def _tolerance(reader: FieldReader, raw: Any, where: str, unit: str) -> Tolerance | None:
    if raw is None:
        return None
    tolerance = reader.mapping(raw, where)
    reader.keys(tolerance, where, {"unit", "absolute", "relative"})
    tolerance_unit = reader.string(tolerance["unit"], f"{where}.unit")
    if tolerance_unit != unit:
        raise reader.fail(f"{where}.unit", f"a tolerance in {tolerance_unit!r} cannot apply to a claim in {unit!r}")
    absolute = reader.decimal(tolerance["absolute"], f"{where}.absolute")
    relative = reader.decimal(tolerance["relative"], f"{where}.relative")
    if absolute < 0 or relative < 0:
        raise reader.fail(where, "tolerances cannot be negative")
    return Tolerance(tolerance_unit, absolute, relative)


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


def _response(reader: FieldReader, raw: Any) -> ResponseContract:
    where = "contract.response"
    response = reader.mapping(raw, where)
    kind = reader.choice(response.get("kind"), f"{where}.kind", RESPONSE_KINDS)
    if kind == "clarification":
        reader.keys(response, where, {"kind", "missing"})
        missing = reader.array(response["missing"], f"{where}.missing", MAX_ITEMS)
        names = frozenset(reader.string(m, f"{where}.missing[{i}]") for i, m in enumerate(missing))
        if not names:
            raise reader.fail(f"{where}.missing", "a clarification must name what is missing")
        return ResponseContract("clarification", names, None)
    if kind == "refusal":
        reader.keys(response, where, {"kind", "reason"})
        return ResponseContract("refusal", frozenset(), reader.identifier(response["reason"], f"{where}.reason"))
    reader.keys(response, where, {"kind"})
    return ResponseContract("answer", frozenset(), None)


def _tools(reader: FieldReader, raw: Any) -> dict[str, ToolSpec]:
    tools: dict[str, ToolSpec] = {}
    for index, item in enumerate(reader.array(raw, "world.tools", MAX_ITEMS)):
        where = f"world.tools[{index}]"
        tool = reader.mapping(item, where)
        reader.keys(tool, where, {"name", "version", "effect", "description", "parameters"})
        name = reader.identifier(tool["name"], f"{where}.name")
        if name in tools:
            raise reader.fail(f"{where}.name", f"tool {name!r} listed twice")
        effect = reader.choice(tool["effect"], f"{where}.effect", EFFECTS[:2])
        parameters = reader.mapping(tool["parameters"], f"{where}.parameters")
        if parameters.get("type") != "object":
            raise reader.fail(f"{where}.parameters", "a tool's parameters schema must be of type object")
        tools[name] = ToolSpec(
            name,
            reader.identifier(tool["version"], f"{where}.version"),
            effect,  # type: ignore[arg-type]
            reader.string(tool["description"], f"{where}.description"),
            parameters,
        )
    return tools


def _snapshots(reader: FieldReader, raw: Any, households: set[str]) -> tuple[Mapping[str, Any], ...]:
    snapshots = reader.array(raw, "world.snapshots", MAX_ITEMS)
    for index, item in enumerate(snapshots):
        where = f"world.snapshots[{index}]"
        snapshot = reader.mapping(item, where)
        reader.keys(snapshot, where, {"snapshot_id", "household_id", "as_of", "authorized", "holdings"})
        reader.identifier(snapshot["snapshot_id"], f"{where}.snapshot_id")
        if reader.identifier(snapshot["household_id"], f"{where}.household_id") not in households:
            raise reader.fail(f"{where}.household_id", "not a household of world.households")
        reader.date(snapshot["as_of"], f"{where}.as_of")
        reader.boolean(snapshot["authorized"], f"{where}.authorized")
        for h_index, holding in enumerate(reader.array(snapshot["holdings"], f"{where}.holdings", MAX_ITEMS)):
            h_where = f"{where}.holdings[{h_index}]"
            reader.keys(
                reader.mapping(holding, h_where), h_where, {"instrument_id", "name", "asset_class", "units", "price"}
            )
            reader.identifier(holding["instrument_id"], f"{h_where}.instrument_id")
            reader.string(holding["name"], f"{h_where}.name")
            reader.choice(holding["asset_class"], f"{h_where}.asset_class", ASSET_CLASSES)
            reader.decimal(holding["units"], f"{h_where}.units")
            reader.decimal(holding["price"], f"{h_where}.price")
    return tuple(snapshots)


def _world(reader: FieldReader, raw: Any) -> World:
    world = reader.mapping(raw, "world")
    reader.keys(world, "world", {"today", "household_scope", "households", "snapshots", "cached_evidence", "tools"})
    households = reader.array(world["households"], "world.households", MAX_ITEMS)
    known: set[str] = set()
    for index, item in enumerate(households):
        where = f"world.households[{index}]"
        reader.keys(reader.mapping(item, where), where, {"household_id", "name"})
        known.add(reader.identifier(item["household_id"], f"{where}.household_id"))
        reader.string(item["name"], f"{where}.name")
    scope_raw = reader.array(world["household_scope"], "world.household_scope", MAX_ITEMS)
    scope = frozenset(reader.identifier(h, f"world.household_scope[{i}]") for i, h in enumerate(scope_raw))
    if not scope <= known:
        raise reader.fail("world.household_scope", "names households absent from world.households")
    cached = {}
    for index, item in enumerate(reader.array(world["cached_evidence"], "world.cached_evidence", MAX_ITEMS)):
        where = f"world.cached_evidence[{index}]"
        entry = parse_entry(reader, item, where)
        if not entry.id.startswith("cache-") or entry.turn != 0 or entry.outcome != "ok" or entry.id in cached:
            raise reader.fail(where, "a cached item needs a unique id starting with cache-, turn 0 and outcome ok")
        cached[entry.id] = entry
    return World(
        today=reader.date(world["today"], "world.today"),
        household_scope=scope,
        households=tuple(households),
        snapshots=_snapshots(reader, world["snapshots"], known),
        cached_evidence=cached,
        tools=_tools(reader, world["tools"]),
    )


def parse_case(raw: Any, source: str) -> Case:
    """A validated case, or InputFormatError naming the source and the JSON path."""
    reader = FieldReader(source)
    case = reader.mapping(raw, "")
    reader.keys(case, "", {"format", "case_id", "family", "language", "question", "world", "contract"}, {"derivation"})
    if case["format"] != CASE_FORMAT:
        raise reader.fail("format", f"expected {CASE_FORMAT}, found {case['format']!r}")
    language = reader.string(case["language"], "language")
    if LANGUAGE.fullmatch(language) is None:
        raise reader.fail("language", f"expected a language tag such as en, hi, ta; found {language!r}")
    world = _world(reader, case["world"])
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
    if "derivation" in case:
        reader.mapping(case["derivation"], "derivation")
    return Case(
        case_id=reader.identifier(case["case_id"], "case_id"),
        family=reader.identifier(case["family"], "family"),
        language=language,
        question=reader.string(case["question"], "question"),
        world=world,
        response=response,
        claims=claims,
        policy_label=policy_label,
        trace=_trace_contract(reader, contract["trace"], world.tools),
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
