"""Generated programs and the official symbolic recipe, rebuilt here with sympy.

The recipe (independent of finscore): each distinct gold literal and each gold
table step becomes a symbol ``a0, a1, ...`` in order of first appearance; a
program is its last step written as nested ``( x op y )``; the official answer
is ``simplify(gold) == simplify(pred)``, a gold that sympy refuses crashes the
official run and a prediction that sympy refuses is not equivalent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

from hypothesis import strategies as st

INFIX = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "exp": "**", "greater": ">"}
LITERALS = ("100", "const_100", "2.5", "-3", "7%", "12", "const_2", "0.5")
TABLE_STEPS = (("table_sum", "revenue"), ("table_max", "costs"))

Step = tuple[str, str, str]


def is_reference(arg: str) -> bool:
    return arg.startswith("#")


def symbol_map(gold: Sequence[Step]) -> dict[tuple[str, ...], str]:
    symbols: dict[tuple[str, ...], str] = {}
    for op, arg1, arg2 in gold:
        keys = [(op, arg1)] if op.startswith("table") else [(a,) for a in (arg1, arg2) if not is_reference(a)]
        for key in keys:
            symbols.setdefault(key, f"a{len(symbols)}")
    return symbols


def infix(steps: Sequence[Step], symbols: dict[tuple[str, ...], str]) -> str:
    def write(index: int) -> str:
        op, arg1, arg2 = steps[index]
        if op.startswith("table"):
            return symbols[(op, arg1)]
        parts = [write(int(a[1:])) if is_reference(a) else symbols[(a,)] for a in (arg1, arg2)]
        return f"( {parts[0]} {INFIX[op]} {parts[1]} )"

    return write(len(steps) - 1)


def to_tokens(steps: Sequence[Step]) -> list[str]:
    out: list[str] = []
    for op, arg1, arg2 in steps:
        out += [f"{op}(", arg1, arg2, ")"]
    return out + ["EOF"]


@dataclass(frozen=True)
class Crash:
    """sympy raised on the gold program: the official run would stop."""

    error: str


def official_answer(gold: Sequence[Step], pred: Sequence[Step]) -> Union[bool, Crash]:
    """The official comparison for a prediction that passes the official checks."""
    from sympy import simplify

    symbols = symbol_map(gold)
    try:
        gold_simplified = simplify(infix(gold, symbols), evaluate=False)
    except Exception as error:  # noqa: BLE001 - the official run stops on any error
        return Crash(f"{type(error).__name__}: {error}")
    try:
        pred_simplified = simplify(infix(pred, symbols), evaluate=False)
    except Exception:  # noqa: BLE001 - officially a prediction error means "not equal"
        return False
    return bool(gold_simplified == pred_simplified)


ARITHMETIC = ("add", "subtract", "multiply", "divide", "exp")


@st.composite
def programs(
    draw: st.DrawFn, literals: Sequence[str], tables: Sequence[tuple[str, str]] = TABLE_STEPS, max_steps: int = 5
) -> list[Step]:
    """Backward references only; 'greater' only as the last step (elsewhere sympy refuses).

    The first step is arithmetic on literals, so every program has a literal.
    """
    steps: list[Step] = []
    count = draw(st.integers(1, max_steps))
    for index in range(count):
        if index and tables and draw(st.integers(0, 9)) == 0:
            op, row = draw(st.sampled_from(tables))
            steps.append((op, row, "none"))
            continue
        last = index == count - 1
        op = draw(st.sampled_from(ARITHMETIC + (("greater",) if last else ())))
        if op == "exp" and draw(st.booleans()):
            op = "multiply"  # keep powers rarer: sympy is slow on towers
        args = []
        for _ in range(2):
            if index and draw(st.booleans()):
                args.append(f"#{draw(st.integers(0, index - 1))}")
            else:
                args.append(draw(st.sampled_from(literals)))
        steps.append((op, args[0], args[1]))
    return steps


def used_literals(steps: Sequence[Step]) -> list[str]:
    return sorted({a for op, a1, a2 in steps if not op.startswith("table") for a in (a1, a2) if not is_reference(a)})


@st.composite
def rewrites(draw: st.DrawFn, gold: list[Step]) -> list[Step]:
    """Algebraic rewrites of the gold program: swapped operands, padding, regrouping."""
    steps = list(gold)
    literals = used_literals(gold)
    for _ in range(draw(st.integers(1, 3))):
        last = len(steps) - 1
        kind = draw(st.integers(0, 4))
        op, arg1, arg2 = steps[last]
        if op == "greater":
            break
        x = draw(st.sampled_from(literals))
        if kind == 0:
            index = draw(st.integers(0, last))
            step_op, first, second = steps[index]
            if not step_op.startswith("table"):
                steps[index] = (step_op, second, first)
        elif kind == 1:
            steps += [("multiply", f"#{last}", x), ("divide", f"#{last + 1}", x)]
        elif kind == 2:
            steps += [("add", x, f"#{last}"), ("subtract", f"#{last + 1}", x)]
        elif kind == 3:
            steps += [("subtract", x, f"#{last}"), ("subtract", x, f"#{last + 1}")]
        else:
            steps += [("divide", f"#{last}", x), ("multiply", x, f"#{last + 1}")]
    return steps


@st.composite
def program_pairs(draw: st.DrawFn) -> tuple[list[Step], list[Step]]:
    """A gold program and a prediction that passes the official checks against it."""
    literals = draw(st.lists(st.sampled_from(LITERALS), min_size=1, max_size=4, unique=True))
    gold = draw(programs(literals))
    if draw(st.booleans()):
        return gold, draw(rewrites(gold))
    tables = sorted({(op, row) for op, row, _ in gold if op.startswith("table")})
    return gold, draw(programs(used_literals(gold), tables))
