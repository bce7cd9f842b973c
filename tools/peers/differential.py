"""Differential check: finscore's eval()-based protocols against the peers' own `get_acc` on generated answers.

Run by hand from local mirrors (nothing of them is copied here):

    python tools/peers/differential.py financemath=/path/FinanceMath.git \
        financereasoning=/path/FinanceReasoning.git [--cases 20000] [--seed 11]

Generates answer-like strings (numbers with currency, units, `%`, `=`/`≈`, ` or `, `10^k`, case
changes, two numbers glued together) with golds, decides them with finscore, and with the peer's own
code in the confined child process of benchmarks/protocols_speed.py (no network, no file writes,
bounded memory and CPU: the peer `eval()`s the generated text). Prints the mismatches (finscore's
undecided answers are counted, not compared). Exits 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY / "python"))
sys.path.insert(0, str(REPOSITORY / "benchmarks"))

import protocols_speed  # noqa: E402

from finscore.protocols.arith import PeerExecutesCode, PeerRaised  # noqa: E402

NUMBERS = ["5", "-5", "0.5", "12.34", "1,234", "1,234.5", "12,34", "007", "0", "-0.0", "1e3", "2.5e-2", "100",
           "0.001", "0.0004", "33.3", "1_000", ".5", "5.", "3/4", "2**3", "(5)", "-(3)", "10^3", "1.5 x 10^2",
           "2 × 3"]
BEFORE = ["", "", "", "$", "€", "USD ", "US$", "approximately ", "≈", "x = ", "The answer is ", "-", "+", "(",
          "about ", "`"]
AFTER = ["", "", "", "%", " %", " million", "million", " billion", "M", " dollars", ".", "..", ")", " or 6", "°",
         "`", " USD", "k", "\n", " "]
GOLDS = [0.0, 1.0, 5.0, -5.0, 0.5, 1234.0, 0.05, 50.0, 12.34, 1000.0, 0.001, 8.0, 0.75, 150.0, 6.0]


def generated(count: int, seed: int) -> list[tuple[str, Any]]:
    rng = random.Random(seed)
    cases: list[tuple[str, Any]] = []
    for _ in range(count):
        text = rng.choice(BEFORE) + rng.choice(NUMBERS) + rng.choice(AFTER)
        if rng.random() < 0.1:
            text = text.upper()
        if rng.random() < 0.1:
            text += rng.choice(BEFORE) + rng.choice(NUMBERS)
        gold: Any = rng.choice(GOLDS)
        if rng.random() < 0.3:
            gold = int(gold)
        cases.append((text, gold))
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mirrors", nargs="+", metavar="PEER=PATH")
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    cases = generated(args.cases, args.seed)
    failed = 0
    for peer, mirror in (item.split("=", 1) for item in args.mirrors):
        get_acc = importlib.import_module(protocols_speed.SOURCES[peer][1]).get_acc
        ours: list[Any] = []
        for text, gold in cases:
            try:
                ours.append(get_acc(text, gold)[0])
            except PeerExecutesCode:
                ours.append(None)
            except PeerRaised as raised:
                ours.append(f"raises {raised.kind}")
        theirs = protocols_speed.peer_run(peer, Path(mirror), cases, 1)["accs"]
        differing = [(case, mine, peer_acc) for case, mine, peer_acc in zip(cases, ours, theirs)
                     if mine is not None and mine != peer_acc]
        failed += len(differing)
        print(f"{peer}: {len(cases)} answers, {ours.count(None)} undecided, {len(differing)} mismatches")
        for case, mine, peer_acc in differing[:20]:
            print(f"  {case!r}: finscore {mine}, peer {peer_acc}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
