"""Record what the official tatqa_eval.py prints on the cases of official_cases.py.

    python tests/tatqa/record_official.py --mirror /path/to/TAT-QA --python /path/to/venv/bin/python

Not a test: it needs the official repository (a local git mirror; the scripts
are copied out of it into a temporary folder, never into this repository) and
an interpreter with numpy, scipy and pandas. It writes data/official_prints.json
with the printed text of each case and the versions used.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from official_cases import CASES, case_inputs  # type: ignore[import-not-found]  # noqa: E402

OFFICIAL_FILES = ("tatqa_eval.py", "tatqa_metric.py", "tatqa_utils.py")


def interpreter_versions(python: str) -> list[str]:
    """The interpreter's Python, numpy, scipy and pandas versions (recorded beside the output)."""
    return subprocess.run(
        [python, "-c", "import sys, numpy, scipy, pandas; print(sys.version.split()[0], numpy.__version__, "
                       "scipy.__version__, pandas.__version__)"],
        check=True, capture_output=True, text=True).stdout.split()


def copy_official(mirror: str, commit: str, folder: Path) -> None:
    """The official scripts at `commit` of the git mirror, copied into `folder` (never into this repository)."""
    for name in OFFICIAL_FILES:
        source = subprocess.run(["git", "--git-dir", mirror, "show", f"{commit}:{name}"], check=True,
                                capture_output=True).stdout
        (folder / name).write_bytes(source)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", default=os.environ.get("TATQA_MIRROR"),
                        help="git directory of NExTplusplus/TAT-QA (default $TATQA_MIRROR)")
    parser.add_argument("--python", required=True, help="an interpreter with numpy, scipy and pandas")
    parser.add_argument("--data", default="/work/shared/data/tatqa", help="folder of the TAT-QA gold files")
    args = parser.parse_args()
    if not args.mirror:
        parser.error("give --mirror or set TATQA_MIRROR to a git directory of NExTplusplus/TAT-QA")
    commit = subprocess.run(["git", "--git-dir", args.mirror, "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    versions = interpreter_versions(args.python)
    recorded: dict[str, object] = {
        "about": "stdout of the official tatqa_eval.py on the cases of tests/tatqa/official_cases.py",
        "official_commit": commit,
        "python": versions[0], "numpy": versions[1], "scipy": versions[2], "pandas": versions[3],
        "cases": {},
    }
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        copy_official(args.mirror, commit, folder)
        for case in CASES:
            gold, predictions = case_inputs(case, Path(args.data))
            (folder / "gold.json").write_text(json.dumps(gold, ensure_ascii=False), encoding="utf-8")
            text = predictions if isinstance(predictions, str) else json.dumps(predictions, ensure_ascii=False)
            (folder / "pred.json").write_text(text, encoding="utf-8")
            done = subprocess.run([args.python, "tatqa_eval.py", "--gold_path", "gold.json", "--pred_path",
                                   "pred.json"], cwd=folder, check=True, capture_output=True, text=True)
            recorded["cases"][case] = done.stdout  # type: ignore[index]
    target = HERE / "data" / "official_prints.json"
    target.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
