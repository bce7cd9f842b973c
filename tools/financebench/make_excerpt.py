"""Write the FinanceBench excerpt the tests read: a few gold questions and the human-labelled answers to them.

    python tools/financebench/make_excerpt.py [--mirror GIT_DIR]

Reads data/financebench_open_source.jsonl and results/*.jsonl from a local git mirror of
github.com/patronus-ai/financebench ($FINANCEBENCH_MIRROR, default
/work/.mirror/patronus-ai+financebench/repo) and writes, byte for byte as the dataset holds them
(lines selected, none edited), gzip-compressed with a fixed mtime:

- tests/financebench/data/gold_excerpt.jsonl.gz: the gold lines of IDS;
- tests/financebench/data/answers_excerpt.jsonl.gz: every results line answering one of IDS, each
  with a "results_file" key added naming the file it comes from (its only change);
- tests/financebench/data/SOURCE.json: the dataset commit and the ids.

The data is CC BY-NC 4.0 (the dataset card); tests/financebench/data/README.md records it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "financebench" / "data"
DEFAULT_MIRROR = "/work/.mirror/patronus-ai+financebench/repo"
#: Metrics-generated questions the tests name (amounts, ratios, percents, an audit finding), one
#: domain-relevant and one novel-generated question.
IDS = ("financebench_id_03029", "financebench_id_04672", "financebench_id_05718", "financebench_id_04417",
       "financebench_id_04980", "financebench_id_03282", "financebench_id_10420", "financebench_id_03471",
       "financebench_id_03849", "financebench_id_04080", "financebench_id_03718", "financebench_id_06247",
       "financebench_id_01319", "financebench_id_00499")


def _git(mirror: str, *arguments: str) -> bytes:
    return subprocess.run(["git", "-C", mirror, *arguments], check=True, capture_output=True).stdout


def _write(path: Path, lines: list[bytes]) -> None:
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        out.write(b"".join(line.rstrip(b"\n") + b"\n" for line in lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", default=os.environ.get("FINANCEBENCH_MIRROR", DEFAULT_MIRROR))
    args = parser.parse_args()
    commit = _git(args.mirror, "rev-parse", "HEAD").decode().strip()
    gold = [line for line in _git(args.mirror, "show", "HEAD:data/financebench_open_source.jsonl").splitlines()
            if json.loads(line)["financebench_id"] in IDS]
    answers: list[bytes] = []
    names = [n for n in _git(args.mirror, "ls-tree", "--name-only", "HEAD", "results/").decode().split()
             if n.endswith(".jsonl")]
    for name in names:
        for line in _git(args.mirror, "show", f"HEAD:{name}").splitlines():
            record = json.loads(line)
            if record["financebench_id"] in IDS:
                record["results_file"] = Path(name).name
                answers.append(json.dumps(record, ensure_ascii=False).encode("utf-8"))
    _write(OUT / "gold_excerpt.jsonl.gz", gold)
    _write(OUT / "answers_excerpt.jsonl.gz", answers)
    (OUT / "SOURCE.json").write_text(json.dumps({"repository": "github.com/patronus-ai/financebench", "commit": commit,
                                                 "licence": "CC BY-NC 4.0", "ids": list(IDS),
                                                 "generated_by": "tools/financebench/make_excerpt.py"},
                                                indent=2) + "\n", encoding="utf-8")
    print(f"{len(gold)} gold lines, {len(answers)} answers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
