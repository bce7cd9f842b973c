"""Program text laid out for the core at once is what lay_out makes of its official tokens.

`lay_out_program_texts` cuts a chunk's program strings into the core's text without a token
list; the reference is `lay_out` of `tokenize_gold_program`'s tokens (itself checked against
the tokens FinQA's and ConvFinQA's evaluators recorded, tests/engine/test_tokenization.py).
Compared field by field on every FinQA gold program (with its table), on the kinds of
completion a model writes, and on generated strings of the characters that cut tokens.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.shared import FINQA, require

from finscore.engine.core.plain_text import PlainBatch, lay_out, lay_out_program_texts
from finscore.engine.reader.tokens import tokenize_gold_program

pytestmark = pytest.mark.essential


def _fields(batch: PlainBatch) -> tuple[object, ...]:
    return (list(batch.indices), batch.text(), batch.token_count, batch.program_tables, batch.table_bytes,
            batch.table_spans, batch.table_value_cells, batch.call_bytes())


def _check(programs: list[str], tables: list[object]) -> bool:
    """Asserts agreement; whether the text path took the chunk."""
    token_lists = [tokenize_gold_program(p) for p in programs]
    laid = lay_out_program_texts(programs, tables)
    if laid is None:  # only for a separator in a program, or a program that cuts into no token
        assert any("\x1e" in p or "\x1f" in p for p in programs) or any(t == ["EOF"] for t in token_lists)
        return False
    assert _fields(laid) == _fields(lay_out(token_lists, tables))
    return True


def test_every_finqa_gold_program_and_model_errors() -> None:
    with open(require(FINQA / "finqa_test.json"), encoding="utf-8") as handle:
        examples = json.load(handle)
    programs, tables = [], []
    for example in examples:
        gold = example["qa"]["program"]
        for text in (gold, gold.replace("(", "( ", 1), f"{gold}, add(#9, 1)", f"{gold} and more", "about 14.1%",
                     gold.replace(", ", ",", 1), f" {gold} ", gold.replace(")", "))", 1)):
            programs.append(text)
            tables.append(example["table"])
    assert _check(programs, tables)
    assert _check(programs[:1], tables[:1])


def test_long_runs_of_cuts() -> None:
    """Where many cuts meet (commas, parentheses), the tokens are still those of the official
    cut: runs of up to a few hundred boundaries, of every length up to 40 and odd mixes."""
    programs = [f"add({', ' * n}1)" for n in range(41)] + [f"add(1{')' * n}" for n in range(41)]
    programs += ["(" * 300 + "x" + ")" * 300, ", , ( ) ,  ) ( , " * 20, "divide(" + "((, ))" * 50 + "#0, 2)"]
    assert _check(programs, [None] * len(programs))
    for program in programs:
        assert _check([program], [None])


SHAPES = ["add(", "table_sum(", "(", ")", ", ", ",", " ", "1", "#0", "EOF", "é", "\ud800", "\n", "x y", "none",
          "\x1e", "\x1f"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.lists(st.sampled_from(SHAPES), max_size=12).map("".join), min_size=1, max_size=6))
def test_generated_programs(programs: list[str]) -> None:
    _check(programs, [[["none", "1"], ["x y", "2"]]] * len(programs))


def test_random_chunks_are_taken_by_the_text_path() -> None:
    rng = random.Random(20261201)
    shapes = [s for s in SHAPES if s not in ("\x1e", "\x1f")]
    taken = 0
    for _ in range(300):
        programs = ["".join(rng.choice(shapes) for _ in range(rng.randrange(1, 20))) + "x" for _ in range(20)]
        taken += _check(programs, [None] * len(programs))
    assert taken == 300  # no separator, and every program has a token: all taken
