"""The reference runner: runs a candidate agent on a case set and records the trusted trace.

The runtime gives the agent the case's tools, executes every call itself
against the case's deterministic fixtures (schema, scope and authorization
checked first), records every attempt, runs the agent in its own process
(JSON messages only, killed at its deadline), enforces a step budget, and
writes sealed predictions and traces in the format the typed scorer reads
(docs/contracts-format.md). What an agent says about its own calls is never
part of the trace.

Names load on first use, so an agent's process (which imports this package to
reach `finscore.runner.agent_host`) starts without the scorer and the world.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from finscore.runner.agent import (
        Agent,
        CallTools,
        CaseView,
        Finish,
        Observation,
        ToolCall,
        ToolOffer,
        Turn,
        TurnRecord,
        UnreadableArguments,
    )
    from finscore.runner.agents.chat import ChatCompletionsAgent, ChatEndpoint
    from finscore.runner.agents.registry import SCRIPTED_AGENTS, scripted
    from finscore.runner.agents.shipped import scripted_agent
    from finscore.runner.cases import CaseSet, load_case_set, load_fixtures
    from finscore.runner.episode import AttemptRecord, AttemptResult, run_attempt, start_attempt
    from finscore.runner.errors import CaseFixtureError, CaseSetError, EndpointError, RunnerError, SchemaError
    from finscore.runner.http_json import RetryPolicy
    from finscore.runner.limits import Limits
    from finscore.runner.orchestrate import TraceSealer, run_cases
    from finscore.runner.output import manifest, write_manifest, write_predictions
    from finscore.runner.reporting import score_predictions, write_report
    from finscore.runner.sandbox import Sandbox, TraceFull
    from finscore.world import Schema


_WHERE: dict[str, str] = {
    "Agent": "finscore.runner.agent",
    "AttemptRecord": "finscore.runner.episode",
    "AttemptResult": "finscore.runner.episode",
    "CallTools": "finscore.runner.agent",
    "CaseFixtureError": "finscore.runner.errors",
    "CaseSet": "finscore.runner.cases",
    "CaseSetError": "finscore.runner.errors",
    "CaseView": "finscore.runner.agent",
    "ChatCompletionsAgent": "finscore.runner.agents.chat",
    "ChatEndpoint": "finscore.runner.agents.chat",
    "EndpointError": "finscore.runner.errors",
    "Finish": "finscore.runner.agent",
    "Limits": "finscore.runner.limits",
    "Observation": "finscore.runner.agent",
    "RetryPolicy": "finscore.runner.http_json",
    "RunnerError": "finscore.runner.errors",
    "SCRIPTED_AGENTS": "finscore.runner.agents.registry",
    "Sandbox": "finscore.runner.sandbox",
    "Schema": "finscore.world",
    "SchemaError": "finscore.runner.errors",
    "ToolCall": "finscore.runner.agent",
    "ToolOffer": "finscore.runner.agent",
    "TraceFull": "finscore.runner.sandbox",
    "TraceSealer": "finscore.runner.orchestrate",
    "Turn": "finscore.runner.agent",
    "TurnRecord": "finscore.runner.agent",
    "UnreadableArguments": "finscore.runner.agent",
    "load_case_set": "finscore.runner.cases",
    "load_fixtures": "finscore.runner.cases",
    "manifest": "finscore.runner.output",
    "run_attempt": "finscore.runner.episode",
    "run_cases": "finscore.runner.orchestrate",
    "score_predictions": "finscore.runner.reporting",
    "scripted": "finscore.runner.agents.registry",
    "scripted_agent": "finscore.runner.agents.shipped",
    "start_attempt": "finscore.runner.episode",
    "write_manifest": "finscore.runner.output",
    "write_predictions": "finscore.runner.output",
    "write_report": "finscore.runner.reporting",
}


def __getattr__(name: str) -> Any:
    if name == "SCRIPTED_AGENTS":
        from finscore.runner.agents.shipped import load_shipped_agents

        return load_shipped_agents()
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'finscore.runner' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "Agent",
    "AttemptRecord",
    "AttemptResult",
    "CallTools",
    "CaseFixtureError",
    "CaseSet",
    "CaseSetError",
    "CaseView",
    "ChatCompletionsAgent",
    "ChatEndpoint",
    "EndpointError",
    "Finish",
    "Limits",
    "Observation",
    "RetryPolicy",
    "RunnerError",
    "SCRIPTED_AGENTS",
    "Sandbox",
    "Schema",
    "SchemaError",
    "ToolCall",
    "ToolOffer",
    "TraceFull",
    "TraceSealer",
    "Turn",
    "TurnRecord",
    "UnreadableArguments",
    "load_case_set",
    "load_fixtures",
    "manifest",
    "run_attempt",
    "run_cases",
    "score_predictions",
    "scripted",
    "scripted_agent",
    "start_attempt",
    "write_manifest",
    "write_predictions",
    "write_report",
]
