"""The scripted agents shipped with finscore (`finscore run --agent NAME`), by name.

The CLI's choices and `scripted_agent` read the registry; `load_shipped_agents`
fills it by importing the modules that define the shipped agents (the oracle's
first: the registry lists it first), so adding one is one decorated class.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from finscore.runner.agents.registry import SCRIPTED_AGENTS
from finscore.runner.agents.scripted import ScriptedAgent
from finscore.runner.errors import RunnerError


def load_shipped_agents() -> dict[str, type[ScriptedAgent]]:
    """The registry, with the agents shipped in `oracle.py` and `faulty.py` registered."""
    from finscore.runner.agents import oracle  # noqa: F401  (they register themselves on import)
    from finscore.runner.agents import faulty  # noqa: F401

    return SCRIPTED_AGENTS


def scripted_agent(name: str, cases: Iterable[Mapping[str, Any]]) -> ScriptedAgent:
    """A scripted agent that knows these cases' contracts; raises RunnerError for an unknown name."""
    load_shipped_agents()
    try:
        agent_class = SCRIPTED_AGENTS[name]
    except KeyError:
        raise RunnerError(f"no scripted agent named {name!r}; known: {', '.join(SCRIPTED_AGENTS)}") from None
    return agent_class(list(cases))
