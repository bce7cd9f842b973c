"""Many (answer, gold) pairs decided at once under a peer protocol: `decide_batch`.

The four eval()-based peers (FinanceMath, DocMath-Eval, FinanceReasoning, FinMMR) see mostly
plain decimals (`-12`, `3.25`). A batch of them costs one call into the core
(`fs_decide_peer_acc`, core/fs_peer.c): it reads the plain decimals exactly as
`arith.plain_number` does (the value `eval()` gives) and applies the peer's comparison where
every bit is certain to be CPython's; each other row (code, units, commas, text, a gold that is
not a plain float, int or bool, a power-of-ten ratio the host's math.log10 must judge) comes back
deferred and is decided here by the module's own `get_acc`, one by one. The decisions are the
same either way (tests/protocols/test_batch.py: every recorded vector line, and CPython's
`ast.literal_eval` as the oracle of the reading on generated literals). PIXIU's rule is a string
equality, decided over the batch in Python.

No decision is shared between rows: a repeated pair is decided again (the benchmark says how many
pairs are distinct).
"""

from __future__ import annotations

import math
import sys
from array import array
from itertools import compress, repeat
from operator import is_not
from typing import Any, Callable, Iterator, Mapping, NamedTuple, Sequence, cast, overload

from finscore.protocols import peer_reasons as R
from finscore.protocols.arith import BoundExceeded, PeerExecutesCode, PeerRaised
from finscore.protocols.registry import ProtocolError

#: The core's fs_peer_rule code of each eval()-based protocol.
CORE_RULES: dict[str, int] = {"financemath": 0, "docmath": 0, "financereasoning": 1, "finmmr": 1}
_MODULES = {0: "finscore.protocols.financemath", 1: "finscore.protocols.financereasoning"}
#: A peer batch of fewer pairs than this is decided in Python: loading the core costs a process about
#: 25 ms once (the answers' batch path has its own threshold, answers/in_core.py's CORE_MIN_ROWS).
PEER_CORE_MIN_ROWS = 32
#: Rows per call into the core (the text of a call stays under PEER_CALL_ROWS * MAX_CORE_ROW_CHARS bytes).
PEER_CALL_ROWS = 65_536
#: A longer answer is never plain for the core (it defers it): it is sent empty, so a call stays small.
MAX_CORE_ROW_CHARS = 256
_GOLD_FLOAT, _GOLD_NUMBER, _GOLD_BOOL, _GOLD_HOST = 0, 1, 2, 3
#: fs_peer_reason codes -> reason words (code 0: deferred).
_CORE_REASONS = (None, R.EXACT, R.SIGN_IGNORED, R.POWER_OF_TEN_RATIO, R.PERCENT_SCALE, R.THOUSAND_SCALE,
                 R.HUNDRED_THOUSAND_SCALE, R.THREE_DECIMAL_CEILING, R.WITHIN_RELATIVE_TOLERANCE,
                 R.OUTSIDE_TOLERANCE, R.BOOL_EQUALITY, R.NON_NUMERIC_VALUE, R.EMPTY_OR_NONE,
                 R.TUPLE_FIRST_ELEMENT, R.EVAL_FAILED_ZERO)
#: An outcome byte below 128 -> its reason word ("" for the deferred 0 and for bytes the core never writes).
_REASON_OF_OUTCOME = [(_CORE_REASONS[byte >> 1] or "") if byte >> 1 < len(_CORE_REASONS) else ""
                      for byte in range(256)]
_ACC_OF_OUTCOME = bytes(byte & 1 for byte in range(256))
#: Outcome bytes of 128 and above: the host's math.log10 of the row's ratio decides (core/finscore_core.h).
_NEEDS_LOG10 = 0x80
_MARK_NEEDS_LOG10 = bytes(1 if byte & _NEEDS_LOG10 else 0 for byte in range(256))
#: Bits 5-6 of such a byte: how the row passes when math.log10(ratio) is an integer.
_IF_INTEGRAL = (1 << 1 | 1, 2 << 1 | 1, 3 << 1 | 1)  # exact, sign_ignored, power_of_ten_ratio; acc 1
_PIXIU = frozenset({"pixiu-finqa", "pixiu-convfinqa", "pixiu-tatqa"})


class BatchDecisions(NamedTuple):
    """One decision per pair, as columns.

    - `acc`: the peer's 0 / 1 (PIXIU: 0.0 / 1.0), or None where the peer raises (its run stops, or
      `pred.strip()` fails) or the outcome needs the text run (`peer_executes_code`, `exceeded_bounds`).
    - `reason`: the rule that decided (`finscore.protocols.peer_reasons`, PIXIU's `pixiu.REASONS`); for
      the eval() peers and PIXIU a `PeerReasons` (a sequence read off the outcome bytes when asked,
      equal to the list of its words), for HELM a list.
    - `in_core`: how many pairs the core decided (the rest were decided in Python).
    - `program_accuracy`: helm-finqa's second figure (FinQA's equal_program), None for the other
      protocols; helm-finqa's `acc` is its execution_accuracy (both None where float() of the gold
      raises and the peer's run stops).
    """

    acc: list[int | float | None]
    reason: Sequence[str]
    in_core: int
    program_accuracy: list[float | None] | None = None


def decide_batch(protocol_id: str, predictions: Sequence[object], golds: Sequence[object]) -> BatchDecisions:
    """Each (prediction, gold) pair decided as the protocol's peer decides it (its `get_acc`, PIXIU's
    `process_results`, HELM's FinQAMetric), in order. For helm-finqa a prediction is the completion
    and its gold a mapping with "ref_program", "ref_exe" and "table" (the fields of its vector lines);
    a LineError names the entry it cannot use. A ProtocolError names an unknown protocol, a ValueError
    two columns of different lengths."""
    if len(predictions) != len(golds):
        raise ValueError(f"{len(predictions)} predictions against {len(golds)} golds: one gold for each prediction")
    if protocol_id in _PIXIU:
        return _pixiu(predictions, golds)
    if protocol_id == "helm-finqa":
        return _helm(predictions, golds)
    rule = CORE_RULES.get(protocol_id)
    if rule is None:
        known = ", ".join(("helm-finqa", *sorted(_PIXIU), *CORE_RULES))
        raise ProtocolError(f"no batch form for protocol {protocol_id!r}; decide_batch takes {known}")
    count = len(predictions)
    outcomes = _core_outcomes(rule, predictions, golds) if count >= PEER_CORE_MIN_ROWS else bytes(count)
    acc: list[int | float | None] = list(outcomes.translate(_ACC_OF_OUTCOME))
    host: dict[int, str] = {}
    deferred = outcomes.find(0)
    if deferred < 0:
        return BatchDecisions(acc, PeerReasons(outcomes, host), count)
    import importlib

    get_acc = importlib.import_module(_MODULES[rule]).get_acc
    while deferred >= 0:
        acc[deferred], host[deferred] = _one(get_acc, predictions[deferred], golds[deferred])
        deferred = outcomes.find(0, deferred + 1)
    return BatchDecisions(acc, PeerReasons(outcomes, host), count - len(host))


class PeerReasons(Sequence[str]):
    """The reason word of each row of an eval() peer's batch (PIXIU's: its acc and `word` given), read
    off the row's outcome byte when asked (a list of words built for every row would cost the batch about as much as the core's
    decisions); the rows the host decided keep their words. Equal to any sequence of the same words
    (a list among them); `list(reasons)` gives the plain list."""

    __slots__ = ("_outcomes", "_host", "_word")

    def __init__(self, outcomes: Sequence[object], host: Mapping[int, str],
                 word: Callable[[Any], str] = _REASON_OF_OUTCOME.__getitem__) -> None:
        self._outcomes = outcomes
        self._host = host
        self._word = word  # a row's outcome -> its word

    def __len__(self) -> int:
        return len(self._outcomes)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return list(self)[index]
        row = range(len(self._outcomes))[index]  # IndexError past either end, as a list's
        word = self._host.get(row)
        return self._word(self._outcomes[row]) if word is None else word

    def __iter__(self) -> Iterator[str]:
        if not self._host:
            return map(self._word, self._outcomes)
        words = list(map(self._word, self._outcomes))
        for row, word in self._host.items():
            words[row] = word
        return iter(words)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (str, bytes)) or not isinstance(other, Sequence):
            return NotImplemented
        return len(other) == len(self) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # equal to lists, so unhashable as they are

    def __repr__(self) -> str:
        return repr(list(self))


def _one(get_acc: object, prediction: object, gold: object) -> tuple[int | None, str]:
    """One pair by the module's own get_acc, its outcomes other than a value named."""
    try:
        acc, reason, _ = get_acc(prediction, gold)  # type: ignore[operator]
    except PeerRaised:  # SystemExit: the peer's run would stop here
        return None, R.PEER_STOPS_RUN
    except BoundExceeded:
        return None, R.EXCEEDED_BOUNDS
    except PeerExecutesCode:
        return None, R.PEER_EXECUTES_CODE
    return int(acc), str(reason)


def _resolve_log10(outcomes: bytearray, ratios: bytes) -> None:
    """Finish the rows whose decision waits on FinanceMath's power-of-ten rule: `int(math.log10(q)) ==
    math.log10(q)` asked of this CPython's own math.log10 (the platform's libm, as the peer's run)."""
    marked = outcomes.translate(_MARK_NEEDS_LOG10)
    row = marked.find(1)
    if row < 0:
        return
    values = array("d", ratios)
    if sys.byteorder != "little":  # the module's memory is little-endian
        values.byteswap()
    while row >= 0:
        byte = outcomes[row]
        power = math.log10(values[row])
        outcomes[row] = _IF_INTEGRAL[(byte >> 5) & 3] if int(power) == power else byte & 0x1F
        row = marked.find(1, row + 1)


class _KindOfType(dict[type, int]):
    """A gold's type -> its fs_peer_gold kind; any type not listed is the host's."""

    def __missing__(self, key: type) -> int:
        return _GOLD_HOST


_KIND_OF_TYPE = _KindOfType({float: _GOLD_FLOAT, int: _GOLD_NUMBER, bool: _GOLD_BOOL})


def _gold_column(golds: Sequence[object]) -> tuple[bytes, bytearray]:
    """The golds as the core reads them: doubles and fs_peer_gold kinds (a float subclass such as
    numpy.float64, or any other object, is the host's; in a column holding ints the core defers every
    number of 1e10 or more itself)."""
    types = list(map(type, golds))  # list.count of a type is a pass of pointer comparisons, cheaper than a set
    floats = types.count(float)
    numbers = cast("Sequence[float]", golds)  # array("d") refuses (below) what is no number
    kinds: bytearray
    if floats == len(golds):
        return array("d", numbers).tobytes(), bytearray(len(golds))
    bools = types.count(bool)
    if floats + types.count(int) + bools == len(golds):  # the core defers what an int could make inexact
        kinds = bytearray(b"\1" * len(golds))
        row = -1
        for _ in range(bools):  # list.index finds each bool, the scans together one pass
            row = types.index(bool, row + 1)
            kinds[row] = _GOLD_BOOL
    else:
        kinds = bytearray(map(_KIND_OF_TYPE.__getitem__, types))
    try:
        values = array("d", numbers)
    except (TypeError, OverflowError):  # a gold that is no number, or an int beyond a double: one by one
        values = array("d", bytes(8 * len(golds)))
        for index, gold in enumerate(golds):
            if kinds[index] != _GOLD_HOST:
                try:
                    values[index] = cast(float, gold)
                except OverflowError:
                    kinds[index] = _GOLD_HOST
    return values.tobytes(), kinds


def _core_outcomes(rule: int, predictions: Sequence[object], golds: Sequence[object]) -> bytes:
    """One outcome byte per pair (core/finscore_core.h), PEER_CALL_ROWS pairs a call (0: the host decides),
    the power-of-ten rows resolved by math.log10."""
    from finscore.engine.core.binding import get_core  # wasmtime: loaded when first used

    core = get_core()
    outcomes = bytearray()
    for start in range(0, len(predictions), PEER_CALL_ROWS):
        texts = list(predictions[start:start + PEER_CALL_ROWS])
        gold_values, kinds = _gold_column(golds[start:start + PEER_CALL_ROWS])
        if list(map(type, texts)).count(str) != len(texts):  # a str subclass too is the host's
            for index, text in enumerate(texts):
                if type(text) is not str:
                    texts[index], kinds[index] = "", _GOLD_HOST
        joined = "\0".join(texts)  # type: ignore[arg-type]
        if len(joined) > len(texts) * (MAX_CORE_ROW_CHARS + 1) or joined.count("\0") != len(texts) - 1:
            for index, text in enumerate(texts):  # a long answer, or one holding NUL: never read by the core
                if len(text) > MAX_CORE_ROW_CHARS or "\0" in text:  # type: ignore[arg-type, operator]
                    texts[index], kinds[index] = "", _GOLD_HOST
            joined = "\0".join(texts)  # type: ignore[arg-type]
        if sys.byteorder != "little":  # the module's memory is little-endian
            swapped = array("d", gold_values)
            swapped.byteswap()
            gold_values = swapped.tobytes()
        chunk, ratios = core.decide_peer_acc(rule, joined.encode("utf-8", "surrogatepass"), len(texts), gold_values,
                                             bytes(kinds))
        decided = bytearray(chunk)
        _resolve_log10(decided, ratios)
        outcomes += decided
    return bytes(outcomes)


#: PIXIU's acc -> its reason word (None: a row decided by decide_line, which names its own reason).
_PIXIU_REASON: dict[float | None, str] = {1.0: "equal", 0.0: "differs", None: ""}


def _pixiu(predictions: Sequence[object], golds: Sequence[object]) -> BatchDecisions:
    """PIXIU's `1.0 if pred.strip() == gold else 0.0` over the batch (pixiu.decide_line's rules): text
    pairs at once (one comprehension: `map(operator.eq, ...)` measured no faster, `str.__eq__` slower),
    the reasons read off the acc when asked, any pair with a prediction or gold that is not exactly a
    str by decide_line."""
    texts, gold_texts = list(predictions), list(golds)
    others: list[int] = []
    if list(map(type, texts)).count(str) != len(texts) or list(map(type, gold_texts)).count(str) != len(texts):
        rows = range(len(texts))
        others = sorted({*compress(rows, map(is_not, map(type, texts), repeat(str))),
                         *compress(rows, map(is_not, map(type, gold_texts), repeat(str)))})
        for row in others:
            texts[row] = gold_texts[row] = ""
    acc: list[int | float | None] = [1.0 if text.strip() == gold else 0.0  # type: ignore[attr-defined]
                                     for text, gold in zip(texts, gold_texts)]
    host: dict[int, str] = {}
    stripped = list(map(str.strip, cast("list[str]", gold_texts)))  # str.strip returns the str itself if
    if stripped != gold_texts:  # nothing goes; a gold with its own outer white space matches no stripped prediction
        for row in compress(range(len(texts)), map(str.__ne__, cast("list[str]", gold_texts), stripped)):
            host[row] = "gold_outer_whitespace"
    if others:
        from finscore.protocols.pixiu import decide_line

        for row in others:
            decided = decide_line({"pred": predictions[row], "gold": golds[row]})
            acc[row], host[row] = decided["acc"].get("value"), decided["reason"]
    # the reasons read a copy of the acc: a caller's later change to its acc list changes no reason
    return BatchDecisions(acc, PeerReasons(tuple(acc), host, _PIXIU_REASON.__getitem__), 0)


def _helm(completions: Sequence[object], golds: Sequence[object]) -> BatchDecisions:
    """HELM's FinQAMetric on each completion against its gold fields, every program run by one engine
    batch (helm.decide_lines)."""
    from finscore.protocols.fields import LineError
    from finscore.protocols.helm import decide_lines

    lines = []
    for index, (completion, gold) in enumerate(zip(completions, golds)):
        if not isinstance(gold, Mapping):
            raise LineError(f"entry {index}: the gold is {type(gold).__name__}, not a mapping with "
                            f'"ref_program", "ref_exe" and "table"')
        lines.append({**gold, "generated": completion})
    acc: list[int | float | None] = []
    program: list[float | None] = []
    reason: list[str] = []
    for index, decided in enumerate(decide_lines(lines)):
        if isinstance(decided, LineError):
            raise LineError(f"entry {index}: {decided}")
        metric = decided["metric"]
        value = metric.get("value")
        acc.append(None if value is None else value["execution_accuracy"])
        program.append(None if value is None else value["program_accuracy"])
        reason.append(decided["reason"])
    return BatchDecisions(acc, reason, 0, program)
