"""A gold's JSON text is read as CPython's json.loads reads it, and refused where it refuses.

The oracle is `json.loads(text)` itself (with NaN and the infinities refused, as the
reward declares, and a key given twice refused, as every reader of finscore declares since
issue #30): the same value for every text it accepts, and for every text it refuses the
same message, behind the row and column.
"""

from __future__ import annotations

import json
import math

import pytest

from finscore.rewards.errors import RewardInputError
from finscore.rewards.gold_json import decode_gold

TEXTS = [
    '{"exe_ans": 14.1, "table": [["", "2019"], ["revenue", "$ 1,000"]], "program": "add(1, 2)"}',
    '{"exe_ans": "yes"}', '{"exe_ans": -0.0}', '{"exe_ans": 1e400}', '{"exe_ans": 123456789012345678901234567890}',
    '{"exe_ans": 1, "exe_ans": 2}', '{"t": [{"a": 1, "b": 2, "a": 3}]}', ' {"exe_ans": 1} \n', '[1, 2]', '"text"', '3', 'null',
    '\ufeff{"exe_ans": 1}', '{"exe_ans": NaN}', '{"exe_ans": Infinity}', '{"exe_ans": -Infinity}',
    '{"exe_ans": 1} trailing', '{"exe_ans": 1,}', "{'exe_ans': 1}", '', '   ', '{"a": "\\ud800"}',
    '{"a": "\x01"}', '{"exe_ans": 01}', '[' * 100 + ']' * 100, '{"a": "\u2028 é"}',
]


def _oracle(text: str) -> tuple[str, object]:
    def reject(name: str) -> object:
        raise ValueError(f"{name} is not a JSON number")

    repeated: list[str] = []

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        keys = [key for key, _ in items]
        repeated.extend(key for index, key in enumerate(keys) if key in keys[:index])
        return dict(items)

    try:
        value = json.loads(text, parse_constant=reject, object_pairs_hook=pairs)
    except ValueError as error:
        return "error", f"column 'gold', row 7: the gold is not JSON: {error}"
    if repeated:  # issue #30: a key given twice is refused, as every reader of finscore refuses it
        return "error", f"column 'gold', row 7: the gold has the key {repeated[0]!r} twice in one JSON object"
    return "value", value


@pytest.mark.parametrize("text", TEXTS)
def test_read_as_json_loads_reads_it(text: str) -> None:
    kind, expected = _oracle(text)
    if kind == "error":
        with pytest.raises(RewardInputError) as raised:
            decode_gold(text, row=7, column="gold")
        assert str(raised.value) == expected
    else:
        decoded = decode_gold(text, row=7, column="gold")
        assert json.dumps(decoded) == json.dumps(expected)  # -0.0 and big ints compared exactly
        assert not (isinstance(decoded, float) and math.isnan(decoded))


def test_nesting_too_deep_to_read_is_a_clear_error() -> None:
    with pytest.raises(RewardInputError, match="nested too deeply"):
        decode_gold("[" * 200_000 + "]" * 200_000, row=3, column="gold")
