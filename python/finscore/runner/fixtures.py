"""A case's `world` (docs/contracts-format.md section 2.1) read into typed, immutable fixtures.

The runner executes calls against these fixtures only, so they are checked
once, up front: a case whose world cannot be executed is reported as such (and
still counted) instead of failing halfway through an agent's run.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from finscore.runner.catalogue import CATALOGUE
from finscore.runner.errors import CaseFixtureError, JsonValueError, SchemaError
from finscore.runner.jsonvalues import to_json_value
from finscore.runner.schema import Schema

IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
CANONICAL_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")
ASSET_CLASSES = ("equity", "debt", "gold", "cash")
MAX_DECIMAL_TEXT = 120


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


class _Reader:
    """Typed field reads that fail with the case id and the JSON path."""

    def __init__(self, case_id: str) -> None:
        self.case_id = case_id

    def fail(self, where: str, problem: str) -> CaseFixtureError:
        return CaseFixtureError(self.case_id, where, problem)

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, "must be an object")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, "must be a list")
        return value

    def field(self, holder: Mapping[str, Any], name: str, where: str) -> Any:
        if name not in holder:
            raise self.fail(where, f"missing field {name!r}")
        return holder[name]

    def string(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise self.fail(where, "must be a string")
        return value

    def identifier(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or IDENTIFIER.fullmatch(value) is None:
            raise self.fail(where, f"{value!r} is not an identifier")
        return value

    def date(self, value: Any, where: str) -> str:
        text = self.string(value, where)
        try:
            if len(text) != 10:
                raise ValueError
            datetime.date.fromisoformat(text)
        except ValueError:
            raise self.fail(where, f"{text!r} is not a YYYY-MM-DD date") from None
        return text

    def decimal(self, value: Any, where: str) -> Decimal:
        if isinstance(value, str) and len(value) <= MAX_DECIMAL_TEXT and CANONICAL_DECIMAL.fullmatch(value):
            return Decimal(value)
        if isinstance(value, (int, Decimal)) and not isinstance(value, bool) and Decimal(value).is_finite():
            return Decimal(value)
        raise self.fail(where, f"{value!r} is not a decimal")


def _holding(reader: _Reader, raw: Any, where: str) -> Holding:
    item = reader.mapping(raw, where)
    asset_class = reader.string(reader.field(item, "asset_class", where), f"{where}.asset_class")
    if asset_class not in ASSET_CLASSES:
        raise reader.fail(f"{where}.asset_class", f"{asset_class!r} is not one of {', '.join(ASSET_CLASSES)}")
    return Holding(
        instrument_id=reader.identifier(reader.field(item, "instrument_id", where), f"{where}.instrument_id"),
        name=reader.string(reader.field(item, "name", where), f"{where}.name"),
        asset_class=asset_class,
        units=reader.decimal(reader.field(item, "units", where), f"{where}.units"),
        price=reader.decimal(reader.field(item, "price", where), f"{where}.price"),
    )


def _snapshot(reader: _Reader, raw: Any, where: str) -> Snapshot:
    item = reader.mapping(raw, where)
    authorized = reader.field(item, "authorized", where)
    if not isinstance(authorized, bool):
        raise reader.fail(f"{where}.authorized", "must be true or false")
    holdings = reader.array(reader.field(item, "holdings", where), f"{where}.holdings")
    return Snapshot(
        snapshot_id=reader.identifier(reader.field(item, "snapshot_id", where), f"{where}.snapshot_id"),
        household_id=reader.identifier(reader.field(item, "household_id", where), f"{where}.household_id"),
        as_of=reader.date(reader.field(item, "as_of", where), f"{where}.as_of"),
        authorized=authorized,
        holdings=tuple(_holding(reader, h, f"{where}.holdings[{i}]") for i, h in enumerate(holdings)),
    )


def _offered_tool(reader: _Reader, raw: Any, where: str) -> OfferedTool:
    item = reader.mapping(raw, where)
    name = reader.string(reader.field(item, "name", where), f"{where}.name")
    known = CATALOGUE.get(name)
    if known is None:
        raise reader.fail(f"{where}.name", f"the runner does not implement a tool named {name!r}")
    version = reader.string(reader.field(item, "version", where), f"{where}.version")
    if version != known.version:
        raise reader.fail(f"{where}.version", f"{name} is implemented as {known.version}, the case asks for {version}")
    effect = reader.string(reader.field(item, "effect", where), f"{where}.effect")
    if effect != known.effect:
        raise reader.fail(f"{where}.effect", f"{name} has effect {known.effect}, the case says {effect}")
    parameters = reader.mapping(reader.field(item, "parameters", where), f"{where}.parameters")
    try:
        schema = Schema(parameters)
    except SchemaError as error:
        raise reader.fail(f"{where}.parameters", str(error)) from None
    return OfferedTool(
        name=name,
        version=version,
        effect=effect,
        description=reader.string(reader.field(item, "description", where), f"{where}.description"),
        parameters=schema.document,
        schema=schema,
    )


def _cached_item(reader: _Reader, raw: Any, where: str) -> Mapping[str, Any]:
    item = reader.mapping(raw, where)
    identifier = reader.identifier(reader.field(item, "id", where), f"{where}.id")
    if not identifier.startswith("cache-"):
        raise reader.fail(f"{where}.id", f"a cached item's id starts with 'cache-', found {identifier!r}")
    try:
        return to_json_value(item)
    except JsonValueError as error:
        raise reader.fail(where, str(error)) from None


def _check_snapshots_unique(reader: _Reader, snapshots: tuple[Snapshot, ...]) -> None:
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


def load_fixtures(case: Mapping[str, Any]) -> Fixtures:
    """Typed fixtures of one case; raises CaseFixtureError naming the case and the field."""
    case_id = case.get("case_id") if isinstance(case, Mapping) else None
    reader = _Reader(case_id if isinstance(case_id, str) else "<no case_id>")
    case = reader.mapping(case, "")
    case_id = reader.identifier(reader.field(case, "case_id", ""), "case_id")
    world = reader.mapping(reader.field(case, "world", ""), "world")
    scope = [
        reader.identifier(item, f"world.household_scope[{i}]")
        for i, item in enumerate(reader.array(reader.field(world, "household_scope", "world"), "world.household_scope"))
    ]
    households: dict[str, str] = {}
    for index, raw in enumerate(reader.array(reader.field(world, "households", "world"), "world.households")):
        where = f"world.households[{index}]"
        item = reader.mapping(raw, where)
        household_id = reader.identifier(reader.field(item, "household_id", where), f"{where}.household_id")
        households[household_id] = reader.string(reader.field(item, "name", where), f"{where}.name")
    tools: dict[str, OfferedTool] = {}
    for index, raw in enumerate(reader.array(reader.field(world, "tools", "world"), "world.tools")):
        tool = _offered_tool(reader, raw, f"world.tools[{index}]")
        if tool.name in tools:
            raise reader.fail(f"world.tools[{index}].name", f"tool {tool.name} offered twice")
        tools[tool.name] = tool
    snapshots = tuple(
        _snapshot(reader, s, f"world.snapshots[{i}]")
        for i, s in enumerate(reader.array(world.get("snapshots", []), "world.snapshots"))
    )
    _check_snapshots_unique(reader, snapshots)
    cached = reader.array(world.get("cached_evidence", []), "world.cached_evidence")
    return Fixtures(
        case_id=case_id,
        language=reader.string(case.get("language", ""), "language"),
        question=reader.string(reader.field(case, "question", ""), "question"),
        today=reader.date(reader.field(world, "today", "world"), "world.today"),
        household_scope=tuple(scope),
        households=households,
        snapshots=snapshots,
        cached_evidence=tuple(_cached_item(reader, c, f"world.cached_evidence[{i}]") for i, c in enumerate(cached)),
        tools=tools,
    )
