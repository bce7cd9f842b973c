"""The registry of scripted agents shipped with finscore (`finscore run --agent NAME`).

A scripted agent is a `ScriptedAgent` subclass with a `name`, registered with
the `scripted` decorator where it is defined (`oracle.py`, `faulty.py`); the
CLI's choices and `scripted_agent` read the registry (`load_shipped_agents`
fills it), so adding one is one decorated class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, TypeVar

from finscore.runner.errors import RunnerError

if TYPE_CHECKING:
    from finscore.runner.oracle import ScriptedAgent

AgentClass = TypeVar("AgentClass", bound="type[ScriptedAgent]")

SCRIPTED_AGENTS: dict[str, "type[ScriptedAgent]"] = {}


def load_shipped_agents() -> dict[str, "type[ScriptedAgent]"]:
    """The registry, with the agents shipped in `oracle.py` and `faulty.py` registered."""
    from finscore.runner import faulty, oracle  # noqa: F401  (they register themselves on import)

    return SCRIPTED_AGENTS


def scripted(agent_class: AgentClass) -> AgentClass:
    """Register a scripted agent class under its `name`."""
    if agent_class.name in SCRIPTED_AGENTS:
        raise ValueError(f"scripted agent {agent_class.name!r} is registered twice")
    SCRIPTED_AGENTS[agent_class.name] = agent_class
    return agent_class


def scripted_agent(name: str, cases: Iterable[Mapping[str, Any]]) -> "ScriptedAgent":
    """A scripted agent that knows these cases' contracts; raises RunnerError for an unknown name."""
    load_shipped_agents()
    try:
        agent_class = SCRIPTED_AGENTS[name]
    except KeyError:
        raise RunnerError(f"no scripted agent named {name!r}; known: {', '.join(SCRIPTED_AGENTS)}") from None
    return agent_class(list(cases))
