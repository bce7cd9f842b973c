"""The oracle agent: follows each case's expected plan and answers with its gold response.

It reads the case's contract (which a real candidate never sees) to know what
to call, but it takes its citations from what the runtime actually returned:
a claim is cited to the recorded entry whose result supports it. So the oracle
scores 24/24 only if the runtime's tools compute exactly what the kit's
derivations say, which makes its run a check of the runner, not of itself.
"""

from __future__ import annotations

from finscore.runner.agents.registry import scripted
from finscore.runner.agents.scripted import ScriptedAgent


@scripted
class OracleAgent(ScriptedAgent):
    name = "oracle"
