"""Generated programs: our decision against sympy itself, built the official way.

`sympy_programs` rebuilds the official infix strings and comparison with
sympy directly; here every fast path is held to it: a positive fast decision
must be backed by equal sympify results, a negative one by unequal simplify
results, and every decision must equal the official answer.
"""

from __future__ import annotations

from hypothesis import event, given, settings
from .test_equivalence_sympy_programs import Crash, infix, official_answer, program_pairs, symbol_map, to_tokens

from finscore.finqa.equivalence import equal_program


@settings(max_examples=150, deadline=None, derandomize=True)
@given(program_pairs())
def test_decision_equals_sympy_official_comparison(pair: tuple[list, list]) -> None:
    from sympy import sympify

    gold, pred = pair
    decision = equal_program(to_tokens(gold), to_tokens(pred))
    event(decision.method)
    answer = official_answer(gold, pred)
    if isinstance(answer, Crash):
        assert (decision.equal, decision.method) == (False, "gold-not-symbolic")
        assert decision.divergence is not None
        return
    assert decision.divergence is None
    assert decision.equal == answer
    if decision.method in ("identical", "canonical-form"):
        symbols = symbol_map(gold)
        assert sympify(infix(gold, symbols)) == sympify(infix(pred, symbols))
