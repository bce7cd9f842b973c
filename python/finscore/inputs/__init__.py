"""Reading input data once, the same way everywhere: JSON files, JSON values, typed fields.

`reading` reads bounded files, UTF-8 and JSON under the rules each caller
declares; `jsonfiles` reads the exact formats' JSON and JSON Lines files on it
(bounded, BOM, UTF-8 errors by position, exact or CPython rules); `jsonvalues`
turns values handed over by an agent into bounded JSON data and writes it back
deterministically; `fields` reads typed fields out of parsed JSON, naming the
place on error; `lines` reads JSON Lines from a stream one bounded line at a
time; `naming` holds the words messages use (a JSON value's type, a bounded
listing); `bounds` the reading limits. Every error derives from `FinscoreError`.

The names below are loaded when first asked for, not when a submodule is
imported: the TAT-QA and FinQA commands import `finscore.inputs.naming` and
must not pay for `decimal`, `datetime` or `dataclasses` they never use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import finscore.lazy_names as _lazy

if TYPE_CHECKING:
    from finscore.inputs.errors import FinscoreError, InputFormatError, JsonValueError
    from finscore.inputs.fields import FieldReader, canonical_decimal, is_date, is_identifier, json_decimal
    from finscore.inputs.jsonfiles import (
        EXACT,
        PYTHON,
        JsonFileError,
        JsonLine,
        JsonRules,
        dumps_canonical,
        dumps_pretty,
        loads_exact,
        read_json_document,
        read_json_lines,
    )
    from finscore.inputs.jsonvalues import dumps_json, loads_json, to_json_value

#: Which submodule defines each public name.
_HOME = {
    "FinscoreError": ".errors", "InputFormatError": ".errors", "JsonValueError": ".errors",
    "FieldReader": ".fields", "canonical_decimal": ".fields", "is_date": ".fields", "is_identifier": ".fields",
    "json_decimal": ".fields",
    "EXACT": ".jsonfiles", "PYTHON": ".jsonfiles", "JsonFileError": ".jsonfiles", "JsonLine": ".jsonfiles",
    "JsonRules": ".jsonfiles", "dumps_canonical": ".jsonfiles", "dumps_pretty": ".jsonfiles",
    "loads_exact": ".jsonfiles", "read_json_document": ".jsonfiles", "read_json_lines": ".jsonfiles",
    "dumps_json": ".jsonvalues", "loads_json": ".jsonvalues", "to_json_value": ".jsonvalues",
}


def __getattr__(name: str) -> Any:
    return _lazy.load_name(__name__, _HOME, name, globals())


def __dir__() -> list[str]:
    return _lazy.listed_names(globals(), _HOME)


__all__ = [
    "EXACT",
    "FieldReader",
    "FinscoreError",
    "InputFormatError",
    "JsonFileError",
    "JsonLine",
    "JsonRules",
    "JsonValueError",
    "PYTHON",
    "canonical_decimal",
    "dumps_canonical",
    "dumps_json",
    "dumps_pretty",
    "is_date",
    "is_identifier",
    "json_decimal",
    "loads_exact",
    "loads_json",
    "read_json_document",
    "read_json_lines",
    "to_json_value",
]
