"""Hand-made pairs for each way a decision is reached, and each official crash.

Every expected answer follows from the official procedure by hand: literals
become symbols (``100`` and ``const_100`` are different symbols), the
prediction may only use the gold's literals and table steps and point
backwards, and sympy compares the simplified infix expressions.
"""

from __future__ import annotations

import pytest

from finscore.finqa.equivalence import EquivalenceDecision, equal_program, equal_program_text


def tokens(*steps: tuple[str, str, str]) -> list[str]:
    out: list[str] = []
    for op, arg1, arg2 in steps:
        out += [f"{op}(", arg1, arg2, ")"]
    return out + ["EOF"]


CHANGE = tokens(("subtract", "40.1", "99.1"), ("divide", "#0", "99.1"))


@pytest.mark.parametrize(
    ("gold", "pred", "equal", "method"),
    [
        # The same tokens, or tokens that expand to the same string.
        (CHANGE, CHANGE, True, "identical"),
        (CHANGE, ["subtract(", " 40.1", "99.1 ", ")", "divide(", "0#", "99.1", ")", "EOF"], True, "identical"),
        # Automatic evaluation: sums and products are sets, a/c*b == a*b/c, x*c/c == x.
        (tokens(("add", "1", "2")), tokens(("add", "2", "1")), True, "canonical-form"),
        (
            tokens(("multiply", "5", "7"), ("divide", "#0", "9")),
            tokens(("divide", "5", "9"), ("multiply", "#0", "7")),
            True,
            "canonical-form",
        ),
        (
            tokens(("add", "3", "4"), ("subtract", "9", "#0")),
            tokens(("subtract", "9", "3"), ("subtract", "#0", "4")),
            True,
            "canonical-form",
        ),
        (CHANGE, CHANGE[:-1] + ["multiply(", "#1", "99.1", ")", "divide(", "#2", "99.1", ")", "EOF"], True, "canonical-form"),
        # The official checks before any algebra.
        (tokens(("divide", "5", "const_100")), tokens(("divide", "5", "100")), False, "literal-not-in-gold"),
        (
            tokens(("table_max", "revenue", "none")),
            tokens(("table_min", "revenue", "none")),
            False,
            "table-step-not-in-gold",
        ),
        (CHANGE, tokens(("subtract", "40.1", "#1"), ("divide", "40.1", "99.1")), False, "forward-reference"),
        (CHANGE, tokens(("subtract", "40.1", "99.1"), ("divide", "#x", "99.1")), False, "bad-reference"),
        (CHANGE, ["subtract(", "40.1", "99.1", "divide(", "#0", "99.1", ")", "EOF"], False, "structure"),
        # Provably different: exact values at a rational point, or a comparison vs a number.
        (CHANGE, tokens(("subtract", "99.1", "40.1"), ("divide", "#0", "99.1")), False, "values-differ"),
        (tokens(("greater", "5", "3")), tokens(("greater", "3", "5")), False, "values-differ"),
        (tokens(("greater", "5", "3")), tokens(("subtract", "5", "3")), False, "kinds-differ"),
        # The prediction's own expansion fails: officially a plain False.
        (CHANGE, tokens(("greater", "40.1", "99.1"), ("divide", "#0", "99.1")), False, "pred-not-symbolic"),
        (CHANGE, tokens(("subtract", "40.1", "99.1"), ("divide", "#-1", "99.1")), False, "pred-not-symbolic"),
    ],
)
def test_decided_without_sympy(gold: list[str], pred: list[str], equal: bool, method: str) -> None:
    assert equal_program(gold, pred) == EquivalenceDecision(equal, method, None, False)


def test_simplify_is_needed_for_a_over_b_minus_one() -> None:
    """(a - b)/b and a/b - b/b differ before simplify, agree after (a recorded rewrite)."""
    pred = tokens(("divide", "40.1", "99.1"), ("divide", "99.1", "99.1"), ("subtract", "#0", "#1"))
    assert equal_program(CHANGE, pred) == EquivalenceDecision(True, "sympy", None, True)


def test_gold_program_string_is_tokenized_officially() -> None:
    decision = equal_program_text("subtract(40.1, 99.1), divide(#0, 99.1)", CHANGE)
    assert (decision.equal, decision.method) == (True, "identical")


# --- where the official evaluator crashes ------------------------------------------


def test_unresolvable_gold_reference_only_matters_once_the_prediction_passes() -> None:
    gold = tokens(("add", "1", "2"), ("subtract", "#5", "1"))
    # Officially the prediction is rejected first (its #5 points forwards): a plain False.
    assert equal_program(gold, gold) == EquivalenceDecision(False, "forward-reference")
    # A prediction that passes reaches the gold expansion, where #5 raises KeyError.
    decision = equal_program(gold, tokens(("add", "1", "2"), ("subtract", "#0", "1")))
    assert (decision.equal, decision.method) == (False, "gold-not-symbolic")
    assert decision.divergence is not None and "names no step" in decision.divergence


@pytest.mark.parametrize(
    ("gold", "reason"),
    [
        (tokens(("greater", "1", "2"), ("add", "#0", "1")), "'greater' result as an operand"),
        (tokens(("foo", "1", "2")), "unknown op"),
        (tokens(("add", "#0", "1")), "cycle"),
        (["EOF"], "no steps"),
    ],
)
def test_gold_that_sympy_or_the_expansion_refuses(gold: list[str], reason: str) -> None:
    pred = tokens(("add", "1", "1")) if gold != ["EOF"] else ["EOF"]
    decision = equal_program(gold, pred)
    assert (decision.equal, decision.method) == (False, "gold-not-symbolic")
    assert decision.divergence is not None and reason in decision.divergence


def test_gold_that_simplify_itself_refuses() -> None:
    """3/(5-5) is zoo; simplify of zoo*a > b raises TypeError (invalid NaN comparison)."""
    gold = tokens(("subtract", "5", "5"), ("divide", "3", "#0"), ("greater", "#1", "7"))
    decision = equal_program(gold, gold)
    assert (decision.equal, decision.method, decision.used_sympy) == (False, "gold-not-symbolic", True)
    assert decision.divergence is not None and "sympy raises" in decision.divergence


def test_gold_row_name_with_parentheses() -> None:
    """The official tokenizer cuts 'revenue (net)'; the gold step then holds two '('."""
    gold = "table_average(revenue (net), none)"
    rejected = equal_program_text(gold, tokens(("add", "1", "2")))
    assert (rejected.equal, rejected.method) == (False, "literal-not-in-gold")
    assert rejected.divergence is not None and "more than one '('" in rejected.divergence
    empty = equal_program_text(gold, ["EOF"])
    assert (empty.equal, empty.method) == (False, "gold-not-symbolic")


def test_an_unreadable_gold_step_the_prediction_never_needs_is_skipped() -> None:
    gold = ["subtract(", "a(b", "1", ")", "add(", "1", "2", ")", "EOF"]
    decision = equal_program(gold, tokens(("add", "2", "1")))
    assert (decision.equal, decision.method) == (True, "canonical-form")
    assert decision.divergence is not None and "we skipped that step" in decision.divergence


# --- bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gold", "pred", "message"),
    [
        ("add(1, 2)", ["EOF"], "gold_tokens must be a list of strings, got str"),
        (["EOF"], None, "pred_tokens must be a list of strings, got NoneType"),
        (["add(", 1, "2", ")"], ["EOF"], "gold_tokens[1] must be a string, got int"),
    ],
)
def test_wrong_types_are_a_clear_type_error(gold: object, pred: object, message: str) -> None:
    with pytest.raises(TypeError, match=message.replace("[", r"\[").replace("]", r"\]")):
        equal_program(gold, pred)  # type: ignore[arg-type]


def test_program_text_must_be_a_string() -> None:
    with pytest.raises(TypeError, match="gold_program must be a string"):
        equal_program_text(["add(", "1", "2", ")", "EOF"], ["EOF"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "pred",
    [
        [],
        ["EOF"],
        ["(", ")", "(", ")"],
        ["add(", "1", "2", ")"],  # no EOF: the official reader drops ')' instead
        ["add(", "#99999999999999999999", "1", ")", "EOF"],
        ["add(", "1", "#\u0661", ")", "EOF"],
        ["add(", "1|2", "3", ")", "EOF"],
        ["add(", "1)", "2", ")", "EOF"],
        ["table_max(", "revenue", ")", ")", "EOF"],
    ],
)
def test_odd_predictions_are_not_equivalent(pred: list[str]) -> None:
    gold = tokens(("add", "1", "2"), ("add", "#0", "3"))
    decision = equal_program(gold, pred)
    assert decision.equal is False and decision.divergence is None


def chain(operations: int, op: str = "multiply") -> list[str]:
    """add(1, 2) then `operations` nested steps: depth operations + 1."""
    return tokens(("add", "1", "2"), *[(op, f"#{i}", "3") for i in range(operations)])


def test_python_nesting_limit_decides_deep_programs() -> None:
    """Python parses at most 200 nested parentheses; sympy writes one more per symbol."""
    deepest = chain(198)  # 199 nested ops: sympy parses it
    assert equal_program(deepest, deepest) == EquivalenceDecision(True, "identical", None, True)
    too_deep = chain(199)  # 200 nested ops: sympify raises, the official run crashes
    decision = equal_program(too_deep, too_deep)
    assert (decision.equal, decision.method, decision.used_sympy) == (False, "gold-not-symbolic", False)
    assert decision.divergence is not None and "nested parentheses" in decision.divergence


@pytest.mark.parametrize("op", ["multiply", "exp"])
def test_a_very_deep_prediction_is_a_plain_false(op: str) -> None:
    gold = tokens(("add", "1", "2"), ("multiply", "#0", "3"))
    decision = equal_program(gold, chain(50_000, op))
    assert (decision.equal, decision.divergence, decision.used_sympy) == (False, None, False)


def test_an_exponential_expansion_is_not_handed_to_sympy() -> None:
    """Forty doublings expand to 2**40 symbols; the official evaluator would never finish."""
    program = tokens(("add", "1", "2"), *[("add", f"#{i}", f"#{i}") for i in range(40)])
    decision = equal_program(program, program)
    assert (decision.equal, decision.method, decision.used_sympy) == (False, "too-large", False)
    assert decision.divergence is not None
