"""A vector line of a `get_acc` peer (FinanceMath, DocMath-Eval, FinanceReasoning, FinMMR), decided.

The four peers record the same fields for a line (`acc`, `normalized`, `pipeline`, `reason`) and stop,
raise or need the text run in the same ways; only their `get_acc`, their one-item pipeline's opening
checks and what `normalize` records on a non-string differ. One walk here serves all four, so a change
to how a line is recorded is made once.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol

from finscore.protocols import peer_reasons as R
from finscore.protocols.arith import BoundExceeded, PeerExecutesCode, PeerRaised
from finscore.protocols.peer_values import PeerValueError, decode, describe


class Normalized(Protocol):
    """What a peer's `normalize` returned (each peer's own class has at least its value)."""

    @property
    def value(self) -> object: ...


#: A peer's `get_acc(prediction, gt)`: 0/1, the rule that decided, and what `normalize` returned.
GetAcc = Callable[[object, object], "tuple[int, str, Normalized | None]"]


def pipeline_item(prediction: object, gt: object, get_acc: GetAcc) -> dict[str, Any]:
    """The one-item pipeline after its peer's own opening checks: a non-string raises AttributeError
    (`.lower()`), an answer containing "none" scores 0 unexecuted, any other is `get_acc`'s."""
    if not isinstance(prediction, str):
        return {"raises": "AttributeError"}
    if "none" in prediction.lower():
        return {"value": {"execution_rate": 0, "acc": 0}}
    try:
        acc, _, _ = get_acc(prediction, gt)
    except PeerRaised as raised:
        return {"raises": raised.kind}
    return {"value": {"execution_rate": 1, "acc": acc}}


def decide_acc_line(line: Mapping[str, Any], get_acc: GetAcc,
                    pipeline: Callable[[object, object, GetAcc], dict[str, Any]], *, pipeline_gold: str | None = None,
                    normalize_raises: Callable[[object], str] | None = None) -> dict[str, Any]:
    """A vector line -> `acc`, `normalized`, `pipeline`, `reason` (never runs its text).

    `pipeline(prediction, gold, get_acc)` is the peer's one-item pipeline (deciding with the get_acc
    it is handed: the line's own decision is reused, not made twice); it is given the line's raw
    `pipeline_gold` field when the peer's file reads the gold from there (the decoded `gt` when the
    line has none). `normalize_raises(prediction)`, when given, records what `normalize` raised for an
    answer `get_acc` did not normalize; without it such a line records no `normalized`."""
    if line.get("kind") == "file_figure":
        return {"reason": R.NEEDS_WHOLE_FILE}
    for field in ("pred", "gt"):
        if field not in line:
            raise PeerValueError(f"line has no {field!r} (kind {line.get('kind')!r})")
    prediction = decode(line["pred"], "pred")
    gt = decode(line["gt"], "gt")
    gold = gt if pipeline_gold is None else line.get(pipeline_gold, gt)
    try:
        decided = get_acc(prediction, gt)
    except PeerRaised as raised:
        return {"acc": {"raises": raised.kind}, "normalized": {"raises": raised.kind},
                "pipeline": pipeline(prediction, gold, get_acc), "reason": R.PEER_STOPS_RUN}
    except PeerExecutesCode as unread:
        undecided = _undecided(unread)
        try:  # an answer containing "none" is dropped by the pipeline before any eval()
            undecided["pipeline"] = pipeline(prediction, gold, get_acc)
        except PeerExecutesCode:
            pass  # the pipeline evaluates the answer too: it stays undecided
        return undecided
    acc, reason, normalized = decided
    again = _reusing(get_acc, prediction, gt, decided)
    result: dict[str, Any] = {"acc": {"value": acc}}
    if normalized is None:
        if normalize_raises is not None:
            result["normalized"] = {"raises": normalize_raises(prediction)}
    else:
        try:
            result["normalized"] = {"value": describe(normalized.value)}
        except PeerExecutesCode as unread:
            result["normalized"] = {"undecided": R.PEER_EXECUTES_CODE, "detail": str(unread)}
    result["pipeline"] = pipeline(prediction, gold, again)
    result["reason"] = reason
    return result


def _reusing(get_acc: GetAcc, prediction: object, gt: object,
             decided: "tuple[int, str, Normalized | None]") -> GetAcc:
    """`get_acc`, answering the pair already decided from its decision (the pipeline asks again with
    the same answer, and a gold of the same type and bits: `repr` tells -0.0 and NaN apart)."""
    shown = (type(gt), repr(gt))

    def again(p: object, g: object) -> "tuple[int, str, Normalized | None]":
        if p is prediction and (type(g), repr(g)) == shown:
            return decided
        return get_acc(p, g)

    return again


def _undecided(unread: PeerExecutesCode) -> dict[str, Any]:
    """A line whose outcome is not certain without running its text: every field says so, and why."""
    reason = R.EXCEEDED_BOUNDS if isinstance(unread, BoundExceeded) else R.PEER_EXECUTES_CODE
    undecided = {"undecided": reason, "detail": str(unread)}
    return {"acc": undecided, "normalized": undecided, "pipeline": undecided, "reason": reason}
