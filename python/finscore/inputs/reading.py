"""The one reading layer: bounded bytes, UTF-8 by position, JSON under declared rules, numbered lines.

Every JSON file and JSON Lines input is read through here, so that the size
bound, the byte-order mark, the position of a byte that is not UTF-8, the
duplicate-key rule and the numbering of lines are decided once. What differs
between formats is declared by the caller (`JsonSyntax`, the blank-line rule),
and so is the wording: the errors here carry the bare facts (`kind`, `detail`,
byte offsets), and each caller turns them into the sentences its users have
always read.

Light on purpose (the TAT-QA and FinQA commands import it): `decimal` is
loaded only when a syntax asks for exact numbers.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Iterator, Literal, Union

#: A file name as the command line or a caller gives it.
PathLike = Union[str, os.PathLike[str]]
BOM = b"\xef\xbb\xbf"

ReadProblem = Literal["unreadable", "directory", "too_large", "grew"]


class FileReadError(Exception):
    """A file that cannot be read whole within its bound. `kind`: unreadable (`detail`: the
    system's reason), directory, too_large (`detail`: its size), grew past the bound while
    read (`detail`: the bytes read, one past the bound). Callers word it their own way."""

    def __init__(self, kind: ReadProblem, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind: ReadProblem = kind
        self.detail = detail


def read_bounded(path: PathLike, limit: int) -> bytes:
    """The bytes of a file of at most `limit` bytes. A pipe or /dev/stdin has no size to stat:
    one byte past the limit is read, so that a file growing while read is caught too."""
    try:
        if os.path.isdir(path):
            raise FileReadError("directory", os.fspath(path))
        size = os.stat(path).st_size
        if size > limit:
            raise FileReadError("too_large", str(size))
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise FileReadError("unreadable", str(error.strerror or error)) from None
    if len(data) > limit:
        raise FileReadError("grew", str(len(data)))
    return data


class NotUtf8(ValueError):
    """Bytes that are not UTF-8: `byte` is the offset in the bytes given (a byte-order mark
    counted), `byte_after_bom` the offset in the text after it; `reason` is the codec's."""

    def __init__(self, error: UnicodeDecodeError, bom: int) -> None:
        super().__init__(f"not UTF-8 text (byte {error.start + bom}: {error.reason})")
        self.byte = error.start + bom
        self.byte_after_bom = error.start
        self.reason = error.reason


def utf8_text(data: bytes, *, bom: bool = True) -> str:
    """UTF-8 text, a leading byte-order mark dropped (`bom`), or NotUtf8."""
    skip = len(BOM) if bom and data.startswith(BOM) else 0
    try:
        return data[skip:].decode("utf-8")
    except UnicodeDecodeError as error:
        raise NotUtf8(error, skip) from None


# -- JSON under declared rules -----------------------------------------------------------

Numbers = Literal["float", "decimal", "all_decimal"]
Constants = Literal["accept", "refuse", "text"]
Duplicates = Literal["last", "refuse"]


class DuplicateKeyError(ValueError):
    """A JSON object names one key twice (json.loads would keep the last silently)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"duplicated key {key!r}")
        self.key = key


def object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An `object_pairs_hook` for json.loads: DuplicateKeyError naming the first key that repeats.
    (The object is made at C speed; the pairs are walked only when one key repeats.)"""
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return result


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _constant_as_text(name: str) -> str:
    return name


class JsonSyntax:
    """How a format's JSON text is read: `numbers` (float; Decimal fractions; Decimal for every
    number), NaN and Infinity (`constants`: accepted as CPython does, refused, kept as their
    text) and a repeated key (`duplicates`: the last wins, as in CPython, or refused)."""

    __slots__ = ("numbers", "constants", "duplicates", "_options", "_decoder")

    def __init__(self, numbers: Numbers = "float", constants: Constants = "accept",
                 duplicates: Duplicates = "last") -> None:
        self.numbers: Numbers = numbers
        self.constants: Constants = constants
        self.duplicates: Duplicates = duplicates
        self._options: dict[str, Any] | None = None
        self._decoder: json.JSONDecoder | None = None

    def options(self) -> dict[str, Any]:
        """The keyword arguments of json.loads that read this syntax (made once)."""
        if self._options is None:
            options: dict[str, Any] = {}
            if self.numbers != "float":
                from decimal import Decimal  # only the exact formats pay for it

                options["parse_float"] = Decimal
                if self.numbers == "all_decimal":
                    options["parse_int"] = Decimal
            if self.constants != "accept":
                options["parse_constant"] = _refuse_constant if self.constants == "refuse" else _constant_as_text
            if self.duplicates == "refuse":
                options["object_pairs_hook"] = object_without_duplicates
            self._options = options
        return self._options

    def decoder(self) -> json.JSONDecoder:
        """One decoder for this syntax, made once: json.loads with options builds one per call,
        which costs a stream of small lines more than the decoding itself."""
        if self._decoder is None:
            self._decoder = json.JSONDecoder(**self.options())
        return self._decoder


#: What CPython's `json.loads` accepts (floats, NaN, the last of repeated keys): the official evaluators' reading.
CPYTHON_SYNTAX = JsonSyntax()
#: CPython's reading with a repeated key refused: the official evaluators' reading of every file that has one meaning.
CPYTHON_UNIQUE_KEYS_SYNTAX = JsonSyntax(duplicates="refuse")
#: The exact formats: Decimal fractions, no NaN or Infinity, no repeated key (none has one meaning).
EXACT_SYNTAX = JsonSyntax("decimal", "refuse", "refuse")


def loads(text: str, syntax: JsonSyntax) -> Any:
    """JSON text read under `syntax`; raises what json.loads raises (ValueError, RecursionError)."""
    options = syntax.options()
    if not options:
        return json.loads(text)
    if text.startswith("\ufeff"):  # json.loads refuses a leading byte-order mark; a decoder alone does not
        return json.loads(text, **options)
    return syntax.decoder().decode(text)


class _PairsKeeper:
    """object_pairs_hook that also keeps the pairs of the last object decoded (the outermost)."""

    def __init__(self, make: Callable[[list[tuple[str, Any]]], dict[str, Any]]) -> None:
        self.outermost: list[tuple[str, Any]] | None = None
        self.make = make

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        self.outermost = pairs
        return self.make(pairs)


def loads_keeping_pairs(text: str, syntax: JsonSyntax) -> tuple[Any, list[tuple[str, Any]] | None]:
    """(the value, every top-level (key, value) pair in file order, repeated keys included, or None
    if the value is not an object): for a format whose repeated keys the caller must see."""
    options = dict(syntax.options())
    keeper = _PairsKeeper(options.get("object_pairs_hook", dict))
    options["object_pairs_hook"] = keeper
    value = json.loads(text, **options)
    return value, (keeper.outermost if isinstance(value, dict) else None)



class _Marked(dict[str, Any]):
    """A decoded object that remembers the first key it was given twice (None: none)."""

    __slots__ = ("repeated",)
    repeated: str | None


def _marking(pairs: list[tuple[str, Any]]) -> _Marked:
    result = _Marked(pairs)
    result.repeated = None
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                result.repeated = key
                break
            seen.add(key)
    return result


def _first_repeat(value: Any) -> str | None:
    """The first repeated key inside `value` (itself included), walked without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Marked):
            if item.repeated is not None:
                return item.repeated
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return None


def locate_repeated_key(text: str, syntax: JsonSyntax) -> tuple[int | str | None, str] | None:
    """Where a JSON text gives a key twice in one object: (the top-level entry holding it, a list
    index or an object's key, or None for the top-level object itself; the key), or None if no
    key repeats. For messages only: it decodes the text again, so call it once a read has failed."""
    options = dict(syntax.options())
    options["object_pairs_hook"] = _marking
    value = json.loads(text, **options)
    if isinstance(value, _Marked) and value.repeated is not None:
        return None, value.repeated
    entries = enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else ()
    for place, entry in entries:
        key = _first_repeat(entry)
        if key is not None:
            return place, key
    return None

# -- JSON Lines ----------------------------------------------------------------------------

class Line:
    """One non-blank line of JSON Lines bytes, numbered from 1 (blank lines counted): its text,
    or why there is none (longer than the bound, or not UTF-8). A plain class: the TAT-QA
    command imports this module, and a NamedTuple class costs far more to create."""

    __slots__ = ("number", "raw", "text", "too_long", "not_utf8")

    def __init__(self, number: int, raw: bytes, text: str | None, too_long: bool, not_utf8: NotUtf8 | None) -> None:
        self.number = number
        self.raw = raw  # without the newline, and on line 1 without a byte-order mark
        self.text = text
        self.too_long = too_long
        self.not_utf8 = not_utf8


def numbered_lines(data: bytes, *, line_limit: int | None = None, bom_line_is_blank: bool = True) -> Iterator[Line]:
    """Every non-blank line of `data`, split at b"\\n". Line 1 loses a leading byte-order mark;
    `bom_line_is_blank` says whether a line 1 holding only one (and white space) is blank."""
    has_bom = data.startswith(BOM)
    for number, raw in enumerate(data.split(b"\n"), start=1):
        line = raw[len(BOM):] if number == 1 and has_bom else raw
        if not (line if bom_line_is_blank else raw).strip():
            continue
        if line_limit is not None and len(line) > line_limit:
            yield Line(number, line, None, True, None)
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as error:
            yield Line(number, line, None, False, NotUtf8(error, 0))
            continue
        yield Line(number, line, text, False, None)
