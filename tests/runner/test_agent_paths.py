"""The runner's agents moved to runner/agents/; the modules at their old paths hand out the same objects.

Code written against `finscore.runner.scripted`, `.oracle`, `.faulty` or `.chat_agent` (the paths
before the move) keeps working, and a class imported either way is the one class.
"""

from __future__ import annotations

import importlib

import pytest

OLD_AND_NEW = [
    ("finscore.runner.scripted", "finscore.runner.agents.registry", ["SCRIPTED_AGENTS", "scripted"]),
    ("finscore.runner.scripted", "finscore.runner.agents.shipped", ["scripted_agent", "load_shipped_agents"]),
    ("finscore.runner.oracle", "finscore.runner.agents.oracle", ["OracleAgent"]),
    ("finscore.runner.oracle", "finscore.runner.agents.scripted", ["ScriptedAgent"]),
    ("finscore.runner.faulty", "finscore.runner.agents.faulty", ["HangingAgent", "CrashingAgent", "HANG_SECONDS"]),
    ("finscore.runner.chat_agent", "finscore.runner.agents.chat",
     ["ChatCompletionsAgent", "ChatEndpoint", "build_messages", "parse_reply", "session_message"]),
]


@pytest.mark.parametrize(("old", "new", "names"), OLD_AND_NEW)
def test_the_old_path_hands_out_the_moved_objects(old: str, new: str, names: list[str]) -> None:
    before, after = importlib.import_module(old), importlib.import_module(new)
    for name in names:
        assert getattr(before, name) is getattr(after, name), name


def test_the_shipped_agents_are_registered_oracle_first() -> None:
    from finscore.runner import SCRIPTED_AGENTS

    # the order the agents are defined in: the oracle, then faulty.py's, top to bottom
    assert list(SCRIPTED_AGENTS) == ["oracle", "wrong_unit", "stale_snapshot", "write_in_read_only", "out_of_scope",
                                     "forged_trace", "hang", "too_many_steps", "crash", "malformed_output"]
