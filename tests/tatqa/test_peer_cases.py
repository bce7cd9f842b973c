"""The official scorer's own test tables (data/peer_cases.json, transcribed with attribution) pass."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from finscore.tatqa import decide, first_number, looks_numeric, normalize_answer, overall, read_number
from finscore.tatqa import whitespace_tokens

CASES = json.loads((Path(__file__).parent / "data" / "peer_cases.json").read_text(encoding="utf-8"))
METRIC = CASES["metric"]

#: The official function names of the utils table, and ours.
UTILS: dict[str, Callable[[str], Any]] = {
    "extract_one_num_from_str": first_number,
    "to_number": read_number,
    "ws_tokenize": whitespace_tokens,
    "normalize_answer": normalize_answer,
    "is_number": looks_numeric,
}


def test_the_tables_are_all_there() -> None:
    assert (len(METRIC["test_em_and_f1"]), len(METRIC["test_one"]), len(CASES["utils"]["cases"])) == (37, 2, 16)


@pytest.mark.parametrize("case", METRIC["test_em_and_f1"], ids=lambda c: f"{c[0]['answer']}|{c[1]}|{c[2]}")
def test_em_and_f1(case: list[Any]) -> None:
    gold, predicted, scale, em, f1 = case
    totals = overall([decide(gold, predicted, scale)])
    assert (totals.em, totals.f1) == (em, f1)


@pytest.mark.parametrize("case", METRIC["test_one"], ids=lambda c: f"{c[0]['answer']}|{c[1]}|{c[2]}")
def test_one(case: list[Any]) -> None:
    gold, predicted, scale, _em, f1 = case
    assert overall([decide(gold, predicted, scale)]).f1 == f1


@pytest.mark.parametrize("case", CASES["utils"]["cases"], ids=lambda c: f"{c[0]}({c[1]!r})")
def test_utils(case: list[Any]) -> None:
    function, text, expected = case
    assert UTILS[function](text) == expected
