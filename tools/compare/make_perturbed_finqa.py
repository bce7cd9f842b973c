"""A second FinQA prediction file, made from the shipped example by a fixed perturbation (issue #33).

    python tools/compare/make_perturbed_finqa.py            # writes examples/finqa/predictions_b.json
    python tools/compare/make_perturbed_finqa.py --check    # exit 1 if the committed file differs

`finscore compare finqa` needs two systems to compare; this one is "system B", made from the
official example predictions (examples/finqa/predictions.json, "system A") by rules with no
randomness, in the file's order:
- every 2nd prediction whose tokens differ from the gold program's (the 1st, 3rd, ... such) is
  replaced by the gold program's tokens (a fix);
- every 10th prediction (positions 4, 14, 24, ...) gets the two arguments of its first step
  swapped (usually a break);
- the last two predictions are left out (missing: failures of B).
The gold file is examples/finqa/gold.json. Nothing here is scored: finscore decides what the
perturbation fixed or broke.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "examples/finqa/predictions.json"
GOLD = ROOT / "examples/finqa/gold.json"
TARGET = ROOT / "examples/finqa/predictions_b.json"


def program_tokens(program: str) -> list[str]:
    """FinQA's gold program text as its token list: "subtract(5829, 5735)" -> ["subtract(", "5829", "5735", ")", "EOF"]."""
    tokens: list[str] = []
    for step in re.findall(r"[a-z_]+\([^)]*\)", program):
        name, _, arguments = step.partition("(")
        tokens.append(name + "(")
        tokens += [argument.strip() for argument in arguments.rstrip(")").split(",")]
        tokens.append(")")
    return tokens + ["EOF"]


def perturbed(predictions: list[dict[str, Any]], gold: list[dict[str, Any]]) -> list[dict[str, Any]]:
    programs = {example["id"]: program_tokens(example["qa"]["program"]) for example in gold}
    out, differing = [], 0
    for position, entry in enumerate(predictions[:-2]):
        tokens = list(entry["predicted"])
        if tokens != programs[entry["id"]]:
            if differing % 2 == 0:
                tokens = programs[entry["id"]]
            differing += 1
        elif position % 10 == 4 and len(tokens) >= 4:
            tokens[1], tokens[2] = tokens[2], tokens[1]
        out.append({"id": entry["id"], "predicted": tokens})
    return out


def render() -> str:
    predictions = json.loads(SOURCE.read_text(encoding="utf-8"))
    gold = json.loads(GOLD.read_text(encoding="utf-8"))
    return json.dumps(perturbed(predictions, gold), indent=1) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if argv[1:] == ["--check"]:
        return 0 if TARGET.read_text(encoding="utf-8") == text else 1
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
