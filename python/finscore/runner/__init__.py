"""The reference runner: runs a candidate agent on a case set and records the trusted trace.

The runtime gives the agent the case's tools, executes every call itself
against the case's deterministic fixtures (schema, scope and authorization
checked first), records every attempt, enforces a deadline and a step budget
without signals, and writes predictions and traces in the format the typed
scorer reads (docs/contracts-format.md). What an agent says about its own
calls is never part of the trace.
"""

from finscore.runner import faulty, oracle  # noqa: F401  (register the scripted agents)
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
from finscore.runner.cases import CaseSet, load_case_set, load_fixtures
from finscore.runner.chat_agent import ChatCompletionsAgent, ChatEndpoint
from finscore.runner.episode import AttemptResult, run_attempt
from finscore.runner.errors import CaseFixtureError, CaseSetError, EndpointError, RunnerError, SchemaError
from finscore.runner.http_json import RetryPolicy
from finscore.runner.limits import Limits
from finscore.runner.orchestrate import run_cases
from finscore.runner.output import manifest, write_manifest, write_predictions
from finscore.runner.reporting import score_predictions, write_report
from finscore.runner.sandbox import Sandbox, TraceFull
from finscore.runner.scripted import SCRIPTED_AGENTS, scripted, scripted_agent
from finscore.world import Schema

__all__ = [
    "Agent",
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
    "write_manifest",
    "write_predictions",
    "write_report",
]
