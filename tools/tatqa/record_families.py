"""Record the official TAT-QA scorer (and pandas) on the issue #30 family cases, as test data.

    python tools/tatqa/record_families.py [--mirror GIT_DIR] [--python PYTHON]

The cases are tests/tatqa/family_cases.py. The official tatqa_eval.py,
tatqa_metric.py and tatqa_utils.py are read from a local git mirror of
github.com/NExTplusplus/TAT-QA at commit 870accc ($TATQA_MIRROR, default
/work/.mirror/NExTplusplus+TAT-QA/repo) into a temporary folder outside the
repository and removed afterwards: they are never part of the repository. They
run under PYTHON (default: this interpreter), which needs numpy, scipy and
pandas. Writes tests/tatqa/data/official_families.json:

- "pairs": each PAIRS case with what one TaTQAEmAndF1() call adds (em and f1
  as Python repr of the floats, scale_match 0/1), or the exception it raises;
- "files": the standard output of tatqa_eval.py on each FILES case (or its
  exception's last line, with "exit" non-zero);
- "frames": pandas' own text (print of a DataFrame laid out as pivot_table
  lays it out) of each FRAMES case.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tatqa"))
from family_cases import FILES, FRAMES, PAIRS, file_inputs  # type: ignore[import-not-found]  # noqa: E402
from record_official import copy_official, interpreter_versions  # type: ignore[import-not-found]  # noqa: E402

MIRROR = os.environ.get("TATQA_MIRROR", "/work/.mirror/NExTplusplus+TAT-QA/repo")
COMMIT = "870accc41953dcde885aabeb963d94aabdc0fbc3"
TARGET = ROOT / "tests" / "tatqa" / "data" / "official_families.json"

#: Runs in the official folder: one TaTQAEmAndF1() call per pair read from stdin.
PAIR_RUNNER = r'''
import json, sys
from tatqa_metric import TaTQAEmAndF1
for line in sys.stdin:
    gold, pred = json.loads(line)
    metric = TaTQAEmAndF1()
    try:
        metric(ground_truth=gold, prediction=pred[0], pred_scale=pred[1])
    except Exception as error:
        print(json.dumps({"exception": type(error).__name__}))
        continue
    detail = metric._details[0]
    print(json.dumps({"em": repr(float(detail["em"])), "f1": repr(float(detail["f1"])),
                      "scale_match": int(metric._scale_em)}))
'''

#: Prints each frame of stdin as pandas prints a pivot table's result.
FRAME_RUNNER = r'''
import json, sys
import pandas as pd
for line in sys.stdin:
    value_name, cells = json.loads(line)
    types = sorted(cells)
    sources = sorted({source for row in cells.values() for source in row})
    rows = [[cells[t].get(s, float("nan")) for s in sources] for t in types]
    columns = pd.MultiIndex.from_product([[value_name], sources], names=[None, "answer_from"])
    frame = pd.DataFrame(rows, index=pd.Index(types, name="answer_type"), columns=columns).fillna(0)
    print(json.dumps(str(frame)))
'''


def _run(python: str, folder: Path, code: str, lines: list[object]) -> list[object]:
    done = subprocess.run([python, "-c", code], cwd=folder, check=True, capture_output=True, text=True,
                          input="".join(json.dumps(line) + "\n" for line in lines))
    return [json.loads(line) for line in done.stdout.splitlines()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", default=MIRROR, help="git directory of NExTplusplus/TAT-QA")
    parser.add_argument("--python", default=sys.executable, help="an interpreter with numpy, scipy and pandas")
    args = parser.parse_args()
    versions = interpreter_versions(args.python)
    recorded: dict[str, object] = {
        "about": "the official TAT-QA scorer (tatqa_metric.py, tatqa_eval.py) and pandas on the cases of "
                 "tests/tatqa/family_cases.py; made by tools/tatqa/record_families.py",
        "official_repository": "NExTplusplus/TAT-QA", "official_commit": COMMIT,
        "python": versions[0], "numpy": versions[1], "scipy": versions[2], "pandas": versions[3],
    }
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        copy_official(args.mirror, COMMIT, folder)
        outcomes = _run(args.python, folder, PAIR_RUNNER, [[gold, pred] for gold, pred in PAIRS])
        recorded["pairs"] = [{"gold": gold, "pred": pred, **outcome}  # type: ignore[dict-item]
                             for (gold, pred), outcome in zip(PAIRS, outcomes)]
        files: dict[str, object] = {}
        for case in FILES:
            gold, predictions = file_inputs(case)
            (folder / "gold.json").write_text(json.dumps(gold, ensure_ascii=False), encoding="utf-8")
            (folder / "pred.json").write_text(json.dumps(predictions, ensure_ascii=False), encoding="utf-8")
            done = subprocess.run([args.python, "tatqa_eval.py", "--gold_path", "gold.json", "--pred_path",
                                   "pred.json"], cwd=folder, capture_output=True, text=True)
            files[case] = {"exit": done.returncode, "stdout": done.stdout,
                           "exception": done.stderr.strip().splitlines()[-1] if done.returncode else None}
        recorded["files"] = files
        texts = _run(args.python, folder, FRAME_RUNNER, [list(frame) for frame in FRAMES])
        recorded["frames"] = [{"value_name": name, "cells": cells, "text": text}
                              for (name, cells), text in zip(FRAMES, texts)]
    TARGET.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
