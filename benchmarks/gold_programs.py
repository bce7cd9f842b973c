"""Benchmark: programs per second for every FinQA gold program, finscore's batch API vs official.

Every row of ../shared/vectors/gold.jsonl.gz whose table is available (8,090 of
8,281; the rows recorded with `invalid` null lack theirs) is executed in process,
imports and file reading excluded:
- finscore: one `finscore.execute_batch` call over all of them, the batch API
  (every program's official (invalid, result) pair in its columns), and, for
  comparison, one `finscore.execute_many` call, which also builds every program's
  full Execution (the core is loaded once beforehand, outside the timing);
- official: evaluate.py's `eval_program` called once per program, as the
  official evaluator does.
Both must give the same (invalid, result) for every program, or the benchmark stops.

Run it from a virtualenv that has finscore installed plus numpy, tqdm and sympy 1.14
(see benchmarks/README.md): python benchmarks/gold_programs.py --finqa-mirror GIT_DIR [--runs 7]
(or FINQA_MIRROR=GIT_DIR).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from typing import Any

from official_evaluator import (
    FINQA_DATA,
    SHARED,
    Timings,
    add_mirror_option,
    ensure_no_fma,
    extracted,
    load_module,
    machine,
    mirror_or_exit,
    same_value,
)


def _programs() -> list[tuple[list[str], Any]]:
    tables: dict[str, Any] = {}
    for split in ("train", "dev", "test"):
        with open(FINQA_DATA / f"finqa_{split}.json", encoding="utf-8") as handle:
            tables.update((example["id"], example["table"]) for example in json.load(handle))
    pairs = []
    with gzip.open(SHARED / "vectors" / "gold.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            if row["invalid"] is None:
                continue  # recorded without its table: the table is not available
            if "table" in row:
                pairs.append((row["program"], row["table"]))
            elif row.get("table_ref") is None:
                pairs.append((row["program"], []))
            elif row["table_ref"] in tables:
                pairs.append((row["program"], tables[row["table_ref"]]))
    return pairs


def main() -> None:
    ensure_no_fma()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    add_mirror_option(parser)
    args = parser.parse_args()
    mirror = mirror_or_exit(args.finqa_mirror)
    import finscore

    pairs = _programs()
    print(f"machine: {machine()}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M %Z')}")
    with extracted(mirror) as evaluate:
        module = load_module(evaluate)
        official = [module.eval_program(program, table) for program, table in pairs]
        batch = finscore.execute_batch(pairs)
        full = finscore.execute_many(pairs)
        mismatches = sum(1 for (flag, value), invalid, result, e in zip(official, batch.invalid, batch.results, full)
                         if (flag, e.invalid) != (invalid, invalid)
                         or (not flag and not (same_value(value, result) and same_value(value, e.result))))
        print(f"{len(pairs)} gold programs with their tables; (invalid, result) mismatches: {mismatches}")
        if mismatches:
            sys.exit("the executors disagree; timing them would be meaningless")
        official_times, batch_times, full_times = Timings(), Timings(), Timings()
        for _ in range(args.runs):  # interleaved, so that load on a shared machine hits both alike
            official_times.measure(lambda: [module.eval_program(p, t) for p, t in pairs])
            batch_times.measure(lambda: finscore.execute_batch(pairs))
        for _ in range(args.runs):  # for comparison only: what building every Execution costs
            full_times.measure(lambda: finscore.execute_many(pairs))
    official_rate = len(pairs) / official_times.median()
    print(f"official eval_program, one call per program: {official_times.summary()}; "
          f"{official_rate:,.0f} programs per CPU second")
    for name, times, aim in (("execute_batch (the batch API)", batch_times, " (aim: 3x)"),
                             ("execute_many (full Executions, for comparison)", full_times, "")):
        rate = len(pairs) / times.median()
        wall = official_times.median("wall") / times.median("wall")
        print(f"finscore {name}: {times.summary()}; {rate:,.0f} programs per CPU second; "
              f"{rate / official_rate:.2f}x the official throughput by CPU time, {wall:.2f}x by wall time{aim}")


if __name__ == "__main__":
    main()
