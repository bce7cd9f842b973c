"""Gold program text is cut into tokens as the official evaluators cut it.

Oracles: the tokens FinQA's evaluate.py recorded for every FinQA gold program (vectors
gold.jsonl.gz: the dev and test programs and the train
programs tests/data holds) and those ConvFinQA's own
program_tokenization recorded for every dev turn (convfinqa.jsonl.gz, 1,490 turns).
Both take the same procedure on a string (split on ", "; a "(" ends a token and stays
on it; a ")" is a token of its own; "EOF" appended), which tokenize_gold_program runs
as one regular expression (over the whole program with its separators marked, or per
piece when the program holds the marker itself). The procedure as the evaluators write it (a
character loop) is transcribed below as a second reference for strings no gold holds:
parentheses inside row names, doubled and stray parentheses, empty pieces.
"""

from __future__ import annotations

import json
import random

from support.shared import CONVFINQA, FINQA, require, vector_rows

from finscore.engine.reader.tokens import tokenize_gold_program


def _character_loop(program: str) -> list[str]:
    """The evaluators' procedure, character by character (their program_tokenization on a string)."""
    tokens: list[str] = []
    for piece in program.split(", "):
        current = ""
        for char in piece:
            if char == ")" and current:
                tokens.append(current)
                current = ""
            current += char
            if char in "()":
                tokens.append(current)
                current = ""
        if current:
            tokens.append(current)
    tokens.append("EOF")
    return tokens


def test_every_finqa_gold_program_is_cut_as_evaluate_py_cut_it() -> None:
    programs = {}
    for split in ("train", "dev", "test"):
        with open(require(FINQA / f"finqa_{split}.json"), encoding="utf-8") as handle:
            for example in json.load(handle):
                programs[(split, example["id"])] = example["qa"]["program"]
    rows = list(vector_rows("gold"))
    assert len(rows) == 8281
    recorded = [((row["split"], row["id"]), row["program"]) for row in rows if (row["split"], row["id"]) in programs]
    # tests/data holds every dev and test example and a subset of train
    assert sum(split != "train" for (split, _), _ in recorded) == 883 + 1147 and len(recorded) > 3000
    assert [key for key, tokens in recorded if tokenize_gold_program(programs[key]) != tokens] == []


def test_every_convfinqa_turn_program_is_cut_as_its_evaluator_cut_it() -> None:
    with open(require(CONVFINQA / "convfinqa_dev.json"), encoding="utf-8") as handle:
        turns = {f"{entry['id']}#t{turn}": program for entry in json.load(handle)
                 for turn, program in enumerate(entry["annotation"]["turn_program"])}
    recorded = [(row["id"], row["program"]) for row in vector_rows("convfinqa") if row["kind"] == "gold"]
    assert len(recorded) == 1490
    assert [key for key, tokens in recorded if tokenize_gold_program(turns[key]) != tokens] == []


def test_strings_no_gold_holds_are_cut_as_the_character_loop_cuts_them() -> None:
    shapes = ["table_average(revenue (net), none)", "add(1, 2))", "((", ")(", ", , ", "", "(", ")", "a)b(c",
              "divide(#0, 3) , add(", "net income (loss)", "add(1,2), subtract(3, (4)", "x, y)", " )( ",
              "subtract(5, 3), divide(#0, 3)", ",, , ,", ", ,, ", "add(1\x1f2, 3)", "\x1f, \x1f", "a,\x1f b"]
    rng = random.Random(20261201)
    alphabet = ["a", "1", "(", ")", ",", " ", ", ", "#", "add(", "EOF", "é", "\n", "\x1f"]
    shapes += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30))) for _ in range(20_000)]
    assert [s for s in shapes if tokenize_gold_program(s) != _character_loop(s)] == []
