"""The words a message about input uses: a JSON value's type, and a bounded list of bad items.

Every reader names the type of a value it cannot use, and the readers grew up
with different vocabularies ("a JSON list" where FinQA's messages speak of the
official reader's lists and texts, "an array" where the exact formats speak
JSON, a Python type name where a stream says what it got). The messages are
part of what users see, so each family keeps its words: the one namer here
takes the vocabulary (`Words`) its caller declares.

Imported by every benchmark's reader on its command path: it imports nothing
heavy (no `decimal`; a Decimal can only exist once that module is loaded).
"""

from __future__ import annotations

import math
import sys
from typing import Any, Mapping, Sequence

#: How many offending entries an error message names before summarising the rest.
LISTED_IN_MESSAGES = 20

#: The kinds a value is sorted into before its caller's words are looked up.
NULL, BOOLEAN, INTEGER, FLOAT, NAN, INFINITY, DECIMAL = "null", "boolean", "integer", "float", "NaN", "Infinity", "decimal"
STRING, ARRAY, OBJECT = "string", "array", "object"


class Words:
    """One vocabulary: the word for each kind; a kind without one is named `fallback`
    (None: the Python type's name). `exact` sorts by the exact type, as `type(value)`
    lookups do (a subclass of dict is no object), else by isinstance."""

    __slots__ = ("words", "fallback", "exact")

    def __init__(self, words: Mapping[str, str], fallback: str | None, *, exact: bool) -> None:
        self.words = dict(words)
        self.fallback = fallback
        self.exact = exact


#: FinQA's and ConvFinQA's messages: the official reader's lists and texts; numbers by Python type ("int").
LISTS_AND_TEXTS = Words({NULL: "null", BOOLEAN: "boolean", STRING: "text", ARRAY: "list", OBJECT: "object"},
                        None, exact=True)
#: TAT-QA's messages: as LISTS_AND_TEXTS, with numbers as "number" and NaN and Infinity by name.
LISTS_TEXTS_AND_NUMBERS = Words({NULL: "null", BOOLEAN: "boolean", NAN: "NaN", INFINITY: "Infinity",
                                 INTEGER: "number", FLOAT: "number", STRING: "text", ARRAY: "list",
                                 OBJECT: "object"}, None, exact=True)
#: The exact formats' field messages: JSON's own names with an article ("an array"); anything else is an object.
JSON_WITH_ARTICLES = Words({NULL: "null", BOOLEAN: "a boolean", INTEGER: "a number", DECIMAL: "a number",
                            STRING: "a string", ARRAY: "an array"}, "an object", exact=False)
#: The streams' messages ("expected a JSON object, got list"): the Python type's name, always.
PYTHON_TYPES = Words({}, None, exact=True)

_EXACT_KINDS: dict[type, str] = {int: INTEGER, float: FLOAT, str: STRING, list: ARRAY, dict: OBJECT}
_INSTANCE_KINDS: tuple[tuple[type, str], ...] = ((int, INTEGER), (float, FLOAT), (str, STRING), (list, ARRAY),
                                                 (dict, OBJECT))


def _kind(value: Any, exact: bool) -> str | None:
    if value is None:
        return NULL
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, float) and not math.isfinite(value):
        return NAN if math.isnan(value) else INFINITY
    if exact:
        kind = _EXACT_KINDS.get(type(value))
        if kind is not None:
            return kind
    else:
        for cls, name in _INSTANCE_KINDS:
            if isinstance(value, cls):
                return name
    decimal = sys.modules.get("decimal")  # not loaded: no value can be a Decimal
    if decimal is not None and (type(value) is decimal.Decimal if exact else isinstance(value, decimal.Decimal)):
        return DECIMAL
    return None


def json_type(value: Any, words: Words) -> str:
    """The type of a decoded JSON value, in the caller's vocabulary."""
    kind = _kind(value, words.exact) if words.words else None
    word = words.words.get(kind) if kind is not None else None
    if word is not None:
        return word
    return words.fallback if words.fallback is not None else type(value).__name__


def listing(items: Sequence[str], limit: int = LISTED_IN_MESSAGES) -> str:
    """The first `limit` items, comma separated, then how many were left out."""
    shown = ", ".join(items[:limit])
    return shown if len(items) <= limit else f"{shown}, ... and {len(items) - limit} more"
