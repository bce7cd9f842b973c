"""The official symbolic check, run only for pairs no exact path can decide.

sympy is imported here, lazily, on the first call: importing finscore (or
deciding the easy pairs) never pays for it. Results are memoized within the
process by the exact string sympy receives, never across runs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from finscore.finqa.equivalence_graph import INFIX, SYMBOL, ExpressionTable

#: Expanded programs with more symbols than this are never handed to sympy
#: (the official evaluator would spend unbounded time and memory on them).
MAX_SYMPY_LEAVES = 5000


@dataclass(frozen=True)
class SympyOutcome:
    """``simplify`` of one official string: its result, or the error it raised."""

    ok: bool
    value: Any  # the simplified sympy object when ok, else the error text


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
