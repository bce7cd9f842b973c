"""`ScriptedAgent`: the base of the scripted agents shipped with finscore (`finscore run --agent`).

A subclass overrides the calls it makes or the final response it gives; registered with
`finscore.runner.agents.registry.scripted`, it becomes a `--agent` choice.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from finscore.runner.agent import CallTools, CaseView, Finish, Observation, ToolCall, Turn, TurnRecord
from finscore.runner.agents.plans import gold_final, observations_of, planned_calls


class ScriptedAgent:
    """Makes a fixed list of calls, one per turn, then gives a final response built from what it saw.

    Stateless between turns (everything is recomputed from the case and the
    history), so one instance serves parallel attempts and re-runs give the
    same trace.
    """

    name = "scripted"

    def __init__(self, cases: Iterable[Mapping[str, Any]]) -> None:
        self.cases = {case["case_id"]: case for case in cases}

    def calls(self, case: Mapping[str, Any], view: CaseView) -> list[ToolCall]:
        return planned_calls(case)

    def final(self, case: Mapping[str, Any], view: CaseView, observations: Sequence[Observation]) -> Any:
        return gold_final(case, view, observations)

    def applies_to(self, case: Mapping[str, Any]) -> bool:
        """Whether this agent's one mistake can be made on this case (always, for the oracle)."""
        return True

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        case = self.cases[view.case_id]
        script = self.calls(case, view)
        made = sum(len(turn.request.calls) for turn in history)
        if made < len(script):
            return CallTools((script[made],))
        return Finish(self.final(case, view, observations_of(history)))
