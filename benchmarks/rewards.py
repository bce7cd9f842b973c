"""Benchmark: rewards per second per core, and Ray's scaling on one machine.

Rows are realistic GRPO rollouts: every FinQA test gold (tests/data) with its table,
eight completions per question (the gold program as text, and seven plausible model
errors: an operand swapped, an operand dropped, a wrong op, a literal changed, a
row name misspelled, a reference out of range, free text), so a batch has the shape
a trainer hands over. Measured:
- one process: `score_arrow` over a batch of 8,192 rows (one training step's
  rollouts) and over 100,000 rows; CPU time per row, so a busy machine shows less;
  a fixed reference workload timed before and after each run tells the machine's
  speed then (a machine shared with other tenants runs everything about half as fast
  while they are busy), and each figure is also given over the runs at full speed;
- verl's two calling conventions over 2,048 of those rows: `compute_score` once a row
  (the naive reward manager) against `compute_score_batch` once (the batch manager);
- Ray: 1 worker vs 2 workers over 1,000,000 rows read from Parquet (the scaling
  efficiency), and the per-batch overhead Ray adds (tiny batches vs the same rows
  scored in process).

Run: python benchmarks/rewards.py [--rows 1000000] [--runs 9] [--skip-ray]
(from a virtualenv with finscore[ray] installed). Figures go into benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from itertools import cycle, islice
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from finscore.rewards import RewardConfig, score_arrow

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "finqa" / "finqa_test.json.gz"
GROUP = 8


def _variants(program: str) -> list[str]:
    """The gold program and seven wrong ones of the kinds models write: a number changed, the
    operands of the first step swapped, a wrong op, the last step dropped, a step added, a
    reference to a step that does not exist, and prose instead of a program."""
    steps = program.split("), ")
    first_op, _, first_args = steps[0].partition("(")
    parts = first_args.rstrip(")").split(", ")
    swapped = f"{first_op}({', '.join(reversed(parts))})" if len(parts) == 2 else steps[0]
    rest = [s if s.endswith(")") else s + ")" for s in steps[1:]]
    ops = ("add", "subtract", "multiply", "divide")
    wrong_op = ops[(ops.index(first_op) + 1) % 4] if first_op in ops else "add"
    return [
        program,
        program.replace("1", "2", 1) if "1" in program else program.replace("0", "9", 1),
        ", ".join([swapped if swapped.endswith(")") else swapped + ")", *rest]),
        program.replace(first_op + "(", wrong_op + "(", 1),
        ", ".join(s if s.endswith(")") else s + ")" for s in steps[:-1]) if len(steps) > 1 else program,
        f"{program}, divide(#{len(steps) - 1}, const_100)",
        f"{program}, add(#{len(steps) + 5}, 1)",
        "The answer is about 14.1 percent of the total.",
    ]


def _table(completions: list[str], golds: list[str], rows: int) -> pa.Table:
    """`rows` rows cycling through the rollouts; from the second pass on each gold JSON carries the
    pass number (a key the readers ignore), so no row repeats an earlier pass's (completion, gold)
    and a memo of repeated rows gains nothing beyond the repeats within a group."""
    pairs = []
    for number, (completion, gold) in enumerate(islice(cycle(zip(completions, golds)), rows)):
        rollout = number // len(completions)
        pairs.append((completion, gold if rollout == 0 else f'{gold[:-1]}, "pass": {rollout}}}'))
    return pa.table({"completion": [c for c, _ in pairs], "gold": [g for _, g in pairs],
                     "data_source": ["finqa"] * rows})


def rollouts(rows: int) -> pa.Table:
    with gzip.open(DATA, "rt", encoding="utf-8") as handle:
        examples = json.load(handle)
    completions, golds = [], []
    for example in examples:
        gold = json.dumps({"exe_ans": example["qa"]["exe_ans"], "table": example["table"],
                           "program": example["qa"]["program"]})
        for text in _variants(example["qa"]["program"])[:GROUP]:
            completions.append(text)
            golds.append(gold)
    return _table(completions, golds, rows)


def answer_rollouts(rows: int) -> pa.Table:
    """Free-text rollouts: every FinQA test question with GROUP completions of about 170 characters
    (a two-line working and an answer line, right or wrong in the ways of
    tools/answers/make_examples.py, one seed per completion), each with the question's gold JSON."""
    import hashlib
    import importlib.util
    import random

    spec = importlib.util.spec_from_file_location("make_examples", DATA.parents[3] / "tools/answers/make_examples.py")
    assert spec is not None and spec.loader is not None
    examples = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(examples)
    with gzip.open(DATA, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    completions, golds = [], []
    for example in data:
        qa = example["qa"]
        gold = json.dumps({key: qa.get(key, "") for key in ("exe_ans", "program", "question", "answer")})
        points = bool(examples.LAST_TIMES_100.search(qa["program"]))
        percentage = points or "percent" in qa["question"].lower() or str(qa.get("answer", "")).endswith("%")
        for copy in range(GROUP):
            rng = random.Random(hashlib.sha256(f"{example['id']}#{copy}".encode()).digest())
            _, text = examples.completion_for(qa["exe_ans"], percentage, points,
                                              examples.ARGUMENT.findall(qa["program"]), qa["question"], rng,
                                              " million")
            completions.append(text)
            golds.append(gold)
    return _table(completions, golds, rows)


#: A fixed workload made of what a reward row's work is made of (JSON decoding, text, dicts,
#: floats), timed before and after each timed run: on a machine shared with other tenants the
#: same code runs up to twice as slow when they are busy, and this tells when that was so.
_REFERENCE_GOLD = json.dumps({"exe_ans": 14.1, "program": "subtract(5, 3), divide(#0, 3)",
                              "table": [[f"item {i}", f"${i},{i:03d}.5", f"({i}.25)"] for i in range(10)]})
#: A run counts as one at the machine's full speed when the reference workload, before and after
#: it, took at most this much longer than its fastest time in the whole benchmark.
FULL_SPEED_SLACK = 1.10


def reference_seconds(repeats: int = 400) -> float:
    """CPU seconds of the fixed reference workload (about 5.5 ms on the machine of the figures)."""
    start = time.process_time()
    seen: dict[str, float] = {}
    for number in range(repeats):
        gold = json.loads(_REFERENCE_GOLD)
        for name, money, parenthesised in gold["table"]:
            key = f"{name}#{number % 50}"
            value = float(money.strip("$").replace(",", "")) - float(parenthesised.strip("()"))
            seen[key] = seen.get(key, 0.0) + value
        json.dumps({"value": gold["exe_ans"], "count": len(seen)}, sort_keys=True)
    return time.process_time() - start


@dataclass
class Figure:
    """One in-process figure's timed runs: CPU and wall seconds, and the reference workload's
    slower time around each run (how fast the machine was then)."""

    rows: int
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    reference: list[float] = field(default_factory=list)
    passes: str = ""

    def per_cpu(self) -> float:
        return self.rows / statistics.median(self.cpu)

    def per_wall(self) -> float:
        return self.rows / statistics.median(self.wall)

    def at_full_speed(self, fastest_reference: float) -> list[float]:
        """CPU seconds of the runs during which the machine ran at its full speed."""
        return [cpu for cpu, ref in zip(self.cpu, self.reference) if ref <= FULL_SPEED_SLACK * fastest_reference]


def cpu_rate(table: pa.Table, runs: int, config: RewardConfig | None = None) -> Figure:
    """`runs` timed runs of score_arrow over `table` (CPU: the process's time), the reference
    workload timed around each, and the cyclic collector's passes in the last run (counted, so
    unlike the times not moved by load)."""
    score_arrow(table.slice(0, 64), config)  # the core loaded, outside the timing
    figure = Figure(table.num_rows)
    passes = [0, 0]  # all, full

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes[0] += 1
            passes[1] += info["generation"] == 2

    for _ in range(runs):
        gc.collect()  # each run starts from a collected heap, so none pays for the garbage of another
        before = reference_seconds()
        passes[:] = [0, 0]
        gc.callbacks.append(count)
        c, w = time.process_time(), time.perf_counter()
        score_arrow(table, config)
        figure.cpu.append(time.process_time() - c)
        figure.wall.append(time.perf_counter() - w)
        gc.callbacks.remove(count)
        figure.reference.append(max(before, reference_seconds()))
    figure.passes = f"{passes[0]} collector passes, {passes[1]} full"
    return figure


def verl_rates(table: pa.Table, runs: int) -> tuple[float, float]:
    """Rows per CPU second of verl's two calling conventions over the same rows: `compute_score`
    once a row (verl's naive reward manager) and `compute_score_batch` once (its batch manager);
    medians of `runs`."""
    from finscore.rewards.verl import compute_score, compute_score_batch

    completions, golds = table.column("completion").to_pylist(), table.column("gold").to_pylist()
    sources = ["finqa"] * len(completions)
    compute_score("finqa", completions[0], golds[0])  # the core loaded, outside the timing
    one, batch = [], []
    for _ in range(runs):
        c = time.process_time()
        for completion, gold in zip(completions, golds):
            compute_score("finqa", completion, gold)
        one.append(time.process_time() - c)
        c = time.process_time()
        compute_score_batch(data_sources=sources, solution_strs=completions, ground_truths=golds)
        batch.append(time.process_time() - c)
    return len(completions) / statistics.median(one), len(completions) / statistics.median(batch)


def ray_runs(table: pa.Table, folder: Path) -> dict[str, float]:
    import ray

    from finscore.rewards.adapters.ray_files import score_parquet_on_ray

    source = folder / "rollouts.parquet"
    pq.write_table(table, source, row_group_size=50_000)
    figures = {}
    for workers in (1, 2):
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        try:
            start = time.perf_counter()
            score_parquet_on_ray(source, folder / f"out{workers}.parquet", RewardConfig(), workers=workers,
                                 address=None, batch_rows=8192)
            figures[f"workers_{workers}_rows_per_s"] = table.num_rows / (time.perf_counter() - start)
            if workers == 1:
                small = table.slice(0, 4096)
                pq.write_table(small, folder / "small.parquet", row_group_size=4096)
                start = time.perf_counter()
                score_parquet_on_ray(folder / "small.parquet", folder / "small_out.parquet", RewardConfig(),
                                     workers=1, address=None, batch_rows=64)
                with_ray = time.perf_counter() - start
                start = time.perf_counter()
                for offset in range(0, 4096, 64):
                    score_arrow(small.slice(offset, 64))
                figures["ray_overhead_ms_per_batch"] = 1000 * (with_ray - (time.perf_counter() - start)) / 64
        finally:
            ray.shutdown()
    figures["scaling_efficiency"] = figures["workers_2_rows_per_s"] / (2 * figures["workers_1_rows_per_s"])
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows for the Ray runs (default 1,000,000)")
    parser.add_argument("--runs", type=int, default=9, help="timed runs per in-process figure (default 9)")
    parser.add_argument("--skip-ray", action="store_true", help="in-process figures only")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    step = rollouts(8192)
    reasons = step.column("completion").to_pylist()
    print(f"rollouts: {len(reasons):,} rows of {GROUP} completions per FinQA test question")
    answers = RewardConfig(input="answer")
    fastest_reference = min(reference_seconds() for _ in range(5))
    figures = {}
    for label, table, config in (("programs, one training step, 8,192 rows", step, None),
                                 ("programs, 100,000 rows", rollouts(100_000), None),
                                 ("answers, one training step, 8,192 rows", answer_rollouts(8192), answers),
                                 ("answers, 100,000 rows", answer_rollouts(100_000), answers)):
        figures[label] = figure = cpu_rate(table, args.runs, config)
        fastest_reference = min(fastest_reference, *figure.reference)
    print(f"reference workload: fastest {1000 * fastest_reference:.2f} ms CPU; a run is at full speed when the "
          f"reference took at most {FULL_SPEED_SLACK:.2f} times that before and after it")
    for label, figure in figures.items():
        full = figure.at_full_speed(fastest_reference)
        at_full = (f"{figure.rows / statistics.median(full):,.0f} (median of {len(full)} of {len(figure.cpu)} runs)"
                   if full else f"no run (of {len(figure.cpu)})")
        runs = " ".join(f"{figure.rows / cpu / 1000:.0f}k@{fastest_reference / ref:.2f}"
                        for cpu, ref in zip(figure.cpu, figure.reference))
        print(f"{label}: {figure.per_cpu():,.0f} rows per CPU second, median of all runs ({figure.per_wall():,.0f} "
              f"per wall second; {figure.passes})\n  at the machine's full speed: {at_full}; each run's rows per CPU "
              f"second @ the machine's speed then: {runs}")
    per_row, per_batch = verl_rates(step.slice(0, 2048), args.runs)
    print(f"programs, verl, 2,048 rows: compute_score once a row {per_row:,.0f} rows per CPU second; "
          f"compute_score_batch {per_batch:,.0f}")
    scored = score_arrow(step)
    counts: dict[str, int] = {}
    for reason in scored.column("reason").to_pylist():
        counts[reason] = counts.get(reason, 0) + 1
    print("reasons in one step:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])))
    if not args.skip_ray:
        with tempfile.TemporaryDirectory() as scratch:
            for name, value in ray_runs(rollouts(args.rows), Path(scratch)).items():
                print(f"ray {name}: {value:,.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
