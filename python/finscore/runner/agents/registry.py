"""The registry of scripted agents: `SCRIPTED_AGENTS` and the `scripted` decorator.

A scripted agent is a `ScriptedAgent` subclass with a `name`, registered with the
`scripted` decorator where it is defined (`oracle.py`, `faulty.py`). This module
imports no agent, so an agent's module can import it without a circle;
`finscore.runner.agents.shipped` loads the shipped agents into it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from finscore.runner.agents.scripted import ScriptedAgent

AgentClass = TypeVar("AgentClass", bound="type[ScriptedAgent]")

SCRIPTED_AGENTS: dict[str, "type[ScriptedAgent]"] = {}


def scripted(agent_class: AgentClass) -> AgentClass:
    """Register a scripted agent class under its `name`."""
    if agent_class.name in SCRIPTED_AGENTS:
        raise ValueError(f"scripted agent {agent_class.name!r} is registered twice")
    SCRIPTED_AGENTS[agent_class.name] = agent_class
    return agent_class
