"""json_lines: one StreamLine for every input line, each read as CPython's json.loads reads it.

The oracle is CPython itself: `json.loads` for the value or the error of a line (with a hook
that refuses a repeated key, the rule every reader of finscore declares), `bytes.decode` for
the byte where UTF-8 stops.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from finscore.inputs.lines import BLANK_LINE, json_lines, problem_words
from finscore.inputs.reading import DuplicateKeyError, NotUtf8

LINES = [
    '{"a": 1}', '[1, 2.5, "x"]', '7', '"text"', 'null', '{"a": NaN, "b": -Infinity}', '{"a": 1e400}',
    '{"a": "\\ud800"}', ' {"a": 1} ', '{"a": 1,}', 'not json', "{'a': 1}", '{"a": 1} trailing',
    '{"a": 1, "a": 2}', '{"outer": {"k": 1, "k": 1}}', '[' * 100_000 + ']' * 100_000,
    '[' + '1' * 1_000_000 + ']', '{"n": ' + '9' * 4301 + '}', '\ufeff{"a": 1}', '{"é": "\u2028"}',
]


def _repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    repeated = next((key for key in keys if keys.count(key) > 1), None)
    if repeated is not None:
        raise ValueError(f"repeated {repeated}")
    return dict(pairs)


def _oracle(text: str) -> tuple[str, Any]:
    try:
        return "value", json.loads(text, object_pairs_hook=_repeats)
    except RecursionError:
        return "error", RecursionError
    except ValueError as error:
        if str(error).startswith("repeated "):
            return "repeated", str(error)[len("repeated "):]
        return "error", (type(error), str(error))


def test_every_line_is_read_as_json_loads_reads_it() -> None:
    data = "".join(line + "\n" for line in LINES).encode("utf-8", "surrogatepass")
    read = list(json_lines(io.BytesIO(data), 10_000_000))
    assert [line.number for line in read] == list(range(1, len(LINES) + 1))
    for text, line in zip(LINES, read):
        kind, expected = _oracle(text)
        if kind == "value":
            assert line.problem is None and json.dumps(line.value) == json.dumps(expected), text[:40]
        elif kind == "repeated":
            assert line.problem == "not_json" and isinstance(line.error, DuplicateKeyError)
            assert line.error.key == expected
            assert problem_words(line) == f"the JSON object has the key {expected!r} twice"
        elif expected is RecursionError:
            assert line.problem == "not_json" and isinstance(line.error, RecursionError)
        else:
            assert line.problem == "not_json" and (type(line.error), str(line.error)) == expected, text[:40]


def test_a_million_digit_integer_is_that_line_s_error_and_the_next_line_is_read() -> None:
    huge = "[" + "1" * 1_000_000 + "]"
    with pytest.raises(ValueError) as raised:
        json.loads(huge)
    read = list(json_lines(io.BytesIO(f'{huge}\n{{"a": 1}}\n'.encode())))
    assert [(line.number, line.problem) for line in read] == [(1, "not_json"), (2, None)]
    assert str(read[0].error) == str(raised.value)
    assert problem_words(read[0]) == f"not JSON that can be read: {raised.value}"
    assert read[1].value == {"a": 1}


def test_blank_lines_are_lines_too() -> None:
    read = list(json_lines(io.BytesIO(b'{"a": 1}\n\n  \r\n{"b": 2}\n')))
    assert [(line.number, line.problem) for line in read] == [(1, None), (2, "blank"), (3, "blank"), (4, None)]
    assert problem_words(read[1]) == BLANK_LINE
    assert (read[1].raw, read[1].text) == (b"\n", "\n")


def test_bytes_that_are_not_utf8_are_named_by_position() -> None:
    bad = b'{"a": "ok\xff"}'
    with pytest.raises(UnicodeDecodeError) as raised:
        bad.decode("utf-8")
    read = list(json_lines(io.BytesIO(bad + b"\n[1]\n")))
    assert read[0].problem == "not_utf8" and isinstance(read[0].error, NotUtf8)
    assert read[0].error.byte == raised.value.start
    assert problem_words(read[0]) == f"not UTF-8 text (byte {raised.value.start}: {raised.value.reason})"
    assert read[0].text == bad.decode("utf-8", "surrogateescape") + "\n"
    assert read[1].value == [1]


def test_a_text_stream_is_read_through_its_buffer_so_bad_bytes_do_not_raise() -> None:
    stream = io.TextIOWrapper(io.BytesIO(b"\xfe\n[2]\n"), encoding="utf-8", errors="strict")
    read = list(json_lines(stream))
    assert [line.problem for line in read] == ["not_utf8", None] and read[1].value == [2]


def test_only_line_one_loses_a_byte_order_mark() -> None:
    read = list(json_lines(io.BytesIO(b"\xef\xbb\xbf[1]\n\xef\xbb\xbf[2]\n\xef\xbb\xbf\n")))
    assert read[0].value == [1]
    with pytest.raises(json.JSONDecodeError) as raised:
        json.loads("\ufeff[2]")
    assert read[1].problem == "not_json" and str(read[1].error) == str(raised.value)
    assert read[2].problem == "not_json"  # a mark alone on a later line is no white space


@pytest.mark.parametrize("chars", [False, True])
def test_a_line_over_the_bound_is_reported_and_the_stream_goes_on(chars: bool) -> None:
    text = '["é"]\n' + '["' + "é" * 10 + '"]\n' + "[3]\n"
    read = list(json_lines(io.BytesIO(text.encode()), 8, chars=chars))
    assert [line.problem for line in read] == [None, "too_long", None]
    assert read[1].raw is None and read[1].text is None and read[2].value == [3]
    # from a text stream the bound counts characters
    assert [line.problem for line in json_lines(io.StringIO(text), 8)] == [None, "too_long", None]


def test_a_text_line_of_characters_counts_characters_with_chars() -> None:
    line = '["' + "é" * 6 + '"]'  # 10 characters, 16 bytes
    assert [x.problem for x in json_lines(io.BytesIO(line.encode()), 10, chars=True)] == [None]
    assert [x.problem for x in json_lines(io.BytesIO(line.encode()), 10)] == ["too_long"]
