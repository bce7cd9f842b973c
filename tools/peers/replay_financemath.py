"""Replay FinanceMath's published validation figures from its stored outputs with finscore's protocol.

Run by hand from a local mirror of yale-nlp/FinanceMath (nothing of it is copied here):

    python tools/peers/replay_financemath.py /path/to/FinanceMath.git

For every stored file of `outputs/validation/processed_cot_outputs/` and
`math_expression_extracted_cot_outputs/`, `finscore.protocols.financemath.score_cot_items` recomputes
the accuracy, execution rate and per-topic accuracy from the stored extracted answers and
`data/validation.json`, and compares them with `outputs/results/validation_cot_results.json` and
`validation_cot_math_expression_results.json`. Prints one line per differing file and a count per folder.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))

from finscore.protocols.financemath import score_cot_items  # noqa: E402

FOLDERS = (("processed_cot_outputs", "validation_cot_results.json"),
           ("math_expression_extracted_cot_outputs", "validation_cot_math_expression_results.json"))


def _show(mirror: str, path: str) -> Any:
    text = subprocess.run(["git", "-C", mirror, "show", f"HEAD:{path}"], capture_output=True, text=True,
                          check=True).stdout
    return json.loads(text)


def main(mirror: str) -> int:
    gold = {example["question_id"]: example["ground_truth"] for example in _show(mirror, "data/validation.json")}
    differing = 0
    for folder, results in FOLDERS:
        published = {row["model_name"]: row for row in _show(mirror, f"outputs/results/{results}")}
        listing = subprocess.run(["git", "-C", mirror, "ls-tree", "--name-only", "HEAD", f"outputs/validation/{folder}/"],
                                 capture_output=True, text=True, check=True).stdout.split()
        same = 0
        for path in listing:
            figure = score_cot_items(_show(mirror, path), gold)
            name = path.rsplit("/", 1)[1].rsplit(".", 1)[0]
            row = published.get(name)
            fields = ("accuracy", "execution_rate", "topic_accuracy")
            if row is not None and all(row.get(field, figure[field]) == figure[field] for field in fields):
                same += 1
                continue
            differing += 1
            print(f"{folder}/{name}: recomputed {figure['accuracy']} (undecided {figure['undecided']}), "
                  f"published {row and row['accuracy']}")
        print(f"{folder}: {len(listing)} files, {same} reproduce the published figures")
    return 1 if differing else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    raise SystemExit(main(sys.argv[1]))
