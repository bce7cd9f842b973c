"""Speed of the eval()-based peer protocols, side by side with the peers' own `get_acc`.

Both sides decide the same (prediction, gold) pairs: every `stored` line of
tests/data/vectors/peers/<peer>.jsonl.gz (the peers' own stored extracted answers). finscore decides
them in process with `finscore.protocols.<module>.get_acc`; the peer's `get_acc` runs in a child
process from `utils/evaluation_utils.py` read at run time out of a local mirror (`git show`, never
copied into this repository), because the peer calls `eval()` on the answers. The child runs with no
network (`unshare -rn` when available), a 4 GiB address space, no file writes (RLIMIT_FSIZE 0), a CPU
limit, and a temporary directory as cwd; the stored answers were checked by the vector generator
(none names anything that could act), and this script also skips any answer naming `__`, `import`,
`open`, `exec`, `eval`, `compile`, `os`, `sys`, `getattr` or `globals` (none does). Modules the peers
import only for their LLM clients (openai, loguru, utils.openai_utils, utils.llm) are inert stand-ins.

    python benchmarks/protocols_speed.py --mirror financemath=/path/FinanceMath.git \
        --mirror financereasoning=/path/FinanceReasoning.git [--rounds 5]

Prints, per peer: pairs, agreement of the two sides' accs, CPU seconds (median of the rounds) of
each, and the ratio. A benchmark, not a test: nothing here asserts a time.
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
#: peer -> (the file inside its repository, the finscore module whose get_acc reproduces it)
SOURCES = {
    "financemath": ("utils/evaluation_utils.py", "finscore.protocols.financemath"),
    "docmath": ("utils/evaluation_utils.py", "finscore.protocols.financemath"),
    "financereasoning": ("utils/evaluation_utils.py", "finscore.protocols.financereasoning"),
    "finmmr": ("evaluate/utils/evaluation_utils.py", "finscore.protocols.financereasoning"),
}
REFUSED_WORDS = ("__", "import", "open", "exec", "eval", "compile", "os", "sys", "getattr", "globals")

#: The child: stand-ins for the LLM-client imports, the peer's module, its get_acc over the pairs.
CHILD = r'''
import json, resource, sys, time, types
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
resource.setrlimit(resource.RLIMIT_CPU, (600, 600))
for name in ("openai", "loguru", "utils.openai_utils", "utils.llm", "aiolimiter"):
    stub = types.ModuleType(name)
    stub.__dict__.update(AsyncOpenAI=object, OpenAIError=Exception, LLM=type("LLM", (), {}),
                         logger=type("Logger", (), {"warning": lambda *a, **k: None})())
    sys.modules[name] = stub
sys.path.insert(0, ".")
import builtins
builtins.print = lambda *a, **k: None  # the peer prints on odd types; keep the timing about scoring
from utils.evaluation_utils import get_acc
pairs = json.load(sys.stdin)
rounds = int(sys.argv[1])
times, accs = [], None
for _ in range(rounds):
    start = time.process_time()
    accs = [get_acc(pred, gt) for pred, gt in pairs]
    times.append(time.process_time() - start)
sys.stdout.write(json.dumps({"cpu": times, "accs": accs}))
'''


def _value(tagged: Any) -> Any:
    if isinstance(tagged, dict) and "int" in tagged:
        return int(tagged["int"])
    if isinstance(tagged, dict) and "float" in tagged:
        return float.fromhex(tagged["float"]) if tagged["float"] not in ("nan", "inf", "-inf") else float(tagged["float"])
    return tagged


def stored_pairs(peer: str) -> list[tuple[Any, Any]]:
    """The stored (extracted answer, gold) pairs of a peer's vector file that this script lets the peer evaluate."""
    pairs = []
    with gzip.open(PEERS / f"{peer}.jsonl.gz", "rt", encoding="utf-8") as stream:
        for text in stream:
            line = json.loads(text)
            if line["kind"] != "stored" or not isinstance(line["pred"], str):
                continue
            if any(word in line["pred"] for word in REFUSED_WORDS):
                continue
            pairs.append((line["pred"], _value(line["gt"])))
    return pairs


def peer_run(peer: str, mirror: Path, pairs: list[tuple[Any, Any]], rounds: int) -> dict[str, Any]:
    """The peer's own get_acc in a confined child process (see the module docstring)."""
    path, _ = SOURCES[peer]
    source = subprocess.run(["git", "-C", str(mirror), "show", f"HEAD:{path}"], check=True,
                            capture_output=True, text=True).stdout
    workdir = Path(tempfile.mkdtemp(prefix="finscore-peer-"))
    try:
        (workdir / "utils").mkdir()
        (workdir / "utils" / "__init__.py").write_text("")
        (workdir / "utils" / "evaluation_utils.py").write_text(source)
        command = [sys.executable, "-c", CHILD, str(rounds)]
        if shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"]).returncode == 0:
            command = ["unshare", "-rn", *command]
        done = subprocess.run(command, cwd=workdir, input=json.dumps(pairs), capture_output=True, text=True,
                              timeout=1800, env={"PATH": os.environ.get("PATH", ""), "PYTHONDONTWRITEBYTECODE": "1"})
        if done.returncode != 0:
            raise SystemExit(f"{peer}: the peer's child process failed:\n{done.stderr[-2000:]}")
        result: dict[str, Any] = json.loads(done.stdout)
        return result
    finally:
        shutil.rmtree(workdir)


def finscore_run(peer: str, pairs: list[tuple[Any, Any]], rounds: int) -> dict[str, Any]:
    """finscore's get_acc over the same pairs, in process."""
    import importlib

    get_acc = importlib.import_module(SOURCES[peer][1]).get_acc
    times, accs = [], []
    for _ in range(rounds):
        start = time.process_time()
        accs = [get_acc(pred, gt)[0] for pred, gt in pairs]
        times.append(time.process_time() - start)
    return {"cpu": times, "accs": accs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", action="append", default=[], metavar="PEER=PATH",
                        help="a git mirror of the peer's repository (yale-nlp/FinanceMath, "
                             "Staudinger0325/FinanceReasoning, addictedLL/FinMMR), once per peer")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    mirrors = dict(item.split("=", 1) for item in args.mirror)
    commit = subprocess.run(["git", "-C", str(REPOSITORY), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print(f"finscore at {commit}, CPython {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f}")
    for peer, mirror in mirrors.items():
        pairs = stored_pairs(peer)
        if not pairs:
            print(f"{peer}: no stored answers in its vector file (nothing to time)")
            continue
        ours = finscore_run(peer, pairs, args.rounds)
        theirs = peer_run(peer, Path(mirror), pairs, args.rounds)
        agree = sum(a == b for a, b in zip(ours["accs"], theirs["accs"]))
        peer_cpu, our_cpu = statistics.median(theirs["cpu"]), statistics.median(ours["cpu"])
        print(f"{peer}: {len(pairs)} stored pairs, accs agree on {agree}; peer get_acc {peer_cpu:.4f} s CPU, "
              f"finscore {our_cpu:.4f} s CPU, ratio {peer_cpu / our_cpu:.1f}x")


if __name__ == "__main__":
    main()
