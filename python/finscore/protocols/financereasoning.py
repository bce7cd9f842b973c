"""FinanceReasoning and FinMMR: `normalize` and `get_acc` (byte-identical files), reproduced.

The raw answer is `eval()`ed first (so `1,234` is the tuple (1, 234) and `1_000` is 1000); only if
that fails is it lower-cased and cleaned (`us` deleted, so `minus 5` reads `min 5`), then
`eval()`ed again, failure giving None; `math` is not imported there, so any `10^k` spelling fails.
A tuple or list scores its first element; a bool on either side is compared with `==`; otherwise
relative tolerance 0.2% inclusive, nothing else. finscore never runs the text (`arith`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from finscore.protocols import arith
from finscore.protocols import peer_reasons as R
from finscore.protocols.acc_lines import GetAcc, decide_acc_line, pipeline_item
from finscore.protocols.arith import Opaque, PeerExecutesCode, PeerRaised
from finscore.protocols.cleaning import clean_answer
from finscore.protocols.peer_values import PeerValueError, function, module
from finscore.protocols.registry import PeerProtocol

_UNITS = ("£", "€", "¥", "million", "billion", "thousand", "us", "usd", "rmb")


def clean_text(prediction: str) -> str:
    """The text `normalize` evaluates the second time (after the raw text failed), in the peer's order."""
    return clean_answer(prediction, lower=True, units=_UNITS, bool_words=("true", "false"), options=False,
                        empty="None")


_MODULE_FUNCTIONS = ("within_eps", "is_number", "is_scientific_number", "contain_num_and_str", "normalize",
                     "get_acc", "extract_cot_answers", "extract_pot_answers")
_GLOBALS: dict[str, object] = {
    "__name__": "utils.evaluation_utils",
    "re": module("re"),
    "LLM": Opaque("type", "LLM"),          # utils.llm.LLM, a class
    "logger": Opaque("Logger", "logger"),  # loguru's logger, an instance of loguru._logger.Logger
    **{name: function(name) for name in _MODULE_FUNCTIONS},
}
_BUILTINS = arith.builtin_namespace()
#: `normalize`'s locals at its first and its second eval()
_FIRST_LOCALS = frozenset({"prediction"})
_SECOND_LOCALS = frozenset({"prediction", "money"})


class Normalized:
    """What `normalize` returned, and how it got there."""

    __slots__ = ("value", "raw_eval", "eval_failed", "used_code")

    def __init__(self, value: object, raw_eval: bool, eval_failed: bool, used_code: bool) -> None:
        self.value = value
        self.raw_eval = raw_eval        # the raw text itself evaluated
        self.eval_failed = eval_failed  # both evaluations failed: None
        self.used_code = used_code


def normalize(prediction: str) -> Normalized:
    """The peer's `normalize` of a string answer (PeerRaised("SystemExit") propagates as in the peer)."""
    arith.check_answer_length(prediction)
    plain = arith.plain_number(prediction)
    if plain is not None:  # the raw text is a plain number: the first eval() gives it
        return Normalized(plain, True, False, False)
    try:
        value, used = arith.evaluate_traced(prediction, {**_GLOBALS, "prediction": prediction}, _BUILTINS,
                                            _FIRST_LOCALS)
        return Normalized(value, True, False, used)
    except PeerRaised as raised:
        if raised.kind == "SystemExit":
            raise
        first_used = raised.used_code
    text = clean_text(prediction)
    try:
        value, used = arith.evaluate_traced(text, {**_GLOBALS, "prediction": text, "money": _UNITS[-1]},
                                            _BUILTINS, _SECOND_LOCALS)
        return Normalized(value, False, False, used or first_used)
    except PeerRaised as raised:
        if raised.kind == "SystemExit":
            raise
        return Normalized(None, False, True, raised.used_code or first_used)


def _within_eps(pred: Any, gt: Any) -> bool:
    eps = abs(gt) * 0.002
    return bool(pred >= gt - eps and pred <= gt + eps)


def get_acc(prediction: object, gt: object) -> tuple[int, str, Normalized | None]:
    """The peer's `get_acc`: 0/1, the rule that decided, and what `normalize` returned (None for non-strings)."""
    if not isinstance(gt, (int, float, bool)):
        return 0, R.COMPARISON_RAISED, None
    try:
        normalized = normalize(prediction) if isinstance(prediction, str) else None
    except PeerRaised as raised:
        if raised.kind == "SystemExit":
            raise
        return 0, R.COMPARISON_RAISED, None
    p = normalized.value if normalized is not None else prediction
    reason = ""
    if isinstance(p, (tuple, list)):
        if not p:
            return 0, _override(R.COMPARISON_RAISED, normalized), normalized
        p = p[0]
        reason = R.TUPLE_FIRST_ELEMENT
    if p is None:
        return 0, _override(R.EMPTY_OR_NONE, normalized), normalized
    if isinstance(gt, bool) or isinstance(p, bool):
        if isinstance(p, (Opaque, arith.Pure)):
            return 0, _override(R.BOOL_EQUALITY, normalized), normalized
        try:
            equal = bool(p == gt)
        except TypeError:
            return 0, _override(R.COMPARISON_RAISED, normalized), normalized
        return int(equal), _override(reason or R.BOOL_EQUALITY, normalized), normalized
    if not isinstance(p, (int, float)):
        # a string, complex, set, dict, object: `>=` against a float raises TypeError (caught: 0)
        if isinstance(p, arith.Unread):
            raise PeerExecutesCode("uses an unread name")
        return 0, _override(R.NON_NUMERIC_VALUE, normalized), normalized
    accepted = _within_eps(p, gt)
    if not reason:
        reason = (R.EXACT if p == gt else R.WITHIN_RELATIVE_TOLERANCE) if accepted else R.OUTSIDE_TOLERANCE
    return int(accepted), _override(reason, normalized), normalized


def _override(reason: str, normalized: Normalized | None) -> str:
    """The reading quirk that decided, when there is one: code, or the tuple reading of commas."""
    if normalized is not None and normalized.used_code:
        return R.PEER_EXECUTES_CODE
    return reason


def _pipeline(prediction: object, gt: object, get_acc: GetAcc = get_acc) -> dict[str, Any]:
    """`eval_cot` on a one-item file: an empty answer or one containing "none" scores 0 unexecuted."""
    if not prediction:
        return {"value": {"execution_rate": 0, "acc": 0}}
    return pipeline_item(prediction, gt, get_acc)


def decide_line(line: Mapping[str, Any]) -> dict[str, Any]:
    """A FinanceReasoning / FinMMR vector line -> `acc`, `normalized` (string answers), `pipeline`, `reason`."""
    return decide_acc_line(line, get_acc, _pipeline)


def score_cot_records(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """`eval_cot` (with stored extracted answers) + `get_statistics` on an `evaluation.json` file's records.

    Each record has `ground_truth` and `result.extracted_answer` (what the peer reads when the file
    exists). Returns `avg_accuracy` and `avg_execution_rate` (percent, rounded to 2 places), `undecided`
    (answers whose decision needs the text run: `avg_accuracy` is then None) and `stopped`."""
    total_acc = 0
    total_execution = 0
    undecided = 0
    for record in records:
        answer = record["result"]["extracted_answer"]
        if not (answer and "none" not in answer.lower()):
            continue
        total_execution += 1
        try:
            acc, _, _ = get_acc(answer, record["ground_truth"])
        except PeerRaised:
            return {"avg_accuracy": None, "avg_execution_rate": None, "undecided": undecided, "stopped": True}
        except PeerExecutesCode:
            undecided += 1
            continue
        total_acc += acc
    if not records:
        raise PeerValueError("a file with no records has no figure (the peer divides by zero)")
    return {"avg_accuracy": None if undecided else round(total_acc / len(records) * 100, 2),
            "avg_execution_rate": round(total_execution / len(records) * 100, 2),
            "undecided": undecided, "stopped": False}


_REASONING_READING = ("eval() of the raw text first (finscore: a bounded safe evaluator); if it fails: strip, lower-case, "
            "strip trailing dots, delete £ € ¥ million billion thousand us usd rmb, backticks, %, $, °; keep "
            "the last part after = or ≈ and the first before ' or '; any true/false -> that bool; units around "
            "one number dropped; 10^k -> math.pow(10, k) (math is not imported: fails); thousands commas "
            "removed; eval() again, failure -> None; a tuple or list scores its first element")
_REASONING_TOLERANCE = "relative 0.2% inclusive (no sign or scale leniency); a bool gold or answer compared with =="

PROTOCOLS = (
    PeerProtocol(
        id="financereasoning", version=1, repository="Staudinger0325/FinanceReasoning",
        commit="1f9c5b9949e8469c8e01ff2683af7c3e4f7c909f",
        path="utils/evaluation_utils.py (normalize, get_acc); evaluation.py (eval_cot)",
        tolerance=_REASONING_TOLERANCE, reading=_REASONING_READING, decision_key="acc", decide_line=decide_line),
    PeerProtocol(
        id="finmmr", version=1, repository="addictedLL/FinMMR",
        commit="d8b12ccc8318f1cdbb8d5fa9d917f82c49465a46",
        path="evaluate/utils/evaluation_utils.py (normalize, get_acc); evaluate/evaluate.py (eval_cot)",
        tolerance=_REASONING_TOLERANCE, reading=_REASONING_READING, decision_key="acc", decide_line=decide_line),
)
