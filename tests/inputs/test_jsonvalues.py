"""JSON values an agent hands over, and the strings a UTF-8 trace or report cannot hold.

A lone surrogate comes in through JSON's own escape ("\\ud800"); the oracle of what is one is
CPython's UTF-8 codec, which refuses exactly those.
"""

from __future__ import annotations

import json

import pytest

from finscore.inputs import JsonValueError, loads_json, to_json_value
from finscore.inputs.jsonvalues import lone_surrogate_at


@pytest.mark.parametrize("text, path", [
    ('{"a": "ok", "b": ["x", "\\ud800"]}', "b[1]"),
    ('{"a": {"\\udc00": 1}}', "a.\\udc00"),  # the key shown by its escape
    ('["\\ud83d\\ude00", "\\ud83d"]', "[1]"),  # a pair is one character; the second item is alone
    ('{"first": "\\udfff", "second": "\\ud800"}', "first"),
    ('{"a": "\\ud800", "\\udc00": 1}', "a"),  # in document order: the value before the later key
    ('{"a": ["\\u00e9", "\\u0b95", "\\ud83d\\ude00"]}', None),
    ('"\\ud800"', ""),
])
def test_the_path_of_the_first_lone_surrogate(text: str, path: str | None) -> None:
    value = json.loads(text)
    assert lone_surrogate_at(value) == path
    assert (path is None) == _utf8_can_hold(json.dumps(value, ensure_ascii=False))


def _utf8_can_hold(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.parametrize("value", [{"a": "\ud800"}, ["ok", "x\udfff"], "\ud800\ud800"])
def test_an_agent_value_holding_a_lone_surrogate_is_refused(value: object) -> None:
    with pytest.raises(JsonValueError, match="lone surrogate"):
        to_json_value(value)
    with pytest.raises(JsonValueError, match="lone surrogate"):
        loads_json(json.dumps(value))  # the same value as JSON text, the escape in ASCII


def test_a_surrogate_pair_is_one_character_and_accepted() -> None:
    assert to_json_value(json.loads('{"smile": "\\ud83d\\ude00"}')) == {"smile": "\U0001F600"}
