"""The typed shape of a case's world (docs/contracts-format.md section 2.1).

Read once by `finscore.world.cases` and immutable afterwards: the runner
executes calls against it, the scorer checks traces against it, and the kit
generator records the kit's oracle traces from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal, Mapping

if TYPE_CHECKING:
    from finscore.world.schema import Schema

Effect = Literal["read", "write"]
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
    effect: Effect
    description: str
    parameters: Mapping[str, Any]
    schema: "Schema"


@dataclass(frozen=True)
class World:
    """Today's date, the session's household scope, the households, their snapshots, cached items, tools."""

    today: str
    household_scope: tuple[str, ...]
    households: Mapping[str, str]
    snapshots: tuple[Snapshot, ...]
    cached_evidence: tuple[Mapping[str, Any], ...]
    tools: Mapping[str, OfferedTool]


@dataclass(frozen=True)
class CaseWorld:
    """What a case is apart from its contract: who asks what, in which language, in which world."""

    case_id: str
    family: str
    language: str
    question: str
    world: World
