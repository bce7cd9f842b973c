"""Replay FinanceReasoning's and FinMMR's stored `evaluation.json` figures with finscore's protocol.

Run by hand from local mirrors (nothing of them is copied here):

    python tools/peers/replay_financereasoning.py financereasoning=/path/FinanceReasoning.git \
        finmmr=/path/FinMMR.git

For every `file_figure` line of tests/data/vectors/peers/<peer>.jsonl.gz (the files the snapshot
holds; the peer's own pipeline recomputed each), `score_cot_records` recomputes the file's
`avg_accuracy` and `avg_execution_rate` from the stored extracted answers and compares them with the
peer's recomputed figures. Files without `ground_truth` (FinMMR's test splits) are listed as skipped.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY / "python"))

from finscore.protocols.financereasoning import score_cot_records  # noqa: E402


def main(mirrors: dict[str, str]) -> int:
    differing = 0
    for peer, mirror in mirrors.items():
        same = skipped = 0
        with gzip.open(REPOSITORY / "tests" / "data" / "vectors" / "peers" / f"{peer}.jsonl.gz", "rt") as stream:
            figures = [line for line in map(json.loads, stream) if line["kind"] == "file_figure"]
        for line in figures:
            if "skipped" in line:
                skipped += 1
                continue
            text = subprocess.run(["git", "-C", mirror, "show", f"HEAD:{line['file']}"], capture_output=True,
                                  text=True, check=True).stdout
            figure = score_cot_records(json.loads(text))
            if (figure["avg_accuracy"], figure["avg_execution_rate"]) == (
                    line["recomputed_avg_accuracy"], line["recomputed_avg_execution_rate"]):
                same += 1
                continue
            differing += 1
            print(f"{peer} {line['file']}: finscore {figure}, peer {line['recomputed_avg_accuracy']}")
        print(f"{peer}: {len(figures)} files, {same} reproduce the peer's figures, {skipped} skipped (no gold)")
    return 1 if differing else 0


if __name__ == "__main__":
    pairs = dict(argument.split("=", 1) for argument in sys.argv[1:])
    if not pairs:
        raise SystemExit(__doc__)
    raise SystemExit(main(pairs))
