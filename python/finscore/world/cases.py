"""The one reader of a case's world: the rules every user of a case shares.

The runner executes calls against what this returns, the scorer's case loader
(`finscore.contracts`) adds the contract to it, and the kit generator records
its oracle traces from it, so a case is either valid for all three or refused
by all three, with the file and the JSON path (docs/contracts-format.md 2.1).
The rules are the stricter union of what runner and scorer used to check
separately: every field present and no unknown one; households listed once;
the scope a subset of the households; every offered tool implemented here at
the same version and effect, with a parameters schema this validator
compiles; snapshots of known households, unique by id and by household and
date (`get_holdings` names a snapshot by household and date); cached items
with unique `cache-` ids, turn 0 and outcome ok.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from finscore.inputs.bounds import MAX_CASE_ITEMS as MAX_ITEMS
from finscore.inputs.errors import JsonValueError
from finscore.inputs.fields import FieldReader
from finscore.inputs.jsonvalues import lone_surrogate_at, to_json_value
from finscore.world import catalogue as _catalogue  # noqa: F401  (registers the tools)
from finscore.world.model import ASSET_CLASSES, CaseWorld, Effect, Holding, OfferedTool, Passage, Snapshot, World
from finscore.world.schema import Schema, SchemaError
from finscore.world.tools import CATALOGUE

CASE_FORMAT = "finscore-contracts-case/1"
CASE_FIELDS = frozenset({"format", "case_id", "family", "language", "question", "world", "contract"})
LANGUAGE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{1,8})*")
WORLD_FIELDS = frozenset({"today", "household_scope", "households", "snapshots", "cached_evidence", "tools"})
_SNAPSHOT_FIELDS = frozenset({"snapshot_id", "household_id", "as_of", "authorized", "holdings"})
_HOLDING_FIELDS = frozenset({"instrument_id", "name", "asset_class", "units", "price"})
_TOOL_FIELDS = frozenset({"name", "version", "effect", "description", "parameters"})


def _households(reader: FieldReader, raw: Any) -> dict[str, str]:
    households: dict[str, str] = {}
    for index, item in enumerate(reader.array(raw, "world.households", MAX_ITEMS)):
        where = f"world.households[{index}]"
        reader.keys(reader.mapping(item, where), where, {"household_id", "name"})
        household_id = reader.identifier(item["household_id"], f"{where}.household_id")
        if household_id in households:
            raise reader.fail(f"{where}.household_id", f"household {household_id} listed twice")
        households[household_id] = reader.string(item["name"], f"{where}.name")
    return households


def _holding(reader: FieldReader, raw: Any, where: str) -> Holding:
    item = reader.mapping(raw, where)
    reader.keys(item, where, _HOLDING_FIELDS)
    return Holding(
        instrument_id=reader.identifier(item["instrument_id"], f"{where}.instrument_id"),
        name=reader.string(item["name"], f"{where}.name"),
        asset_class=reader.choice(item["asset_class"], f"{where}.asset_class", ASSET_CLASSES),
        units=reader.decimal(item["units"], f"{where}.units"),
        price=reader.decimal(item["price"], f"{where}.price"),
    )


def _snapshot(reader: FieldReader, raw: Any, where: str, households: Mapping[str, str]) -> Snapshot:
    item = reader.mapping(raw, where)
    reader.keys(item, where, _SNAPSHOT_FIELDS)
    snapshot_id = reader.identifier(item["snapshot_id"], f"{where}.snapshot_id")
    household_id = reader.identifier(item["household_id"], f"{where}.household_id")
    if household_id not in households:
        raise reader.fail(f"{where}.household_id", "not a household of world.households")
    as_of = reader.date(item["as_of"], f"{where}.as_of")
    authorized = reader.boolean(item["authorized"], f"{where}.authorized")
    holdings = reader.array(item["holdings"], f"{where}.holdings", MAX_ITEMS)
    return Snapshot(
        snapshot_id=snapshot_id,
        household_id=household_id,
        as_of=as_of,
        authorized=authorized,
        holdings=tuple(_holding(reader, h, f"{where}.holdings[{i}]") for i, h in enumerate(holdings)),
    )


def _snapshots(reader: FieldReader, raw: Any, households: Mapping[str, str]) -> tuple[Snapshot, ...]:
    snapshots: list[Snapshot] = []
    seen_ids: set[str] = set()
    seen_dates: set[tuple[str, str]] = set()
    for index, item in enumerate(reader.array(raw, "world.snapshots", MAX_ITEMS)):
        where = f"world.snapshots[{index}]"
        snapshot = _snapshot(reader, item, where, households)
        if snapshot.snapshot_id in seen_ids:
            raise reader.fail(f"{where}.snapshot_id", f"duplicate snapshot id {snapshot.snapshot_id}")
        if (snapshot.household_id, snapshot.as_of) in seen_dates:
            raise reader.fail(where, f"two snapshots of {snapshot.household_id} dated {snapshot.as_of}")
        seen_ids.add(snapshot.snapshot_id)
        seen_dates.add((snapshot.household_id, snapshot.as_of))
        snapshots.append(snapshot)
    return tuple(snapshots)


def _offered_tool(reader: FieldReader, raw: Any, where: str) -> OfferedTool:
    item = reader.mapping(raw, where)
    reader.keys(item, where, _TOOL_FIELDS)
    name = reader.identifier(item["name"], f"{where}.name")
    known = CATALOGUE.get(name)
    if known is None:
        raise reader.fail(f"{where}.name", f"finscore does not implement a tool named {name!r}")
    version = reader.identifier(item["version"], f"{where}.version")
    if version != known.version:
        raise reader.fail(f"{where}.version", f"{name} is implemented as {known.version}, the case asks for {version}")
    effect = reader.choice(item["effect"], f"{where}.effect", ("read", "write"))
    if effect != known.effect:
        raise reader.fail(f"{where}.effect", f"{name} has effect {known.effect}, the case says {effect}")
    parameters = reader.mapping(item["parameters"], f"{where}.parameters")
    if parameters.get("type") != "object":
        raise reader.fail(f"{where}.parameters", "a tool's parameters schema must be of type object")
    try:
        schema = Schema(parameters)
    except SchemaError as error:
        raise reader.fail(f"{where}.parameters", str(error)) from None
    tool_effect: Effect = known.effect
    return OfferedTool(
        name=name,
        version=version,
        effect=tool_effect,
        description=reader.string(item["description"], f"{where}.description"),
        parameters=schema.document,
        schema=schema,
    )


def _tools(reader: FieldReader, raw: Any) -> dict[str, OfferedTool]:
    tools: dict[str, OfferedTool] = {}
    for index, item in enumerate(reader.array(raw, "world.tools", MAX_ITEMS)):
        offered = _offered_tool(reader, item, f"world.tools[{index}]")
        if offered.name in tools:
            raise reader.fail(f"world.tools[{index}].name", f"tool {offered.name!r} listed twice")
        tools[offered.name] = offered
    return tools


def _cached_evidence(reader: FieldReader, raw: Any) -> tuple[Mapping[str, Any], ...]:
    items: list[Mapping[str, Any]] = []
    seen: set[str] = set()
    for index, item in enumerate(reader.array(raw, "world.cached_evidence", MAX_ITEMS)):
        where = f"world.cached_evidence[{index}]"
        entry = reader.mapping(item, where)
        identifier = entry.get("id")
        if (
            not isinstance(identifier, str)
            or not identifier.startswith("cache-")
            or identifier in seen
            or entry.get("turn") != 0
            or entry.get("outcome") != "ok"
        ):
            raise reader.fail(where, "a cached item needs a unique id starting with cache-, turn 0 and outcome ok")
        reader.identifier(identifier, f"{where}.id")
        seen.add(identifier)
        try:
            items.append(to_json_value(entry))
        except JsonValueError as error:
            raise reader.fail(where, str(error)) from None
    return tuple(items)


MAX_PASSAGE_CHARS = 20_000
_PASSAGE_FIELDS = frozenset({"id", "text", "source"})


def _documents(reader: FieldReader, raw: Any, cached: tuple[Mapping[str, Any], ...]) -> tuple[Passage, ...]:
    """Document passages: unique ids (not shared with a cached item), bounded text, a source."""
    passages: list[Passage] = []
    seen = {str(item["id"]) for item in cached}
    for index, item in enumerate(reader.array(raw, "world.documents", MAX_ITEMS)):
        where = f"world.documents[{index}]"
        reader.keys(reader.mapping(item, where), where, _PASSAGE_FIELDS)
        identifier = reader.identifier(item["id"], f"{where}.id")
        if identifier in seen or identifier.startswith("cache-"):
            raise reader.fail(f"{where}.id", f"passage id {identifier!r} is not unique among passages and cached items")
        seen.add(identifier)
        text = reader.string(item["text"], f"{where}.text")
        if not text.strip() or len(text) > MAX_PASSAGE_CHARS:
            raise reader.fail(f"{where}.text", f"a passage has 1..{MAX_PASSAGE_CHARS} characters of text")
        passages.append(Passage(identifier, text, reader.identifier(item["source"], f"{where}.source")))
    return tuple(passages)


def parse_world(reader: FieldReader, raw: Any) -> World:
    """A case's `world`, checked by the rules above; InputFormatError names the place."""
    world = reader.mapping(raw, "world")
    reader.keys(world, "world", WORLD_FIELDS, {"documents"})
    households = _households(reader, world["households"])
    scope_raw = reader.array(world["household_scope"], "world.household_scope", MAX_ITEMS)
    scope = tuple(reader.identifier(h, f"world.household_scope[{i}]") for i, h in enumerate(scope_raw))
    if not set(scope) <= households.keys():
        raise reader.fail("world.household_scope", "names households absent from world.households")
    cached = _cached_evidence(reader, world["cached_evidence"])
    return World(
        today=reader.date(world["today"], "world.today"),
        household_scope=scope,
        households=households,
        snapshots=_snapshots(reader, world["snapshots"], households),
        cached_evidence=cached,
        tools=_tools(reader, world["tools"]),
        documents=_documents(reader, world.get("documents", []), cached),
    )


def parse_case_world(raw: Any, source: str) -> CaseWorld:
    """Everything of a case but the content of its contract; InputFormatError names `source` and the path."""
    reader = FieldReader(source)
    case = reader.mapping(raw, "")
    odd = lone_surrogate_at(case)
    if odd is not None:  # JSON can escape one in ("\\ud800"); no trace, view or report could hold it
        raise reader.fail(odd, "holds a lone surrogate, which is not Unicode text")
    reader.keys(case, "", CASE_FIELDS, {"derivation"})
    if case["format"] != CASE_FORMAT:
        raise reader.fail("format", f"expected {CASE_FORMAT}, found {case['format']!r}")
    language = reader.string(case["language"], "language")
    if LANGUAGE.fullmatch(language) is None:
        raise reader.fail("language", f"expected a language tag such as en, hi, ta; found {language!r}")
    world = parse_world(reader, case["world"])
    if "derivation" in case:
        reader.mapping(case["derivation"], "derivation")
    return CaseWorld(
        case_id=reader.identifier(case["case_id"], "case_id"),
        family=reader.identifier(case["family"], "family"),
        language=language,
        question=reader.string(case["question"], "question"),
        world=world,
    )


def case_label(raw: Any) -> str:
    """How to name a raw case in a message: its `case_id` when it has a readable one."""
    value = raw.get("case_id") if isinstance(raw, Mapping) else None
    return f"case {value}" if isinstance(value, str) else "case <no case_id>"


def read_case_world(raw: Any) -> CaseWorld:
    """`parse_case_world` with the case itself named as the source (what the runner reports)."""
    return parse_case_world(raw, case_label(raw))

