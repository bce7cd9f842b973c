"""Record what the official FinQA and ConvFinQA readers make of adversarial literals, as test data.

    python tools/differential/record_literals.py [--out tests/data/recordings/literals]

The official `str_to_num` of both evaluators removes every `,` before anything else,
then tries float(), then (text with `%`) float() without `%` divided by 100, then
(text with `const`, ConvFinQA: `const_`) float() without `const_`, `m1` meaning -1;
table cells first lose `$`, are stripped and cut at the first `(`. This generator
bends literals against each of those steps (a comma in every position of `const_N`,
`const_m1`, numbers, `%`, `inf`; `1,0,0`, `,5`, `co,nst_m1`, whitespace, `$` and `(`
in cells, references with commas) and puts each token in five places: either argument
of a one-step program, the argument of a second step (the first ran), a table cell
read by table_sum, and alone (ConvFinQA's number selection). Each case is run through
the official `eval_program` of czyssrs/FinQA `code/evaluate/evaluate.py` and of
czyssrs/ConvFinQA `code/utils/general_utils.py` (both MIT), read from local git
mirrors ($FINQA_MIRROR, default /work/.mirror/czyssrs+FinQA/repo; $CONVFINQA_MIRROR,
default /work/.mirror/czyssrs+ConvFinQA/repo) into a temporary folder outside the
repository, under CPython 3.11.7 (a virtualenv with numpy, tqdm and sympy 1.14, see
record.py) with `GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA`. It writes
tests/data/recordings/literals/literals-official.jsonl.gz (and the same cases as command
files, literals-official-files.json.gz) and their digests into
tests/data/MANIFEST.json. Nothing here is imported by finscore.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import DATA, NO_FMA, PYTHONS, ROOT, interpreter, write_manifest  # noqa: E402

MIRRORS = {
    "finqa": (Path(os.environ.get("FINQA_MIRROR", "/work/.mirror/czyssrs+FinQA/repo")),
              "code/evaluate/evaluate.py"),
    "convfinqa": (Path(os.environ.get("CONVFINQA_MIRROR", "/work/.mirror/czyssrs+ConvFinQA/repo")),
                  "code/utils/general_utils.py"),
}
OUTPUT_NAME = "literals-official.jsonl.gz"
FILES_NAME = "literals-official-files.json.gz"
GOLD_PROGRAM = "subtract(9999, 9998)"  # the gold program of every example: equal to no case's program

#: The runners' opening: the two official modules (argv 1 and 2) loaded from their files.
LOAD_OFFICIAL = r'''
import contextlib, importlib.util, io, json, os, sys
modules = {}
for name, path in zip(("finqa", "convfinqa"), sys.argv[1:3]):
    spec = importlib.util.spec_from_file_location("official_" + name, path)
    modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modules[name])
'''

#: Runs in the official interpreter: both evaluators' eval_program on each case read from stdin.
RUNNER = LOAD_OFFICIAL + r'''

def answer(result):
    if isinstance(result, float):
        return {"float": result.hex()}
    return {"str": str(result)}

for line in sys.stdin:
    case = json.loads(line)
    out = {"id": case["id"]}
    for name, module in modules.items():
        invalid, result = module.eval_program(list(case["program"]), case["table"])
        out[name] = {"invalid": invalid, "result": answer(result)}
    print(json.dumps(out), flush=True)
'''

#: Literals as the official reader reads them, before commas are put into them.
BASES = (
    "const_5", "const_1", "const_100", "const_1000", "const_m1", "const_0", "5", "12", "1000", "1.5", ".5",
    "5.", "-5", "+5", "5%", "12.5%", "-3%", "inf", "nan", "-inf", "1e3", "1_000", "0.25",
)

#: Tokens with commas (and their neighbours) put by hand where the official steps differ.
SPECIALS = (
    "co,nst_5", "co,nst_m1", "co,nst_m,1", "const_,m1", "const_m,1", "c,o,n,s,t,_,m,1", "c,o,n,s,t,_,5",
    "1,0,0", ",5", "5,", ",", ",,", ",,5,,", "1,,000", "1,234,567", "12,34", ",.5", ".,5", "-,5", ",-5",
    "+,5", "%", ",%", "5,%", "%,5", "5%,", "1,0%", "con,st_5%", "const_5%", "co,nst_5,%", "const", "const_",
    "co,nst_", "co,nst", "const_const_5", "co,nst_co,nst_5", "cconst_5", "cco,nst_5", "xconst_5",
    "const_5x", "const5", "co,nst5", "constant_5", "con_st_5", "cons_5", "co,nxt_5", "const_1,5",
    "const_1,000", "const_1.5", "const_-1", "const_1e3", "const_inf", "const_nan", "const_1_0",
    "const_m1,", ",const_m1", "const_m2", "const_M1", "CONST_5", "Const_5", "const__5", "const_ 5",
    "i,nf", "in,f", "n,an", "infi,nity", "-in,f", "1,e3", "1e,3", "1,_000", "1_,000", "e,5", "x,5", "5,x",
    "1.2.3", "1,2.3,4", "0,0", "-0,0", "00,5", "1,000.5", "1,000.5%", "1,0,0%", "const_100%", "#0", "#,0",
    "#0,", "#0,0", "1 ,000", "1, 000", "co, nst_5", "co,nst_5 ", "\u0665", "\u0665,\u0665", "co,nst_\u0665",
    "const_\u0665", "\uff15",
)

#: Cell texts: the official process_row removes `$`, strips, cuts at the first `(`, strips again.
CELLS = (
    "$co,nst_5", "co,nst_5 ( a )", "$ 1,0,0", "$,5", "( 5 )", "5 (", "$", "1,000 $", "co$nst_5", "$const_m1",
    "12,5%", "$12.5%(b)", " const_5 ", "const_5(", "1,0(0", "(1,000)",
)


def literal_tokens() -> list[str]:
    """Every base literal with one comma in each position, with commas between all its
    characters, and the hand-made specials; each token once, in a fixed order."""
    tokens: list[str] = []
    for base in BASES:
        tokens.append(base)
        tokens.extend(base[:i] + "," + base[i:] for i in range(len(base) + 1))
        tokens.append(",".join(base))
    tokens.extend(SPECIALS)
    return list(dict.fromkeys(tokens))


def cases() -> list[dict[str, Any]]:
    """The programs: each token in five places (see the module's docstring)."""
    made: list[dict[str, Any]] = []

    def case(shape: str, token: str, program: list[str], table: list[list[str]]) -> None:
        made.append({"id": f"literal-{len(made)}", "shape": shape, "token": token, "program": program,
                     "table": table})

    for token in literal_tokens():
        case("second", token, ["add(", "1", token, ")", "EOF"], [])
        case("first", token, ["multiply(", token, "2", ")", "EOF"], [])
        case("later", token, ["add(", "1", "2", ")", "divide(", "#0", token, ")", "EOF"], [])
        case("cell", token, ["table_sum(", "row", "none", ")", "EOF"], [["row", token, "1"]])
        case("alone", token, [token, "EOF"], [])
    for cell in CELLS:
        case("cell", cell, ["table_average(", "row", "none", ")", "EOF"], [["row", "2", cell]])
    return made


#: Runs in the official interpreter: each evaluator's own evaluate_result on whole files (argv: the two
#: modules, then a folder holding finqa_pred.json, finqa_gold.json, convfinqa_pred.json, convfinqa_gold.json).
FILE_RUNNER = LOAD_OFFICIAL + r'''
folder = sys.argv[3]
printed = {}
for name, module in modules.items():
    out = io.StringIO()
    args = [os.path.join(folder, name + "_pred.json"), os.path.join(folder, name + "_gold.json")]
    if name == "convfinqa":
        args += [os.path.join(folder, "all_res.json"), os.path.join(folder, "error.json"), "seq"]
    with contextlib.redirect_stdout(out):
        module.evaluate_result(*args)
    printed[name] = out.getvalue()
print(json.dumps(printed))
'''


def exe_ans(outcome: dict[str, Any]) -> float:
    """The gold answer of a case's example: the official result where it is a finite float (so
    a valid case is correct), else 1.0 (an invalid case is never correct, whatever it held)."""
    result = outcome["result"]
    if outcome["invalid"] == 0 and "float" in result:
        value = float.fromhex(result["float"])
        if value - value == 0.0:
            return value
    return 1.0


def command_files(made: list[dict[str, Any]], outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """Prediction and gold files for `finscore finqa` and `finscore convfinqa` (one example, or
    one one-turn conversation, per case), and the same content in the forms each official
    evaluate_result reads."""
    gold_tokens = ["subtract(", "9999", "9998", ")", "EOF"]
    finqa_gold = [{"id": c["id"], "table": c["table"], "qa": {"question": "?", "program": GOLD_PROGRAM,
                                                               "exe_ans": exe_ans(o["finqa"])}}
                  for c, o in zip(made, outcomes)]
    finqa_pred = [{"id": c["id"], "predicted": c["program"]} for c in made]
    conversations = [f"Single_L/2020/page_{k}.pdf-1" for k in range(len(made))]
    convfinqa_gold = [{"id": conv, "table": c["table"],
                       "annotation": {"dialogue_break": ["?"], "turn_program": [GOLD_PROGRAM],
                                      "exe_ans_list": [exe_ans(o["convfinqa"])]}}
                      for conv, c, o in zip(conversations, made, outcomes)]
    convfinqa_pred = [{"id": f"{conv}#t0", "predicted": c["program"]} for conv, c in zip(conversations, made)]
    official_convfinqa_in = {str(k): [{"id": f"{conv}_0", "pred_prog": c["program"], "ref_prog": gold_tokens}]
                             for k, (conv, c) in enumerate(zip(conversations, made))}
    official_convfinqa_ori = [{"id": f"{conv}_0", "table": c["table"], "annotation": {"exe_ans": exe_ans(o["convfinqa"])}}
                              for conv, c, o in zip(conversations, made, outcomes)]
    return {"finqa": {"predictions": finqa_pred, "gold": finqa_gold},
            "convfinqa": {"predictions": convfinqa_pred, "gold": convfinqa_gold},
            "official_inputs": {"finqa_pred": finqa_pred, "finqa_gold": finqa_gold,
                                "convfinqa_pred": official_convfinqa_in, "convfinqa_gold": official_convfinqa_ori}}


def official_printed(files: dict[str, Any], sources: dict[str, Path], folder: Path) -> dict[str, str]:
    for name, content in files["official_inputs"].items():
        (folder / f"{name}.json").write_text(json.dumps(content), encoding="utf-8")
    done = subprocess.run([interpreter("3.11"), "-I", "-c", FILE_RUNNER, str(sources["finqa"]),
                           str(sources["convfinqa"]), str(folder)], capture_output=True, text=True,
                          env={**os.environ, **NO_FMA}, timeout=3600, check=True)
    printed: dict[str, str] = json.loads(done.stdout)
    return printed


def official_outcomes(cases_: list[dict[str, Any]], sources: dict[str, Path]) -> list[dict[str, Any]]:
    stdin = "".join(json.dumps(c) + "\n" for c in cases_)
    done = subprocess.run([interpreter("3.11"), "-I", "-c", RUNNER, str(sources["finqa"]), str(sources["convfinqa"])],
                          input=stdin, capture_output=True, text=True, env={**os.environ, **NO_FMA}, timeout=3600,
                          check=True)
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    if [o["id"] for o in outcomes] != [c["id"] for c in cases_]:
        raise SystemExit("the official run did not answer every case")
    return outcomes


def git(mirror: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(mirror), *args], capture_output=True, check=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DATA / "recordings" / "literals")
    options = parser.parse_args()
    made = cases()
    commits: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="finqa-official-literals-") as folder:
        sources: dict[str, Path] = {}
        for name, (mirror, path) in MIRRORS.items():
            sources[name] = Path(folder) / f"{name}_{Path(path).name}"
            if ROOT in sources[name].resolve().parents:
                raise SystemExit("the official code must stay outside the repository")
            sources[name].write_bytes(git(mirror, "show", f"HEAD:{path}"))
            commits[name] = git(mirror, "rev-parse", "HEAD").decode().strip()
        outcomes = official_outcomes(made, sources)
        files = command_files(made, outcomes)
        printed = official_printed(files, sources, Path(folder))
    recorded_with = (f"CPython {PYTHONS['3.11']}, sympy 1.14, FinQA {commits['finqa'][:12]} {MIRRORS['finqa'][1]}, "
                     f"ConvFinQA {commits['convfinqa'][:12]} {MIRRORS['convfinqa'][1]}")
    lines = [json.dumps({**c, "finqa": o["finqa"], "convfinqa": o["convfinqa"], "recorded_with": recorded_with},
                        ensure_ascii=True) + "\n" for c, o in zip(made, outcomes)]
    options.out.mkdir(parents=True, exist_ok=True)
    path = options.out / OUTPUT_NAME
    path.write_bytes(gzip.compress("".join(lines).encode("ascii"), compresslevel=9, mtime=0))
    print(f"{path}: {len(lines)} rows")
    del files["official_inputs"]
    files_path = options.out / FILES_NAME
    files_path.write_bytes(gzip.compress(json.dumps({**files, "official_printed": printed, "recorded_with": recorded_with},
                                                    ensure_ascii=True, sort_keys=True).encode("ascii"),
                                         compresslevel=9, mtime=0))
    print(f"{files_path}: {printed}")
    if options.out.resolve() == (DATA / "recordings" / "literals").resolve():
        write_manifest([DATA / "recordings" / "README.md"])  # the folder's README is record.py's
        manifest_path = DATA / "MANIFEST.json"
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        for written in (path, files_path):
            manifest[written.relative_to(DATA).as_posix()] = {
                "source": "tools/differential/record_literals.py",
                "sha256": hashlib.sha256(written.read_bytes()).hexdigest()}
        manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
