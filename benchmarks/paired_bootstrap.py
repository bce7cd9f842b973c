"""10,000 paired cluster-bootstrap resamples over FinQA's 1,147 test questions (issue #33; aim < 0.5 s CPU).

    PYTHONPATH=python python benchmarks/paired_bootstrap.py

The clusters are the real filings of tests/data/finqa/finqa_test.json.gz (finscore's FinQA unit);
system A is the official example predictions' execution outcomes as `finscore finqa` scores them,
system B the same with every 7th question's outcome flipped (a stand-in second system: the time
does not depend on the values). Timed: `bootstrap_draws` on the paired clusters plus the percentile
interval, median of 5 runs of process CPU time. A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import gzip
import json
import statistics
import time
from pathlib import Path

from finscore.finqa.benchmark import units
from finscore.finqa.scoring import score_predictions
from finscore.stats import bootstrap_draws, group, percentile_interval

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    with gzip.open(ROOT / "tests/data/finqa/finqa_test.json.gz", "rt", encoding="utf-8") as file:
        gold = json.load(file)
    with gzip.open(ROOT / "tests/data/finqa/example_predictions.json.gz", "rt", encoding="utf-8") as file:
        predictions = json.load(file)
    report = score_predictions(predictions, gold)
    keys = units(gold)
    a = [1.0 if row.execution_correct else 0.0 for row in report.examples]
    b = [1.0 - value if index % 7 == 0 else value for index, value in enumerate(a)]
    clusters = group(a, [keys[row.id] for row in report.examples], b)
    times = []
    for _ in range(5):
        start = time.process_time()
        interval = percentile_interval(bootstrap_draws(clusters, 20260901, 10_000))
        times.append(time.process_time() - start)
    print(f"{len(a)} questions, {len(clusters.keys)} filings, 10,000 paired resamples: median "
          f"{statistics.median(times):.3f} s CPU (runs {', '.join(f'{t:.3f}' for t in times)}); "
          f"interval of B - A {interval[0]:+.4f} to {interval[1]:+.4f}")


if __name__ == "__main__":
    main()
