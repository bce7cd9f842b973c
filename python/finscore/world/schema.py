"""A validator for the subset of JSON Schema (draft 2020-12) that tool parameters use.

Why not the `jsonschema` package: it is not a dependency of finscore (which
also runs under Pyodide), it reads Python's `re` semantics into `pattern` (so
`"2026-09-01\\n"` would pass `^...$`), and it does not treat the exact
`Decimal` 5.0 as the integer 5 as the draft says. This module implements the
keywords below exactly and refuses, when the schema is compiled, any keyword
it does not implement: a constraint is never silently ignored.

Supported: `type` (one name or a list), `enum`, `const`, `properties`,
`required`, `additionalProperties` (boolean or schema), `minProperties`,
`maxProperties`, `items`, `minItems`, `maxItems`, `minLength`, `maxLength`,
`pattern`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, and
the annotations `title`, `description`, `default`, `examples`, `$comment`,
`$schema`, `$id`, `deprecated`, `readOnly`, `writeOnly` (ignored).

`pattern` follows ECMA-262 where Python differs in ways that matter here: `$`
matches only at the very end of the string, and `\\d`, `\\w`, `\\b` are ASCII.
As the draft says, numeric keywords apply only to numbers, string keywords only
to strings and object keywords only to objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping, Sequence

from finscore.inputs.errors import FinscoreError, JsonValueError
from finscore.inputs.jsonvalues import dumps_json, to_json_value


class SchemaError(FinscoreError):
    """A tool's JSON Schema uses something this validator does not implement."""


TYPE_NAMES = ("object", "array", "string", "number", "integer", "boolean", "null")
ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "$comment", "$schema", "$id", "deprecated", "readOnly", "writeOnly"}
)
MAX_ERRORS = 10
_NUMERIC_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_COUNTS = ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties")
_SUPPORTED = frozenset(
    {"type", "enum", "const", "properties", "required", "additionalProperties", "items", "pattern"}
    | set(_NUMERIC_BOUNDS)
    | set(_COUNTS)
)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, Decimal)) and not isinstance(value, bool)


def is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value()


def json_type_matches(value: Any, name: str) -> bool:
    if name == "integer":
        return is_integer(value)
    if name == "number":
        return is_number(value)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "object":
        return isinstance(value, dict)
    return isinstance(value, list)


def json_equal(left: Any, right: Any) -> bool:
    """JSON equality: numbers by value, `true` never equal to `1`, objects regardless of key order."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if is_number(left) and is_number(right):
        return Decimal(left) == Decimal(right)
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(json_equal(left[key], right[key]) for key in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(json_equal(a, b) for a, b in zip(left, right, strict=True))
    return type(left) is type(right) and left == right


def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """Compile an ECMA-262 pattern as Python `re`: `$` becomes `\\Z`, classes become ASCII."""
    translated: list[str] = []
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            translated.append(pattern[index : index + 2])
            index += 2
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        elif char == "$" and not in_class:
            char = r"\Z"
        translated.append(char)
        index += 1
    try:
        return re.compile("".join(translated), re.ASCII)
    except re.error as error:
        raise SchemaError(f"pattern {pattern!r} does not compile: {error}") from None


def _describe(value: Any) -> str:
    try:
        text = dumps_json(value)
    except JsonValueError:
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class _Node:
    """One compiled schema: its keywords, checked and with patterns compiled."""

    types: tuple[str, ...] | None
    enum: tuple[Any, ...] | None
    const: tuple[Any] | None
    properties: Mapping[str, "_Node"]
    required: tuple[str, ...]
    additional: "bool | _Node"
    items: "_Node | None"
    pattern: re.Pattern[str] | None
    pattern_text: str | None
    bounds: Mapping[str, Decimal]
    counts: Mapping[str, int]


def _compile(schema: Any, where: str) -> _Node:
    if not isinstance(schema, dict):
        raise SchemaError(f"{where}: a schema must be an object, found {_describe(schema)}")
    unknown = sorted(key for key in schema if key not in _SUPPORTED and key not in ANNOTATIONS)
    if unknown:
        raise SchemaError(f"{where}: unsupported JSON Schema keyword(s) {', '.join(unknown)}")
    types: tuple[str, ...] | None = None
    if "type" in schema:
        raw_types = schema["type"]
        names = [raw_types] if isinstance(raw_types, str) else raw_types
        if not isinstance(names, list) or not names or any(name not in TYPE_NAMES for name in names):
            raise SchemaError(f"{where}.type: must be one of {', '.join(TYPE_NAMES)} or a list of them")
        types = tuple(names)
    enum = None
    if "enum" in schema:
        if not isinstance(schema["enum"], list):
            raise SchemaError(f"{where}.enum: must be a list")
        enum = tuple(schema["enum"])
    properties_raw = schema.get("properties", {})
    if not isinstance(properties_raw, dict):
        raise SchemaError(f"{where}.properties: must be an object")
    properties = {name: _compile(sub, f"{where}.properties.{name}") for name, sub in properties_raw.items()}
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(name, str) for name in required):
        raise SchemaError(f"{where}.required: must be a list of names")
    additional_raw = schema.get("additionalProperties", True)
    additional: bool | _Node = (
        additional_raw
        if isinstance(additional_raw, bool)
        else _compile(additional_raw, f"{where}.additionalProperties")
    )
    items = _compile(schema["items"], f"{where}.items") if "items" in schema else None
    pattern_text = schema.get("pattern")
    if pattern_text is not None and not isinstance(pattern_text, str):
        raise SchemaError(f"{where}.pattern: must be a string")
    bounds: dict[str, Decimal] = {}
    for key in _NUMERIC_BOUNDS:
        if key in schema:
            if not is_number(schema[key]):
                raise SchemaError(f"{where}.{key}: must be a number")
            bounds[key] = Decimal(schema[key])
    counts: dict[str, int] = {}
    for key in _COUNTS:
        if key in schema:
            if not is_integer(schema[key]) or schema[key] < 0:
                raise SchemaError(f"{where}.{key}: must be a non-negative integer")
            counts[key] = int(schema[key])
    return _Node(
        types=types,
        enum=enum,
        const=(schema["const"],) if "const" in schema else None,
        properties=properties,
        required=tuple(required),
        additional=additional,
        items=items,
        pattern=ecma_pattern(pattern_text) if pattern_text is not None else None,
        pattern_text=pattern_text,
        bounds=bounds,
        counts=counts,
    )


def _check_number(node: _Node, value: Any, path: str, errors: list[str]) -> None:
    number = Decimal(value)
    failed = {
        "minimum": lambda bound: number < bound,
        "maximum": lambda bound: number > bound,
        "exclusiveMinimum": lambda bound: number <= bound,
        "exclusiveMaximum": lambda bound: number >= bound,
    }
    for key, bound in node.bounds.items():
        if failed[key](bound):
            errors.append(f"{path}: {_describe(value)} breaks {key} {bound}")


def _check_string(node: _Node, value: str, path: str, errors: list[str]) -> None:
    if "minLength" in node.counts and len(value) < node.counts["minLength"]:
        errors.append(f"{path}: shorter than {node.counts['minLength']} characters")
    if "maxLength" in node.counts and len(value) > node.counts["maxLength"]:
        errors.append(f"{path}: longer than {node.counts['maxLength']} characters")
    if node.pattern is not None and node.pattern.search(value) is None:
        errors.append(f"{path}: {_describe(value)} does not match the pattern {node.pattern_text}")


def _check_object(node: _Node, value: dict[str, Any], path: str, errors: list[str]) -> None:
    for name in node.required:
        if name not in value:
            errors.append(f"{path}: missing required property {name!r}")
    if "minProperties" in node.counts and len(value) < node.counts["minProperties"]:
        errors.append(f"{path}: fewer than {node.counts['minProperties']} properties")
    if "maxProperties" in node.counts and len(value) > node.counts["maxProperties"]:
        errors.append(f"{path}: more than {node.counts['maxProperties']} properties")
    for name, item in value.items():
        child_path = f"{path}.{name}"
        if name in node.properties:
            _check(node.properties[name], item, child_path, errors)
        elif node.additional is False:
            errors.append(f"{path}: unexpected property {name!r}")
        elif isinstance(node.additional, _Node):
            _check(node.additional, item, child_path, errors)
        if len(errors) >= MAX_ERRORS:
            return


def _check_array(node: _Node, value: list[Any], path: str, errors: list[str]) -> None:
    if "minItems" in node.counts and len(value) < node.counts["minItems"]:
        errors.append(f"{path}: fewer than {node.counts['minItems']} items")
    if "maxItems" in node.counts and len(value) > node.counts["maxItems"]:
        errors.append(f"{path}: more than {node.counts['maxItems']} items")
    if node.items is not None:
        for index, item in enumerate(value):
            _check(node.items, item, f"{path}[{index}]", errors)
            if len(errors) >= MAX_ERRORS:
                return


def _check(node: _Node, value: Any, path: str, errors: list[str]) -> None:
    if node.types is not None and not any(json_type_matches(value, name) for name in node.types):
        errors.append(f"{path}: {_describe(value)} is not of type {' or '.join(node.types)}")
        return
    if node.enum is not None and not any(json_equal(value, option) for option in node.enum):
        errors.append(f"{path}: {_describe(value)} is not one of {_describe(list(node.enum))}")
    if node.const is not None and not json_equal(value, node.const[0]):
        errors.append(f"{path}: {_describe(value)} is not {_describe(node.const[0])}")
    if is_number(value):
        _check_number(node, value, path, errors)
    elif isinstance(value, str):
        _check_string(node, value, path, errors)
    elif isinstance(value, dict):
        _check_object(node, value, path, errors)
    elif isinstance(value, list):
        _check_array(node, value, path, errors)


class Schema:
    """A compiled schema; `errors(value)` lists what is wrong, in a stable order."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        try:
            document = to_json_value(schema)
        except JsonValueError as error:
            raise SchemaError(f"the schema is not JSON data: {error}") from None
        self.document: Any = document
        self._root = _compile(document, "schema")

    def errors(self, value: Any, root: str = "arguments") -> list[str]:
        found: list[str] = []
        _check(self._root, value, root, found)
        return found[:MAX_ERRORS]


def validation_message(errors: Sequence[str]) -> str:
    return "invalid arguments: " + "; ".join(errors)
