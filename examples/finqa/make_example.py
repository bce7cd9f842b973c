"""How the shipped FinQA example was cut from the shared data (kept for provenance).

    python examples/finqa/make_example.py ../shared/data/finqa

The gold file holds 60 FinQA test examples (id, table, question, program, exe_ans):
the first 50 and 10 of the 97 that the official example predictions leave out; the
predictions file holds the official example predictions for the first 50. FinQA is
by Chen et al. (EMNLP 2021), MIT license.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(source: Path) -> None:
    test = json.loads((source / "finqa_test.json").read_text(encoding="utf-8"))
    predictions = json.loads((source / "example_predictions.json").read_text(encoding="utf-8"))
    predicted = {p["id"] for p in predictions}
    without = [t for t in test if t["id"] not in predicted]
    chosen = test[:50] + without[:10]
    gold = [
        {"id": t["id"], "table": t["table"],
         "qa": {key: t["qa"][key] for key in ("question", "program", "exe_ans")}}
        for t in chosen
    ]
    wanted = {t["id"] for t in test[:50]}
    here = Path(__file__).parent
    (here / "gold.json").write_text(json.dumps(gold, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (here / "predictions.json").write_text(
        json.dumps([p for p in predictions if p["id"] in wanted], indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
