"""The tool registry: one definition per tool, its schema beside its implementation.

A tool is registered with the `tool` decorator on the function that carries
it out (docs/contracts-format.md section 3): name, version, effect,
description and parameter properties go in the decorator, the exact work in
the function. The runner, the scorer's case loader and the kit generator all
read `CATALOGUE`, so adding a tool is one decorated function in
`finscore.world.catalogue`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from finscore.world.model import Effect, World
from finscore.world.schema import Schema


class CallRefused(Exception):
    """Authorization refuses the call (outcome `refused`)."""


class CallFailed(Exception):
    """The call cannot be carried out on these fixtures (outcome `error`)."""


class ToolState:
    """The mutable part of one attempt's world: the orders accepted so far."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.orders_accepted = 0


Implementation = Callable[[Mapping[str, Any], ToolState], dict[str, Any]]


def object_schema(properties: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Every catalogue schema: an object, all listed properties required, nothing else."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(properties),
        "properties": {name: dict(schema) for name, schema in properties.items()},
    }


@dataclass(frozen=True)
class Tool:
    """A registered tool; `schema` is what its implementation relies on, whatever a case shows."""

    name: str
    version: str
    effect: Effect
    description: str
    parameters: Mapping[str, Any]
    run: Implementation
    schema: Schema = field(compare=False)
    #: Same arguments and same prior calls give the same result, so a recorded call can be replayed.
    deterministic: bool = True

    def spec(self) -> dict[str, Any]:
        """The tool as a case offers it (`world.tools[]`)."""
        return {
            "name": self.name,
            "version": self.version,
            "effect": self.effect,
            "description": self.description,
            "parameters": self.parameters,
        }


CATALOGUE: dict[str, Tool] = {}


def tool(
    name: str,
    version: str,
    effect: Effect,
    description: str,
    *,
    deterministic: bool = True,
    **properties: Mapping[str, Any],
) -> Callable[[Implementation], Implementation]:
    """Register the decorated function as the implementation of tool `name`.

    `deterministic=False` marks a tool whose result may differ on a second call
    (a live quote): the scorer then cannot replay its recorded calls.
    """

    def register(run: Implementation) -> Implementation:
        if name in CATALOGUE:
            raise ValueError(f"tool {name} is registered twice")
        parameters = object_schema(properties)
        CATALOGUE[name] = Tool(
            name, version, effect, description, parameters, run, Schema(parameters), deterministic=deterministic
        )
        return run

    return register
