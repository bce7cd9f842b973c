"""Build examples/answers/: small gold files cut from tests/data and completions in model styles.

    python tools/answers/make_examples.py           # (re)write examples/answers/
    python tools/answers/make_examples.py --check   # exit 1 if the committed files differ

The completions are NOT model output: they are written by templates from the real
golds, in the styles chat models answer in (a short working, then an answer line
that is right, rounded, in percent, in other units, negated, with several numbers,
or missing), with fixed proportions and a seeded generator, so that anyone can
rebuild them and see exactly what they hold. benchmarks/answers_compare.py and
benchmarks/answers_decide.py read them.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import re
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import write_or_check  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[2]
DATA = REPOSITORY / "tests" / "data"
OUT = REPOSITORY / "examples" / "answers"
ARGUMENT = re.compile(r"(?<![#\w])-?\d+(?:\.\d+)?")
PLAIN_NUMBER = re.compile(r"^\$?-?\d{1,3}(,\d{3})*(\.\d+)?%?$|^\$?-?\d+(\.\d+)?%?$")
LAST_TIMES_100 = re.compile(r"multiply\(\s*(#\d+\s*,\s*const_100|const_100\s*,\s*#\d+)\s*\)\s*$")

#: (style, weight): how often each kind of answer appears.
STYLES = [("right", 40), ("right_prose", 10), ("percent_bare", 8), ("coarse", 8), ("no_answer_line", 7),
          ("sign", 4), ("units", 5), ("several", 6), ("wrong", 12)]


def _working(arguments: list[str], question: str) -> str:
    shown = arguments[:3] or ["the reported figures"]
    return (f"The question asks: {question.strip()[:70]}\n"
            f"From the filing I take {', '.join(shown)} and compute the result.\n")


def _two(value: float) -> str:
    return f"{value:,.2f}"


def completion_for(value: float | str, percentage: bool, points: bool, arguments: list[str], question: str,
                   rng: random.Random, unit: str = "") -> tuple[str, str]:
    """(style, completion) for one gold: a value or yes / no."""
    work = _working(arguments, question)
    if isinstance(value, str):
        other = "no" if value == "yes" else "yes"
        word = value if rng.random() < 0.75 else other
        return ("right" if word == value else "wrong"), work + f"Answer: {word.capitalize()}."
    style = rng.choices([s for s, _ in STYLES], [w for _, w in STYLES])[0]
    as_percent = percentage and not points
    shown = value * 100 if as_percent else value
    right = f"{_two(shown)}%" if percentage else (f"${_two(value)}{unit}" if abs(value) >= 1 else f"{value:.4f}")
    if style == "right":
        text = f"Answer: {right}"
    elif style == "right_prose":
        text = f"Answer: The result is about {right}."
    elif style == "percent_bare":
        text = f"Answer: {_two(shown)}" if percentage else f"Answer: {right}"
    elif style == "coarse":
        text = f"Answer: {shown:,.0f}%" if percentage else f"Answer: {value:,.0f}"
    elif style == "no_answer_line":
        text = f"So the answer is {right}."
    elif style == "sign":
        text = f"Answer: {'-' if value > 0 else ''}{_two(abs(shown))}{'%' if percentage else ''}"
    elif style == "units":
        text = f"Answer: ${value * 1e6:,.0f}" if not percentage else f"Answer: {value:.4f}%"
    elif style == "several":
        text = f"Answer: {right} (from {arguments[0] if arguments else '2019'} to {arguments[-1] if arguments else '2020'})"
    else:
        wrong = float(rng.choice(arguments)) if arguments else value * 1.5 + 3
        text = f"Answer: {_two(wrong)}"
    return style, work + text


def _seeded(source: str) -> random.Random:
    return random.Random(hashlib.sha256(source.encode()).digest())


def _load(path: Path) -> Any:
    return json.loads(gzip.decompress(path.read_bytes()))


def finqa(rows: list[dict[str, Any]], golds: list[dict[str, Any]]) -> None:
    for example in _load(DATA / "finqa" / "finqa_test.json.gz")[:300]:
        qa = example["qa"]
        golds.append({"id": example["id"], "qa": {k: qa.get(k, "") for k in ("question", "program", "exe_ans", "answer")}})
        points = bool(LAST_TIMES_100.search(qa["program"]))
        percentage = points or "percent" in qa["question"].lower() or str(qa.get("answer", "")).endswith("%")
        style, text = completion_for(qa["exe_ans"], percentage, points, ARGUMENT.findall(qa["program"]),
                                     qa["question"], _seeded(example["id"]), " million")
        rows.append({"id": example["id"], "completion": text, "style": style})


def convfinqa(rows: list[dict[str, Any]], golds: list[dict[str, Any]]) -> None:
    for conversation in _load(DATA / "convfinqa" / "convfinqa_dev.json.gz")[:80]:
        notes = conversation["annotation"]
        golds.append({"id": conversation["id"], "annotation": {
            k: notes[k] for k in ("dialogue_break", "turn_program", "exe_ans_list")}})
        for turn, (value, question, program) in enumerate(zip(notes["exe_ans_list"], notes["dialogue_break"],
                                                              notes["turn_program"])):
            name = f"{conversation['id']}#t{turn}"
            points = bool(LAST_TIMES_100.search(program))
            percentage = points or "percent" in question.lower()
            style, text = completion_for(value, percentage, points, ARGUMENT.findall(program), question,
                                         _seeded(name), " million")
            rows.append({"id": name, "completion": text, "style": style})


def tatqa(rows: list[dict[str, Any]], golds: list[dict[str, Any]]) -> None:
    for document in _load(DATA / "tatqa" / "tatqa_dataset_dev.json.gz")[:90]:
        golds.append({"questions": [{k: q[k] for k in ("uid", "question", "answer", "answer_type", "scale", "derivation")}
                                    for q in document["questions"]]})
        for item in document["questions"]:
            answer = item["answer"]
            if isinstance(answer, list) and len(answer) == 1 and isinstance(answer[0], str):
                answer = answer[0]
            if isinstance(answer, str) and PLAIN_NUMBER.match(answer.strip()):
                number = float(answer.strip().lstrip("$").rstrip("%").replace(",", ""))
            elif item["answer_type"] == "arithmetic":
                number = float(answer)
            else:
                continue  # text answers are outside tatqa-answer/1; they stay in the gold file, unanswered
            percent = item["scale"] == "percent" or (isinstance(answer, str) and answer.strip().endswith("%"))
            unit = {"thousand": " thousand", "million": " million", "billion": " billion"}.get(item["scale"], "")
            style, text = completion_for(number, percent, percent,
                                         ARGUMENT.findall(item.get("derivation", "")), item["question"],
                                         _seeded(item["uid"]), unit)
            rows.append({"id": item["uid"], "completion": text, "style": style})


BUILDERS: dict[str, Callable[[list[dict[str, Any]], list[dict[str, Any]]], None]] = {
    "finqa": finqa, "convfinqa": convfinqa, "tatqa": tatqa}


def outputs() -> dict[str, bytes]:
    files = {}
    for name, build in BUILDERS.items():
        rows: list[dict[str, Any]] = []
        golds: list[dict[str, Any]] = []
        build(rows, golds)
        files[f"{name}_gold.json"] = (json.dumps(golds, ensure_ascii=False, indent=1) + "\n").encode()
        files[f"{name}_completions.jsonl"] = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    return write_or_check({OUT / name: data for name, data in outputs().items()}, REPOSITORY, check=args.check)

if __name__ == "__main__":
    sys.exit(main())
