"""Programs as shared expression graphs, the way official `symbol_recur` expands them.

The official function expands the last step into a nested infix string, so a
step used twice is written twice. Here each distinct subexpression gets one
node number instead (hash-consing), which keeps huge expansions cheap and
makes "the very same symbolic input" a comparison of two integers. Children
are always numbered before their parent, so evaluating nodes in number order
is a valid bottom-up order with no recursion.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made (Node is made at start-up).

from dataclasses import dataclass, field
from typing import Container, Mapping, NamedTuple, Sequence

from finscore.finqa.equivalence.reading import is_reference, is_table_op
from finscore.engine.reader.tokens import ARITHMETIC_OPS, StepText

#: The infix operator the official function writes for each arithmetic op.
INFIX: Mapping[str, str] = {
    "add": "+",
    "subtract": "-",
    "multiply": "*",
    "divide": "/",
    "exp": "**",
    "greater": ">",
}
SYMBOL = "symbol"


class Node(NamedTuple):
    """A symbol (``index`` set) or an arithmetic op over two earlier nodes.

    A NamedTuple: interning hashes and compares nodes at C speed."""

    op: str
    left: int = -1
    right: int = -1
    index: int = -1  # type: ignore[assignment]  # a field named like tuple.index, on purpose


@dataclass
class NodeShape:
    """What decides whether sympy can even read the official string."""

    depth: int  # nesting of ops on the longest path (a symbol has depth 0)
    leaves: int  # symbols in the expanded string (capped, see ExpressionTable)
    has_greater: bool


@dataclass
class ExpressionTable:
    """Hash-consed nodes shared by the gold and the predicted program of a pair, and by
    the pairs of a scoring run (see `finscore.finqa.equivalence.ProgramComparer`)."""

    nodes: list[Node] = field(default_factory=list)
    shapes: list[NodeShape] = field(default_factory=list)
    _ids: dict[Node, int] = field(default_factory=dict)

    #: Leaf counts are capped here; anything this large is never expanded.
    LEAF_CAP = 1 << 40

    def intern(self, node: Node) -> int:
        existing = self._ids.get(node)
        if existing is not None:
            return existing
        number = len(self.nodes)
        self.nodes.append(node)
        self.shapes.append(self._shape_of(node))
        self._ids[node] = number
        return number

    def symbol(self, index: int) -> int:
        return self.intern(Node(SYMBOL, index=index))

    def _shape_of(self, node: Node) -> NodeShape:
        if node.op == SYMBOL:
            return NodeShape(depth=0, leaves=1, has_greater=False)
        left, right = self.shapes[node.left], self.shapes[node.right]
        return NodeShape(
            depth=1 + max(left.depth, right.depth),
            leaves=min(self.LEAF_CAP, left.leaves + right.leaves),
            has_greater=node.op == "greater" or left.has_greater or right.has_greater,
        )

    def greater_used_as_operand(self, root: int) -> bool:
        """A 'greater' anywhere below the root: sympy then raises TypeError.

        A relational (or the boolean it may evaluate to) is refused as an
        operand by every one of the six operators, so this is decided by shape.
        """
        node = self.nodes[root]
        if node.op == SYMBOL:
            return False
        return self.shapes[node.left].has_greater or self.shapes[node.right].has_greater

    def reachable(self, roots: Sequence[int], known: Container[int] = ()) -> list[int]:
        """Node numbers needed by the roots, in bottom-up (increasing) order, leaving out
        the `known` ones and what lies below them only."""
        seen: set[int] = set()
        stack = list(roots)
        while stack:
            number = stack.pop()
            if number in seen or number in known:
                continue
            seen.add(number)
            node = self.nodes[number]
            if node.op != SYMBOL:
                stack.append(node.left)
                stack.append(node.right)
        return sorted(seen)


@dataclass(frozen=True)
class BuildFailure:
    """Why the official expansion of this program raises (KeyError, TypeError, ...)."""

    reason: str


def build_expression(
    steps: Sequence[StepText | None],
    symbols: Mapping[str, int],
    table: ExpressionTable,
) -> int | BuildFailure:
    """Expand the last step as official `symbol_recur` does, into table nodes.

    References are resolved with every ``#`` removed and Python ``int()``;
    a reference outside the program, to an unreadable step or around a
    cycle, and an op outside the six, make the official expansion raise.
    Iterative, so a long program cannot exhaust our own stack.
    """
    if not steps:
        return BuildFailure("the program has no steps")
    resolved: dict[int, int] = {}
    on_path: set[int] = set()
    # Each frame: (step index, resolved children so far).
    stack: list[tuple[int, list[int]]] = [(len(steps) - 1, [])]
    on_path.add(len(steps) - 1)
    while stack:
        index, children = stack[-1]
        step = steps[index]
        if step is None:
            return BuildFailure(f"step {index} is unreadable")
        if is_table_op(step.op):
            resolved[index] = table.symbol(symbols[step.text])
        elif len(children) < 2:
            arg = (step.arg1, step.arg2)[len(children)]
            if not is_reference(arg):
                children.append(table.symbol(symbols[arg]))
                continue
            target = _reference_target(arg, len(steps))
            if isinstance(target, BuildFailure):
                return BuildFailure(f"step {index}: {target.reason}")
            if target in resolved:
                children.append(resolved[target])
                continue
            if target in on_path:
                return BuildFailure(f"step {index}: reference {arg!r} closes a cycle")
            on_path.add(target)
            stack.append((target, []))
            continue
        elif step.op in ARITHMETIC_OPS:
            resolved[index] = table.intern(Node(step.op, children[0], children[1]))
        else:
            return BuildFailure(f"step {index}: unknown op {step.op!r}")
        on_path.discard(index)
        stack.pop()
        if stack:
            stack[-1][1].append(resolved[index])
    return resolved[len(steps) - 1]


def _reference_target(arg: str, step_count: int) -> int | BuildFailure:
    try:
        target = int(arg.replace("#", ""))
    except ValueError:
        return BuildFailure(f"reference {arg!r} is not a step number")
    if not 0 <= target < step_count:
        return BuildFailure(f"reference {arg!r} names no step")
    return target
