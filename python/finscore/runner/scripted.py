"""The old path of the scripted-agent registry; it lives in `finscore.runner.agents`
(`registry`: SCRIPTED_AGENTS and `scripted`; `shipped`: `scripted_agent`, `load_shipped_agents`)."""

from finscore.runner.agents.registry import SCRIPTED_AGENTS, scripted
from finscore.runner.agents.shipped import load_shipped_agents, scripted_agent

__all__ = ["SCRIPTED_AGENTS", "load_shipped_agents", "scripted", "scripted_agent"]
