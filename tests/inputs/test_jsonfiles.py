"""The one JSON file reader: bounds, BOM, UTF-8 errors by position, duplicate keys, NaN, typed errors.

The oracles are CPython itself: its `json` module for what a valid document
means, its UTF-8 codec for where a byte goes wrong.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from finscore.inputs import EXACT, PYTHON, InputFormatError, JsonFileError, read_json_document, read_json_lines

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def written(tmp_path: Path, data: bytes, name: str = "doc.json") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@given(JSON_VALUES)
def test_documents_read_as_cpython_reads_them(tmp_path_factory: pytest.TempPathFactory, value: object) -> None:
    path = written(tmp_path_factory.mktemp("doc"), json.dumps(value, ensure_ascii=False).encode("utf-8"))
    assert read_json_document(path) == json.loads(path.read_text(encoding="utf-8"))
    assert read_json_document(path, rules=PYTHON) == json.loads(path.read_text(encoding="utf-8"))


def test_exact_rules_read_decimals_and_python_rules_read_floats(tmp_path: Path) -> None:
    path = written(tmp_path, b'{"rate": 0.1, "years": 5}')
    assert read_json_document(path) == {"rate": Decimal("0.1"), "years": 5}
    assert read_json_document(path, rules=PYTHON) == json.loads('{"rate": 0.1, "years": 5}')


def test_a_byte_order_mark_is_accepted_by_both_readers(tmp_path: Path) -> None:
    path = written(tmp_path, b'\xef\xbb\xbf{"a": 1}')
    assert read_json_document(path) == {"a": 1}
    lines = written(tmp_path, b'\xef\xbb\xbf{"a": 1}\n{"b": 2}\n', "lines.jsonl")
    assert [line.value for line in read_json_lines(lines)] == [{"a": 1}, {"b": 2}]


def test_undecodable_bytes_are_reported_where_cpython_finds_them(tmp_path: Path) -> None:
    data = b'{"name": "caf\xe9"}'
    with pytest.raises(UnicodeDecodeError) as cpython:
        data.decode("utf-8")
    with pytest.raises(JsonFileError) as raised:
        read_json_document(written(tmp_path, data))
    assert raised.value.kind == "not_utf8" and raised.value.detail == str(cpython.value.start)
    assert f"byte {cpython.value.start}" in str(raised.value) and str(tmp_path) in str(raised.value)


def test_exact_rules_refuse_duplicate_keys_and_non_finite_literals(tmp_path: Path) -> None:
    for text, fragment in (('{"a": 1, "a": 2}', "duplicated key 'a'"), ('{"a": NaN}', "NaN is not a JSON number"),
                           ('[Infinity]', "Infinity is not a JSON number")):
        path = written(tmp_path, text.encode())
        with pytest.raises(JsonFileError, match=fragment) as raised:
            read_json_document(path)
        assert isinstance(raised.value, InputFormatError) and raised.value.kind == "not_json"
    # CPython's own rules (what the official FinQA evaluator reads with) keep the last key and accept NaN
    assert read_json_document(written(tmp_path, b'{"a": 1, "a": 2}'), rules=PYTHON) == {"a": 2}
    assert math.isnan(read_json_document(written(tmp_path, b"[NaN]"), rules=PYTHON)[0])


def test_size_bound_empty_file_directory_and_missing_file_are_typed(tmp_path: Path) -> None:
    with pytest.raises(JsonFileError) as raised:
        read_json_document(written(tmp_path, b"[" + b"1," * 100 + b"1]"), limit=100)
    assert raised.value.kind == "too_large"
    with pytest.raises(JsonFileError) as raised:
        read_json_document(written(tmp_path, b" \n"))
    assert raised.value.kind == "empty"
    with pytest.raises(JsonFileError) as raised:
        read_json_document(tmp_path)
    assert raised.value.kind == "directory"
    with pytest.raises(JsonFileError) as raised:
        read_json_document(tmp_path / "absent.json")
    assert raised.value.kind == "unreadable"


def test_a_json_syntax_error_names_line_and_column_as_cpython_does(tmp_path: Path) -> None:
    text = '{\n  "a": [1, 2,\n}'
    with pytest.raises(json.JSONDecodeError) as cpython:
        json.loads(text)
    with pytest.raises(JsonFileError) as raised:
        read_json_document(written(tmp_path, text.encode()), rules=PYTHON)
    assert raised.value.detail == f"{cpython.value.msg} at line {cpython.value.lineno}, column {cpython.value.colno}"


def test_a_bad_line_is_reported_with_its_number_and_never_drops_the_others(tmp_path: Path) -> None:
    path = written(tmp_path, b'{"a": 1}\n{"a": \n\n\xff\n{"a": 2, "a": 3}\n[1]\n', "lines.jsonl")
    lines = list(read_json_lines(path, rules=EXACT))
    assert [(line.number, line.value) for line in lines if line.problem is None] == [(1, {"a": 1}), (6, [1])]
    problems = {line.number: line.problem for line in lines if line.problem is not None}
    assert set(problems) == {2, 4, 5}
    assert problems[2].startswith("not valid JSON") and problems[4].startswith("not UTF-8 text (byte 0")
    assert "duplicated key 'a'" in problems[5]
    long_line = written(tmp_path, b'{"a": "' + b"x" * 50 + b'"}\n{"b": 1}\n', "long.jsonl")
    read = list(read_json_lines(long_line, line_limit=20))
    assert read[0].problem is not None and "over 20" in read[0].problem and read[1].value == {"b": 1}


@pytest.mark.parametrize(("text", "entry", "key"), [
    ('[{"id": "a"}, {"id": "b", "x": 1, "id": "c"}]', 1, "id"),
    ('[{"id": "a"}, {"t": [[1], {"k": 1, "k": 2}]}]', 1, "k"),
    ('{"u1": ["x", ""], "u2": {"s": 1, "s": 2}}', "u2", "s"),
    ('{"u1": 1, "u1": 2}', None, "u1"),
])
def test_cpython_rules_with_unique_keys_name_the_key_and_its_entry(tmp_path: Path, text: str,
                                                                   entry: int | str | None, key: str) -> None:
    from finscore.inputs.jsonfiles import PYTHON_UNIQUE_KEYS

    # json.loads itself keeps the last value silently: the text is JSON, and only the repeat is refused
    json.loads(text)
    path = written(tmp_path, text.encode())
    with pytest.raises(JsonFileError) as raised:
        read_json_document(path, rules=PYTHON_UNIQUE_KEYS)
    assert (raised.value.kind, raised.value.detail, raised.value.entry) == ("repeated_key", key, entry)
    assert f"the key {key!r} twice" in str(raised.value)
    # without a repeat, the value is json.loads' own
    clean = '[{"id": "a", "n": 1.5, "v": NaN}]'
    assert json.dumps(read_json_document(written(tmp_path, clean.encode()), rules=PYTHON_UNIQUE_KEYS)) == \
        json.dumps(json.loads(clean))
