"""Speed of the peer protocols, side by side with the peers' own scorers, in one run.

Both sides decide the same inputs, each timed as the median of `--rounds` rounds of CPU time:

- FinanceMath, DocMath-Eval, FinanceReasoning, FinMMR: every `stored` (extracted answer, gold) pair of
  tests/data/vectors/peers/<peer>.jsonl.gz (the peers' own stored answers). finscore decides them with
  `finscore.protocols.decide_batch` (one call into the core for the common answers, the others by the
  module's `get_acc`); the peer with its own `get_acc` over the pairs, one by one, as its evaluation does.
- HELM `fin_qa`: every line of helm.jsonl.gz (completions against FinQA test examples and their
  tables). finscore decides each with `decide_line` (the engine executes, FinQA's program equivalence
  compares); the peer with `program_tokenization` of the stripped completion, `_get_program_accuracy`
  and `_get_execution_accuracy`, as FinQAMetric.evaluate_generation calls them (the table given as
  a list on both sides: HELM's json.loads of it is not timed).
- PIXIU (FinQA, ConvFinQA, TAT-QA share `QA.process_results`): every (pred, gold) line of
  pixiu.jsonl.gz; finscore with `decide_batch("pixiu-finqa", ...)`, the peer with
  `FinQA.process_results(doc, [pred])` per line.

The peer's code is read at run time out of a local mirror (`git show`, never copied into this
repository) and runs in a child process: no network (`unshare -rn` when available), a 4 GiB address
space, no file writes (RLIMIT_FSIZE 0), a CPU limit, and a temporary directory as cwd. The eval()
peers call `eval()` on the answers: the stored answers were checked by the vector generator (none
names anything that could act), and this script also skips any answer naming `__`, `import`,
`open`, `exec`, `eval`, `compile`, `os`, `sys`, `getattr` or `globals` (none does). Modules the peers
import only for their LLM clients, HELM's framework and PIXIU's other tasks (openai, loguru, helm's
metric classes, lm_eval, numpy, sklearn, ...) are inert stand-ins: only the scoring functions run.

    python benchmarks/protocols_speed.py --mirror financemath=/path/FinanceMath.git \
        --mirror financereasoning=/path/FinanceReasoning.git --mirror finmmr=/path/FinMMR.git \
        --mirror helm=/path/helm.git --mirror pixiu=/path/PIXIU.git [--rounds 5]

Prints, per protocol: inputs, distinct inputs (no decision is shared between equal inputs: the figure
is without sharing), how many finscore decided in the core, agreement of the two sides' decisions,
CPU seconds (median of the rounds) of each, and the ratio. A benchmark, not a test: nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY / "python"))

PEERS = REPOSITORY / "tests" / "data" / "vectors" / "peers"
FINQA_TEST = REPOSITORY / "tests" / "data" / "finqa" / "finqa_test.json.gz"
#: eval() peer -> the file inside its repository (its get_acc)
SOURCES = {
    "financemath": "utils/evaluation_utils.py",
    "docmath": "utils/evaluation_utils.py",
    "financereasoning": "utils/evaluation_utils.py",
    "finmmr": "evaluate/utils/evaluation_utils.py",
}
HELM_FILES = ("src/helm/benchmark/metrics/fin_qa_metrics_helper.py", "src/helm/benchmark/metrics/fin_qa_metrics.py")
PIXIU_FILE = "src/tasks/flare.py"
REFUSED_WORDS = ("__", "import", "open", "exec", "eval", "compile", "os", "sys", "getattr", "globals")

#: The child's opening: limits, and inert stand-ins for every module named in STUBS (and its submodules).
CHILD_START = r"""
import importlib.abc, importlib.util, json, resource, sys, time, types
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
resource.setrlimit(resource.RLIMIT_CPU, (1200, 1200))
STUBS = set(sys.argv[2].split(","))

class Stub(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in STUBS or name in STUBS:
            return importlib.util.spec_from_loader(name, self, is_package=True)
        return None
    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__path__ = []
        module.__getattr__ = lambda attribute: type(attribute, (), {"__init__": lambda self, *a, **k: None})
        return module
    def exec_module(self, module):
        pass

sys.meta_path.insert(0, Stub())
sys.path.insert(0, ".")
import builtins
builtins.print = lambda *a, **k: None  # a peer prints on odd inputs; keep the timing about scoring
rounds, repeat = int(sys.argv[1]), int(sys.argv[3])
inputs = json.load(sys.stdin)

def timed(decide):
    times, walls, out = [], [], None
    for _ in range(rounds):
        start, wall = time.process_time(), time.perf_counter()
        for _ in range(repeat):
            out = decide()
        times.append(time.process_time() - start)
        walls.append(time.perf_counter() - wall)
    sys.stdout.write(json.dumps({"cpu": times, "wall": walls, "out": out}))
"""

CHILD_ACC = CHILD_START + r"""
for name in ("openai", "loguru", "utils.openai_utils", "utils.llm", "aiolimiter"):
    stub = types.ModuleType(name)
    stub.__dict__.update(AsyncOpenAI=object, OpenAIError=Exception, LLM=type("LLM", (), {}),
                         logger=type("Logger", (), {"warning": lambda *a, **k: None})())
    sys.modules[name] = stub
from utils.evaluation_utils import get_acc
timed(lambda: [get_acc(pred, gt) for pred, gt in inputs])
"""

CHILD_HELM = CHILD_START + r"""
def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
helper = load("helm.benchmark.metrics.fin_qa_metrics_helper", "fin_qa_metrics_helper.py")
metrics = load("helm.benchmark.metrics.fin_qa_metrics", "fin_qa_metrics.py")

def one(generated, reference, execution, table):
    # FinQAMetric.evaluate_generation's calls, the table already a list
    reference_program = helper.program_tokenization(reference)
    generated_program = helper.program_tokenization(generated.strip())
    try:
        return [metrics._get_program_accuracy(reference_program, generated_program),
                metrics._get_execution_accuracy(execution, generated_program, table)]
    except Exception as error:
        return type(error).__name__

timed(lambda: [one(*line) for line in inputs])
"""

CHILD_PIXIU = CHILD_START + r"""
import os
spec = importlib.util.spec_from_file_location("tasks.flare", "flare.py")
package = types.ModuleType("tasks")
package.__path__ = []
sys.modules["tasks"] = package
flare = importlib.util.module_from_spec(spec)
sys.modules["tasks.flare"] = flare
spec.loader.exec_module(flare)
process = flare.FinQA.process_results

def one(pred, gold):
    try:
        return process(None, {"answer": gold}, [pred])["acc"]
    except AttributeError as error:  # a prediction that is not text: pred.strip() fails
        return type(error).__name__

timed(lambda: [one(pred, gold) for pred, gold in inputs])
"""
ACC_STUBS = "openai"  # the eval() peers' stand-ins are installed by name in CHILD_ACC
HELM_STUBS = "helm"
PIXIU_STUBS = "lm_eval,numpy,seqeval,sklearn,bart_score,evaluate,factscore_package,tasks.utils,tasks.zhutils"


def _value(tagged: Any) -> Any:
    if isinstance(tagged, dict) and "int" in tagged:
        return int(tagged["int"])
    if isinstance(tagged, dict) and "float" in tagged:
        return float.fromhex(tagged["float"]) if tagged["float"] not in ("nan", "inf", "-inf") else float(tagged["float"])
    return tagged


def _lines(name: str) -> list[dict[str, Any]]:
    with gzip.open(PEERS / f"{name}.jsonl.gz", "rt", encoding="utf-8") as stream:
        return [json.loads(text) for text in stream]


def stored_pairs(peer: str) -> list[tuple[Any, Any]]:
    """The stored (extracted answer, gold) pairs of a peer's vector file that this script lets the peer evaluate."""
    pairs = []
    for line in _lines(peer):
        if line["kind"] != "stored" or not isinstance(line["pred"], str):
            continue
        if any(word in line["pred"] for word in REFUSED_WORDS):
            continue
        pairs.append((line["pred"], _value(line["gt"])))
    return pairs


def helm_lines() -> list[tuple[str, str, str, list[Any]]]:
    """Every HELM line as (completion, reference program, reference execution, table)."""
    tables = {example["id"]: example["table"] for example in json.loads(gzip.decompress(FINQA_TEST.read_bytes()))}
    return [(line["generated"], line["ref_program"], line["ref_exe"], tables[line["table_ref"]])
            for line in _lines("helm")]


def pixiu_pairs() -> list[tuple[Any, Any]]:
    """Every PIXIU line's (prediction, gold)."""
    return [(line["pred"], line["gold"]) for line in _lines("pixiu")]


def peer_run(child: str, stubs: str, files: dict[str, str], mirror: Path, inputs: list[Any],
             rounds: int, repeat: int) -> dict[str, Any]:
    """The peer's own code in a confined child process (see the module docstring); `files`: where each
    file of the mirror goes in the child's directory."""
    workdir = Path(tempfile.mkdtemp(prefix="finscore-peer-"))
    try:
        for target, path in files.items():
            source = subprocess.run(["git", "-C", str(mirror), "show", f"HEAD:{path}"], check=True,
                                    capture_output=True, text=True).stdout
            (workdir / target).parent.mkdir(parents=True, exist_ok=True)
            for parent in (workdir / target).parents:
                if parent == workdir:
                    break
                (parent / "__init__.py").touch()
            (workdir / target).write_text(source)
        command = [sys.executable, "-c", child, str(rounds), stubs, str(repeat)]
        if shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"]).returncode == 0:
            command = ["unshare", "-rn", *command]
        done = subprocess.run(command, cwd=workdir, input=json.dumps(inputs), capture_output=True, text=True,
                              timeout=3600, env={"PATH": os.environ.get("PATH", ""), "PYTHONDONTWRITEBYTECODE": "1"})
        if done.returncode != 0:
            raise SystemExit(f"the peer's child process failed:\n{done.stderr[-2000:]}")
        result: dict[str, Any] = json.loads(done.stdout)
        return result
    finally:
        shutil.rmtree(workdir)


#: A round repeats the decisions until about this many have been made, so that a round lasts long
#: enough for the CPU clock (some sandboxes advance a process's CPU clock by scheduler ticks).
DECISIONS_PER_ROUND = 100_000


def repeats(inputs: list[Any]) -> int:
    return max(1, round(DECISIONS_PER_ROUND / max(1, len(inputs))))


def _timed(decide: Any, rounds: int, repeat: int) -> dict[str, Any]:
    times, walls, out = [], [], None
    for _ in range(rounds):
        start, wall = time.process_time(), time.perf_counter()
        for _ in range(repeat):
            out = decide()
        times.append(time.process_time() - start)
        walls.append(time.perf_counter() - wall)
    return {"cpu": times, "wall": walls, "out": out}


def report(name: str, inputs: list[Any], repeat: int, distinct: int, in_core: int | None, agree: int,
           ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    """One protocol's line: per-decision CPU time of each side (median round), the ratio, wall too."""
    decisions = len(inputs) * repeat
    peer_cpu, our_cpu = statistics.median(theirs["cpu"]), statistics.median(ours["cpu"])
    peer_wall, our_wall = statistics.median(theirs["wall"]), statistics.median(ours["wall"])
    core = "" if in_core is None else f", {in_core} decided in the core"
    print(f"{name}: {len(inputs)} inputs ({distinct} distinct{core}) x {repeat} a round, decisions agree on "
          f"{agree}; peer {peer_cpu / decisions * 1e6:.3f} us CPU each, finscore {our_cpu / decisions * 1e6:.3f} us; "
          f"ratio {peer_cpu / our_cpu:.1f}x CPU ({peer_wall / our_wall:.1f}x wall)")


def run_acc(peer: str, mirror: Path, rounds: int) -> None:
    from finscore.protocols import decide_batch

    pairs = stored_pairs(peer)
    if not pairs:
        print(f"{peer}: no stored answers in its vector file (nothing to time)")
        return
    predictions, golds = [p for p, _ in pairs], [g for _, g in pairs]
    decide_batch(peer, predictions[:64], golds[:64])  # the core is loaded once per process, before timing
    repeat = repeats(pairs)
    ours = _timed(lambda: decide_batch(peer, predictions, golds), rounds, repeat)
    theirs = peer_run(CHILD_ACC, ACC_STUBS, {"utils/evaluation_utils.py": SOURCES[peer]}, mirror, pairs, rounds,
                      repeat)
    decided = ours["out"]
    agree = sum(a == b for a, b in zip(decided.acc, theirs["out"]))
    report(peer, pairs, repeat, len(set(pairs)), decided.in_core, agree, ours, theirs)


def run_helm(mirror: Path, rounds: int) -> None:
    from finscore.protocols import decide_batch

    lines = helm_lines()
    completions = [g for g, _, _, _ in lines]
    golds = [{"ref_program": r, "ref_exe": e, "table": t} for _, r, e, t in lines]
    decide_batch("helm-finqa", completions[:8], golds[:8])  # the engine and the comparer load before timing

    def ours() -> list[Any]:
        decided = decide_batch("helm-finqa", completions, golds)
        assert decided.program_accuracy is not None
        return ["ValueError" if acc is None else [program, acc]
                for acc, program in zip(decided.acc, decided.program_accuracy)]

    timed = _timed(ours, rounds, 1)  # a round of HELM's own scorer lasts seconds already
    files = {"fin_qa_metrics_helper.py": HELM_FILES[0], "fin_qa_metrics.py": HELM_FILES[1]}
    theirs = peer_run(CHILD_HELM, HELM_STUBS, files, mirror, lines, rounds, 1)
    agree = sum(a == b for a, b in zip(timed["out"], theirs["out"]))
    distinct = len({(g, r, e, json.dumps(t)) for g, r, e, t in lines})
    report("helm-finqa", lines, 1, distinct, None, agree, timed, theirs)


def run_pixiu(mirror: Path, rounds: int) -> None:
    from finscore.protocols import decide_batch

    pairs = pixiu_pairs()
    predictions, golds = [p for p, _ in pairs], [g for _, g in pairs]
    repeat = repeats(pairs)
    ours = _timed(lambda: decide_batch("pixiu-finqa", predictions, golds), rounds, repeat)
    theirs = peer_run(CHILD_PIXIU, PIXIU_STUBS, {"flare.py": PIXIU_FILE}, mirror, pairs, rounds, repeat)
    agree = sum(a == b or (a is None and b == "AttributeError") for a, b in zip(ours["out"].acc, theirs["out"]))
    report("pixiu (FinQA, ConvFinQA, TAT-QA)", pairs, repeat, len(set(pairs)), None, agree, ours, theirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", action="append", default=[], metavar="PEER=PATH",
                        help="a git mirror of the peer's repository (yale-nlp/FinanceMath, yale-nlp/DocMath-Eval, "
                             "Staudinger0325/FinanceReasoning, addictedLL/FinMMR, stanford-crfm/helm, "
                             "The-FinAI/PIXIU), once per peer: financemath=, docmath=, financereasoning=, "
                             "finmmr=, helm=, pixiu=")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    mirrors = dict(item.split("=", 1) for item in args.mirror)
    commit = subprocess.run(["git", "-C", str(REPOSITORY), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print(f"finscore at {commit}, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, CPython "
          f"{sys.version.split()[0]}, load {os.getloadavg()[0]:.1f}, {args.rounds} rounds")
    for peer, mirror in mirrors.items():
        if peer in SOURCES:
            run_acc(peer, Path(mirror), args.rounds)
        elif peer == "helm":
            run_helm(Path(mirror), args.rounds)
        elif peer == "pixiu":
            run_pixiu(Path(mirror), args.rounds)
        else:
            raise SystemExit(f"no peer named {peer!r}")
    print(f"load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
