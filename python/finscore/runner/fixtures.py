"""A case's `world` (docs/contracts-format.md section 2.1) read into typed, immutable fixtures.

The runner executes calls against these fixtures only, so they are checked
once, up front: a case whose world cannot be executed is reported as such (and
still counted) instead of failing halfway through an agent's run.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from finscore.contracts.errors import InputFormatError
from finscore.contracts.validation import FieldReader
from finscore.runner.catalogue import CATALOGUE
from finscore.runner.errors import CaseFixtureError, JsonValueError, SchemaError
from finscore.runner.jsonvalues import to_json_value
from finscore.runner.schema import Schema

ASSET_CLASSES = ("equity", "debt", "gold", "cash")


@dataclass(frozen=True)
class Holding:
    instrument_id: str
    name: str
    asset_class: str
    units: Decimal
    price: Decimal


@dataclass(frozen=True)
class Snapshot:
    snapshot_id: str
    household_id: str
    as_of: str
    authorized: bool
    holdings: tuple[Holding, ...]


@dataclass(frozen=True)
class OfferedTool:
    """A tool as the case offers it: what the agent is shown, and the schema it is held to."""

    name: str
    version: str
    effect: str
    description: str
    parameters: Mapping[str, Any]
    schema: Schema


@dataclass(frozen=True)
class Fixtures:
    case_id: str
    language: str
    question: str
    today: str
    household_scope: tuple[str, ...]
    households: Mapping[str, str]
    snapshots: tuple[Snapshot, ...]
    cached_evidence: tuple[Mapping[str, Any], ...]
    tools: Mapping[str, OfferedTool]


MAX_ITEMS = 10_000


def field(reader: FieldReader, holder: Mapping[str, Any], name: str, where: str) -> Any:
    if name not in holder:
        raise reader.fail(where, f"missing field {name!r}")
    return holder[name]


def _holding(reader: FieldReader, raw: Any, where: str) -> Holding:
    item = reader.mapping(raw, where)
    asset_class = reader.choice(field(reader, item, "asset_class", where), f"{where}.asset_class", ASSET_CLASSES)
    return Holding(
        instrument_id=reader.identifier(field(reader, item, "instrument_id", where), f"{where}.instrument_id"),
        name=reader.string(field(reader, item, "name", where), f"{where}.name"),
        asset_class=asset_class,
        units=reader.decimal(field(reader, item, "units", where), f"{where}.units"),
        price=reader.decimal(field(reader, item, "price", where), f"{where}.price"),
    )


def _snapshot(reader: FieldReader, raw: Any, where: str) -> Snapshot:
    item = reader.mapping(raw, where)
    authorized = reader.boolean(field(reader, item, "authorized", where), f"{where}.authorized")
    holdings = reader.array(field(reader, item, "holdings", where), f"{where}.holdings", MAX_ITEMS)
    return Snapshot(
        snapshot_id=reader.identifier(field(reader, item, "snapshot_id", where), f"{where}.snapshot_id"),
        household_id=reader.identifier(field(reader, item, "household_id", where), f"{where}.household_id"),
        as_of=reader.date(field(reader, item, "as_of", where), f"{where}.as_of"),
        authorized=authorized,
        holdings=tuple(_holding(reader, h, f"{where}.holdings[{i}]") for i, h in enumerate(holdings)),
    )


def _offered_tool(reader: FieldReader, raw: Any, where: str) -> OfferedTool:
    item = reader.mapping(raw, where)
    name = reader.string(field(reader, item, "name", where), f"{where}.name")
    known = CATALOGUE.get(name)
    if known is None:
        raise reader.fail(f"{where}.name", f"the runner does not implement a tool named {name!r}")
    version = reader.string(field(reader, item, "version", where), f"{where}.version")
    if version != known.version:
        raise reader.fail(f"{where}.version", f"{name} is implemented as {known.version}, the case asks for {version}")
    effect = reader.string(field(reader, item, "effect", where), f"{where}.effect")
    if effect != known.effect:
        raise reader.fail(f"{where}.effect", f"{name} has effect {known.effect}, the case says {effect}")
    parameters = reader.mapping(field(reader, item, "parameters", where), f"{where}.parameters")
    try:
        schema = Schema(parameters)
    except SchemaError as error:
        raise reader.fail(f"{where}.parameters", str(error)) from None
    return OfferedTool(
        name=name,
        version=version,
        effect=effect,
        description=reader.string(field(reader, item, "description", where), f"{where}.description"),
        parameters=schema.document,
        schema=schema,
    )


def _cached_item(reader: FieldReader, raw: Any, where: str) -> Mapping[str, Any]:
    item = reader.mapping(raw, where)
    identifier = reader.identifier(field(reader, item, "id", where), f"{where}.id")
    if not identifier.startswith("cache-"):
        raise reader.fail(f"{where}.id", f"a cached item's id starts with 'cache-', found {identifier!r}")
    try:
        return to_json_value(item)
    except JsonValueError as error:
        raise reader.fail(where, str(error)) from None


def _check_snapshots_unique(reader: FieldReader, snapshots: tuple[Snapshot, ...]) -> None:
    """`get_holdings` names a snapshot by household and date, so that pair must be unique."""
    seen_ids: set[str] = set()
    seen_dates: set[tuple[str, str]] = set()
    for index, snapshot in enumerate(snapshots):
        where = f"world.snapshots[{index}]"
        if snapshot.snapshot_id in seen_ids:
            raise reader.fail(f"{where}.snapshot_id", f"duplicate snapshot id {snapshot.snapshot_id}")
        if (snapshot.household_id, snapshot.as_of) in seen_dates:
            raise reader.fail(where, f"two snapshots of {snapshot.household_id} dated {snapshot.as_of}")
        seen_ids.add(snapshot.snapshot_id)
        seen_dates.add((snapshot.household_id, snapshot.as_of))


def _read(reader: FieldReader, case: Any) -> Fixtures:
    case = reader.mapping(case, "case")
    case_id = reader.identifier(field(reader, case, "case_id", "case"), "case_id")
    world = reader.mapping(field(reader, case, "world", "case"), "world")
    scope_raw = reader.array(field(reader, world, "household_scope", "world"), "world.household_scope", MAX_ITEMS)
    scope = tuple(reader.identifier(item, f"world.household_scope[{i}]") for i, item in enumerate(scope_raw))
    households: dict[str, str] = {}
    for index, raw in enumerate(
        reader.array(field(reader, world, "households", "world"), "world.households", MAX_ITEMS)
    ):
        where = f"world.households[{index}]"
        item = reader.mapping(raw, where)
        household_id = reader.identifier(field(reader, item, "household_id", where), f"{where}.household_id")
        households[household_id] = reader.string(field(reader, item, "name", where), f"{where}.name")
    tools: dict[str, OfferedTool] = {}
    for index, raw in enumerate(reader.array(field(reader, world, "tools", "world"), "world.tools", MAX_ITEMS)):
        tool = _offered_tool(reader, raw, f"world.tools[{index}]")
        if tool.name in tools:
            raise reader.fail(f"world.tools[{index}].name", f"tool {tool.name} offered twice")
        tools[tool.name] = tool
    snapshots_raw = reader.array(world.get("snapshots", []), "world.snapshots", MAX_ITEMS)
    snapshots = tuple(_snapshot(reader, item, f"world.snapshots[{i}]") for i, item in enumerate(snapshots_raw))
    _check_snapshots_unique(reader, snapshots)
    cached = reader.array(world.get("cached_evidence", []), "world.cached_evidence", MAX_ITEMS)
    return Fixtures(
        case_id=case_id,
        language=reader.string(case.get("language", ""), "language"),
        question=reader.string(field(reader, case, "question", "case"), "question"),
        today=reader.date(field(reader, world, "today", "world"), "world.today"),
        household_scope=scope,
        households=households,
        snapshots=snapshots,
        cached_evidence=tuple(_cached_item(reader, c, f"world.cached_evidence[{i}]") for i, c in enumerate(cached)),
        tools=tools,
    )


def load_fixtures(case: Mapping[str, Any]) -> Fixtures:
    """Typed fixtures of one case; raises CaseFixtureError naming the case and the field."""
    raw_id = case.get("case_id") if isinstance(case, Mapping) else None
    case_id = raw_id if isinstance(raw_id, str) else "<no case_id>"
    try:
        return _read(FieldReader(case_id), case)
    except InputFormatError as error:
        raise CaseFixtureError(case_id, error.where, error.problem) from None
