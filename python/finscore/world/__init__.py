"""The case world, once: tools (catalogue, schemas, exact calculators) and the case reader.

Used by the runner (it executes calls here), the scorer's case loader (it adds
the contract to what `parse_case_world` reads) and the kit generator (it
records the kit's oracle traces here). Adding a tool is one decorated function
in `finscore.world.catalogue`; its version, effect, description and schema
travel with it to all three.
"""

from finscore.world import catalogue as _catalogue  # noqa: F401  (registers the tools)
from finscore.world.calls import CallDecision, decide_call, offered_effect
from finscore.world.cases import CASE_FORMAT, parse_case_world, parse_world, read_case_world
from finscore.world.model import CaseWorld, Holding, OfferedTool, Passage, Snapshot, World
from finscore.world.schema import Schema, SchemaError, validation_message
from finscore.world.tools import CATALOGUE, CallFailed, CallRefused, Tool, ToolState, tool

__all__ = [
    "CASE_FORMAT",
    "CATALOGUE",
    "CallDecision",
    "CallFailed",
    "CallRefused",
    "CaseWorld",
    "Holding",
    "OfferedTool",
    "Passage",
    "Schema",
    "SchemaError",
    "Snapshot",
    "Tool",
    "ToolState",
    "World",
    "decide_call",
    "offered_effect",
    "parse_case_world",
    "parse_world",
    "read_case_world",
    "tool",
    "validation_message",
]
