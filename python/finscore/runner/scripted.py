"""The scripted agents that ship with finscore, by name (`finscore run --agent NAME`)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from finscore.runner import faulty
from finscore.runner.errors import RunnerError
from finscore.runner.oracle import OracleAgent, ScriptedAgent

SCRIPTED_AGENTS: Mapping[str, type[ScriptedAgent]] = {
    agent.name: agent
    for agent in (
        OracleAgent,
        faulty.WrongUnitAgent,
        faulty.StaleSnapshotAgent,
        faulty.WriteInReadOnlyAgent,
        faulty.OutOfScopeAgent,
        faulty.ForgedTraceAgent,
        faulty.HangingAgent,
        faulty.TooManyStepsAgent,
        faulty.CrashingAgent,
        faulty.MalformedOutputAgent,
    )
}


def scripted_agent(name: str, cases: Iterable[Mapping[str, Any]]) -> ScriptedAgent:
    """A scripted agent that knows these cases' contracts; raises RunnerError for an unknown name."""
    try:
        agent_class = SCRIPTED_AGENTS[name]
    except KeyError:
        raise RunnerError(f"no scripted agent named {name!r}; known: {', '.join(SCRIPTED_AGENTS)}") from None
    return agent_class(list(cases))
