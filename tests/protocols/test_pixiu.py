"""pixiu-finqa, pixiu-convfinqa and pixiu-tatqa against PIXIU's own recorded decisions (pixiu.jsonl.gz).

The oracle is `QA.process_results` of The-FinAI/PIXIU (src/tasks/flare.py) run by the recording
generator for each of FinQA, ConvFinQA and TATQA: a line's `FinQA` / `ConvFinQA` / `TATQA` holds
{"value": {"acc": x}} or {"raises": "AttributeError"}; the protocols write that as `acc`:
{"value": x} or {"raises": ...}. The white space `str.strip()` removes is checked against the
definition CPython documents for `str.isspace`.
"""

from __future__ import annotations

import sys
import unicodedata
from typing import Any

import pytest

from finscore.protocols import decide_line, get_protocol
from finscore.protocols.fields import LineError
from finscore.protocols.pixiu import REASONS
from support.peer_vectors import recorded_commit, vector_lines

#: Each protocol and the key of the recorded line that holds its peer task's decision.
TASKS = {"pixiu-finqa": "FinQA", "pixiu-convfinqa": "ConvFinQA", "pixiu-tatqa": "TATQA"}


def expected_acc(recorded: dict[str, Any]) -> dict[str, Any]:
    """The recorded process_results outcome as the protocols write it under "acc"."""
    if "raises" in recorded:
        return {"raises": recorded["raises"]}
    return {"value": recorded["value"]["acc"]}


@pytest.mark.essential
@pytest.mark.parametrize("protocol_id", TASKS)
def test_every_recorded_pixiu_decision_is_reproduced(protocol_id: str) -> None:
    lines = vector_lines("pixiu")
    assert len(lines) == 4218  # the README's count
    mismatches = []
    for number, line in enumerate(lines, start=1):
        fields = decide_line(protocol_id, line)
        assert fields["reason"] in REASONS
        want = expected_acc(line[TASKS[protocol_id]])
        if fields["acc"] != want or type(fields["acc"].get("value")) is not type(want.get("value")):
            mismatches.append((number, line["pred"], line["gold"], fields, want))
    assert mismatches == []


def isspace_documented(character: str) -> bool:
    """str.isspace as the Python documentation defines it: general category Zs, or bidirectional class WS, B or S."""
    return unicodedata.category(character) == "Zs" or unicodedata.bidirectional(character) in ("WS", "B", "S")


def test_the_prediction_loses_exactly_the_white_space_python_documents() -> None:
    space = [chr(c) for c in range(sys.maxunicode + 1) if isspace_documented(chr(c))]
    assert "\u00a0" in space and "\u2003" in space and "\u200b" not in space  # the README's examples
    for character in space:
        assert decide_line("pixiu-finqa", {"pred": f"{character}94{character}", "gold": "94"})["acc"] == {"value": 1.0}
    for character in ("\u200b", "\ufeff", "\u180e", "x", "."):
        fields = decide_line("pixiu-finqa", {"pred": f"{character}94", "gold": "94"})
        assert fields == {"acc": {"value": 0.0}, "reason": "differs"}


def test_no_number_parsing_and_the_gold_is_never_stripped() -> None:
    assert decide_line("pixiu-tatqa", {"pred": "94.0", "gold": "94"})["acc"] == {"value": 0.0}
    assert decide_line("pixiu-tatqa", {"pred": " 5 ", "gold": " 5"}) == {"acc": {"value": 0.0},
                                                                         "reason": "gold_outer_whitespace"}


@pytest.mark.parametrize("pred", [None, 5, 5.0, True, ["5"], {"int": "5"}])
def test_a_prediction_that_is_not_text_raises_as_cpython_does(pred: Any) -> None:
    """CPython: none of these values has a .strip, so `results[0].strip()` raises AttributeError."""
    with pytest.raises(AttributeError):
        pred.strip()
    assert decide_line("pixiu-convfinqa", {"pred": pred, "gold": "5"}) == {
        "acc": {"raises": "AttributeError"}, "reason": "prediction_not_text"}


def test_a_gold_that_is_not_text_equals_no_prediction() -> None:
    assert ("5" == 5) is False  # noqa: PLR0133  (CPython: a str never equals an int)
    assert decide_line("pixiu-finqa", {"pred": "5", "gold": 5}) == {"acc": {"value": 0.0}, "reason": "gold_not_text"}


def test_a_line_without_pred_or_gold_is_a_typed_error() -> None:
    with pytest.raises(LineError, match='no "pred"'):
        decide_line("pixiu-finqa", {"gold": "5"})
    with pytest.raises(LineError, match='no "gold"'):
        decide_line("pixiu-finqa", {"pred": "5"})


def test_the_records_name_the_commit_the_vectors_were_recorded_at() -> None:
    for protocol_id in TASKS:
        record = get_protocol(protocol_id)
        assert record.commit == recorded_commit("pixiu.jsonl.gz")
        assert (record.repository, record.path, record.decision_key) == ("The-FinAI/PIXIU", "src/tasks/flare.py", "acc")
