"""The convfinqa profile: what only it reads differently, against CPython and the FinQA reading."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.shared import convfinqa_table_of, vector_rows

from finscore import PROFILES, execute, execute_many
from finscore.cli import main
from finscore.engine.reader.convfinqa import convfinqa_number, read_selection
from finscore.engine.reader.numbers import official_number


def _texts_of_the_vectors() -> set[str]:
    texts: set[str] = set()
    for row in vector_rows("convfinqa"):
        for key in ("program", "gold", "pred"):
            texts.update(row.get(key, ()))
        available, table = convfinqa_table_of(row)
        for table_row in table or ():
            texts.update(cell.replace("$", "").strip().split("(")[0].strip() for cell in table_row[1:])
    return texts


def test_str_to_num_of_convfinqa_and_of_finqa_agree_on_every_recorded_text() -> None:
    """ConvFinQA tests `const_` where FinQA tests `const`: no text is read differently."""
    texts = _texts_of_the_vectors()
    assert len(texts) > 10_000
    for text in texts:
        ours, theirs = convfinqa_number(text), official_number(text)
        assert (ours is None) == (theirs is None), text
        if ours is not None and theirs is not None:
            assert ours.hex() == theirs.hex() or (math.isnan(ours) and math.isnan(theirs)), text


_PIECES = st.sampled_from(["const", "const_", "_", "m1", "1", "0", "5", ".", ",", "%", "e", "-", "inf", "nan",
                           " ", "x", "#", "(", "١"])


@settings(max_examples=800, deadline=None)
@given(st.lists(_PIECES, max_size=6).map("".join))
def test_the_two_readings_agree_on_generated_text(text: str) -> None:
    ours, theirs = convfinqa_number(text), official_number(text)
    assert (ours is None) == (theirs is None)
    if ours is not None and theirs is not None:
        assert ours.hex() == theirs.hex() or (math.isnan(ours) and math.isnan(theirs))


@settings(max_examples=1000, deadline=None)
@given(st.floats(allow_nan=False))
def test_a_number_selection_is_cpythons_round_of_the_float(value: float) -> None:
    text = repr(value)
    outcome = execute([text, "EOF"], profile="convfinqa")
    assert outcome.invalid == 0
    assert outcome.result == round(float(text), 5)  # CPython's own round() is the oracle
    assert isinstance(outcome.result, float) and outcome.result.hex() == round(value, 5).hex()


@pytest.mark.parametrize(
    ("tokens", "invalid", "result"),
    [
        (["1,234.5", "EOF"], 0, 1234.5),
        (["12.5%", "EOF"], 0, 0.125),
        (["const_100", "EOF"], 0, 100.0),
        (["const_m1", "anything"], 0, -1.0),  # the dropped token is never checked
        (["1.000005", "EOF"], 0, round(1.000005, 5)),  # CPython decides on the exact binary value
        (["0.0000123456", "EOF"], 0, round(0.0000123456, 5)),
        (["const5", "EOF"], 1, None),
        (["add(", "EOF"], 1, None),  # FinQA's reading: a valid program without steps
        (["#0", "EOF"], 1, None),
        (["n/a", "EOF"], 1, None),
    ],
)
def test_number_selections(tokens: list[str], invalid: int, result: float | None) -> None:
    outcome = execute(tokens, profile="convfinqa")
    assert outcome.invalid == invalid
    if not invalid:
        assert outcome.result == result and outcome.steps[0].op == "number_selection"
    else:
        assert outcome.status_name == "bad_number"


def test_only_one_token_programs_are_read_differently() -> None:
    programs = [["add(", "1", "2", ")", "EOF"], "subtract(5, 3), divide(#0, 3)", ["EOF"], [], ["60.94"],
                ["1", "2", "EOF"], ["table_max(", "a", "none", ")", "EOF"]]
    table = [["a", "1", "2"]]
    ours = execute_many([(p, table) for p in programs], profile="convfinqa")
    official = execute_many([(p, table) for p in programs], profile="official")
    assert [(o.invalid, o.result) for o in ours] == [(o.invalid, o.result) for o in official]
    assert read_selection(["60.94"]) is None and read_selection(["60.94", "EOF"]) is not None
    assert "convfinqa" in PROFILES


def test_exec_with_the_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exec", "60.94", "--profile", "convfinqa"]) == 0
    out = capsys.readouterr().out
    assert "profile: convfinqa" in out and "#0 number_selection(60.94, EOF)" in out and "answer: 60.94" in out
    assert main(["exec", "60.94"]) == 1  # FinQA's evaluator refuses it
    capsys.readouterr()
