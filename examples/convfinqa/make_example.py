"""How the shipped ConvFinQA example was made from the dev set (kept for provenance).

    python examples/convfinqa/make_example.py tests/data/convfinqa/convfinqa_dev.json.gz

gold.json: the first 24 dev conversations (id, table, and the annotation's
dialogue_break, turn_program, qa_split and exe_ans_list). predictions.json: one
entry per turn, made from the gold turn program, counting turns k = 0, 1, ... in
file order and changing some of them, always the same way:
- k % 10 == 3: a number selection written with a trailing zero (`60.940`): it
  executes to the gold answer, but ConvFinQA's equal_program compares the text;
- k % 10 == 5: the arguments of the first step swapped (a number selection: left out,
  so that turn has no prediction);
- k % 10 == 7: the answer scaled by 100 (`multiply(#n, const_100)` appended;
  a number selection becomes `multiply(x, const_100)`);
- k % 10 == 9: named as the authors' turn files name turns, `<conversation id>_<turn>`;
- every other turn: the gold program, tokenized as the authors' program_tokenization does.
ConvFinQA is by Chen et al. (EMNLP 2022), MIT license.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

from finscore.engine.reader.tokens import tokenize_gold_program

CONVERSATIONS = 24
KEPT = ("dialogue_break", "turn_program", "qa_split", "exe_ans_list")


def _perturbed(k: int, tokens: list[str]) -> list[str] | None:
    selection = len(tokens) == 2
    if k % 10 == 3 and selection:
        return [tokens[0] + ("0" if "." in tokens[0] else ".0"), "EOF"]
    if k % 10 == 5:
        if selection:
            return None
        return [tokens[0], tokens[2], tokens[1], *tokens[3:]]
    if k % 10 == 7:
        if selection:
            return ["multiply(", tokens[0], "const_100", ")", "EOF"]
        last = sum(1 for token in tokens if token == ")") - 1
        return [*tokens[:-1], "multiply(", f"#{last}", "const_100", ")", "EOF"]
    return tokens


def make(conversations: list[dict[str, Any]], limit: int | None = CONVERSATIONS,
         ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(gold, predictions) for the first `limit` conversations (None: all of them)."""
    gold: list[dict[str, Any]] = []
    predictions: list[dict[str, Any]] = []
    k = 0
    for conversation in conversations[:limit]:
        annotation = conversation["annotation"]
        gold.append({"id": conversation["id"], "table": conversation["table"],
                     "annotation": {key: annotation[key] for key in KEPT if key in annotation}})
        for turn, program in enumerate(annotation["turn_program"]):
            tokens = _perturbed(k, tokenize_gold_program(program))
            if tokens is not None:
                name = f"{conversation['id']}_{turn}" if k % 10 == 9 else f"{conversation['id']}#t{turn}"
                predictions.append({"id": name, "predicted": tokens})
            k += 1
    return gold, predictions


def main(source: Path) -> None:
    raw = source.read_bytes()
    conversations = json.loads(gzip.decompress(raw) if source.suffix == ".gz" else raw)
    gold, predictions = make(conversations)
    here = Path(__file__).parent
    (here / "gold.json").write_text(json.dumps(gold, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (here / "predictions.json").write_text(json.dumps(predictions, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
