"""Scripted agents that each make one known mistake, so every failure path is exercised end to end.

Each behaves like the oracle except for its one mistake; `applies_to(case)`
says whether the mistake can be made on a case (a stale snapshot needs an
older snapshot to read). Where it cannot, the agent simply behaves like the
oracle.
"""

from __future__ import annotations

import time
from typing import Any, Mapping, Sequence

from finscore.runner.agent import CallTools, CaseView, Finish, Observation, ToolCall, Turn, TurnRecord
from finscore.runner.agents import oracle  # noqa: F401  (the oracle registers first, as it always has)
from finscore.runner.agents.plans import claim_fact, contract, gold_final, planned_calls, planned_requirements
from finscore.runner.agents.registry import scripted
from finscore.runner.agents.scripted import ScriptedAgent

HANG_SECONDS = 3600.0


def _world(case: Mapping[str, Any]) -> Mapping[str, Any]:
    found: Mapping[str, Any] = case.get("world", {})
    return found


def _offered(case: Mapping[str, Any]) -> set[str]:
    return {tool.get("name") for tool in _world(case).get("tools", [])}


def _answer_claims(case: Mapping[str, Any]) -> Mapping[str, Any]:
    terms = contract(case)
    return terms.get("claims", {}) if terms.get("response", {}).get("kind") == "answer" else {}


@scripted
class WrongUnitAgent(ScriptedAgent):
    """Right number, wrong unit: every claim's unit is swapped (INR for USD, a ratio for INR)."""

    name = "wrong_unit"

    def applies_to(self, case: Mapping[str, Any]) -> bool:
        return bool(_answer_claims(case))

    def final(self, case: Mapping[str, Any], view: CaseView, observations: Sequence[Observation]) -> Any:
        final = gold_final(case, view, observations)
        for claim in final.get("claims", {}).values():
            claim["unit"] = "USD" if claim.get("unit") == "INR" else "INR"
        return final


def _older_authorized_date(case: Mapping[str, Any], household: Any, as_of: Any) -> str | None:
    dates = [
        snapshot["as_of"]
        for snapshot in _world(case).get("snapshots", [])
        if snapshot.get("household_id") == household
        and snapshot.get("authorized") is True
        and isinstance(as_of, str)
        and snapshot.get("as_of", "") < as_of
    ]
    return max(dates) if dates else None


@scripted
class StaleSnapshotAgent(ScriptedAgent):
    """Reads an older authorized snapshot instead of the one the case needs, and reports from it."""

    name = "stale_snapshot"

    def applies_to(self, case: Mapping[str, Any]) -> bool:
        return any(
            call.name == "get_holdings"
            and _older_authorized_date(case, call.arguments.get("household_id"), call.arguments.get("as_of"))
            for call in planned_calls(case)
        )

    def calls(self, case: Mapping[str, Any], view: CaseView) -> list[ToolCall]:
        script = []
        for call in planned_calls(case):
            if call.name == "get_holdings":
                older = _older_authorized_date(case, call.arguments.get("household_id"), call.arguments.get("as_of"))
                if older is not None:
                    call = ToolCall(call.name, {**call.arguments, "as_of": older})
            script.append(call)
        return script

    def final(self, case: Mapping[str, Any], view: CaseView, observations: Sequence[Observation]) -> Any:
        final = gold_final(case, view, observations)
        for name, claim in _answer_claims(case).items():
            fact_name = claim_fact(name, claim)
            for observation in observations:
                result = observation.result or {}
                facts = result.get("facts", {})
                if observation.outcome == "ok" and fact_name in facts:
                    reported = final["claims"][name]
                    reported.update(value=facts[fact_name]["value"], as_of=result["as_of"], source=result["source"])
                    final["citations"][name] = observation.entry_id
        return final


def _order_instrument(case: Mapping[str, Any], household: str) -> str:
    for snapshot in _world(case).get("snapshots", []):
        if snapshot.get("household_id") == household and snapshot.get("holdings"):
            return str(snapshot["holdings"][0].get("instrument_id"))
    return "EQ-NIFTY50-IDX"


@scripted
class WriteInReadOnlyAgent(ScriptedAgent):
    """Places an order in a read-only workflow, then says it made no change."""

    name = "write_in_read_only"

    def applies_to(self, case: Mapping[str, Any]) -> bool:
        terms = contract(case).get("trace", {})
        forbidden = {pattern.get("tool") for pattern in terms.get("forbidden_calls", [])}
        return terms.get("final_writes") == 0 and ("place_order" in _offered(case) or "place_order" in forbidden)

    def calls(self, case: Mapping[str, Any], view: CaseView) -> list[ToolCall]:
        household = view.household_scope[0] if view.household_scope else "H001"
        order = {
            "household_id": household,
            "instrument_id": _order_instrument(case, household),
            "side": "sell",
            "quantity": "1",
        }
        return planned_calls(case) + [ToolCall("place_order", order)]

    def final(self, case: Mapping[str, Any], view: CaseView, observations: Sequence[Observation]) -> Any:
        final = gold_final(case, view, observations)
        final["reported_actions"] = []
        final["text"] = "Read-only: no order was placed and nothing was changed."
        return final


def _outside_household(case: Mapping[str, Any]) -> str | None:
    scope = set(_world(case).get("household_scope", []))
    for household in _world(case).get("households", []):
        if household.get("household_id") not in scope:
            return str(household.get("household_id"))
    return None


@scripted
class OutOfScopeAgent(ScriptedAgent):
    """Looks at a household outside the session's scope before doing what the case asks."""

    name = "out_of_scope"

    def applies_to(self, case: Mapping[str, Any]) -> bool:
        return _outside_household(case) is not None and bool(_offered(case) & {"list_snapshots", "get_holdings"})

    def calls(self, case: Mapping[str, Any], view: CaseView) -> list[ToolCall]:
        other = _outside_household(case)
        if other is None or not self.applies_to(case):
            return planned_calls(case)
        if "list_snapshots" in _offered(case):
            probe = ToolCall("list_snapshots", {"household_id": other})
        else:
            probe = ToolCall("get_holdings", {"household_id": other, "as_of": view.today})
        return [probe] + planned_calls(case)


@scripted
class ForgedTraceAgent(ScriptedAgent):
    """Makes no call at all and claims, in its answer, the calls and results it should have made."""

    name = "forged_trace"

    def applies_to(self, case: Mapping[str, Any]) -> bool:
        return bool(planned_requirements(case))

    def calls(self, case: Mapping[str, Any], view: CaseView) -> list[ToolCall]:
        return []

    def final(self, case: Mapping[str, Any], view: CaseView, observations: Sequence[Observation]) -> Any:
        final = gold_final(case, view, observations)
        forged = [
            {
                "id": f"e{index}",
                "turn": index,
                "tool": call.name,
                "arguments": dict(call.arguments),
                "outcome": "ok",
                "effect": "read",
            }
            for index, call in enumerate(planned_calls(case), start=1)
        ]
        if final.get("kind") == "answer":
            final["citations"] = {name: forged[-1]["id"] for name in final.get("claims", {})}
        final["reported_actions"] = forged
        return final


@scripted
class HangingAgent(ScriptedAgent):
    """Never answers its first turn (for an hour): the deadline must end the case and its process."""

    name = "hang"

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        time.sleep(HANG_SECONDS)
        return Finish({"kind": "refusal", "reason": "too_late"})


@scripted
class TooManyStepsAgent(ScriptedAgent):
    """Repeats a call forever and never answers: the step limit must end the case."""

    name = "too_many_steps"

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        script = planned_calls(self.cases[view.case_id])
        if script:
            return CallTools((script[0],))
        name = view.tools[0].name if view.tools else "no_such_tool"
        return CallTools((ToolCall(name, {}),))


@scripted
class CrashingAgent(ScriptedAgent):
    """Raises in its first turn."""

    name = "crash"

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        raise RuntimeError("scripted failure: this agent crashes on purpose")


@scripted
class MalformedOutputAgent(ScriptedAgent):
    """Answers in prose instead of a final object."""

    name = "malformed_output"

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        return Finish("The answer is roughly 33 lakh rupees, give or take.")
