"""FinQA program accuracy: the official `equal_program` decision, mostly without sympy.

The official function maps gold literals and table steps to symbols, rejects
predictions that use anything else or point forwards, writes both programs as
nested infix strings and compares ``simplify`` of each with ``==`` (sympy
1.14). This module returns the same decision and says how it was reached:

- before any algebra, the official checks themselves (structure, a literal or
  table step the gold lacks, a bad or forward reference): cheap and exact;
- "identical": both programs expand to the same symbolic string, so sympy
  would receive equal inputs;
- "canonical-form": both strings evaluate, under sympy's automatic rules
  reproduced exactly in `equivalence.canonical`, to the same expression;
- "kinds-differ": one program ends in ``greater`` and the other does not;
  simplify turns a relational into a sympy Boolean and an arithmetic
  expression into an Expr, and those never compare equal;
- "values-differ": different exact values at a rational point
  (`equivalence.points` explains why this proves the simplified forms differ);
- "pred-not-symbolic": the prediction's expansion fails or sympy refuses it
  (a negative reference, a ``greater`` result used as an operand, ...):
  officially a plain False;
- "sympy": the official check itself, memoized per string.

Methods after the prediction checks also rely on the gold program reaching
sympy without error (officially checked before the prediction's expansion):
for a gold program whose automatic evaluation is modelled (no zoo or nan
there) we rely on ``simplify`` not raising, which the tests check on the
recorded vectors and generated programs; any other gold program is handed
to sympy first. "gold-not-symbolic" and "too-large" are the answers where the
official evaluator would crash or never finish (see below).

Where the official evaluator crashes instead of answering (an unreadable gold
step, a gold reference it cannot resolve, sympy raising on the gold program)
we never raise: the decision is what the official function would return if
that crash were a plain failure of the gold program (so not equivalent, except
that an unreadable gold step the prediction never needs is skipped), and
`divergence` says what the official evaluator would have done.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made (EquivalenceDecision is made at start-up).

from typing import NamedTuple, Sequence

from finscore.finqa.equivalence.canonical import Form, OutsideFragment, canonical_forms
from finscore.finqa.equivalence.graph import BuildFailure, ExpressionTable, build_expression
from finscore.finqa.equivalence.points import values_differ
from finscore.finqa.equivalence.reading import Rejection, read_gold, read_prediction
from finscore.finqa.equivalence.sympy import SympyOutcome, official_text, simplified, unparsable
from finscore.engine.reader.tokens import tokenize_gold_program

#: Programs deeper or larger than this skip the sympy-free positive paths:
#: there sympy itself may refuse the string (Python allows 200 nested parentheses).
FAST_MAX_DEPTH = 100
FAST_MAX_LEAVES = 5000


#: Every ``method`` a decision can carry (see the module docstring).
METHODS: tuple[str, ...] = (
    "structure",
    "literal-not-in-gold",
    "table-step-not-in-gold",
    "bad-reference",
    "forward-reference",
    "gold-not-symbolic",
    "pred-not-symbolic",
    "identical",
    "canonical-form",
    "kinds-differ",
    "values-differ",
    "sympy",
    "too-large",
)


class EquivalenceDecision(NamedTuple):
    """The official program-equivalence answer and how it was obtained.

    ``method`` is one of `METHODS`. ``divergence`` is set when the official
    evaluator would not have answered (it asserts or raises and the whole run
    stops, or never finishes) and says what we did instead. ``used_sympy``
    tells whether sympy was called for this pair (memoized calls included).
    """

    equal: bool
    method: str
    divergence: str | None = None
    used_sympy: bool = False


class ProgramComparer:
    """Decides many pairs, sharing their expression nodes and canonical forms.

    Why: the programs of a file repeat the same shapes (``divide(subtract(a, b), b)``
    and the like), so a shape's canonical form is built once per run rather than
    once per pair. The decision never depends on the pairs decided before it. How it
    was reached may: a node's form found earlier is reused even where building it
    afresh would exceed the emulation's work limit, which spares a sympy call (the
    method then reads "canonical-form", not "sympy"). Memory is bounded: past
    `node_limit` nodes the shared state starts afresh.
    """

    def __init__(self, node_limit: int = 200_000) -> None:
        self._node_limit = node_limit
        self._table = ExpressionTable()
        self._forms: dict[int, Form | OutsideFragment] = {}

    def equal_program(self, gold_tokens: Sequence[str], pred_tokens: Sequence[str]) -> EquivalenceDecision:
        """Decide as official ``equal_program(gold, pred)``; never raises on lists of strings."""
        require_token_list("gold_tokens", gold_tokens)
        require_token_list("pred_tokens", pred_tokens)
        if len(self._table.nodes) > self._node_limit:
            self._table, self._forms = ExpressionTable(), {}
        return _Pair(gold_tokens, pred_tokens, self._table, self._forms).decide()


def equal_program(gold_tokens: Sequence[str], pred_tokens: Sequence[str]) -> EquivalenceDecision:
    """Decide as official ``equal_program(gold, pred)``; never raises on lists of strings.

    For many pairs, `ProgramComparer` decides the same, faster.
    """
    return ProgramComparer().equal_program(gold_tokens, pred_tokens)


def equal_program_text(gold_program: str, pred_tokens: Sequence[str]) -> EquivalenceDecision:
    """The same, for a gold program string such as ``"subtract(5, 3), divide(#0, 3)"``."""
    if not isinstance(gold_program, str):
        raise TypeError(f"gold_program must be a string, got {type(gold_program).__name__}")
    return equal_program(tokenize_gold_program(gold_program), pred_tokens)


def require_token_list(name: str, tokens: object) -> None:
    """Raise a TypeError naming ``name`` unless ``tokens`` is a list (sequence) of str."""
    if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Sequence):
        raise TypeError(f"{name} must be a list of strings, got {type(tokens).__name__}")
    if set(map(type, tokens)) <= {str}:  # the usual case, checked at C speed
        return
    for position, token in enumerate(tokens):
        if not isinstance(token, str):
            raise TypeError(
                f"{name}[{position}] must be a string, got {type(token).__name__}"
            )


def _within_fast_limits(table: ExpressionTable, root: int) -> bool:
    shape = table.shapes[root]
    return shape.depth <= FAST_MAX_DEPTH and shape.leaves <= FAST_MAX_LEAVES


class _Pair:
    """One decision, taken in the official order of checks."""

    def __init__(self, gold_tokens: Sequence[str], pred_tokens: Sequence[str], table: ExpressionTable,
                 forms: dict[int, Form | OutsideFragment]) -> None:
        self.gold = read_gold(gold_tokens)
        self.gold_tokens = gold_tokens
        self.pred_tokens = pred_tokens
        self.table = table
        self.forms = forms
        self.used_sympy = False
        self.skipped_note = (
            None
            if self.gold.unreadable is None
            else f"the official evaluator stops with an error reading {self.gold.unreadable}; "
            "we skipped that step"
        )

    def _decision(self, equal: bool, method: str, crash: str | None = None) -> EquivalenceDecision:
        if self.skipped_note is None and crash is None:
            return EquivalenceDecision(equal, method, None, self.used_sympy)
        notes = [note for note in (self.skipped_note, crash) if note]
        return EquivalenceDecision(
            equal, method, "; ".join(notes) if notes else None, self.used_sympy
        )

    def _gold_crash(self, reason: str) -> EquivalenceDecision:
        return self._decision(
            False,
            "gold-not-symbolic",
            f"the official evaluator crashes: {reason}; we answer not equivalent",
        )

    def _too_large(self) -> EquivalenceDecision:
        return self._decision(
            False,
            "too-large",
            "a program expands beyond what we hand to sympy; the official evaluator "
            "would spend unbounded time and memory on it; we answer not equivalent",
        )

    def decide(self) -> EquivalenceDecision:
        # the gold program's own tokens need not be split and parsed again
        same_tokens = self.gold.unreadable is None and self.pred_tokens == self.gold_tokens
        steps = read_prediction(self.pred_tokens, self.gold.symbols, self.gold.steps if same_tokens else None)
        if isinstance(steps, Rejection):
            return self._decision(False, steps.method)
        gold_root = build_expression(self.gold.steps, self.gold.symbols, self.table)
        if isinstance(gold_root, BuildFailure):
            return self._gold_crash(f"expanding the gold program fails ({gold_root.reason})")
        if self.table.greater_used_as_operand(gold_root):
            return self._gold_crash("the gold program uses a 'greater' result as an operand")
        # the same steps expand to the same node (the table is hash-consed)
        pred_root = gold_root if steps == self.gold.steps else build_expression(steps, self.gold.symbols, self.table)
        roots = [gold_root] + ([] if isinstance(pred_root, BuildFailure) else [pred_root])
        forms = canonical_forms(
            self.table, [root for root in roots if _within_fast_limits(self.table, root)], memo=self.forms
        )
        gold_form = forms.get(gold_root)
        if not isinstance(gold_form, Form):
            crash = self._gold_simplify_error(gold_root)
            if crash is not None:
                return crash
        # The official function now expands and simplifies the prediction.
        if isinstance(pred_root, BuildFailure):
            return self._decision(False, "pred-not-symbolic")
        if self.table.greater_used_as_operand(pred_root):
            return self._decision(False, "pred-not-symbolic")
        return self._compare(gold_root, pred_root, gold_form, forms.get(pred_root))

    def _simplify(self, root: int) -> SympyOutcome | None:
        """The official ``simplify`` of one program; None when too large to attempt."""
        refused = unparsable(self.table, root)
        if refused is not None:
            return refused
        text = official_text(self.table, root)
        if text is None:
            return None
        self.used_sympy = True
        return simplified(text)

    def _gold_simplify_error(self, gold_root: int) -> EquivalenceDecision | None:
        """Run sympy on a gold program outside the modelled fragment; None if it succeeds."""
        outcome = self._simplify(gold_root)
        if outcome is None:
            return self._too_large()
        if not outcome.ok:
            return self._gold_crash(f"sympy raises on the gold program ({outcome.value})")
        return None

    def _compare(
        self, gold_root: int, pred_root: int, gold_form: object, pred_form: object
    ) -> EquivalenceDecision:
        if pred_root == gold_root:
            return self._decision(True, "identical")
        gold_is_comparison = self.table.nodes[gold_root].op == "greater"
        if gold_is_comparison != (self.table.nodes[pred_root].op == "greater"):
            return self._decision(False, "kinds-differ")
        if isinstance(gold_form, Form) and isinstance(pred_form, Form) and gold_form == pred_form:
            return self._decision(True, "canonical-form")
        if values_differ(self.table, gold_root, pred_root, len(self.gold.symbols)):
            return self._decision(False, "values-differ")
        return self._sympy_comparison(gold_root, pred_root)

    def _sympy_comparison(self, gold_root: int, pred_root: int) -> EquivalenceDecision:
        # The gold program is known to reach sympy without error by now.
        if unparsable(self.table, pred_root) is not None:
            return self._decision(False, "pred-not-symbolic")
        gold = self._simplify(gold_root)
        if gold is None:
            return self._too_large()
        if not gold.ok:
            return self._gold_crash(f"sympy raises on the gold program ({gold.value})")
        pred = self._simplify(pred_root)
        if pred is None:
            return self._too_large()
        if not pred.ok:
            return self._decision(False, "pred-not-symbolic")
        return self._decision(bool(gold.value == pred.value), "sympy")
