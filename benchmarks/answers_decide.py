"""Speed of `finscore.answers.decide_batch`, and the worst case per byte on hostile completions.

    PYTHONPATH=python python benchmarks/answers_decide.py [--repeat 5]

Realistic completions: one per FinQA test gold (1,147), written by the template of
tools/answers/make_examples.py (a two-line working, then an answer line; mean length
printed), decided under finqa-answer/1, format answer-line. Times are CPU seconds of
this process (time.process_time: one core), best of --repeat; a fixed pure-Python
reference loop is timed beside them so that figures taken on a busy machine can be
compared. Hostile inputs are decided one at a time at growing sizes: a time per byte
that stays flat as the size doubles is linear reading.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

REPOSITORY = Path(__file__).resolve().parents[1]
# --package DIR: import finscore from DIR (e.g. another checkout's python/) to measure two versions
# side by side with the same script and the same completions.
_PACKAGE = sys.argv[sys.argv.index("--package") + 1] if "--package" in sys.argv else str(REPOSITORY / "python")
sys.path.insert(0, _PACKAGE)

from finscore.answers import decide, decide_batch, get_protocol  # noqa: E402
from finscore.answers.decide import reader_for  # noqa: E402
from finscore.answers.gold_files import read_answer_golds  # noqa: E402
from finscore.answers.in_core import CORE_FORMATS, decide_in_core  # noqa: E402


def _tool(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, REPOSITORY / "tools" / "answers" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference_loop() -> float:
    """CPU seconds of a fixed pure-Python workload (a yardstick for the machine's state)."""
    start = time.process_time()
    total = 0
    for i in range(2_000_000):
        total += i & 7
    return time.process_time() - start


def realistic(copy: int = 0) -> tuple[list[str], list[Any]]:
    """One completion per FinQA test gold; copy k > 0 draws each template choice with another seed."""
    examples = _tool("make_examples")
    protocol = get_protocol("finqa-answer/1")
    data = json.loads(gzip.decompress((REPOSITORY / "tests/data/finqa/finqa_test.json.gz").read_bytes()))
    golds = read_answer_golds(data, protocol, reader_for(protocol)).by_id()
    completions, chosen = [], []
    for example in data:
        qa = example["qa"]
        points = bool(examples.LAST_TIMES_100.search(qa["program"]))
        percentage = points or "percent" in qa["question"].lower() or str(qa.get("answer", "")).endswith("%")
        rng = random.Random(hashlib.sha256((example["id"] + (f"#{copy}" if copy else "")).encode()).digest())
        _, text = examples.completion_for(qa["exe_ans"], percentage, points,
                                          examples.ARGUMENT.findall(qa["program"]), qa["question"], rng, " million")
        completions.append(text)
        chosen.append(golds[example["id"]].gold)
    return completions, chosen


def best(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


HOSTILE: dict[str, Callable[[int], tuple[str, str]]] = {
    "plain text, no marker": lambda n: ("lorem ipsum " * (n // 12), "answer-line"),
    "newlines only": lambda n: ("\n" * n, "answer-line"),
    "'answer' without colon, repeated": lambda n: ("\nanswer" * (n // 7), "answer-line"),
    "Answer: lines, repeated": lambda n: ("Answer: 1\n" * (n // 10), "answer-line"),
    "digits on the answer line": lambda n: ("Answer: " + "9" * n, "answer-line"),
    "numbers, whole format": lambda n: (" ".join("12" for _ in range(n // 3)), "whole"),
    "nested \\boxed{": lambda n: ("\\boxed{" * (n // 7), "boxed"),
    "braces": lambda n: ("{" * n, "boxed"),
    "JSON nesting": lambda n: ("{" + '"a":[' * (n // 5), "json"),
}


#: The reader alone, its answer-length limit lifted: every number is read (the same one, repeated).
READER_ONLY: dict[str, Callable[[int], str]] = {
    "reader, one number repeated": lambda n: "$1,234.5 million " * (n // 17),
    "reader, words and Q4-style digits": lambda n: "Q4 revenue rose " * (n // 16),
    "reader, grouped digits": lambda n: "1" + ",234" * (n // 4),
}


def unlimited_protocol() -> Any:
    from finscore.answers import protocol_from_data

    data = json.loads(json.dumps(dict(get_protocol("finqa-answer/1").data)))
    data["id"] = "finqa-answer-unlimited"
    data["reading"]["max_answer_chars"] = data["reading"]["max_number_chars"] = 1 << 30
    return protocol_from_data(data)


def unlimited_reader() -> Any:
    from finscore.answers.numbers import NumberReader

    return NumberReader(unlimited_protocol())


def in_core_batch(text: str, fillers: list[str], gold: Any, protocol: Any, answer_format: str) -> Any:
    """decide_batch on the hostile text and 31 ordinary completions: a batch the core takes."""
    return decide_batch([text, *fillers[:31]], [gold] * 32, protocol, answer_format)[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--copies", type=int, default=40, help="copies of the 1,147 completions per batch")
    parser.add_argument("--package", help="import finscore from this folder (default: the repository's python/)")
    parser.add_argument("--speed-only", action="store_true", help="skip the hostile inputs")
    args = parser.parse_args()
    protocol = get_protocol("finqa-answer/1")
    completions, golds = realistic()
    batch_c, batch_g = completions * args.copies, golds * args.copies
    reference = min(reference_loop() for _ in range(3))
    mean = sum(map(len, completions)) / len(completions)
    print(f"finscore from {_PACKAGE}")
    print(f"reference loop (2,000,000 additions): {reference:.3f} CPU s")
    # 1. Every decision new: one batch of the 1,147 distinct completions (no completion, and no
    #    answer under the same gold, repeats), decided --copies times, a new call each time.
    seconds = best(args.repeat, lambda: [decide_batch(completions, golds, protocol, "answer-line")
                                         for _ in range(args.copies)])
    print(f"distinct, {args.copies} calls of {len(completions):,}: {len(completions) * args.copies:,} decisions of "
          f"{mean:.0f}-character completions in {seconds:.3f} CPU s = "
          f"{len(completions) * args.copies / seconds:,.0f} decisions/s/core")
    # 2. GRPO-shaped: each gold with 8 completions drawn by 8 seeds, in one batch (template answers
    #    repeat within a group as a model's right answers do).
    grouped_c: list[str] = []
    grouped_g: list[Any] = []
    drawn = [realistic(copy) for copy in range(8)]
    for i in range(len(completions)):
        for texts, _ in drawn:
            grouped_c.append(texts[i])
            grouped_g.append(golds[i])
    distinct = len(set(zip(grouped_c, map(id, grouped_g))))
    seconds = best(args.repeat, lambda: decide_batch(grouped_c, grouped_g, protocol, "answer-line"))
    print(f"GRPO-shaped, one call of {len(grouped_c):,} (8 seeds per gold, {distinct:,} distinct pairs): "
          f"{seconds:.3f} CPU s = {len(grouped_c) / seconds:,.0f} decisions/s/core")
    # 3. The same 1,147 completions --copies times in one batch (every row repeated).
    seconds = best(args.repeat, lambda: decide_batch(batch_c, batch_g, protocol, "answer-line"))
    print(f"repeated, one call of {len(batch_c):,} ({args.copies} copies): {seconds:.3f} CPU s "
          f"= {len(batch_c) / seconds:,.0f} decisions/s/core")
    if args.speed_only:
        return 0
    print("\n| hostile input | format | 1 MB | 2 MB | 4 MB | 8 MB | reason |")
    print("|---|---|---|---|---|---|---|")
    for name, make in HOSTILE.items():
        cells, reason = [], ""
        for megabytes in (1, 2, 4, 8):
            text, answer_format = make(megabytes << 20)
            spent = best(2, lambda: decide(text, golds[0], protocol, answer_format))
            reason = decide(text, golds[0], protocol, answer_format).reason
            cells.append(f"{spent * 1e9 / len(text):.1f} ns/B")
        print(f"| {name} | {answer_format} | {' | '.join(cells)} | {reason} |")
    reader = unlimited_reader()
    for name, make_text in READER_ONLY.items():
        cells = []
        for megabytes in (1, 2, 4, 8):
            text = make_text(megabytes << 20)
            spent = best(2, lambda: reader.read(text))
            found = reader.read(text)
            cells.append(f"{spent * 1e9 / len(text):.1f} ns/B")
        print(f"| {name} | (no limit) | {' | '.join(cells)} | {getattr(found, 'reason', 'one number')} |")
    # The same through decide_batch, where the core decides ASCII answer-line and whole rows (a
    # completion over 8 MB, or a row the core defers, is decided in Python as above).
    print("\n| hostile input, decide_batch (the core) | format | 1 MB | 2 MB | 4 MB | 8 MB | reason | decided by |")
    print("|---|---|---|---|---|---|---|---|")
    unlimited = unlimited_protocol()
    cases = [(name, make, protocol) for name, make in HOSTILE.items() if make(16)[1] in CORE_FORMATS]
    cases += [(name, lambda n, make_text=make_text: ("Answer: " + make_text(n), "answer-line"), unlimited)
              for name, make_text in READER_ONLY.items()]
    for name, make, chosen in cases:
        cells, reason, by = [], "", ""
        for megabytes in (1, 2, 4, 8):
            text, answer_format = make(megabytes << 20)
            spent = best(2, lambda: in_core_batch(text, completions, golds[0], chosen, answer_format))
            reason = in_core_batch(text, completions, golds[0], chosen, answer_format).reason
            by = "core" if decide_in_core([text], [golds[0]], chosen, answer_format) != [None] else "Python"
            cells.append(f"{spent * 1e9 / len(text):.1f} ns/B")
        print(f"| {name} | {answer_format} | {' | '.join(cells)} | {reason} | {by} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
