"""The official symbolic check, run only for pairs no exact path can decide.

sympy is imported here, lazily, on the first call: importing finscore (or
deciding the easy pairs) never pays for it. Results are memoized within the
process by the exact string sympy receives, never across runs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from finscore.finqa.equivalence.graph import INFIX, SYMBOL, ExpressionTable

#: Expanded programs with more symbols than this are never handed to sympy
#: (the official evaluator would spend unbounded time and memory on them).
MAX_SYMPY_LEAVES = 5000
#: Python's tokenizer refuses more than 200 nested parentheses, and the
#: official string nests one level per op plus one for each ``Symbol(...)``
#: that sympy's parser writes: from 200 nested ops on, sympify always raises.
MAX_PARSABLE_DEPTH = 199


@dataclass(frozen=True)
class SympyOutcome:
    """``simplify`` of one official string: its result, or the error it raised."""

    ok: bool
    value: Any  # the simplified sympy object when ok, else the error text


def unparsable(table: ExpressionTable, root: int) -> SympyOutcome | None:
    """The error sympify raises, decided by nesting alone; None if it may parse.

    Deeper programs fail officially without any algebra (``symbol_recur`` may
    even hit Python's recursion limit first, or run out of memory expanding a
    huge program): on the gold side the run crashes, on the prediction side
    the answer is False, whichever error comes first.
    """
    depth = table.shapes[root].depth
    if depth <= MAX_PARSABLE_DEPTH:
        return None
    return SympyOutcome(
        False, f"SympifyError: {depth} nested operations exceed Python's 200 nested parentheses"
    )


def official_text(table: ExpressionTable, root: int) -> str | None:
    """The exact string official `symbol_recur` writes; None when too large."""
    if table.shapes[root].leaves > MAX_SYMPY_LEAVES:
        return None
    texts: dict[int, str] = {}
    for number in table.reachable([root]):
        node = table.nodes[number]
        if node.op == SYMBOL:
            texts[number] = f"a{node.index}"
        else:
            texts[number] = (
                f"( {texts[node.left]} {INFIX[node.op]} {texts[node.right]} )"
            )
    return texts[root]


@functools.lru_cache(maxsize=4096)
def simplified(text: str) -> SympyOutcome:
    """``simplify(text, evaluate=False)`` as the official function calls it.

    Any exception is an outcome, not a failure of ours: on the gold side the
    official run crashes, on the prediction side it answers False. Both are
    reported by the caller, so the error text is kept.
    """
    from sympy import simplify

    try:
        return SympyOutcome(True, simplify(text, evaluate=False))
    except Exception as error:  # noqa: BLE001 - every error is an official outcome
        return SympyOutcome(False, f"{type(error).__name__}: {error}")
