"""The old path of the oracle agent and of `ScriptedAgent`; they live in `finscore.runner.agents`
(`oracle`, `scripted`)."""

from finscore.runner.agents.oracle import OracleAgent
from finscore.runner.agents.scripted import ScriptedAgent

__all__ = ["OracleAgent", "ScriptedAgent"]
