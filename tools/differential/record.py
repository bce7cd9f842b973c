"""Record the official FinQA evaluator's outcomes for generated programs, as test data.

    python tools/differential/record.py [--count N] [--seed S] [--out tests/data/recordings]

Generates cases with tools/differential/generate.py, runs the official `eval_program`
on each under CPython 3.11 and 3.12 (each a virtualenv with numpy, tqdm and sympy
1.14, made on demand under $FINQA_VENVS, default /tmp), with glibc's non-FMA pow
(GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA) as the shared vectors were recorded, and writes
tests/data/recordings/finqa-official-<seed>-py311.jsonl.gz and -py312, then their
digests into tests/data/MANIFEST.json. The official code is read from a local git
mirror of github.com/czyssrs/FinQA ($FINQA_MIRROR, default
/work/.mirror/czyssrs+FinQA/repo) into a temporary folder outside the repository and
removed afterwards: it is never part of the repository.
"""

from __future__ import annotations

import argparse
import glob
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import generate  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
MIRROR = Path(os.environ.get("FINQA_MIRROR", "/work/.mirror/czyssrs+FinQA/repo"))
VENVS = Path(os.environ.get("FINQA_VENVS", "/tmp"))
EVALUATE_PATH = "code/evaluate/evaluate.py"
PYTHONS = {"3.11": "3.11.7", "3.12": "3.12.1"}
NO_FMA = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"}

#: Runs in the official interpreter: eval_program on each case read from stdin.
RUNNER = r'''
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("official_evaluate", sys.argv[1])
official = importlib.util.module_from_spec(spec)
spec.loader.exec_module(official)
for line in sys.stdin:
    case = json.loads(line)
    invalid, result = official.eval_program(case["program"], case["table"])
    if isinstance(result, float):
        answer = {"float": result.hex()}
    else:
        try:
            answer = {"str": str(result)}
        except ValueError:  # an integer past str()'s digit limit
            answer = {"int_hex": hex(result)}
    print(json.dumps({"id": case["id"], "invalid": invalid, "result": answer}), flush=True)
'''


def interpreter(version: str) -> str:
    """The official evaluator's interpreter: a virtualenv of that CPython with its imports."""
    venv = VENVS / f"finqa-official-{version}"
    python = venv / "bin" / "python"
    if not python.exists():
        base = sorted(glob.glob(f"/root/.pyenv/versions/{version}/bin/python"))
        if not base:
            raise SystemExit(f"CPython {version} is not installed under pyenv")
        subprocess.run([base[0], "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "numpy", "tqdm", "sympy==1.14.0"], check=True)
    return str(python)


def official_outcomes(version: str, cases: list[dict[str, object]], evaluate: Path) -> list[dict[str, object]]:
    stdin = "".join(json.dumps(case) + "\n" for case in cases)
    done = subprocess.run([interpreter(version), "-I", "-c", RUNNER, str(evaluate)], input=stdin,
                          capture_output=True, text=True, env={**os.environ, **NO_FMA}, timeout=3600, check=True)
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    if [o["id"] for o in outcomes] != [c["id"] for c in cases]:
        raise SystemExit(f"the official run under {version} did not answer every case")
    return outcomes


def write_manifest(paths: list[Path]) -> None:
    manifest_path = DATA / "MANIFEST.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    for path in paths:
        name = path.relative_to(DATA).as_posix()
        manifest[name] = {"source": "tools/differential/record.py",
                          "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="generated cases (the issue's are added)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=DATA / "recordings")
    options = parser.parse_args()
    cases = generate(options.count, options.seed)
    source = subprocess.run(["git", "-C", str(MIRROR), "show", f"HEAD:{EVALUATE_PATH}"],
                            capture_output=True, check=True).stdout
    commit = subprocess.run(["git", "-C", str(MIRROR), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    written = []
    with tempfile.TemporaryDirectory(prefix="finqa-official-") as folder:
        evaluate = Path(folder) / "evaluate.py"
        if ROOT in evaluate.resolve().parents:
            raise SystemExit("the official evaluator must stay outside the repository")
        evaluate.write_bytes(source)
        for rule, version in PYTHONS.items():
            outcomes = official_outcomes(version, cases, evaluate)
            lines = [json.dumps({**case, "python": rule, "invalid": outcome["invalid"], "result": outcome["result"],
                                 "recorded_with": f"CPython {version}, sympy 1.14, FinQA {commit[:12]}"},
                                ensure_ascii=True) + "\n"
                     for case, outcome in zip(cases, outcomes)]
            options.out.mkdir(parents=True, exist_ok=True)
            path = options.out / f"finqa-official-{options.seed}-py{rule.replace('.', '')}.jsonl.gz"
            path.write_bytes(gzip.compress("".join(lines).encode("ascii"), compresslevel=9, mtime=0))
            written.append(path)
            print(f"{path}: {len(lines)} rows")
    if options.out.resolve() == (DATA / "recordings").resolve():
        write_manifest(written + [DATA / "recordings" / "README.md"])


if __name__ == "__main__":
    main()
