"""What `sympify` makes of the official infix string, computed without sympy.

Why this is enough for a positive decision: the official function returns
``simplify(s_gold) == simplify(s_pred)``, and ``simplify`` first runs
``sympify`` on each string. sympify evaluates the infix operators with sympy's
automatic rules (Add/Mul flattening, collecting like terms and equal bases,
distributing a lone number over a sum, integer powers of products, ...) and
nothing else. If both strings evaluate to structurally equal expressions,
``simplify`` receives equal inputs and, being a deterministic function of its
input's structure (its caches are keyed by that structure too), returns equal
results: the official answer is then True. So ``canonical_form(gold) ==
canonical_form(pred)`` proves official equivalence, provided each canonical
form is exactly sympy's automatic result.

How that is made exact: this module re-implements sympy 1.14's automatic
evaluation (``Add.flatten``, ``Mul.flatten``, ``Pow.__new__``,
``Mul._eval_power``, ``Pow._eval_power``, ``__neg__``, ``_keep_coeff``) for the
only inputs it can receive here: symbols without assumptions combined by
``+ - * / **`` and one top-level ``>``. Wherever that code would take a branch
not reproduced here (a bare number as an operand or result, a number as a
base, an unevaluated ``c*(a + b)``, a power of a power with a symbolic
exponent, a base that changes under exponentiation, duplicate factors, ...)
the emulation stops with `OutsideFragment` and the caller asks sympy. Forms are
compared as sympy compares expressions: Add and Mul arguments as sets (sympy
keeps them sorted canonically), everything else positionally. The tests check
this module against sympy's own ``sympify`` on generated programs.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Sequence, Union

from finscore.finqa.equivalence.graph import SYMBOL, ExpressionTable


class OutsideFragment(Exception):
    """sympy would take a branch this emulation does not reproduce."""


class WorkLimitReached(OutsideFragment):
    """The emulation gave up for the work it would take (sympy itself might not)."""


class Form:
    """An immutable expression with structural equality and a cached hash."""

    __slots__ = ("_key", "_hash")

    def __init__(self, key: tuple[object, ...]) -> None:
        self._key = key
        self._hash = hash(key)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Form)
            and self._hash == other._hash
            and self._key == other._key
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._key[1:]!r}"


class Sym(Form):
    __slots__ = ()

    def __init__(self, index: int) -> None:
        super().__init__(("S", index))


class Num(Form):
    """A sympy Rational."""

    __slots__ = ("value",)

    def __init__(self, value: Fraction | int) -> None:
        self.value = Fraction(value)
        super().__init__(("N", self.value))


class AddF(Form):
    __slots__ = ("terms",)

    def __init__(self, terms: frozenset[Form]) -> None:
        self.terms = terms
        super().__init__(("A", terms))


class MulF(Form):
    """``coeff`` is the leading Rational sympy keeps in slot 0 (1 when absent)."""

    __slots__ = ("coeff", "factors")

    def __init__(self, coeff: Fraction, factors: frozenset[Form]) -> None:
        self.coeff = coeff
        self.factors = factors
        super().__init__(("M", coeff, factors))

    def args(self) -> list[Form]:
        head: list[Form] = [] if self.coeff == 1 else [Num(self.coeff)]
        return head + list(self.factors)


class PowF(Form):
    __slots__ = ("base", "exp")

    def __init__(self, base: Form, exp: Form) -> None:
        self.base = base
        self.exp = exp
        super().__init__(("P", base, exp))


class GtF(Form):
    """An unevaluated StrictGreaterThan (only ever at the top)."""

    __slots__ = ("lhs", "rhs")

    def __init__(self, lhs: Form, rhs: Form) -> None:
        self.lhs = lhs
        self.rhs = rhs
        super().__init__(("G", lhs, rhs))


class RawPow:
    """``Pow(base, exp, evaluate=False)``, as Mul._eval_power feeds Mul."""

    __slots__ = ("base", "exp")

    def __init__(self, base: Form, exp: Form) -> None:
        self.base = base
        self.exp = exp


MulInput = Union[Form, RawPow]
ONE = Num(1)


def _is_num(form: object, value: int | None = None) -> bool:
    return isinstance(form, Num) and (value is None or form.value == value)


def _is_integer(form: Form) -> bool:
    return isinstance(form, Num) and form.value.denominator == 1


# --- small sympy helpers ----------------------------------------------------


def as_coeff_mul_split(form: Form) -> tuple[Fraction, Form]:
    """``as_coeff_Mul``: the leading Rational and the rest."""
    if isinstance(form, Num):
        return form.value, ONE
    if isinstance(form, MulF) and form.coeff != 1:
        return form.coeff, _mul_from_args(Fraction(1), list(form.factors))
    return Fraction(1), form


def as_base_exp(form: Form) -> tuple[Form, Form]:
    if isinstance(form, PowF):
        if isinstance(form.base, Num):
            raise OutsideFragment("a number as a base")
        return form.base, form.exp
    return form, ONE


def _mul_from_args(coeff: Fraction, factors: list[Form]) -> Form:
    """``Mul._from_args``: no evaluation; one argument stands for itself."""
    if len(set(factors)) != len(factors):
        raise OutsideFragment("duplicate factors")
    count = len(factors) + (coeff != 1)
    if count == 0:
        return ONE
    if count == 1:
        return factors[0] if factors else Num(coeff)
    return MulF(coeff, frozenset(factors))


def _add_from_args(terms: list[Form]) -> Form:
    if len(set(terms)) != len(terms):
        raise OutsideFragment("duplicate terms")
    if not terms:
        return Num(0)
    if len(terms) == 1:
        return terms[0]
    return AddF(frozenset(terms))


# --- the automatic evaluation ------------------------------------------------


class Evaluator:
    """One pass of sympy's automatic evaluation, with a bound on the work done."""

    def __init__(self, work_limit: int = 200_000) -> None:
        self._work_left = work_limit

    def _spend(self, amount: int = 1) -> None:
        self._work_left -= amount
        if self._work_left < 0:
            raise WorkLimitReached("too much work")

    def times_number(self, number: Fraction, form: Form) -> Form:
        """Python ``Rational * expr`` (Number.__mul__ falls back to Mul)."""
        if isinstance(form, Num):
            return Num(number * form.value)
        return self.mul([Num(number), form])

    def neg(self, form: Form) -> Form:
        """Python unary minus on a sympy object."""
        if isinstance(form, Num):
            return Num(-form.value)
        if isinstance(form, MulF):
            return _mul_from_args(-form.coeff, list(form.factors))
        if isinstance(form, AddF):
            return self.mul([Num(-1), form])
        if isinstance(form, (Sym, PowF)):
            return MulF(Fraction(-1), frozenset([form]))
        raise OutsideFragment(f"negating {type(form).__name__}")

    def keep_coeff(self, coeff: Fraction, form: Form) -> Form:
        """``_keep_coeff(coeff, form)`` with its defaults (clear=True, sign=False)."""
        if form == ONE:
            return Num(coeff)
        if coeff == 1:
            return form
        if coeff == -1:
            return self.neg(form)
        if isinstance(form, AddF):
            raise OutsideFragment("unevaluated number times a sum")
        if isinstance(form, MulF):
            return _mul_from_args(form.coeff * coeff, list(form.factors))
        result = self.times_number(coeff, form)
        if isinstance(result, Num) and not isinstance(form, Num):
            raise OutsideFragment("number from a product")
        return result

    # Add ---------------------------------------------------------------

    def add(self, args: Sequence[Form]) -> Form:
        """``Add(*args)``: drop zeros, flatten, collect like terms."""
        args = [arg for arg in args if not _is_num(arg, 0)]
        if not args:
            return Num(0)
        if len(args) == 1:
            return args[0]
        self._spend(len(args))
        for arg in args:
            if isinstance(arg, GtF):
                raise OutsideFragment("relational in a sum")
        if len(args) == 2:
            first, second = args
            if isinstance(second, Num):
                first, second = second, first
            if isinstance(first, Num) and isinstance(second, MulF):
                return _add_from_args([first, second])
        terms: dict[Form, Fraction] = {}
        number = Fraction(0)
        queue = list(args)
        position = 0
        while position < len(queue):
            term = queue[position]
            position += 1
            self._spend()
            if isinstance(term, Num):
                number += term.value
                continue
            if isinstance(term, AddF):
                queue.extend(term.terms)
                continue
            if isinstance(term, MulF):
                coeff, core = as_coeff_mul_split(term)
            elif isinstance(term, PowF):
                if isinstance(term.base, Num):
                    raise OutsideFragment("a number as a base")
                coeff, core = Fraction(1), term
            elif isinstance(term, Sym):
                coeff, core = Fraction(1), term
            else:
                raise OutsideFragment(f"{type(term).__name__} in a sum")
            terms[core] = terms.get(core, Fraction(0)) + coeff
        rebuilt: list[Form] = []
        for core, coeff in terms.items():
            if coeff == 0:
                continue
            if coeff == 1:
                rebuilt.append(core)
            elif isinstance(core, MulF):
                rebuilt.append(MulF(coeff, core.factors))
            elif isinstance(core, AddF):
                raise OutsideFragment("unevaluated number times a sum")
            else:
                rebuilt.append(self.mul([Num(coeff), core]))
        if number != 0:
            rebuilt.insert(0, Num(number))
        return _add_from_args(rebuilt)

    # Mul ---------------------------------------------------------------

    def mul(self, args: Sequence[MulInput]) -> Form:
        """``Mul(*args)``: drop ones, then ``Mul.flatten``."""
        args = [arg for arg in args if not _is_num(arg, 1)]
        if not args:
            return ONE
        if len(args) == 1:
            if isinstance(args[0], RawPow):
                raise OutsideFragment("an unevaluated power on its own")
            return args[0]
        for arg in args:
            if isinstance(arg, GtF):
                raise OutsideFragment("relational in a product")
        self._spend(len(args))
        if len(args) == 2:
            distributed = self._two_argument_rule(args[0], args[1])
            if distributed is not None:
                return distributed
        return self._flatten_product(args)

    def _two_argument_rule(self, first: MulInput, second: MulInput) -> Form | None:
        """``Rational * (a + b)`` distributes (the '2-arg hack' of Mul.flatten)."""
        if isinstance(second, Num):
            first, second = second, first
        if not isinstance(first, Num) or first.value == 0 or isinstance(second, RawPow):
            return None
        coeff, core = as_coeff_mul_split(second)
        if not isinstance(core, AddF):
            return None
        if coeff != 1:
            raise OutsideFragment("unevaluated number times a sum")
        return self.add([self.keep_coeff(first.value, term) for term in core.terms])

    def _flatten_product(self, args: Sequence[MulInput]) -> Form:
        coeff = Fraction(1)
        powers: list[tuple[Form, Form]] = []
        queue: list[MulInput] = list(args)
        position = 0
        while position < len(queue):
            item = queue[position]
            position += 1
            self._spend()
            if isinstance(item, MulF):
                queue.extend(item.args())
                continue
            if isinstance(item, Num):
                coeff *= item.value
                continue
            if isinstance(item, (RawPow, PowF)):
                base, exp = item.base, item.exp
                if isinstance(base, Num):
                    coeff *= _number_power(base.value, exp)
                    continue
                powers.append((base, exp))
            elif isinstance(item, (Sym, AddF)):
                powers.append((item, ONE))
            else:
                raise OutsideFragment(f"{type(item).__name__} in a product")
        factors: list[Form] = []
        for base, exp in self._gather(powers):
            if _is_num(exp, 0):
                continue
            if _is_num(exp, 1):
                factor = base
            else:
                factor = self.power(base, exp)
                if isinstance(factor, PowF) and not isinstance(base, PowF):
                    if as_base_exp(factor)[0] != base:
                        raise OutsideFragment("base changed under a power")
            if not isinstance(factor, (Sym, PowF, AddF)):
                raise OutsideFragment("a power that is not a power")
            factors.append(factor)
        if coeff == 0:
            return Num(0)
        if coeff != 1 and len(factors) == 1 and isinstance(factors[0], AddF):
            return self.add([self.times_number(coeff, term) for term in factors[0].terms])
        return _mul_from_args(coeff, factors)

    def _gather(self, powers: Iterable[tuple[Form, Form]]) -> list[tuple[Form, Form]]:
        """Equal bases add their exponents when the exponents differ by a number."""
        by_base: dict[Form, dict[Form, list[Fraction]]] = {}
        for base, exp in powers:
            coeff, rest = as_coeff_mul_split(exp)
            by_base.setdefault(base, {}).setdefault(rest, []).append(coeff)
        gathered: list[tuple[Form, Form]] = []
        for base, by_rest in by_base.items():
            for rest, coeffs in by_rest.items():
                total = sum(coeffs, Fraction(0))
                gathered.append((base, self.times_number(total, rest)))
        return gathered

    # Pow ---------------------------------------------------------------

    def power(self, base: Form, exp: Form) -> Form:
        """``Pow(base, exp)`` with evaluation."""
        self._spend()
        if isinstance(base, GtF) or isinstance(exp, GtF):
            raise OutsideFragment("relational in a power")
        if isinstance(exp, Num):
            if exp.value == 0:
                return ONE
            if exp.value == 1:
                return base
        if isinstance(base, Num):
            if isinstance(exp, Num):
                return Num(_number_power(base.value, exp))
            raise OutsideFragment("a number as a base")
        if isinstance(base, (Sym, AddF)):
            return PowF(base, exp)
        if isinstance(base, MulF):
            if _is_integer(exp):
                inverted = self.mul([RawPow(arg, exp) for arg in base.args()])
                return self.mul([inverted, RawPow(ONE, exp)])
            if isinstance(exp, Num):
                raise OutsideFragment("a fractional power of a product")
            return PowF(base, exp)
        if isinstance(base, PowF):
            if isinstance(exp, Num) and exp.value.denominator == 1:
                if isinstance(base.exp, Num):
                    combined: Form = Num(base.exp.value * exp.value)
                else:
                    combined = self.mul([base.exp, exp])
                return self.power(base.base, combined)
            raise OutsideFragment("a symbolic power of a power")
        raise OutsideFragment(f"a power of {type(base).__name__}")


def _number_power(base: Fraction, exp: Form) -> Fraction:
    if not isinstance(exp, Num) or exp.value.denominator != 1:
        raise OutsideFragment("a number to a non-integer power")
    power = exp.value.numerator
    if base == 0 and power < 0:
        raise OutsideFragment("zero to a negative power")
    if abs(power) > 64:
        raise OutsideFragment("a large number power")
    return base**power


# --- the six official ops -----------------------------------------------------


def canonical_forms(
    table: ExpressionTable,
    roots: Sequence[int],
    work_limit: int = 200_000,
    memo: dict[int, Form | OutsideFragment] | None = None,
) -> dict[int, Form | OutsideFragment]:
    """sympify's result for each root, or the reason it is not modelled.

    The caller has already excluded a 'greater' used as an operand (sympy
    raises TypeError there). With `memo` (node number -> outcome, for one
    table), nodes already there are not evaluated again and new outcomes are
    added: a node's form depends on the node alone. Only `WorkLimitReached`
    depends on the work done before it in the same call; it is never memoized.
    """
    if memo is not None and all(root in memo for root in roots):  # every shape seen before
        return {root: memo[root] for root in roots}
    evaluator = Evaluator(work_limit)
    known: dict[int, Form | OutsideFragment] = {} if memo is None else memo
    forms: dict[int, Form | OutsideFragment] = {}
    for number in table.reachable(roots, known):
        node = table.nodes[number]
        if node.op == SYMBOL:
            forms[number] = Sym(node.index)
            continue
        left = forms[node.left] if node.left in forms else known[node.left]
        right = forms[node.right] if node.right in forms else known[node.right]
        if isinstance(left, OutsideFragment):
            forms[number] = left
        elif isinstance(right, OutsideFragment):
            forms[number] = right
        else:
            try:
                forms[number] = _apply(evaluator, node.op, left, right)
            except OutsideFragment as reason:
                forms[number] = reason.with_traceback(None)  # kept as a value: no frames held alive
    if memo is not None:
        memo.update((number, form) for number, form in forms.items()
                    if not isinstance(form, WorkLimitReached))
    return {root: forms[root] if root in forms else known[root] for root in roots}


def _apply(evaluator: Evaluator, op: str, left: Form, right: Form) -> Form:
    if op == "add":
        result = evaluator.add([left, right])
    elif op == "subtract":
        result = evaluator.add([left, evaluator.neg(right)])
    elif op == "multiply":
        result = evaluator.mul([left, right])
    elif op == "divide":
        result = evaluator.mul([left, evaluator.power(right, Num(-1))])
    elif op == "exp":
        result = evaluator.power(left, right)
    elif op == "greater":
        if isinstance(left, Num) or isinstance(right, Num):
            raise OutsideFragment("a number compared")
        result = GtF(left, right)
    else:  # pragma: no cover - the graph only holds the six ops
        raise OutsideFragment(f"op {op!r}")
    return result
