"""The safe evaluator against CPython itself, on expressions written here (never on model text), and its bounds."""

from __future__ import annotations

import builtins
import random
import time
import warnings
from typing import Any

import pytest

from finscore.protocols import arith

#: Literal and arithmetic expressions; CPython's eval() of these constants is the oracle.
EXPRESSIONS = [
    "1", "-0", "007.5", "00", "1_000", "0x1F", "0o17", "0b101", "1e309", "-1e309", "1e-400", ".5", "5.",
    "1.5e-3", "1E5", "2**10", "2**-1", "10**-2", "(-8)**(1/3)", "2**0.5", "10**10**2", "-2**2", "(-2)**2",
    "5 // 2", "-5 // 2", "7 % 3", "-7 % 3", "7.5 % -2", "1/3", "-1/3", "0.1+0.2", "3*4", "1,234", "12,34",
    "(1,2)", "(3,)", "()", "[1, 2]", "[]", "{3}", "{1: 2}", "1j", "3+4j", "1 < 2 < 3", "3 > 2 == 2", "not 0",
    "True + True", "5 and 0", "0 or 7", "1 if True else 2", "~5", "+-5", "-(-5)", "1 << 10", "1024 >> 3",
    "6 & 3", "6 | 3", "6 ^ 3", "'a' 'b'", "'ab' * 3", "[1][0]", "{'a': 1}['a']", "'5'", "\"5\"", " 5",
    "5\n", "\n5", "(\n5)", "5 # note", "1e3", "9007199254740993", "2**53 + 1.0", "1e308 * 10",
]
#: Texts CPython refuses or fails on, the exception type being the oracle.
FAILING = [
    "007", "1__0", "0x", "5 5", "5\n6", "1 234", "1e3.5", "5.5.5", "x = 5", "1/0", "1 % 0", "0.0 ** -1",
    "2x10", "5 = x", "", "(", ")", "'abc", "[1][1]", "{}['a']", "1 + 'a'", "−5", "5−3", "1e", "..5",
    "\n 5", "10.0 ** 400", "{[1]: 2}", "\x0b5", "0b102", "dollars€", "5 €",
]


def _describe(value: Any) -> tuple[str, str]:
    if isinstance(value, float):
        return "float", value.hex()
    if isinstance(value, complex):
        return "complex", f"{value.real.hex()} {value.imag.hex()}"
    return type(value).__name__, repr(value)


def _cpython(text: str) -> Any:
    """CPython's own reading of a constant expression of this file (no names are available to it)."""
    return eval(text, {"__builtins__": {}})  # noqa: S307 - the oracle, on this file's constants only


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_values_are_cpython_s(text: str) -> None:
    assert _describe(arith.evaluate(text, {}, {})) == _describe(_cpython(text))


@pytest.mark.parametrize("text", FAILING)
def test_failures_are_cpython_s(text: str) -> None:
    with pytest.raises(Exception) as expected:
        _cpython(text)
    with pytest.raises(arith.PeerRaised) as raised:
        arith.evaluate(text, {}, {})
    assert raised.value.kind == type(expected.value).__name__


def test_names_resolve_in_the_given_namespace_only() -> None:
    assert arith.evaluate("abs(-3) + max(1, 2)", {}, arith.builtin_namespace()) == 5
    with pytest.raises(arith.PeerRaised) as raised:
        arith.evaluate("pi", {}, arith.builtin_namespace())
    assert raised.value.kind == "NameError"
    for code in ("open('x')", "__import__('os')", "print(1)", "(1).__class__", "f'{1}'", "lambda: 0",
                 "getattr(1, 'real')", "exit()"):
        with pytest.raises(arith.PeerExecutesCode):
            arith.evaluate(code, {}, arith.builtin_namespace())


def test_a_comprehension_does_not_see_the_caller_s_locals() -> None:
    """CPython: names inside a comprehension are looked up in the globals, not the eval()ing function's locals."""
    namespace = {"prediction": "p", "g": 2}
    locals_ = frozenset({"prediction"})
    assert arith.evaluate_traced("[g for x in range(2)]", namespace, arith.builtin_namespace(), locals_)[0] == [2, 2]
    with pytest.raises(arith.PeerRaised) as raised:
        arith.evaluate_traced("[prediction for x in range(1)]", namespace, arith.builtin_namespace(), locals_)
    assert raised.value.kind == "NameError"


@pytest.mark.parametrize("text", [
    "1+" * 500_000 + "1",          # a 1 MB expression
    "(" * 1_000 + "1" + ")" * 1_000,  # deep parentheses
    "9**9**9", "2**2**2**2**2**2", "'x' * 10**9", "-" * 5_000 + "1", "1+" * 3_000 + "1",
    "[x for x in range(10**6)]",
])
def test_bounds_decide_quickly(text: str) -> None:
    start = time.perf_counter()
    with pytest.raises(arith.BoundExceeded):
        arith.evaluate(text, {}, arith.builtin_namespace())
    assert time.perf_counter() - start < 1.0


def test_evaluation_never_calls_eval(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("arith tried to run text as code")

    for name in ("eval", "exec", "compile"):
        monkeypatch.setattr(builtins, name, refuse)
    values = [_describe(arith.evaluate(text, {}, {})) for text in EXPRESSIONS]
    monkeypatch.undo()
    assert values == [_describe(_cpython(text)) for text in EXPRESSIONS]


_ATOMS = ["0", "1", "2", "007", "0.5", ".5", "5.", "1e3", "1E-2", "1_0", "0x1f", "0o7", "0b1", "2j", "1e309", "-1",
          "True", "False", "None", "'a'", "''", "()", "[]", "(1,)", "[1,2]", "{1}", "{}", "{1:2}",
          "9999999999999999999"]
_OPS = ["+", "-", "*", "/", "//", "%", "**", "<", "<=", "==", "!=", ">", ">=", "and", "or", "&", "|", "^", "<<",
        ">>", "in", "not in", " "]


def _generated(rng: random.Random, depth: int) -> str:
    """A random literal/operator expression (the generator's text, never a model's)."""
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(_ATOMS)
    roll = rng.random()
    if roll < 0.45:
        return (_generated(rng, depth - 1) + rng.choice(["", " "]) + rng.choice(_OPS) + rng.choice(["", " "])
                + _generated(rng, depth - 1))
    if roll < 0.65:
        return rng.choice(["-", "+", "~", "not "]) + _generated(rng, depth - 1)
    if roll < 0.85:
        return "(" + _generated(rng, depth - 1) + rng.choice([")", ",)", ", " + _generated(rng, depth - 1) + ")"])
    return _generated(rng, depth - 1) + rng.choice(["[0]", "[1]", " if 1 else 0", ",", ",,", " ", ".", "e", "j"])


def _outcome(call: Any) -> tuple[str, ...]:
    try:
        return ("value", *_describe(call()))
    except arith.PeerRaised as raised:
        return ("raises", raised.kind)
    except Exception as error:  # CPython's own exception, the oracle's outcome
        return ("raises", type(error).__name__)


def test_generated_expressions_agree_with_cpython() -> None:
    """Differential: 3,000 generated expressions (seed 7); where arith decides, CPython decides the same."""
    rng = random.Random(7)
    decided = 0
    for _ in range(3_000):
        text = _generated(rng, 3)
        try:
            arith.evaluate(text, {}, {})
        except arith.PeerExecutesCode:
            continue  # not decided: CPython is not asked (it might run for ever: 9**9**9)
        except arith.PeerRaised:
            pass
        decided += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = _outcome(lambda: _cpython(text))
        assert _outcome(lambda: arith.evaluate(text, {}, {})) == expected, text
    assert decided > 2_500


def test_operator_tokens_are_cpython_s() -> None:
    """Differential: 3,000 generated runs of operator characters, digits and spaces (seed 11) split into
    the same tokens as CPython's own `tokenize` module splits them (the longest operator first)."""
    import io
    import tokenize

    rng = random.Random(11)
    compared = 0
    for _ in range(3_000):
        text = "".join(rng.choice("*/<>=+-%@&|^~.:;,!1 ") for _ in range(rng.randint(1, 12))).strip() or "1"
        try:
            ours = [token[1] for token in arith.tokenize(text) if token[0] != "end"]
        except arith.PeerRaised:
            continue  # refused (`!` alone): the parse, not the split, is then CPython's SyntaxError
        try:
            theirs = [token.string for token in tokenize.generate_tokens(io.StringIO(text).readline)
                      if token.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER)]
        except (tokenize.TokenError, SyntaxError):
            continue
        compared += 1
        assert ours == theirs, text
    assert compared > 1_500


def test_inert_objects_raise_as_cpython_and_others_are_code() -> None:
    """A module's operators raise TypeError in CPython too; an object finscore only names by type is code."""
    import types

    real = types.ModuleType("m")
    with pytest.raises(TypeError):
        eval("m + 1", {"__builtins__": {}, "m": real})  # noqa: S307 - the oracle, on this file's constant
    module = arith.Opaque("module", "m")
    with pytest.raises(arith.PeerRaised) as raised:
        arith.evaluate("m + 1", {"m": module}, {})
    assert raised.value.kind == "TypeError"
    assert arith.evaluate("m == m", {"m": module}, {}) is eval("m == m", {"__builtins__": {}, "m": real})  # noqa: S307
    scalar = arith.Opaque("int64", "numpy.int64")
    for text in ("x + 1", "not x", "[x] == [1]", "x.dtype", "abs(x)"):
        with pytest.raises(arith.PeerExecutesCode):
            arith.evaluate(text, {"x": scalar}, arith.builtin_namespace())
