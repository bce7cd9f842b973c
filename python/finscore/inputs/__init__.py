"""Reading input data once, the same way everywhere: JSON files, JSON values, typed fields.

`jsonfiles` reads JSON and JSON Lines files (bounded, BOM, UTF-8 errors by
position, exact or CPython rules); `jsonvalues` turns values handed over by an
agent into bounded JSON data and writes it back deterministically; `fields`
reads typed fields out of parsed JSON, naming the place on error; `lines` reads
JSON Lines from a stream one bounded line at a time. Every error derives from
`FinscoreError`.
"""

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
