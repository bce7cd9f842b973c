"""How the shipped completions fare under the usual ad hoc rules and under each finscore protocol.

    PYTHONPATH=python python benchmarks/answers_compare.py

Reads examples/answers/{finqa,convfinqa,tatqa}_{completions.jsonl,gold.json} and prints one
markdown table: the share of golds counted correct (missing predictions count as wrong) and,
in brackets, how many answers each rule could not read. The ad hoc rules, as commonly written:

- string equality: the text after the last 'Answer:' (else the whole completion), stripped of
  spaces and a final '.', equals the gold as Python prints it (repr of exe_ans / the TAT-QA
  answer) or the dataset's own answer text (FinQA qa.answer, the TAT-QA span);
- first number: the first number in the completion (commas dropped; sign kept), equal to the
  gold when both are rounded to 2 places; no percent or scale handling;
- 1% tolerance: the last number in the completion with its % sign stripped (not divided),
  within 1% of the gold (relative); an answer with no number is dropped from the denominator,
  as the scripts that use this rule do (the bracket says how many).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY / "python"))

from finscore.answers import decide_batch, get_protocol  # noqa: E402
from finscore.answers.decide import reader_for  # noqa: E402
from finscore.answers.gold_files import read_answer_golds  # noqa: E402

EXAMPLES = REPOSITORY / "examples" / "answers"
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def final_text(completion: str) -> str:
    at = completion.rfind("Answer:")
    text = completion[at + len("Answer:"):] if at >= 0 else completion
    return text.strip().rstrip(".").strip()


def numbers(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in NUMBER.findall(text) if n.replace(",", "").strip("-")]


def gold_texts(dataset: str, data: Any) -> dict[str, tuple[float | str, list[str]]]:
    """id -> (gold value, texts that count as equal) from the raw gold file."""
    golds: dict[str, tuple[float | str, list[str]]] = {}
    if dataset == "finqa":
        for example in data:
            qa = example["qa"]
            golds[example["id"]] = (qa["exe_ans"], [str(qa["exe_ans"]), str(qa.get("answer", ""))])
    elif dataset == "convfinqa":
        for conversation in data:
            for turn, value in enumerate(conversation["annotation"]["exe_ans_list"]):
                golds[f"{conversation['id']}#t{turn}"] = (value, [str(value)])
    else:
        for document in data:
            for item in document["questions"]:
                answer = item["answer"]
                text = answer[0] if isinstance(answer, list) and len(answer) == 1 else answer
                numbers_in = numbers(str(text).replace("(", "-"))
                if numbers_in:
                    golds[item["uid"]] = (numbers_in[0], [str(text)])
    return golds


def adhoc(dataset: str, data: Any, predictions: dict[str, str], scored: set[str]) -> dict[str, str]:
    golds = gold_texts(dataset, data)
    equal = first = tolerant = dropped = unread = 0
    for name in scored:
        gold, texts = golds[name]
        completion = predictions.get(name)
        if completion is None:
            dropped += 0
            continue
        if final_text(completion) in texts:
            equal += 1
        found = numbers(completion)
        if isinstance(gold, str):
            tolerant += gold.lower() in completion.lower()  # the usual scripts match yes / no as text
            first += gold.lower() in completion.lower()
            continue
        if not found:
            unread += 1
            dropped += 1
            continue
        first += round(found[0], 2) == round(gold, 2)
        last = float(NUMBER.findall(completion.replace("%", ""))[-1].replace(",", ""))
        tolerant += abs(last - gold) <= 0.01 * abs(gold)
    total = len(scored)
    return {"string equality": f"{100 * equal / total:.1f}%",
            "first number": f"{100 * first / total:.1f}%",
            "1% tolerance": f"{100 * tolerant / max(1, total - dropped):.1f}% ({dropped} dropped)"}


def main() -> int:
    print("| completions | golds | string equality | first number | 1% tolerance | finscore protocol | finscore |")
    print("|---|---|---|---|---|---|---|")
    reason_tables = {}
    for dataset in ("finqa", "convfinqa", "tatqa"):
        protocol = get_protocol(f"{dataset}-answer/1")
        data = json.loads((EXAMPLES / f"{dataset}_gold.json").read_text(encoding="utf-8"))
        rows = [json.loads(line) for line in (EXAMPLES / f"{dataset}_completions.jsonl").read_text().splitlines()]
        predictions = {row["id"]: row["completion"] for row in rows}
        entries = [(e, e.gold) for e in read_answer_golds(data, protocol, reader_for(protocol)).entries
                   if e.gold is not None]
        decisions = decide_batch([predictions.get(e.id) for e, _ in entries], [g for _, g in entries], protocol,
                                 "answer-line")
        passed = sum(d.passed for d in decisions)
        cells = adhoc(dataset, data, predictions, {e.id for e, _ in entries})
        print(f"| {dataset}_completions.jsonl | {len(entries)} | {cells['string equality']} | {cells['first number']} "
              f"| {cells['1% tolerance']} | {protocol.name} | {100 * passed / len(entries):.1f}% |")
        reason_tables[dataset] = Counter(d.reason for d in decisions)
    for dataset, counts in reason_tables.items():
        print(f"\n{dataset}: " + ", ".join(f"{reason} {count}" for reason, count in counts.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
