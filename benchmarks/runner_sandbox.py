"""The runner's cost per attempt, with the agent in the OS sandbox and without it (issue #31).

One attempt is `run_attempt` on the kit's `fv-en` case with an agent that answers at once, so
what is measured is the runner's own overhead: a new agent process (with bwrap: the namespaces,
the mounts, the uid change), its start-up, one turn, the end of the attempt (with bwrap: the
sandbox's init killed and its namespace gone). The two sides alternate, after one untimed
attempt each; wall time per attempt, medians and ranges. CPU time is not given: the sandboxed
agent is reaped by bwrap's init, which is killed, so its CPU never reaches this process's
children's count, and the two sides would not be measured alike. A benchmark, not a test:
nothing here asserts a time.

    PYTHONPATH=python python benchmarks/runner_sandbox.py [--runs 30]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from finscore.contracts import KIT_DIRECTORY, load_kit_cases
from finscore.runner import os_sandbox
from finscore.runner.agent import CaseView, Finish, Turn, TurnRecord
from finscore.runner.episode import run_attempt
from finscore.runner.isolation import Isolation
from finscore.runner.limits import Limits

LIMITS = Limits(deadline_seconds=60, max_turns=2, max_tool_calls=1)


def answers_at_once(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    """The cheapest agent: the runner's cost is all there is to measure."""
    return Finish({"kind": "refusal", "reason": "out_of_scope", "text": "benchmark"})


def one(case: dict[str, Any], isolation: Isolation) -> float:
    wall = time.perf_counter()
    line = run_attempt(case, answers_at_once, LIMITS, isolation=isolation).prediction
    wall = time.perf_counter() - wall
    if line["status"] != "completed":
        raise SystemExit(f"the attempt did not complete: {line['status']}: {line['status_detail']}")
    return wall


def summary(values: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(values) * 1000, 1), "min_ms": round(min(values) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="timed attempts per side (default 30)")
    args = parser.parse_args()
    if not 1 <= args.runs <= 1000:
        parser.error("--runs must be between 1 and 1000")
    reason = os_sandbox.unavailable_reason()
    if reason is not None:
        raise SystemExit(f"no OS sandbox on this machine: {reason}")
    case = next(case.raw for case in load_kit_cases() if case.case_id == "fv-en")
    base = Isolation.for_deadline(LIMITS.deadline_seconds, protected_paths=(str(KIT_DIRECTORY),))
    sides = {"sandboxed": Isolation(**{**base.__dict__, "os_sandbox": "required"}),
             "unsandboxed": Isolation(**{**base.__dict__, "os_sandbox": "off"})}
    times: dict[str, list[float]] = {name: [] for name in sides}
    for isolation in sides.values():
        one(case, isolation)  # untimed: imports and caches warm on both sides
    for _ in range(args.runs):
        for name, isolation in sides.items():
            times[name].append(one(case, isolation))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).parent, check=False).stdout.strip()
    walls = {name: statistics.median(side) for name, side in times.items()}
    result = {
        "commit": commit,
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "runs_per_side": args.runs,
        "load_average": [round(value, 2) for value in os.getloadavg()],
        "bwrap": os_sandbox.version(),
        "as_root": os_sandbox.running_as_root(),
        "python": sys.version.split()[0],
        "per_attempt_wall": {name: summary(side) for name, side in times.items()},
        "sandbox_adds_wall_ms": round((walls["sandboxed"] - walls["unsandboxed"]) * 1000, 1),
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
