"""FinBen / PIXIU's QA accuracy (The-FinAI/PIXIU, `QA.process_results`), reproduced.

`FinQA`, `ConvFinQA` and `TATQA` (src/tasks/flare.py) share one rule: `acc` is 1.0 when
`pred.strip() == gold`, else 0.0. Only the prediction is stripped, with Python's `str.strip()`
(every character `str.isspace` holds: general category Zs, or bidirectional class WS, B or S;
so NBSP and U+2003 go, a zero-width space stays); the gold is never stripped (a gold with its own
outer white space never matches), and nothing is parsed as a number (`94` differs from `94.0`).
A prediction that is not text (a JSON null, a number, ...) has no `.strip` and the peer raises
AttributeError; a gold that is not text equals no text (0.0). The three protocols differ only in
the dataset their golds come from (the `answer` field of TheFinAI/flare-finqa, flare-convfinqa,
flare-tatqa).
"""

from __future__ import annotations

from typing import Any, Mapping

from finscore.protocols.fields import required
from finscore.protocols.registry import PeerProtocol

#: The reason words.
REASONS: dict[str, str] = {
    "equal": "the stripped prediction equals the gold: 1.0",
    "differs": "the stripped prediction differs from the gold: 0.0",
    "gold_outer_whitespace": "the gold has its own leading or trailing white space, which no stripped "
                             "prediction has: 0.0",
    "gold_not_text": "the gold is not text, and no text equals it: 0.0",
    "prediction_not_text": "the prediction is not text: pred.strip() raises AttributeError",
}


def decide_line(line: Mapping[str, Any]) -> dict[str, Any]:
    """A PIXIU vector line ("pred", "gold") -> "acc" ({"value": 1.0 or 0.0} or
    {"raises": "AttributeError"}) and "reason" (REASONS)."""
    pred = required(line, "pred")
    gold = required(line, "gold")
    if not isinstance(pred, str):
        return {"acc": {"raises": "AttributeError"}, "reason": "prediction_not_text"}
    if not isinstance(gold, str):
        return {"acc": {"value": 0.0}, "reason": "gold_not_text"}
    if pred.strip() == gold:
        return {"acc": {"value": 1.0}, "reason": "equal"}
    reason = "gold_outer_whitespace" if gold != gold.strip() else "differs"
    return {"acc": {"value": 0.0}, "reason": reason}


def _protocol(protocol_id: str, task: str, dataset: str) -> PeerProtocol:
    return PeerProtocol(
        id=protocol_id,
        version=1,
        repository="The-FinAI/PIXIU",
        commit="da45ac467ca3a828621315881e33c68bca3bbb1f",
        path="src/tasks/flare.py",
        tolerance="exact str ==, gold not stripped",
        reading=f"pred.strip(), no number parsing; {task}.process_results, golds from {dataset}",
        decision_key="acc",
        decide_line=decide_line,
    )


PROTOCOLS = (
    _protocol("pixiu-finqa", "FinQA", "TheFinAI/flare-finqa"),
    _protocol("pixiu-convfinqa", "ConvFinQA", "TheFinAI/flare-convfinqa"),
    _protocol("pixiu-tatqa", "TATQA", "TheFinAI/flare-tatqa"),
)


def finqa_line(completion: Any, example: Mapping[str, Any]) -> dict[str, Any]:
    """A FinQA gold example and a completion as a PIXIU line, the gold `str(exe_ans)` (the form the
    vectors record; flare-finqa's own answer strings are not reachable here)."""
    return {"pred": completion, "gold": str(example["qa"]["exe_ans"])}


#: The benchmarks this module's protocols apply to, and how a gold example becomes a line.
BENCHMARK_LINES = {("pixiu-finqa", "finqa"): finqa_line}
