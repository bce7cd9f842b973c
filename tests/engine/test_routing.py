"""Program text takes its own path to the core (laid out whole, tokens cut on demand); every
Execution it gives, steps included, is the one the same program gets as a token list.

The token-list path is the one checked against the official evaluators' recordings
(tests/engine/test_vectors.py); this compares the two in every profile on FinQA gold
programs and model-like errors with their tables, on every ConvFinQA dev turn's program
(number selections included), and on strings of the characters that cut tokens.
"""

from __future__ import annotations

import json
import random

import pytest
from support.shared import FINQA, convfinqa_conversations, require

from finscore.engine import execute_batch, routing
from finscore.engine.core.plain_text import lay_out_program_texts
from finscore.engine.options import Profile
from finscore.engine.reader.tokens import tokenize_gold_program

pytestmark = pytest.mark.essential


def _texts_and_tables() -> list[tuple[str, object]]:
    with open(require(FINQA / "finqa_test.json"), encoding="utf-8") as handle:
        examples = json.load(handle)
    items: list[tuple[str, object]] = []
    for example in examples[:400]:
        gold, table = example["qa"]["program"], example["table"]
        for text in (gold, f"{gold}, add(#9, 1)", f"{gold}, add(#0, #1)", "about 14.1%", gold.replace(", ", ",", 1),
                     gold.replace("(", "(#0, ", 1), "table_sum(no such row, none)"):
            items.append((text, table))
    for conversation in convfinqa_conversations().values():
        for program in conversation["annotation"]["turn_program"]:
            items.append((program, conversation["table"]))
    rng = random.Random(20261201)
    shapes = ["add(", "divide(", "table_max(", "(", ")", ", ", ",", " ", "1", "5%", "#0", "#1", "const_100", "EOF",
              "é", "none"]
    items += [("".join(rng.choice(shapes) for _ in range(rng.randrange(1, 16))) + "x", None) for _ in range(2000)]
    return items


@pytest.mark.parametrize("profile", list(Profile))
def test_text_and_token_lists_give_the_same_executions(profile: Profile, monkeypatch: pytest.MonkeyPatch) -> None:
    items = _texts_and_tables()
    laid_out_from_text = []

    def spy(programs: list[str], tables: list[object]) -> object:
        laid = lay_out_program_texts(programs, tables)
        laid_out_from_text.append(laid is not None)
        return laid

    monkeypatch.setattr(routing, "lay_out_program_texts", spy)
    as_text = execute_batch(items, profile=profile)
    assert laid_out_from_text and all(laid_out_from_text)  # every chunk took the text path
    monkeypatch.undo()
    as_tokens = execute_batch([(tokenize_gold_program(text), table) for text, table in items], profile=profile)
    assert (as_text.invalid, as_text.results, as_text.statuses) == (as_tokens.invalid, as_tokens.results,
                                                                  as_tokens.statuses)
    differing = [items[k][0] for k, (a, b) in enumerate(zip(as_text, as_tokens)) if a.to_json() != b.to_json()]
    assert differing == []
    assert len(set(as_text.statuses)) >= 6  # values and refusals of many kinds


def test_a_chunk_with_a_program_of_no_token_takes_the_token_lists() -> None:
    items = [("add(1, 2)", None), (", ", None), ("", None), ("5", None)]
    for profile in Profile:
        as_text = execute_batch(items, profile=profile)
        as_tokens = execute_batch([(tokenize_gold_program(text), table) for text, table in items], profile=profile)
        assert [e.to_json() for e in as_text] == [e.to_json() for e in as_tokens]
