"""A bounded, safe reading of what Python's `eval()` returns for numeric and arithmetic text.

Several peer scorers call `eval()` on the model's answer. finscore never does: this module
tokenizes and parses the text itself (a hand-written tokenizer and precedence parser with
explicit bounds on length, nesting, integer size and sequence size) and evaluates the small
subset it understands with Python's own int/float/complex operators, so every bit is what
CPython's `eval()` gives. The outcome is one of three:

- a value (`evaluate` returns it);
- `PeerRaised`: `eval()` certainly raises (a SyntaxError, ZeroDivisionError, NameError of a
  name the peer's namespace does not hold, ...), named by the exception type;
- `PeerExecutesCode` (also for `BoundExceeded`): the text is outside the subset, and what the
  peer's `eval()` would do is not certain without running it.

The peer's names (its module globals and the locals of the function that calls `eval`) are a
`Namespace`: values, callables finscore reproduces (`Pure`), objects only known by their type
(`Opaque`), and names that exist but are not reproduced (then `PeerExecutesCode`).
"""

from __future__ import annotations

import math
import re
from typing import Callable, Mapping

#: Text longer than this is not read (a `BoundExceeded`).
MAX_EXPRESSION_CHARS = 10_000
#: Nesting of brackets, unary operators and right-associative powers.
MAX_NESTING = 60
#: Depth of the expression tree (a chain `1+1+...` is as deep as it is long).
MAX_TREE_DEPTH = 400
#: Integers are kept below this many bits (CPython 3.11 refuses int<->str beyond 4,300 digits).
MAX_INT_BITS = 14_000
#: Strings, lists and tuples built by the expression stay below this length.
MAX_SEQUENCE = 100_000
#: A comprehension runs at most this many loop steps.
MAX_ITERATIONS = 10_000
#: The peers clean an answer with regular expressions that backtrack quadratically on long digit runs
#: (`[\d,]*\.*\d+`): an answer longer than this is not read (the longest stored answer has 591).
MAX_ANSWER = 1_000

KEYWORDS = frozenset(
    "False None True and as assert async await break class continue def del elif else except "
    "finally for from global if import in is lambda nonlocal not or pass raise return try while "
    "with yield".split())
#: Keywords that start code finscore does not read (an anonymous function, a generator, a coroutine).
_UNREAD_KEYWORDS = frozenset({"lambda", "yield", "await", "async"})
#: Keywords CPython 3.11 still accepts right after a number (`1if x else y`), with a warning.
_KEYWORDS_AFTER_NUMBER = ("and", "else", "for", "if", "in", "is", "not", "or")
_STRING_PREFIXES = frozenset({"r", "u", "b", "br", "rb", "f", "fr", "rf"})


class ArithError(Exception):
    """Base of the evaluator's outcomes other than a value."""


class PeerRaised(ArithError):
    """The peer's `eval()` certainly raises this exception type (`kind` is its name)."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        #: whether the text had used a name, call or attribute before it raised (set by evaluate_traced)
        self.used_code = False


class PeerExecutesCode(ArithError):
    """The text is code outside the reproduced subset: its outcome is not certain without running it."""


class BoundExceeded(PeerExecutesCode):
    """The text or a value it builds exceeds one of the evaluator's bounds."""


class Opaque:
    """An object of the peer's namespace known only by its type name (a module, a function)."""

    __slots__ = ("type_name", "name", "attributes")

    def __init__(self, type_name: str, name: str, attributes: Mapping[str, object] | None = None) -> None:
        self.type_name = type_name
        self.name = name
        self.attributes: Mapping[str, object] = attributes or {}

    def __repr__(self) -> str:
        return f"<{self.type_name} {self.name}>"


class Pure:
    """A side-effect-free callable of the peer's namespace, reproduced by `function`."""

    __slots__ = ("name", "function")

    def __init__(self, name: str, function: Callable[..., object]) -> None:
        self.name = name
        self.function = function

    def __repr__(self) -> str:
        return f"<pure {self.name}>"


class Unread:
    """A name the peer's namespace holds that finscore does not reproduce (using it is code)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


Namespace = Mapping[str, object]


# ---------------------------------------------------------------------------------------------
# tokens: (kind, text, value); kinds: num, str, name, op, end

_OPERATORS = sorted(
    ["**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=",
     "+=", "-=", "*=", "/=", "%=", "@=", "&=", "|=", "^=",
     "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "@", "=", "~", "+", "-", "*", "/", "%",
     "<", ">", "&", "|", "^"], key=len, reverse=True)
#: The operators by length, longest first: the token at a position is the longest that starts there.
_OPERATORS_BY_LENGTH = tuple((size, frozenset(op for op in _OPERATORS if len(op) == size)) for size in (3, 2, 1))
_DECIMAL_DIGITS = "0123456789"
_HEX = "0123456789abcdefABCDEF"
_ID_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_ID_CHARS = _ID_START + _DECIMAL_DIGITS

Token = tuple[str, str, object]


def _syntax(detail: str) -> PeerRaised:
    return PeerRaised("SyntaxError", detail)


def _digit_run(text: str, i: int, digits: str) -> int:
    """The end of a run of `digits` with single underscores between them, starting at `i` (a digit)."""
    n = len(text)
    while True:
        while i < n and text[i] in digits:
            i += 1
        if i < n and text[i] == "_":
            if i + 1 < n and text[i + 1] in digits:
                i += 1
                continue
            raise _syntax("invalid decimal literal")
        return i


def _number(text: str, start: int) -> tuple[Token, int]:
    """One numeric literal at `start`, read by Python's grammar for int, float and imaginary literals."""
    n = len(text)
    i = start
    if text[i] == "0" and i + 1 < n and text[i + 1] in "xXoObB":
        base = {"x": 16, "o": 8, "b": 2}[text[i + 1].lower()]
        digits = {16: _HEX, 8: "01234567", 2: "01"}[base]
        j = i + 2
        if j < n and text[j] == "_":
            j += 1
        if j >= n or text[j] not in digits:
            raise _syntax("invalid literal")
        j = _digit_run(text, j, digits)
        if j < n and text[j] in _ID_CHARS:
            _after_number(text, j)
        return ("num", text[start:j], _make_int(text[i + 2:j].replace("_", ""), base)), j
    is_float = False
    if text[i] != ".":
        i = _digit_run(text, i, _DECIMAL_DIGITS)
    int_part = text[start:i]
    if i < n and text[i] == ".":
        is_float = True
        i += 1
        if i < n and text[i] in _DECIMAL_DIGITS:
            i = _digit_run(text, i, _DECIMAL_DIGITS)
        elif i == start + 1:
            raise _syntax("invalid syntax")
    if i < n and text[i] in "eE":
        j = i + 1
        if j < n and text[j] in "+-":
            j += 1
        if j < n and text[j] in _DECIMAL_DIGITS:
            i = _digit_run(text, j, _DECIMAL_DIGITS)
            is_float = True
        # otherwise the `e` is a name glued to the number (checked below)
    literal = text[start:i]
    if i < n and text[i] in "jJ":
        i += 1
        if i < n and text[i] in _ID_CHARS:
            _after_number(text, i)
        if len(literal) > MAX_EXPRESSION_CHARS:
            raise BoundExceeded("literal too long")
        return ("num", text[start:i], complex(0.0, float(literal.replace("_", "")))), i
    if i < n and text[i] in _ID_CHARS:
        _after_number(text, i)
    if is_float:
        return ("num", literal, float(literal.replace("_", ""))), i
    digits_only = int_part.replace("_", "")
    if digits_only.strip("0") and digits_only[0] == "0":
        raise _syntax("leading zeros in decimal integer literals are not permitted")
    return ("num", literal, _make_int(digits_only, 10)), i


def _after_number(text: str, i: int) -> None:
    """A name glued to a number: a SyntaxError, unless CPython 3.11 reads it as a keyword."""
    for keyword in _KEYWORDS_AFTER_NUMBER:
        if text.startswith(keyword, i):
            raise PeerExecutesCode("a keyword glued to a number")
    raise _syntax("invalid decimal literal")


def _make_int(digits: str, base: int) -> int:
    if base == 10 and len(digits) > 4300:
        raise _syntax("Exceeds the limit (4300 digits) for integer string conversion")
    if len(digits) * {2: 1, 8: 3, 10: 4, 16: 4}[base] > MAX_INT_BITS:
        raise BoundExceeded("integer literal too large")
    return int(digits, base)


def _string(text: str, start: int) -> tuple[Token, int]:
    """A single-line string literal without escapes (anything else is not read)."""
    quote = text[start]
    if text.startswith(quote * 3, start):
        raise PeerExecutesCode("triple-quoted string")
    i = start + 1
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == quote:
            return ("str", text[start:i + 1], text[start + 1:i]), i + 1
        if ch == "\\":
            raise PeerExecutesCode("string escape")
        if ch in "\r\n":
            break
        i += 1
    raise _syntax("unterminated string literal")


def _skip_string(text: str, start: int) -> int:
    """The end of a (prefixed) string literal at `start`; a SyntaxError if it is never closed."""
    quote = text[start]
    triple = text.startswith(quote * 3, start)
    closer = quote * 3 if triple else quote
    i = start + len(closer)
    n = len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
            continue
        if not triple and text[i] in "\r\n":
            break
        if text.startswith(closer, i):
            return i + len(closer)
        i += 1
    raise _syntax("unterminated string literal")


def tokenize(text: str) -> list[Token]:
    """The tokens of `text` as `eval()` reads it (leading spaces and tabs stripped, one logical line)."""
    if len(text) > MAX_EXPRESSION_CHARS:
        raise BoundExceeded(f"text longer than {MAX_EXPRESSION_CHARS} characters")
    if "\x00" in text:
        raise PeerRaised("SyntaxError", "source code string cannot contain null bytes")
    tokens: list[Token] = []
    depth = 0
    i = 0
    n = len(text)
    text_start = len(text) - len(text.lstrip(" \t"))
    i = text_start
    saw_newline = False
    ended = False  # a newline outside brackets ended the logical line
    while i < n:
        ch = text[i]
        if ch in " \t\f":
            i += 1
            continue
        if ch == "#":
            while i < n and text[i] not in "\r\n":
                i += 1
            continue
        if ch in "\r\n":
            i += 1
            if depth == 0 and tokens:
                ended = True
            saw_newline = True
            continue
        if ch == "\\":
            j = i + 1
            if j < n and text[j] == "\r":
                j += 1
            if j < n and text[j] == "\n":
                j += 1
            if j == i + 1:
                raise _syntax("unexpected character after line continuation character")
            i = j
            continue
        if ended:
            raise _syntax("invalid syntax")
        if saw_newline and not tokens:
            indent = text[max(text.rfind("\n", 0, i), text.rfind("\r", 0, i)) + 1:i]
            if "\f" in indent:
                raise PeerExecutesCode("form feed in indentation")
            if indent:
                raise PeerRaised("IndentationError", "unexpected indent")
        if ch in _DECIMAL_DIGITS or (ch == "." and i + 1 < n and text[i + 1] in _DECIMAL_DIGITS):
            token, i = _number(text, i)
            tokens.append(token)
            continue
        if ch in "'\"":
            try:
                token, i = _string(text, i)
            except PeerExecutesCode as unread:
                i = _skip_string(text, i)
                token = ("code", str(unread), None)
            tokens.append(token)
            continue
        if ch in _ID_START:
            j = i
            while j < n and text[j] in _ID_CHARS:
                j += 1
            if j < n and ord(text[j]) > 127:
                if ("a" + text[j]).isidentifier():
                    raise PeerExecutesCode("non-ASCII identifier")
                raise _syntax(f"invalid character {text[j]!r}")
            word = text[i:j]
            if j < n and text[j] in "'\"" and word.lower() in _STRING_PREFIXES:
                i = _skip_string(text, j)
                tokens.append(("code", word + " string", None))
                continue
            tokens.append(("name", word, word))
            i = j
            continue
        if ord(ch) > 127:
            if ch.isidentifier():
                raise PeerExecutesCode("non-ASCII identifier")
            raise _syntax(f"invalid character {ch!r}")
        for size, operators in _OPERATORS_BY_LENGTH:  # a set lookup a length, not a scan of every operator
            op = text[i:i + size]
            if op in operators:
                if op in "([{":
                    depth += 1
                    if depth > MAX_NESTING:
                        raise BoundExceeded("brackets nested too deeply")
                elif op in ")]}":
                    depth -= 1
                    if depth < 0:
                        raise _syntax("unmatched bracket")
                tokens.append(("op", op, op))
                i += size
                break
        else:
            # every other ASCII character (`!`, `?`, `$`, a backtick, control characters) is refused
            raise _syntax(f"invalid character {ch!r}")
    if depth != 0:
        raise _syntax("'(' was never closed")
    tokens.append(("end", "", None))
    return tokens


# ---------------------------------------------------------------------------------------------
# the parser: a tree of tuples, ("kind", ...)

Node = tuple[object, ...]

_COMPARISONS = ("<", ">", "==", ">=", "<=", "!=")
_BINARY_PRECEDENCE = {"|": 1, "^": 2, "&": 3, "<<": 4, ">>": 4, "+": 5, "-": 5,
                      "*": 6, "/": 6, "//": 6, "%": 6, "@": 6}


class _Parser:
    """Python's expression grammar for the subset read; a SyntaxError where CPython raises one."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.nesting = 0

    def peek(self) -> Token:
        return self.tokens[self.pos]

    def at(self, text: str) -> bool:
        kind, tok, _ = self.tokens[self.pos]
        return kind in ("op", "name") and tok == text

    def take(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def expect(self, text: str) -> None:
        if not self.at(text):
            raise _syntax(f"expected {text!r}")
        self.pos += 1

    def enter(self) -> None:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise BoundExceeded("expression nested too deeply")

    def parse(self) -> Node:
        if self.peek()[0] == "end":
            raise _syntax("unexpected EOF while parsing")
        node = self.expressions(top=True)
        if self.peek()[0] != "end":
            kind, tok, _ = self.peek()
            if tok == ":=" or (kind == "name" and tok in _UNREAD_KEYWORDS):
                raise PeerExecutesCode(tok)
            raise _syntax("invalid syntax")
        return node

    def expressions(self, top: bool = False) -> Node:
        """expr (',' expr)* [','] -> the expression, or a tuple when a comma is present."""
        first = self.test()
        if not self.at(","):
            return first
        items = [first]
        while self.at(","):
            self.take()
            if self._ends_sequence():
                break
            items.append(self.test())
        return ("tuple", items)

    def _ends_sequence(self) -> bool:
        kind, tok, _ = self.peek()
        return kind == "end" or (kind == "op" and tok in (")", "]", "}", "="))

    def test(self) -> Node:
        kind, tok, _ = self.peek()
        if kind == "name" and tok in _UNREAD_KEYWORDS:
            raise PeerExecutesCode(tok)
        if kind == "op" and tok == "*":
            raise PeerExecutesCode("starred expression")
        body = self.or_test()
        if self.at(":="):
            raise PeerExecutesCode("assignment expression")
        if self.at("if"):
            self.take()
            condition = self.or_test()
            self.expect("else")
            self.enter()
            orelse = self.test()
            self.nesting -= 1
            return ("ifexp", condition, body, orelse)
        return body

    def or_test(self) -> Node:
        node = self.and_test()
        if not self.at("or"):
            return node
        items = [node]
        while self.at("or"):
            self.take()
            items.append(self.and_test())
        return ("or", items)

    def and_test(self) -> Node:
        node = self.not_test()
        if not self.at("and"):
            return node
        items = [node]
        while self.at("and"):
            self.take()
            items.append(self.not_test())
        return ("and", items)

    def not_test(self) -> Node:
        if self.at("not"):
            self.take()
            self.enter()
            operand = self.not_test()
            self.nesting -= 1
            return ("not", operand)
        return self.comparison()

    def comparison(self) -> Node:
        first = self.binary(1)
        pairs: list[tuple[str, Node]] = []
        while True:
            kind, tok, _ = self.peek()
            if kind == "op" and tok in _COMPARISONS:
                self.take()
                op = tok
            elif kind == "name" and tok == "in":
                self.take()
                op = "in"
            elif kind == "name" and tok == "not" and self.tokens[self.pos + 1][1] == "in":
                self.pos += 2
                op = "not in"
            elif kind == "name" and tok == "is":
                self.take()
                if self.at("not"):
                    self.take()
                    op = "is not"
                else:
                    op = "is"
            else:
                break
            pairs.append((op, self.binary(1)))
        return ("compare", first, pairs) if pairs else first

    def binary(self, min_precedence: int) -> Node:
        left = self.unary()
        while True:
            kind, tok, _ = self.peek()
            precedence = _BINARY_PRECEDENCE.get(tok) if kind == "op" else None
            if precedence is None or precedence < min_precedence:
                return left
            self.take()
            right = self.binary(precedence + 1)
            left = ("bin", tok, left, right)

    def unary(self) -> Node:
        kind, tok, _ = self.peek()
        if kind == "op" and tok in ("-", "+", "~"):
            self.take()
            self.enter()
            operand = self.unary()
            self.nesting -= 1
            return ("unary", tok, operand)
        return self.power()

    def power(self) -> Node:
        base = self.primary()
        if self.at("**"):
            self.take()
            self.enter()
            exponent = self.unary()
            self.nesting -= 1
            return ("bin", "**", base, exponent)
        return base

    def primary(self) -> Node:
        node = self.atom()
        while True:
            if self.at("."):
                self.take()
                kind, tok, _ = self.take()
                if kind != "name" or tok in KEYWORDS:
                    raise _syntax("invalid syntax")
                node = ("attr", node, tok)
            elif self.at("("):
                self.take()
                self.enter()
                args: list[Node] = []
                code = ""
                while not self.at(")"):
                    kind, tok, _ = self.peek()
                    if kind == "op" and tok in ("*", "**"):
                        self.take()
                        code = "unpacked arguments"
                    elif kind == "name" and self.tokens[self.pos + 1][1] == "=":
                        self.pos += 2
                        code = "keyword arguments"
                    args.append(self.test())
                    if self.at("for"):
                        args[-1] = self.comprehension([args[-1]], "generator")
                    if not self.at(")"):
                        self.expect(",")
                self.take()
                self.nesting -= 1
                node = ("code", code, [node, *args]) if code else ("call", node, args)
            elif self.at("["):
                self.take()
                self.enter()
                if self.at(":") or self.at("]"):
                    raise PeerExecutesCode("slice")
                index = self.expressions()
                if self.at(":"):
                    raise PeerExecutesCode("slice")
                self.expect("]")
                self.nesting -= 1
                node = ("subscript", node, index)
            else:
                return node

    def atom(self) -> Node:
        kind, tok, value = self.take()
        if kind == "code":
            return ("code", tok, [])
        if kind == "num":
            return ("const", value)
        if kind == "str":
            parts = [str(value)]
            while self.peek()[0] == "str":
                parts.append(str(self.take()[2]))
            return ("const", "".join(parts))
        if kind == "name":
            if tok == "True":
                return ("const", True)
            if tok == "False":
                return ("const", False)
            if tok == "None":
                return ("const", None)
            if tok in _UNREAD_KEYWORDS:
                raise PeerExecutesCode(tok)
            if tok in KEYWORDS:
                raise _syntax("invalid syntax")
            return ("name", tok)
        if kind == "op" and tok == "...":
            return ("const", Ellipsis)
        if kind == "op" and tok in ("(", "[", "{"):
            self.enter()
            node = self._bracketed(tok)
            self.nesting -= 1
            return node
        raise _syntax("invalid syntax")

    def comprehension(self, elements: list[Node], kind: str) -> Node:
        """`for name in iterable (if condition)*` clauses: a ("comp", kind, elements, clauses) node.

        A target other than one name is read for its syntax only (running it is code)."""
        clauses: list[tuple[str, Node, list[Node]]] = []
        simple = True
        first_iterable: Node | None = None
        while self.at("for"):
            self.take()
            targets = [self.binary(1)]
            while self.at(","):
                self.take()
                if self.at("in"):
                    break
                targets.append(self.binary(1))
            self.expect("in")
            iterable = self.or_test()
            if first_iterable is None:
                first_iterable = iterable
            conditions: list[Node] = []
            while self.at("if"):
                self.take()
                conditions.append(self.or_test())
            if len(targets) == 1 and targets[0][0] == "name":
                clauses.append((str(targets[0][1]), iterable, conditions))
            else:
                simple = False
        if not simple or first_iterable is None:
            # CPython evaluates the first iterable before anything runs; the rest is code
            return ("code", "comprehension", [first_iterable] if first_iterable is not None else [])
        return ("comp", kind, elements, clauses)

    def _bracketed(self, opener: str) -> Node:
        closer = {"(": ")", "[": "]", "{": "}"}[opener]
        if self.at(closer):
            self.take()
            return {"(": ("tuple", []), "[": ("list", []), "{": ("dict", [])}[opener]
        if opener == "{":
            return self._braces()
        first = self.test()
        if self.at("for"):
            node = self.comprehension([first], "generator" if opener == "(" else "list")
            self.expect(closer)
            return node
        if opener == "(" and self.at(")"):
            self.take()
            return first
        items = [first]
        while self.at(","):
            self.take()
            if self.at(closer):
                break
            items.append(self.test())
        self.expect(closer)
        return ("tuple" if opener == "(" else "list", items)

    def _braces(self) -> Node:
        if self.at("**"):
            raise PeerExecutesCode("dict unpacking")
        first = self.test()
        if self.at("for"):
            node = self.comprehension([first], "set")
            self.expect("}")
            return node
        if self.at(":"):
            self.take()
            pairs = [(first, self.test())]
            if self.at("for"):
                node = self.comprehension([first, pairs[0][1]], "dict")
                self.expect("}")
                return node
            while self.at(","):
                self.take()
                if self.at("}"):
                    break
                if self.at("**"):
                    raise PeerExecutesCode("dict unpacking")
                key = self.test()
                self.expect(":")
                pairs.append((key, self.test()))
            self.expect("}")
            return ("dict", pairs)
        items = [first]
        while self.at(","):
            self.take()
            if self.at("}"):
                break
            items.append(self.test())
        self.expect("}")
        return ("set", items)


def parse(text: str) -> Node:
    """The expression tree of `text`, or PeerRaised("SyntaxError") / PeerExecutesCode / BoundExceeded."""
    tree = _Parser(tokenize(text)).parse()
    if _depth(tree) > MAX_TREE_DEPTH:
        raise BoundExceeded("expression tree too deep")
    return tree


def _depth(tree: Node) -> int:
    """The nesting of a tree's tuples and lists, walked without recursion (stops past the bound)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(tree, 1)]
    while stack:
        node, level = stack.pop()
        if level > MAX_TREE_DEPTH:
            return level
        deepest = max(deepest, level)
        for child in node:  # type: ignore[attr-defined]
            if isinstance(child, (tuple, list)):
                stack.append((child, level + 1))
    return deepest


# ---------------------------------------------------------------------------------------------
# evaluation, with Python's operators on bounded values

def _int_bits(value: object) -> int:
    return value.bit_length() if isinstance(value, int) else 0


def _check_size(value: object) -> object:
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise BoundExceeded("integer too large")
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_SEQUENCE:
        raise BoundExceeded("sequence too long")
    return value


#: Values whose operators, truth and comparisons are CPython's own (exact types: no subclass).
_PLAIN_TYPES = frozenset({bool, int, float, complex, str, type(None), range, type(Ellipsis), type(NotImplemented)})
#: Objects known by type whose every operator raises TypeError and whose == is identity, in the peer too.
_INERT_OBJECTS = frozenset({"module", "function"})
#: Items an evaluation may inspect, in all, to make sure the values it operates on are plain.
MAX_CHECKED = 1_000_000


def power(base: object, exponent: object) -> object:
    """`base ** exponent` with Python's semantics, refusing integer results beyond the bound."""
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0:
        magnitude = abs(int(base))
        if magnitude > 1 and (magnitude.bit_length() - 1) * exponent > MAX_INT_BITS:
            raise BoundExceeded("integer power too large")
    if isinstance(base, (str, list, tuple, dict, set)) or isinstance(exponent, (str, list, tuple, dict, set)):
        raise PeerRaised("TypeError", "unsupported operand type(s) for **")
    return _check_size(base ** exponent)  # type: ignore[operator]


def _multiply(left: object, right: object) -> object:
    if isinstance(left, int) and isinstance(right, int):
        if _int_bits(left) + _int_bits(right) > MAX_INT_BITS + 1:
            raise BoundExceeded("integer product too large")
    for seq, count in ((left, right), (right, left)):
        if isinstance(seq, (str, list, tuple)) and isinstance(count, int):
            if len(seq) * max(int(count), 0) > MAX_SEQUENCE:
                raise BoundExceeded("sequence too long")
    return _check_size(left * right)  # type: ignore[operator]


def _shift(op: str, left: object, right: object) -> object:
    if op == "<<" and isinstance(left, int) and isinstance(right, int) and left != 0 and right > 0:
        if _int_bits(left) + int(right) > MAX_INT_BITS:
            raise BoundExceeded("integer shift too large")
    return _check_size(left << right if op == "<<" else left >> right)  # type: ignore[operator]


def _modulo(left: object, right: object) -> object:
    if isinstance(left, (str, bytes)):
        raise PeerExecutesCode("string formatting")
    return left % right  # type: ignore[operator]


_BINARY: dict[str, Callable[[object, object], object]] = {
    "+": lambda a, b: _check_size(a + b),  # type: ignore[operator]
    "-": lambda a, b: a - b,  # type: ignore[operator]
    "*": _multiply,
    "/": lambda a, b: a / b,  # type: ignore[operator]
    "//": lambda a, b: a // b,  # type: ignore[operator]
    "%": _modulo,
    "**": power,
    "<<": lambda a, b: _shift("<<", a, b),
    ">>": lambda a, b: _shift(">>", a, b),
    "&": lambda a, b: a & b,  # type: ignore[operator]
    "|": lambda a, b: a | b,  # type: ignore[operator]
    "^": lambda a, b: a ^ b,  # type: ignore[operator]
    "@": lambda a, b: a @ b,  # type: ignore[operator]
}

_COMPARE: dict[str, Callable[[object, object], object]] = {
    "<": lambda a, b: a < b,  # type: ignore[operator]
    ">": lambda a, b: a > b,  # type: ignore[operator]
    "<=": lambda a, b: a <= b,  # type: ignore[operator]
    ">=": lambda a, b: a >= b,  # type: ignore[operator]
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "in": lambda a, b: a in b,  # type: ignore[operator]
    "not in": lambda a, b: a not in b,  # type: ignore[operator]
    "is": lambda a, b: _identity(a, b),
    "is not": lambda a, b: not _identity(a, b),
}

#: Attributes of plain values read without running code (a method is called only through `Pure`).
_VALUE_ATTRIBUTES: dict[tuple[type, str], Callable[[object], object]] = {
    (int, "real"): lambda v: int(v),  # type: ignore[call-overload]
    (int, "imag"): lambda v: 0,
    (bool, "real"): lambda v: int(v),  # type: ignore[call-overload]
    (bool, "imag"): lambda v: 0,
    (float, "real"): lambda v: v,
    (float, "imag"): lambda v: 0.0,
    (complex, "real"): lambda v: v.real,  # type: ignore[attr-defined]
    (complex, "imag"): lambda v: v.imag,  # type: ignore[attr-defined]
    (str, "upper"): lambda v: Pure("str.upper", lambda: str(v).upper()),
    (str, "lower"): lambda v: Pure("str.lower", lambda: str(v).lower()),
    (str, "strip"): lambda v: Pure("str.strip", lambda: str(v).strip()),
}


def _identity(a: object, b: object) -> bool:
    for value in (a, b):
        if isinstance(value, (int, float, complex, str, tuple)) and not isinstance(value, bool):
            raise PeerExecutesCode("identity of numbers and strings depends on the interpreter")
    return a is b


def _exception_kind(error: BaseException) -> str:
    return type(error).__name__


class Evaluator:
    """Evaluates a parsed tree in a peer's namespace, left to right as CPython does."""

    def __init__(self, namespace: Namespace, builtins: Namespace, local_names: frozenset[str] = frozenset()) -> None:
        self.namespace = namespace
        self.builtins = builtins
        #: the names of `namespace` that are the calling function's locals: a comprehension's own
        #: scope does not see them (CPython looks its free names up in the globals)
        self.local_names = local_names
        self.scopes: list[dict[str, object]] = []
        self.iterations = 0
        self.checked = 0
        #: set once the text used a name, an attribute, a call or a subscript (code, not arithmetic)
        self.used_code = False

    def _plain(self, *values: object) -> None:
        """Operators, truth tests and pure functions act only on values that behave as in the peer:
        CPython's own types (containers of them) and inert objects; anything else is code."""
        stack = list(values)
        while stack:
            value = stack.pop()
            self.checked += 1
            if self.checked > MAX_CHECKED:
                raise BoundExceeded("too many values to check")
            kind = type(value)
            if kind in _PLAIN_TYPES:
                continue
            if kind in (list, tuple, set, frozenset):
                stack.extend(value)  # type: ignore[arg-type]
            elif kind is dict:
                stack.extend(value.keys())  # type: ignore[attr-defined]
                stack.extend(value.values())  # type: ignore[attr-defined]
            elif not (isinstance(value, Opaque) and value.type_name in _INERT_OBJECTS):
                raise PeerExecutesCode(f"an operation on {getattr(value, 'name', kind.__name__)}")

    def _truth(self, value: object) -> bool:
        self._plain(value)
        return bool(value)

    def evaluate(self, node: Node) -> object:
        try:
            return self._eval(node)
        except ArithError:
            raise
        except RecursionError as error:
            raise BoundExceeded("evaluation too deep") from error
        except (ArithmeticError, TypeError, ValueError, IndexError, KeyError, AttributeError) as error:
            raise PeerRaised(_exception_kind(error), str(error)) from error

    def _eval(self, node: Node) -> object:
        kind = node[0]
        if kind == "const":
            return node[1]
        if kind == "code":
            for child in node[2]:  # type: ignore[attr-defined]
                self._eval(child)
            raise PeerExecutesCode(str(node[1]))
        if kind == "name":
            self.used_code = True
            return self._name(str(node[1]))
        if kind == "comp":
            self.used_code = True
            return self._comprehension(node)
        if kind in ("tuple", "list", "set"):
            items = [self._eval(item) for item in node[1]]  # type: ignore[attr-defined]
            if kind == "tuple":
                return tuple(items)
            if kind == "list":
                return items
            self._plain(*items)
            return set(items)
        if kind == "dict":
            result: dict[object, object] = {}
            for key_node, value_node in node[1]:  # type: ignore[attr-defined]
                key = self._eval(key_node)
                self._plain(key)
                result[key] = self._eval(value_node)
            return result
        if kind == "unary":
            operand = self._eval(node[2])  # type: ignore[arg-type]
            self._plain(operand)
            if node[1] == "-":
                return -operand  # type: ignore[operator]
            if node[1] == "+":
                return +operand  # type: ignore[operator]
            return ~operand  # type: ignore[operator]
        if kind == "not":
            operand = self._eval(node[1])  # type: ignore[arg-type]
            self._plain(operand)
            return not operand
        if kind == "bin":
            left = self._eval(node[2])  # type: ignore[arg-type]
            right = self._eval(node[3])  # type: ignore[arg-type]
            self._plain(left, right)
            return _BINARY[str(node[1])](left, right)
        if kind in ("and", "or"):
            value: object = None
            for item in node[1]:  # type: ignore[attr-defined]
                value = self._eval(item)
                self._plain(value)
                if (kind == "and") != bool(value):
                    return value
            return value
        if kind == "compare":
            left = self._eval(node[1])  # type: ignore[arg-type]
            outcome: object = True
            for op, right_node in node[2]:  # type: ignore[attr-defined]
                right = self._eval(right_node)
                self._plain(left, right)
                outcome = _COMPARE[op](left, right)
                if not outcome:
                    return outcome
                left = right
            return outcome
        if kind == "ifexp":
            condition = self._eval(node[1])  # type: ignore[arg-type]
            self._plain(condition)
            return self._eval(node[2] if condition else node[3])  # type: ignore[arg-type]
        if kind in ("attr", "call", "subscript"):
            self.used_code = True
        if kind == "attr":
            return self._attribute(self._eval(node[1]), str(node[2]))  # type: ignore[arg-type]
        if kind == "call":
            function = self._eval(node[1])  # type: ignore[arg-type]
            args = [self._eval(arg) for arg in node[2]]  # type: ignore[attr-defined]
            return self._call(function, args)
        if kind == "subscript":
            container = self._eval(node[1])  # type: ignore[arg-type]
            index = self._eval(node[2])  # type: ignore[arg-type]
            self._plain(container, index)
            if not isinstance(container, (str, list, tuple, dict)):
                if isinstance(container, (Opaque, Pure)):
                    raise PeerExecutesCode("subscript of an object")
            return container[index]  # type: ignore[index]
        raise PeerExecutesCode(f"node {kind}")

    def _name(self, name: str) -> object:
        if name.startswith("__") and name != "__name__":
            raise PeerExecutesCode(f"dunder name {name}")
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        hidden = bool(self.scopes) and name in self.local_names  # a comprehension sees no caller locals
        if name in self.namespace and not hidden:
            value = self.namespace[name]
        elif name in self.builtins:
            value = self.builtins[name]
        else:
            raise PeerRaised("NameError", f"name {name!r} is not defined")
        if isinstance(value, Unread):
            raise PeerExecutesCode(f"uses {name}")
        return value

    def _comprehension(self, node: Node) -> object:
        """A comprehension: the first iterable in the enclosing scope, then the loops in their own."""
        kind = str(node[1])
        elements: list[Node] = node[2]  # type: ignore[assignment]
        clauses: list[tuple[str, Node, list[Node]]] = node[3]  # type: ignore[assignment]
        first = self._iterable(self._eval(clauses[0][1]))
        if kind == "generator":
            return Opaque("generator", "genexpr")  # nothing runs until it is consumed
        results: list[object] = []
        self.scopes.append({})
        try:
            self._loop(first, 0, clauses, elements, results)
        finally:
            self.scopes.pop()
        if kind == "list":
            return results
        if kind == "set":
            self._plain(*results)
            return set(results)
        pairs: dict[object, object] = {}
        for pair in results:
            assert isinstance(pair, tuple)  # the loop appends (key, value) pairs for a dict
            pairs[pair[0]] = pair[1]
        return pairs

    def _iterable(self, value: object) -> list[object]:
        if isinstance(value, (Opaque, Pure, Unread)):
            raise PeerExecutesCode("iterates an object")
        if isinstance(value, (list, tuple, str, range, set, dict)):
            if len(value) > MAX_SEQUENCE:
                raise BoundExceeded("iteration too long")
            return list(value)
        raise PeerRaised("TypeError", f"{type(value).__name__!r} object is not iterable")

    def _loop(self, items: list[object], depth: int, clauses: list[tuple[str, Node, list[Node]]],
              elements: list[Node], results: list[object]) -> None:
        target, _, conditions = clauses[depth]
        for item in items:
            self.iterations += 1
            if self.iterations > MAX_ITERATIONS:
                raise BoundExceeded("comprehension too long")
            self.scopes[-1][target] = item
            if not all(self._truth(self._eval(condition)) for condition in conditions):
                continue
            if depth + 1 < len(clauses):
                self._loop(self._iterable(self._eval(clauses[depth + 1][1])), depth + 1, clauses, elements, results)
            elif len(elements) == 2:
                results.append((self._eval(elements[0]), self._eval(elements[1])))
            else:
                results.append(self._eval(elements[0]))
            _check_size(results)

    def _attribute(self, value: object, name: str) -> object:
        if name.startswith("_"):
            raise PeerExecutesCode(f"private attribute {name}")
        if isinstance(value, Opaque):
            if name in value.attributes:
                found = value.attributes[name]
                if isinstance(found, Unread):
                    raise PeerExecutesCode(f"uses {value.name}.{name}")
                return found
            raise PeerExecutesCode(f"attribute {value.name}.{name}")
        if isinstance(value, (Pure, Unread)):
            raise PeerExecutesCode(f"attribute {name}")
        reader = _VALUE_ATTRIBUTES.get((type(value), name))
        if reader is not None:
            return reader(value)
        if type(value) not in _PLAIN_TYPES and type(value) not in (list, tuple, set, frozenset, dict):
            raise PeerExecutesCode(f"attribute {name} of an object")
        if not hasattr(type(value), name):
            raise PeerRaised("AttributeError", f"{type(value).__name__!r} object has no attribute {name!r}")
        raise PeerExecutesCode(f"method {name}")

    def _call(self, function: object, args: list[object]) -> object:
        if isinstance(function, Pure):
            self._plain(*args)
            return _check_size(function.function(*args))
        if isinstance(function, (Opaque, Unread)):
            raise PeerExecutesCode(f"calls {getattr(function, 'name', '?')}")
        raise PeerRaised("TypeError", f"{type(function).__name__!r} object is not callable")


# ---------------------------------------------------------------------------------------------
# the pure callables the peers' namespaces offer (bounded wrappers of Python's own)

def _numbers_only(*values: object) -> None:
    for value in values:
        if not isinstance(value, (int, float, complex)):
            if isinstance(value, (Opaque, Pure)):
                raise PeerExecutesCode("a function of an object")


def _pow(*args: object) -> object:
    if len(args) == 2:
        return power(args[0], args[1])
    return pow(*args)  # type: ignore[call-overload]


def _bounded_iterable(values: object) -> object:
    if isinstance(values, (Opaque, Pure)):
        raise PeerExecutesCode("iterates an object")
    return values


def _text_of(value: object) -> str:
    if isinstance(value, (Opaque, Pure)):
        raise PeerExecutesCode("text of an object")
    if isinstance(value, (list, tuple, set, dict)):
        raise PeerExecutesCode("text of a container")
    return str(value)


def _max(*args: object) -> object:
    for arg in args:
        _bounded_iterable(arg)
    return max(*args) if len(args) > 1 else max(args[0])  # type: ignore[call-overload]


def _min(*args: object) -> object:
    for arg in args:
        _bounded_iterable(arg)
    return min(*args) if len(args) > 1 else min(args[0])  # type: ignore[call-overload]


def _unary_builtin(function: Callable[[object], object]) -> Callable[..., object]:
    def call(*args: object) -> object:
        if len(args) != 1:
            raise PeerRaised("TypeError", "wrong number of arguments")
        _numbers_only(args[0])
        return function(args[0])
    return call


def _round(*args: object) -> object:
    _numbers_only(*args)
    return round(*args)  # type: ignore[call-overload]


def _divmod(*args: object) -> object:
    _numbers_only(*args)
    return divmod(*args)  # type: ignore[misc]


def _int(*args: object) -> object:
    _numbers_only(*args)
    return int(*args)  # type: ignore[call-overload]


def _float(*args: object) -> object:
    _numbers_only(*args)
    return float(*args)  # type: ignore[arg-type]


def _str(*args: object) -> object:
    if len(args) != 1:
        raise PeerExecutesCode("str() with arguments other than one")
    return _text_of(args[0])


def _len(*args: object) -> object:
    if len(args) == 1:
        _bounded_iterable(args[0])
    return len(*args)  # type: ignore[arg-type]


def _sum(*args: object) -> object:
    for arg in args:
        _bounded_iterable(arg)
    return sum(*args)  # type: ignore[call-overload]


def _sorted(*args: object) -> object:
    if len(args) != 1:
        raise PeerExecutesCode("sorted() with more than its iterable")
    return sorted(_bounded_iterable(args[0]))  # type: ignore[call-overload]


def _range(*args: object) -> object:
    for arg in args:
        if not isinstance(arg, int):
            _numbers_only(arg)
    numbers = range(*args)  # type: ignore[call-overload]
    if len(numbers) > MAX_SEQUENCE:
        raise BoundExceeded("range too long")
    return numbers


PURE_BUILTINS: dict[str, object] = {
    "range": Pure("range", _range),
    "abs": Pure("abs", _unary_builtin(abs)),  # type: ignore[arg-type]
    "max": Pure("max", _max),
    "min": Pure("min", _min),
    "round": Pure("round", _round),
    "pow": Pure("pow", _pow),
    "divmod": Pure("divmod", _divmod),
    "int": Pure("int", _int),
    "float": Pure("float", _float),
    "str": Pure("str", _str),
    "len": Pure("len", _len),
    "sum": Pure("sum", _sum),
    "sorted": Pure("sorted", _sorted),
    "ord": Pure("ord", lambda *a: ord(*a)),
    "hex": Pure("hex", _unary_builtin(hex)),  # type: ignore[arg-type]
    "oct": Pure("oct", _unary_builtin(oct)),  # type: ignore[arg-type]
    "bin": Pure("bin", _unary_builtin(bin)),  # type: ignore[arg-type]
    "Ellipsis": Ellipsis,
    "NotImplemented": NotImplemented,
}


def _math_function(function: Callable[..., float]) -> Pure:
    def call(*args: object) -> object:
        _numbers_only(*args)
        return function(*args)
    return Pure(f"math.{function.__name__}", call)


MATH_MODULE = Opaque("module", "math", {
    "pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan,
    **{name: _math_function(getattr(math, name)) for name in (
        "sqrt", "log", "log10", "log2", "log1p", "exp", "expm1", "pow", "fabs", "floor", "ceil",
        "trunc", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "hypot", "isclose",
        "isnan", "isinf", "isfinite", "copysign", "fmod", "degrees", "radians")},
})


def builtin_namespace() -> dict[str, object]:
    """Every builtin name of this CPython: the pure ones reproduced, the others code (`Unread`)."""
    import builtins

    names: dict[str, object] = {name: Unread(name) for name in dir(builtins)}
    names.update(PURE_BUILTINS)
    return names


_PLAIN_NUMBER = re.compile(r"[-+]?[0-9]+(?:\.[0-9]+)?")


def plain_number(text: str) -> int | float | None:
    """The value of a short plain decimal (`-12`, `3.25`) exactly as `eval()` gives it, without parsing;
    None for anything else (an integer with leading zeros, an exponent, spaces: the full reading decides)."""
    if len(text) > 30 or not _PLAIN_NUMBER.fullmatch(text):
        return None
    digits = text.lstrip("+-")
    if "." in digits:
        value: int | float = float(digits)
    elif digits[0] == "0" and digits.strip("0"):
        return None
    else:
        value = int(digits)
    for sign in reversed(text[:len(text) - len(digits)]):
        value = -value if sign == "-" else +value
    return value


def check_answer_length(text: str) -> None:
    """Refuse (BoundExceeded) an answer too long for the peers' cleaning to be read quickly."""
    if len(text) > MAX_ANSWER:
        raise BoundExceeded(f"answer longer than {MAX_ANSWER} characters")


def evaluate(text: str, namespace: Namespace, builtins: Namespace) -> object:
    """What `eval(text)` returns in the peer's namespace, or PeerRaised / PeerExecutesCode / BoundExceeded."""
    return Evaluator(namespace, builtins).evaluate(parse(text))


def evaluate_traced(text: str, namespace: Namespace, builtins: Namespace,
                    local_names: frozenset[str] = frozenset()) -> tuple[object, bool]:
    """`evaluate`, and whether the text went beyond literals and operators (names, calls, attributes).

    `local_names`: the names of `namespace` that are the calling function's locals."""
    tree = parse(text)
    evaluator = Evaluator(namespace, builtins, local_names)
    try:
        return evaluator.evaluate(tree), evaluator.used_code
    except PeerRaised as raised:
        raised.used_code = evaluator.used_code
        raise
