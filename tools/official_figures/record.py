"""Record what the official FinQA and ConvFinQA evaluators print on small prediction files.

    python tools/official_figures/record.py --python /path/to/python-with-sympy-numpy-tqdm

Not a test and not part of the package. It reads the official code from local git mirrors of
czyssrs/FinQA (`code/evaluate/evaluate.py`) and czyssrs/ConvFinQA (`code/utils/general_utils.py`,
its `evaluate_result`), copies it into a temporary folder (never into this repository), runs it on
each case below and writes tests/finqa/data/official_figures.json and
tests/convfinqa/data/official_figures.json: each case's gold, predictions, the official standard
output, and its last line of standard error and exit status when it stopped with an exception.

The cases are what `--exclude-bad-ids` must not change in the official block: repeated ids
(identical and differing copies), an unknown id, entries the official code cannot index, and a
clean file for contrast. ConvFinQA's evaluate_result reads another shape than the leaderboard
format finscore scores; `_convfinqa_inputs` writes each leaderboard entry as one evaluate_result
entry (`{"id": <conversation>_<turn>, "pred_prog": predicted, "ref_prog": the gold turn program
tokenized by its program_tokenization}`, keyed by the entry's position) and each gold turn as one
`{"id", "table", "annotation": {"exe_ans"}}` record, in file order.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FINQA_FILE = "code/evaluate/evaluate.py"
CONVFINQA_FILE = "code/utils/general_utils.py"
ENVIRONMENT = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA", "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}


def _finqa_cases() -> tuple[list[Any], dict[str, list[Any]]]:
    gold = [{"id": e["id"], "table": e["table"], "qa": {"program": e["qa"]["program"], "exe_ans": e["qa"]["exe_ans"]}}
            for e in json.loads((ROOT / "examples/finqa/gold.json").read_text(encoding="utf-8"))[:3]]
    predicted = {e["id"]: e["predicted"]
                 for e in json.loads((ROOT / "examples/finqa/predictions.json").read_text(encoding="utf-8"))}
    a, b, c = (example["id"] for example in gold)
    right = {key: {"id": key, "predicted": predicted[key]} for key in (a, b, c)}
    wrong_b = {"id": b, "predicted": ["divide(", "8.1", "56.1", ")", "EOF"]}
    wrong_a = {"id": a, "predicted": ["add(", "5829", "5735", ")", "EOF"]}
    return gold, {
        "clean": [right[a], wrong_b, right[c]],
        "repeated": [right[a], right[a], right[b], wrong_b],
        "repeated-identical-wrong": [wrong_a, right[b], wrong_a, right[c]],
        "unknown-id": [right[a], {"id": "not-a-gold-id", "predicted": predicted[a]}, right[b]],
        "not-an-object": [right[a], right[b], ["subtract(", "5829", "5735", ")", "EOF"]],
        "no-predicted": [right[a], {"id": b}, right[c]],
        # read by the official code without raising: text, a number, a non-text last or inner token
        "unreadable-predictions": [right[a], {"id": b, "predicted": "x"}, {"id": c, "predicted": 5},
                                   {"id": a, "predicted": ["add(", "5829", "5735", ")", 7]},
                                   {"id": b, "predicted": ["divide(", 8.1, "56.0", ")", "EOF"]},
                                   {"id": c, "predicted": "subtract("}, right[c]],
        # an equivalent program whose dropped last token is not text: the join that prints it raises
        "unreadable-equivalent": [right[a], {"id": a, "predicted": [*predicted[a][:-1], 7]}, right[b]],
    }


def _convfinqa_cases() -> tuple[list[Any], dict[str, list[Any]]]:
    gold = json.loads((ROOT / "examples/convfinqa/gold.json").read_text(encoding="utf-8"))[:2]
    gold = [{"id": c["id"], "table": c["table"],
             "annotation": {"turn_program": c["annotation"]["turn_program"],
                            "exe_ans_list": c["annotation"]["exe_ans_list"]}} for c in gold]
    shipped = {e["id"]: e["predicted"]
               for e in json.loads((ROOT / "examples/convfinqa/predictions.json").read_text(encoding="utf-8"))}
    first = gold[0]["id"]
    turn = [f"{first}#t{index}" for index in range(3)]
    right = [{"id": key, "predicted": shipped[key]} for key in turn]
    wrong_t1 = {"id": turn[1], "predicted": ["99.5", "EOF"]}
    return gold, {
        "clean": [right[0], wrong_t1, right[2]],
        "repeated": [right[0], {"id": f"{first}_0", "predicted": shipped[turn[0]]}, right[1], wrong_t1, right[2]],
        "unknown-id": [right[0], {"id": "Single_nothing/2000/page_1.pdf-1#t0", "predicted": ["1", "EOF"]}, right[1]],
        "unreadable-predictions": [right[0], {"id": turn[0], "predicted": [shipped[turn[0]][0], 7]},
                                   {"id": turn[1], "predicted": 25.14}, {"id": turn[2], "predicted": "6x"}, right[2]],
    }


def _turn_file_id(identifier: Any, known: set[str]) -> Any:
    """The `<conversation>_<turn>` form of a leaderboard turn id that names a gold turn; else the id as given."""
    if isinstance(identifier, str) and "#t" in identifier:
        conversation, _, index = identifier.rpartition("#t")
        if f"{conversation}_{index}" in known:
            return f"{conversation}_{index}"
    return identifier


def _convfinqa_inputs(gold: list[Any], predictions: list[Any], tokenize: Any) -> tuple[dict[str, Any], list[Any]]:
    turns, programs = [], {}
    for conversation in gold:
        annotation = conversation["annotation"]
        for index, (program, answer) in enumerate(zip(annotation["turn_program"], annotation["exe_ans_list"])):
            key = f"{conversation['id']}_{index}"
            turns.append({"id": key, "table": conversation["table"], "annotation": {"exe_ans": answer}})
            programs[key] = tokenize(program)
    known = set(programs)
    data = {}
    for position, entry in enumerate(predictions):
        if isinstance(entry, dict):
            converted: Any = {}
            if "id" in entry:
                converted["id"] = _turn_file_id(entry["id"], known)
                converted["ref_prog"] = programs.get(converted["id"], [])
            if "predicted" in entry:
                converted["pred_prog"] = entry["predicted"]
        else:
            converted = entry
        data[str(position)] = [converted]
    return data, turns


def _run(python: str, folder: Path, script: str) -> dict[str, Any]:
    done = subprocess.run([python, "-c", script], cwd=folder, env=ENVIRONMENT, capture_output=True, text=True,
                          check=False)
    stderr = done.stderr.strip().splitlines()
    return {"stdout": done.stdout, "returncode": done.returncode,
            "exception": stderr[-1] if done.returncode and stderr else None}


def _finqa(python: str, mirror: str, folder: Path) -> dict[str, Any]:
    commit = _commit(mirror)
    (folder / "evaluate.py").write_bytes(_show(mirror, commit, FINQA_FILE))
    gold, cases = _finqa_cases()
    (folder / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    recorded: dict[str, Any] = {"about": __doc__.splitlines()[0], "official": f"czyssrs/FinQA {commit} {FINQA_FILE}",
                                "python": _versions(python), "gold": gold, "cases": {}}
    for name, predictions in cases.items():
        (folder / "pred.json").write_text(json.dumps(predictions), encoding="utf-8")
        run = _run(python, folder, "import sys; sys.argv = ['evaluate.py', 'pred.json', 'gold.json']; "
                                   "exec(compile(open('evaluate.py').read(), 'evaluate.py', 'exec'))")
        recorded["cases"][name] = {"predictions": predictions, **run}
    return recorded


def _convfinqa(python: str, mirror: str, folder: Path) -> dict[str, Any]:
    commit = _commit(mirror)
    (folder / "general_utils.py").write_bytes(_show(mirror, commit, CONVFINQA_FILE))
    gold, cases = _convfinqa_cases()
    tokenize = _official_tokenizer(python, folder)
    recorded: dict[str, Any] = {"about": __doc__.splitlines()[0],
                                "official": f"czyssrs/ConvFinQA {commit} {CONVFINQA_FILE} (evaluate_result)",
                                "python": _versions(python), "gold": gold, "cases": {}}
    for name, predictions in cases.items():
        data, turns = _convfinqa_inputs(gold, predictions, tokenize)
        (folder / "pred.json").write_text(json.dumps(data), encoding="utf-8")
        (folder / "turns.json").write_text(json.dumps(turns), encoding="utf-8")
        run = _run(python, folder, "from general_utils import evaluate_result; "
                                   "evaluate_result('pred.json', 'turns.json', 'all.json', 'errors.json', 'prog')")
        recorded["cases"][name] = {"predictions": predictions, **run}
    return recorded


def _official_tokenizer(python: str, folder: Path) -> Any:
    """ConvFinQA's own program_tokenization, run by the official interpreter on every gold program."""
    gold, _ = _convfinqa_cases()
    programs = sorted({p for c in gold for p in c["annotation"]["turn_program"]})
    script = ("import json, sys; from general_utils import program_tokenization; "
              "print(json.dumps({p: program_tokenization(p) for p in json.load(sys.stdin)}))")
    done = subprocess.run([python, "-c", script],
                          cwd=folder, env=ENVIRONMENT, input=json.dumps(programs), capture_output=True, text=True,
                          check=True)
    tokens = json.loads(done.stdout)
    return lambda program: tokens[program]


def _commit(mirror: str) -> str:
    return subprocess.run(["git", "--git-dir", mirror, "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()


def _show(mirror: str, commit: str, path: str) -> bytes:
    return subprocess.run(["git", "--git-dir", mirror, "show", f"{commit}:{path}"], check=True,
                          capture_output=True).stdout


def _versions(python: str) -> str:
    return subprocess.run([python, "-c", "import sys, sympy, numpy; print(f'CPython {sys.version.split()[0]}, "
                                         "sympy {sympy.__version__}, numpy {numpy.__version__}')"],
                          check=True, capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="an interpreter with sympy, numpy and tqdm")
    parser.add_argument("--finqa-mirror", default=os.environ.get("FINQA_MIRROR", "/work/.mirror/czyssrs+FinQA/repo"),
                        help="git directory of czyssrs/FinQA (default $FINQA_MIRROR)")
    parser.add_argument("--convfinqa-mirror",
                        default=os.environ.get("CONVFINQA_MIRROR", "/work/.mirror/czyssrs+ConvFinQA/repo"),
                        help="git directory of czyssrs/ConvFinQA (default $CONVFINQA_MIRROR)")
    args = parser.parse_args()
    for benchmark, record, mirror in (("finqa", _finqa, args.finqa_mirror),
                                      ("convfinqa", _convfinqa, args.convfinqa_mirror)):
        with tempfile.TemporaryDirectory() as work:
            recorded = record(args.python, mirror, Path(work))
        target = ROOT / "tests" / benchmark / "data" / "official_figures.json"
        target.parent.mkdir(exist_ok=True)
        target.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {target}")


if __name__ == "__main__":
    main()
