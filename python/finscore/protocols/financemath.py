"""FinanceMath and DocMath-Eval (yale-nlp): `normalize`, `compare_two_numbers`, `get_acc`, reproduced.

Both repositories score with the same functions (byte-identical apart from whitespace): the
extracted answer is cleaned as text (units, currency, `%` deleted without scaling), then Python
`eval()`s it, and anything eval cannot read becomes 0; the comparison ignores the sign, accepts
any exact power-of-ten ratio, x100 / x1000 / x100000 within 0.15%, equal 3-decimal ceilings, and
0.15% relative tolerance; NaN matches every gold. finscore never runs the text: `arith` reads the
literal and arithmetic subset exactly, and text that is code is decided as `peer_executes_code`
(with the peer's decision where that is certain without running it).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from finscore.protocols import arith
from finscore.protocols import peer_reasons as R
from finscore.protocols.acc_lines import GetAcc, decide_acc_line, pipeline_item
from finscore.protocols.arith import Opaque, PeerExecutesCode, PeerRaised, Unread
from finscore.protocols.cleaning import clean_answer
from finscore.protocols.peer_values import (
    NUMPY_MODULE, RATIONAL, SYS_MODULE, Float64, NumpyArray, PeerValueError, SympyRational, function, module)
from finscore.protocols.registry import PeerProtocol

_UNITS = ("£", "€", "¥", "million", "billion", "thousand", "US", "USD", "RMB")


def clean_text(prediction: str) -> str:
    """The text `normalize` hands to `eval()` (its string stage, in the peer's order)."""
    return clean_answer(prediction, lower=False, units=_UNITS, bool_words=("True", "False"), options=True,
                        empty="0")


_MODULE_FUNCTIONS = ("reliability_guard", "round_up_to_decimal", "within_eps", "compare_two_numbers",
                     "is_number", "is_scientific_number", "contain_num_and_str", "normalize", "get_acc",
                     "extract_cot_answers", "process_single_pot_output")
#: Names `utils/evaluation_utils.py` holds that finscore does not reproduce (imports, the star import of
#: utils/openai_utils.py); using one is code.
_UNREAD_GLOBALS = ("sleep", "tqdm", "Any", "ClientSession", "tqdm_asyncio", "random", "aiolimiter",
                   "AsyncOpenAI", "OpenAIError", "generate_from_openai_chat_completion", "logging")

_GLOBALS: dict[str, object] = {
    "__name__": "utils.evaluation_utils",
    "math": arith.MATH_MODULE, "np": NUMPY_MODULE, "sys": SYS_MODULE, "Rational": RATIONAL,
    **{name: module(name) for name in ("json", "re", "ast", "os", "faulthandler", "openai", "asyncio")},
    **{name: function(name) for name in _MODULE_FUNCTIONS},
    **{name: Unread(name) for name in _UNREAD_GLOBALS},
}
_BUILTINS = arith.builtin_namespace()
#: `normalize`'s locals when it calls eval()
_LOCALS = frozenset({"prediction", "money"})


class Normalized:
    """What `normalize` returned, and how it got there."""

    __slots__ = ("value", "eval_failed", "used_code")

    def __init__(self, value: object, eval_failed: bool, used_code: bool) -> None:
        self.value = value
        self.eval_failed = eval_failed
        self.used_code = used_code


def normalize(prediction: object) -> Normalized:
    """The peer's `normalize`: PeerRaised for what it raises (AttributeError on a non-string, SystemExit)."""
    if not isinstance(prediction, str):
        raise PeerRaised("AttributeError", f"'{type(prediction).__name__}' object has no attribute 'strip'")
    arith.check_answer_length(prediction)
    plain = arith.plain_number(prediction.strip())
    if plain is not None:  # a plain number passes the cleaning unchanged and evaluates to itself
        return Normalized(plain, False, False)
    text = clean_text(prediction)
    namespace = {**_GLOBALS, "prediction": text, "money": _UNITS[-1]}
    eval_failed = False
    used_code = False
    value: object
    try:
        value, used_code = arith.evaluate_traced(text, namespace, _BUILTINS, _LOCALS)
    except PeerRaised as raised:
        if raised.kind == "SystemExit":
            raise
        value, eval_failed, used_code = 0, True, raised.used_code
    return Normalized(_convert(value), eval_failed, used_code)


def _convert(value: object) -> object:
    """The peer's type conversions after eval: sets and tuples to lists, complex to real, ndarray, Rational."""
    try:
        if isinstance(value, (set, tuple)):
            items = list(value)
            if isinstance(items[0], complex) and any(_stand_in(item) for item in items):
                raise PeerExecutesCode("the real part of a numpy, sympy or unknown object")
            if isinstance(items[0], SympyRational) and any(
                    _stand_in(item) and not isinstance(item, SympyRational) for item in items):
                raise PeerExecutesCode("float() of a numpy or unknown object")
            if isinstance(items[0], complex):
                return [item.real for item in items]
            if isinstance(items[0], SympyRational):
                return [float(item) for item in items]
            return items
        if isinstance(value, NumpyArray):
            return list(value.items)
        if isinstance(value, complex):
            return value.real
        if isinstance(value, SympyRational):
            return float(value)
        return value
    except (IndexError, AttributeError, TypeError, ValueError) as error:
        raise PeerRaised(type(error).__name__, str(error)) from error


def _stand_in(value: object) -> bool:
    """A value finscore holds only as a stand-in (numpy, sympy, an object known by type): its `.real` or
    `float()` are the real object's, not the stand-in's."""
    if isinstance(value, (Float64, NumpyArray, SympyRational)):
        return True
    return isinstance(value, Opaque) and value.type_name not in ("module", "function")


def _within_eps(pred: Any, gt: Any) -> bool:
    eps = abs(gt) * 0.0015
    return bool(pred >= gt - eps and pred <= gt + eps)


def _ceiling_3(number: Any) -> Any:
    return math.ceil(number * 1000) / 1000


def compare_two_numbers(p: Any, gt: Any) -> tuple[bool, str]:
    """The peer's comparison and the rule that decided; raises what it raises (OverflowError on inf)."""
    if isinstance(p, Float64):
        p = p.value
    if not isinstance(p, (int, float)):
        if isinstance(p, (list, str, tuple, complex, dict)):
            return False, R.NON_NUMERIC_VALUE
        raise ValueError(p)
    v1, v2 = max(abs(gt), abs(p)), min(abs(gt), abs(p))
    rule = ""
    if (v1 != 0 and v2 != 0) and int(math.log10(v1 / v2)) == math.log10(v1 / v2):
        rule = R.SIGN_IGNORED if p == -gt else R.POWER_OF_TEN_RATIO
    elif v2 <= v1 / 50 and _within_eps(pred=v2 * 100, gt=v1):
        rule = R.PERCENT_SCALE
    elif v2 <= v1 / 500 and _within_eps(pred=v2 * 1000, gt=v1):
        rule = R.THOUSAND_SCALE
    elif v2 <= v1 / 50000 and _within_eps(pred=v2 * 100000, gt=v1):
        rule = R.HUNDRED_THOUSAND_SCALE
    elif _ceiling_3(v1) == _ceiling_3(v2):
        rule = R.THREE_DECIMAL_CEILING
    if rule:
        if isinstance(p, float) and math.isnan(p):
            return True, R.NAN_MATCHES_ALL
        return True, R.EXACT if p == gt else rule
    if _within_eps(pred=p, gt=gt):
        return True, R.EXACT if p == gt else R.WITHIN_RELATIVE_TOLERANCE
    return False, R.OUTSIDE_TOLERANCE


def get_acc(prediction: object, gt: object) -> tuple[int, str, Normalized | None]:
    """The peer's `get_acc(prediction, gt)` (cot): 0/1, the rule, and what `normalize` returned.

    Raises PeerRaised("SystemExit") where the peer's run would stop, PeerExecutesCode where the
    outcome is not certain without running the text."""
    try:
        normalized = normalize(prediction)
    except PeerRaised as raised:
        if raised.kind == "SystemExit":
            raise
        return 0, R.NOT_TEXT if raised.kind == "AttributeError" and not isinstance(prediction, str) \
            else R.COMPARISON_RAISED, None
    acc, reason = _score(normalized.value, gt)
    if normalized.used_code:
        reason = R.PEER_EXECUTES_CODE
    elif normalized.eval_failed:
        reason = R.EVAL_FAILED_ZERO
    return acc, reason, normalized


def _score(p: object, gt: object) -> tuple[int, str]:
    answer_type = type(gt).__name__
    if answer_type not in ("int", "float", "float64", "bool"):
        return 0, R.COMPARISON_RAISED
    if not (isinstance(p, (str, int, float, bool, list, Float64))):
        return 0, R.NON_NUMERIC_VALUE
    if answer_type == "bool":
        value = p.value if isinstance(p, Float64) else p
        return int(value == gt), R.BOOL_EQUALITY
    try:
        accepted, reason = compare_two_numbers(p, gt)
    except (ArithmeticError, ValueError, TypeError):
        return 0, R.COMPARISON_RAISED
    return int(accepted), reason


def _pipeline(prediction: object, gold: object, get_acc: GetAcc = get_acc) -> dict[str, Any]:
    """`evaluate_cot_pred_file` on a one-item file: the item's `result` (answers containing "none" are 0)."""
    try:
        gt = float(gold)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        return {"raises": type(error).__name__}
    return pipeline_item(prediction, gt, get_acc)


def decide_line(line: Mapping[str, Any]) -> dict[str, Any]:
    """A FinanceMath / DocMath-Eval vector line -> `acc`, `normalized`, `pipeline`, `reason` (never runs its text)."""
    return decide_acc_line(line, get_acc, _pipeline, pipeline_gold="gold", normalize_raises=_normalize_raises)


def score_cot_items(items: Sequence[Mapping[str, Any]], ground_truth: Mapping[str, Any]) -> dict[str, Any]:
    """`evaluate_cot_pred_file` + `get_result` on a stored output file's items (already extracted answers).

    `items`: the file's examples (`question_id`, `topic`, `extracted_pred_answer`); `ground_truth`:
    question id -> its `ground_truth` string. Returns the peer's figures (accuracy and execution rate
    in percent rounded to 2 places, per topic) and `undecided` (answers whose decision needs the text
    run: the figure is then not reproducible without running model text, and `accuracy` is None), and
    `stopped` (an answer would stop the peer's run: SystemExit)."""
    accs: list[int] = []
    executed: list[int] = []
    topics: dict[str, list[tuple[int, int]]] = {}
    undecided = 0
    for item in items:
        prediction = item["extracted_pred_answer"]
        gt = float(ground_truth[item["question_id"]])
        if "none" in prediction.lower():
            outcome = (0, 0)
        else:
            try:
                acc, _, _ = get_acc(prediction, gt)
            except PeerRaised:
                return {"accuracy": None, "execution_rate": None, "topic_accuracy": None, "undecided": undecided,
                        "stopped": True}
            except PeerExecutesCode:
                undecided += 1
                acc = 0
            outcome = (acc, 1)
        accs.append(outcome[0])
        executed.append(outcome[1])
        topics.setdefault(str(item.get("topic")), []).append(outcome)
    if not accs:
        raise PeerValueError("a file with no items has no figure (the peer divides by zero)")
    return {
        "accuracy": None if undecided else round(sum(accs) / len(accs) * 100, 2),
        "execution_rate": round(sum(executed) / len(executed) * 100, 2),
        "topic_accuracy": None if undecided else {
            topic: round(sum(a for a, _ in pairs) / len(pairs) * 100, 2) for topic, pairs in topics.items()},
        "undecided": undecided,
        "stopped": False,
    }


def _normalize_raises(prediction: object) -> str:
    try:
        normalize(prediction)
    except PeerRaised as raised:
        return raised.kind
    return ""


_MATH_READING = ("strip, strip trailing dots; delete £ € ¥ million billion thousand US USD RMB, backticks, %, $, °; "
            "keep the last part after = or ≈ and the first before ' or '; any True/False -> that bool; units "
            "around one number dropped; 10^k -> math.pow(10, k); x and × -> *; thousands commas removed; "
            "(a)-(d) -> the option; then eval() (finscore: a bounded safe evaluator), failure -> 0")
_MATH_TOLERANCE = ("sign ignored; |p|/|gt| an exact power of ten; x100, x1000, x100000 within 0.15%; equal "
              "ceilings at 3 decimals; relative 0.15% inclusive; NaN matches every gold")

PROTOCOLS = (
    PeerProtocol(
        id="financemath", version=1, repository="yale-nlp/FinanceMath",
        commit="bdddc58655947475da852e241b96a7dbd1478742",
        path="utils/evaluation_utils.py (normalize, compare_two_numbers, get_acc); evaluation.py",
        tolerance=_MATH_TOLERANCE, reading=_MATH_READING, decision_key="acc", decide_line=decide_line),
    PeerProtocol(
        id="docmath", version=1, repository="yale-nlp/DocMath-Eval",
        commit="a175c0ce159d5661077db4c24ced9b3672c1242b",
        path="utils/evaluation_utils.py (normalize, compare_two_numbers, get_acc); evaluation.py",
        tolerance=_MATH_TOLERANCE, reading=_MATH_READING, decision_key="acc", decide_line=decide_line),
)
