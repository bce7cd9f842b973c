"""Rewards under a published peer's scoring protocol: `RewardConfig(input="peer", protocol=ID)`.

A trainer reproducing a paper's reward wants that paper's decision, not finscore's: each row is
decided by the registered protocol (finscore.protocols: HELM `fin_qa`, FinBen/PIXIU, FinanceMath,
DocMath-Eval, FinanceReasoning, FinMMR) exactly as the peer's own scorer decides it, through the
protocol's own `decide_line` on the line the peer would score, and the reward is 1.0 or 0.0:

- `financemath`, `docmath`, `financereasoning`, `finmmr`: the completion is the answer the peer's
  `get_acc` receives (its extracted answer: the peers' LLM extraction step is not run here); the
  reward is the `acc` of the peer's one-item pipeline (an answer containing "none", or an empty one,
  scores 0). The gold is `{"ground_truth": ...}`: for FinanceMath/DocMath a number or the text the
  peer's `float()` reads; for FinanceReasoning/FinMMR a JSON number or boolean, as their data holds.
- `pixiu-finqa`, `pixiu-convfinqa`, `pixiu-tatqa`: `pred.strip() == gold`; the gold is `{"answer": text}`.
- `helm-finqa`: the completion is a FinQA program; the gold is FinQA's `{"program", "exe_ans",
  "table"}` (HELM's reference is `str(exe_ans)`); the reward is HELM's `execution_accuracy`, or its
  `program_accuracy` with `match="program"`.

Where the peer would run the model's text as code (`eval()` of anything past literals and
arithmetic: names, calls), finscore does not: the row gets 0.0 with reason `peer_executes_code`
(or `exceeded_bounds`), and its stamp is flagged `not_reproducible=<reason>`, even where finscore
knows what the peer would decide (`abs(-5)`; the detail then holds it): a reward that needs model
text run is not one the peer's published figure could reproduce without running it. Every row's
stamp holds the protocol's signature.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from finscore.protocols import decide_line, signature
from finscore.protocols.fields import LineError, LineExceedsBounds
from finscore.protocols.peer_reasons import (EMPTY_OR_NONE, EXCEEDED_BOUNDS, NOT_TEXT, PEER_EXECUTES_CODE, PEER_RAISES,
                                             PEER_STOPS_RUN)
from finscore.protocols.registry import get_protocol
from finscore.rewards.decisions import MISSING_PREDICTION, DecidedRows
from finscore.rewards.errors import RewardInputError
from finscore.rewards.gold_json import read_golds
from finscore.rewards.programs import TOO_LONG

#: The reasons whose rows the peer decides by running the model's text: 0.0 here, flagged in the stamp.
NOT_REPRODUCIBLE = (PEER_EXECUTES_CODE, EXCEEDED_BOUNDS)
#: The answer text is not read past this length (a peer's answer is a number or a short phrase;
#: a FinQA program a few hundred characters).
MAX_COMPLETION_CHARS = 65_536

_EVAL_PEERS = ("financemath", "docmath", "financereasoning", "finmmr")
_PIXIU = ("pixiu-finqa", "pixiu-convfinqa", "pixiu-tatqa")


def score_field(protocol_id: str, match: str) -> str:
    """The peer figure a row's reward is (named in the stamp)."""
    if protocol_id == "helm-finqa":
        return "program_accuracy" if match == "program" else "execution_accuracy"
    return "acc" if protocol_id in _PIXIU else "pipeline.acc"


def stamp(protocol_id: str, match: str) -> str:
    """The stamp of a scored row: the protocol's signature and the figure the reward is."""
    return f"{signature(protocol_id)} reward={score_field(protocol_id, match)}"


def _gold_problem(protocol_id: str, gold: Any) -> str | None:
    """Why a decoded gold does not fit the protocol, or None (then `_gold_fields` reads it)."""
    if not isinstance(gold, Mapping):
        return f"must be a JSON object, not {type(gold).__name__}"
    if protocol_id in _EVAL_PEERS:
        if "ground_truth" not in gold:
            return 'has no "ground_truth"'
        value = gold["ground_truth"]
        if protocol_id in ("financemath", "docmath"):
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                return f'"ground_truth" must be a number or text float() reads, not {type(value).__name__}'
            try:
                float(value)
            except (ValueError, OverflowError):
                return f'"ground_truth" {value!r} is not a number float() reads (the peer\'s run would stop)'
            return None
        if not isinstance(value, (int, float, bool)):
            return f'"ground_truth" must be a JSON number or boolean, not {type(value).__name__}'
        return None
    if protocol_id in _PIXIU:
        if not isinstance(gold.get("answer"), str):
            return '"answer" must be text (the flare dataset\'s answer string)'
        return None
    for key in ("program", "exe_ans", "table"):
        if key not in gold:
            return f'has no "{key}"'
    if not isinstance(gold["program"], str):
        return '"program" must be text (FinQA\'s program string)'
    table = gold["table"]
    if not isinstance(table, list) or not all(isinstance(row, list) and all(isinstance(c, str) for c in row)
                                              for row in table):
        return '"table" must be a list of rows of text cells'
    reference = str(gold["exe_ans"])
    if reference not in ("yes", "no"):
        try:
            float(reference)
        except ValueError:
            return f'"exe_ans" {reference!r} is not "yes", "no" or a number (HELM\'s float() would raise)'
    return None


def _gold_fields(protocol_id: str, gold: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of the peer's line that come from the gold."""
    if protocol_id in ("financemath", "docmath"):
        return {"gold": gold["ground_truth"], "gt": float(gold["ground_truth"])}
    if protocol_id in _EVAL_PEERS:
        return {"gt": gold["ground_truth"]}
    if protocol_id in _PIXIU:
        return {"gold": gold["answer"]}
    return {"ref_program": gold["program"], "ref_exe": str(gold["exe_ans"]), "table": gold["table"]}


def read_peer_golds(golds: Sequence[Any], indexes: Sequence[int], protocol_id: str,
                    column: str) -> list[dict[str, Any]]:
    """Each row's gold as the fields of the peer's line, read once per distinct JSON text."""

    def read(value: Any, row: int) -> dict[str, Any]:
        problem = _gold_problem(protocol_id, value)
        if problem is not None:
            raise RewardInputError(f"the {protocol_id} gold {problem}", column=column, row=row)
        return _gold_fields(protocol_id, value)

    return read_golds(golds, indexes, column, read)


def _line(protocol_id: str, completion: str, gold: Mapping[str, Any]) -> dict[str, Any]:
    if protocol_id == "helm-finqa":
        return {"generated": completion, **gold}
    return {"pred": completion, **gold}


def _score(protocol_id: str, decided: Mapping[str, Any], match: str) -> tuple[float, str]:
    """The reward and its reason from the fields the protocol decided."""
    reason = str(decided.get("reason", ""))
    if protocol_id in _EVAL_PEERS:
        outcome = decided["pipeline"]
        if "undecided" in outcome:
            return 0.0, str(outcome["undecided"])
        if "raises" in outcome:
            return 0.0, reason if reason == PEER_STOPS_RUN else PEER_RAISES
        value = outcome["value"]
        if not value["execution_rate"]:
            return 0.0, EMPTY_OR_NONE
        if reason in NOT_REPRODUCIBLE:  # the peer would run the text: its decision is not taken as a reward
            return 0.0, reason
        return float(value["acc"]), reason
    key = get_protocol(protocol_id).decision_key
    outcome = decided[key]
    if "raises" in outcome:
        return 0.0, reason or PEER_RAISES
    value = outcome["value"]
    if isinstance(value, Mapping):  # HELM's two figures
        return float(value[score_field(protocol_id, match)]), reason
    return float(value), reason


def _detail(protocol_id: str, decided: Mapping[str, Any]) -> dict[str, Any]:
    key = "pipeline" if protocol_id in _EVAL_PEERS else get_protocol(protocol_id).decision_key
    return {"protocol": protocol_id, key: decided[key], "peer_rule": decided.get("reason", "")}


def decide_peer(completions: Sequence[Any], golds: Sequence[Mapping[str, Any]], protocol_id: str,
                match: str = "execution") -> DecidedRows:
    """One decision per completion under `protocol_id` (None when missing); never runs the text."""
    out = DecidedRows(len(completions))
    for row, (completion, gold) in enumerate(zip(completions, golds)):
        if completion is None:
            out.put(row, 0.0, False, MISSING_PREDICTION, {})
            continue
        if not isinstance(completion, str):
            out.put(row, 0.0, False, NOT_TEXT, {"type": type(completion).__name__})
            continue
        if len(completion) > MAX_COMPLETION_CHARS:
            out.put(row, 0.0, False, TOO_LONG, {"chars": len(completion), "bound": MAX_COMPLETION_CHARS})
            continue
        try:
            decided = decide_line(protocol_id, _line(protocol_id, completion, gold))
        except LineError as error:  # the gold was checked: HELM's program past finscore's bounds
            reason = EXCEEDED_BOUNDS if isinstance(error, LineExceedsBounds) else PEER_RAISES
            out.put(row, 0.0, False, reason, {"protocol": protocol_id, "why": str(error)})
            continue
        score, reason = _score(protocol_id, decided, match)
        out.put(row, score, score == 1.0, reason, _detail(protocol_id, decided))
    return out


def decide_peer_rows(completions: Sequence[Any], golds: Sequence[Any], *, protocol: str, match: str, column: str,
                     base: str) -> tuple[DecidedRows, list[str | None]]:
    """Every row decided by `protocol` (whatever its data source; the golds in `column`), and its
    stamp, `base`; a row the peer would decide by running its text is stamped `not_reproducible=<reason>`."""
    decided = decide_peer(completions, read_peer_golds(golds, range(len(completions)), protocol, column),
                          protocol, match)
    stamps: list[str | None] = [f"{base} not_reproducible={reason}" if reason in NOT_REPRODUCIBLE else base
                                for reason in decided.reasons]
    return decided, stamps
