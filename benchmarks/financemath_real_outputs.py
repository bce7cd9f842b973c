"""finscore on real chain-of-thought outputs: FinanceMath's validation set (issue #32).

    python benchmarks/financemath_real_outputs.py GIT_DIR [--json OUT] [--disagreements OUT.jsonl] [--hostile]

GIT_DIR is a local mirror of github:yale-nlp/FinanceMath (read with `git show`, nothing checked
out). Every raw CoT output of every model (outputs/validation/raw_cot_outputs/) is decided with
format `phrase` under financemath-answer/2 (--protocol: another) against data/validation.json's ground_truth and
question; per model the script reports finscore's accuracy, the published one
(outputs/results/validation_cot_results.json), how often the number finscore reads equals the
number in the LLM-extracted answer (math_expression_extracted_cot_outputs/, "extracted_pred_answer",
gpt-3.5's reading), and each disagreement by type. The extracted answer is text ("USD 353,010",
"4.50%"); its number is read by finscore's own reader (one number, as written) only to compare
readings, never to score. Nothing is eval()'d.

The repository has no licence: this script writes figures only; --disagreements writes the texts
to a local file for reading by hand (never committed).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

from finscore.answers import decide, decide_batch, get_protocol
from finscore.answers.decide import reader_for
from finscore.answers.numbers import Reading

PROTOCOL = "financemath-answer/2"
FORMAT = "phrase"


def git_json(git_dir: Path, path: str) -> Any:
    shown = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"HEAD:{path}"], capture_output=True, check=True)
    return json.loads(shown.stdout)


def files(git_dir: Path, folder: str) -> list[str]:
    listed = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "--name-only", "HEAD", folder + "/"],
                            capture_output=True, text=True, check=True)
    return sorted(listed.stdout.split())


def written(reading: Reading) -> set[Decimal]:
    """The number as written, with its scale word applied, and a percentage as a ratio (any of them
    counts as the same reading: 5.36% and 0.0536 are one number)."""
    values = {reading.value}
    if reading.scale is not None:
        values.add(reading.value.scaleb(reading.scale))
    if reading.percent:
        values.add(reading.value.scaleb(-2))
    return values


#: An output that ends a sentence (or a formula, a list, a code block, a chat turn): one that does
#: not was cut off mid-sentence (the generation's length limit), and states no final answer.
_ENDS_A_SENTENCE = re.compile(r"(?:[.!?)\]*`$|]|<\|im_end\|>|</s>|<\|eot_id\|>)\s*$")
MEGABYTE = 1 << 20
#: Hostile completions of 1 MB, per answer format: (name, format, the text), each a shape that
#: makes some search repeat (a marker's last word, a refused marker, unclosed or too-deep boxes).
HOSTILE: list[tuple[str, str, Callable[[int], str]]] = [
    ("no marker: 'the answer ' repeated", "phrase", lambda n: "the answer " * (n // 11)),
    ("'the answer is ' repeated", "phrase", lambda n: "the answer is " * (n // 14)),
    ("'the answer is:' then spaces", "phrase", lambda n: "the answer is:" + " " * n),
    ("'the answer is ' then * and _", "phrase", lambda n: "the answer is " + "*_" * (n // 2)),
    ("'is ' repeated", "phrase", lambda n: "is " * (n // 3)),
    ("'the answer isx ' repeated (refused markers)", "phrase", lambda n: "the answer isx " * (n // 15)),
    ("'the ' repeated", "phrase", lambda n: "the " * (n // 4)),
    ("'therefore, the ' repeated (openings, no closing)", "phrase", lambda n: "therefore, the " * (n // 15)),
    ("'the answer is {final answer}.' repeated", "phrase", lambda n: "the answer is {final answer}.\n" * (n // 30)),
    ("'<answer>' repeated", "tag", lambda n: "<answer>" * (n // 8)),
    ("'1x ' repeated (every run a word's)", "last-number", lambda n: "1x " * (n // 3)),
    ("letters only", "last-number", lambda n: "a" * n),
    ("'\\boxed{' repeated (too deep)", "boxed", lambda n: "\\boxed{" * (n // 7)),
    ("'{' repeated", "boxed", lambda n: "{" * n),
    ("'\\boxed{1}' repeated", "boxed", lambda n: "\\boxed{1}" * (n // 9)),
    ("'\\boxed{{1}}' repeated", "boxed", lambda n: "\\boxed{{1}}" * (n // 11)),
    ("an unclosed box, then '{}' repeated", "boxed", lambda n: "\\boxed{" + "{}" * (n // 2)),
    ("an unclosed box, then '\\boxed{1}' repeated", "boxed", lambda n: "\\boxed{" + "\\boxed{1}" * (n // 9)),
    ("'\\boxed{{1}' repeated (each box deeper)", "boxed", lambda n: "\\boxed{{1}" * (n // 10)),
    ("'\\boxed{' + 8 '{' repeated, one '}' (each too deep)", "boxed",
     lambda n: "\\boxed{{{{{{{{{" * (n // 16) + "}"),
    ("'\\boxed{' repeated, then as many '}'", "boxed", lambda n: "\\boxed{" * (n // 14) + "}" * (n // 14)),
    ("'}' repeated after a box", "boxed", lambda n: "\\boxed{5}" + "}" * n),
    ("a box over '{}' repeated, closed", "boxed", lambda n: "\\boxed{" + "{}" * (n // 2) + "}"),
    ("a box over '{}' repeated, then an unclosed box", "boxed",
     lambda n: "\\boxed{" + "{}" * (n // 2) + "}\\boxed{"),
    ("'\\boxed{1}' repeated, then an unclosed box", "boxed", lambda n: "\\boxed{1}" * (n // 9) + "\\boxed{"),
    ("seven unclosed boxes, then '{}' repeated", "boxed", lambda n: "\\boxed{" * 7 + "{}" * (n // 2)),
    ("an unclosed box over a box, then 7-deep groups", "boxed",
     lambda n: "\\boxed{\\boxed{5}" + "{{{{{{{x}}}}}}}" * (n // 15)),
    ("too deep, then a complete box, repeated", "boxed", lambda n: ("\\boxed{" + "{" * 8 + "\\boxed{7}") * (n // 24)),
    ("a complete box inside each too-deep box", "boxed",
     lambda n: ("\\boxed{" + "{" * 7 + "\\boxed{5}" + "}" * 8) * (n // 31)),
    ("'Answer: ' then '1 ' repeated", "answer-line", lambda n: "Answer: " + "1 " * (n // 2)),
    ("JSON nesting", "json", lambda n: "{" + '"a":[' * (n // 5)),
    ("'1 ' repeated", "whole", lambda n: "1 " * (n // 2)),
]


def hostile_figures(protocols: list[str], repeat: int = 5) -> list[dict[str, Any]]:
    """CPU milliseconds of `decide` on each hostile 1 MB completion, best of `repeat`, per protocol."""
    gold = {"ground_truth": 5.0, "question": "What is the value?"}
    rows = []
    for name, answer_format, make in HOSTILE:
        text = make(MEGABYTE)
        row: dict[str, Any] = {"completion": name, "format": answer_format, "characters": len(text)}
        for name_of_protocol in protocols:
            spent = []
            for _ in range(repeat):
                started = time.process_time()
                decision = decide(text, gold, name_of_protocol, answer_format)
                spent.append(time.process_time() - started)
            row[name_of_protocol] = {"cpu_ms": round(1000 * min(spent), 1), "reason": decision.reason}
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("git_dir", type=Path)
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--disagreements", type=Path, help="write every disagreement (texts) here, for reading")
    parser.add_argument("--protocol", default=PROTOCOL, help=f"the answer protocol (default {PROTOCOL})")
    parser.add_argument("--hostile", action="store_true",
                        help="also time decide on hostile 1 MB completions (under this protocol and financemath-answer/1)")
    args = parser.parse_args(argv)
    commit = subprocess.run(["git", "--git-dir", str(args.git_dir), "rev-parse", "HEAD"], capture_output=True,
                            text=True, check=True).stdout.strip()
    protocol = get_protocol(args.protocol)
    reader = reader_for(protocol)
    golds = {item["question_id"]: {"ground_truth": item["ground_truth"], "question": item["question"]}
             for item in git_json(args.git_dir, "data/validation.json")}
    published = {row["model_name"]: row["accuracy"]
                 for row in git_json(args.git_dir, "outputs/results/validation_cot_results.json")}
    extracted_dir = "outputs/validation/math_expression_extracted_cot_outputs"
    extracted_files = set(files(args.git_dir, extracted_dir))
    models: dict[str, Any] = {}
    totals: Counter[str] = Counter()
    disagreement_lines: list[str] = []
    cpu = 0.0
    completions_all = 0
    for path in files(args.git_dir, "outputs/validation/raw_cot_outputs"):
        model = Path(path).stem
        raw = git_json(args.git_dir, path)
        completions = [(row["output"][0] if isinstance(row["output"], list) and row["output"] else row["output"])
                       for row in raw]
        completions = [c if isinstance(c, str) else None for c in completions]
        row_golds = [golds[row["question_id"]] for row in raw]
        started = time.process_time()
        decisions = decide_batch(completions, row_golds, protocol, FORMAT)
        cpu += time.process_time() - started
        completions_all += len(completions)
        extracted_path = f"{extracted_dir}/{Path(path).name}"
        extracted = {row["question_id"]: row.get("extracted_pred_answer")
                     for row in git_json(args.git_dir, extracted_path)} if extracted_path in extracted_files else {}
        counts: Counter[str] = Counter()
        for row, completion, decision in zip(raw, completions, decisions):
            counts["outputs"] += 1
            counts["passed"] += decision.passed
            counts[f"reason:{decision.reason}"] += 1
            theirs = extracted.get(row["question_id"])
            if theirs is None:
                counts["llm:no_file_or_row"] += 1
                continue
            their_reading = reader.read(str(theirs)) if str(theirs).strip().lower() not in ("", "none") else None
            if not isinstance(their_reading, Reading):
                counts["llm:no_number"] += 1
                continue
            counts["llm:number"] += 1
            ours = reader.read(decision.read) if decision.read is not None else None
            if decision.reason != "no_final_answer":
                counts["llm:number_finscore_marker"] += 1
            if isinstance(ours, Reading) and written(ours) & written(their_reading):
                counts["agree"] += 1
                counts["agree_finscore_marker"] += 1
                continue
            kind = ("finscore:" + decision.reason) if decision.read is None else "finscore:another_number"
            counts[f"disagree:{kind}"] += 1
            if decision.reason == "no_final_answer" and not _ENDS_A_SENTENCE.search(completion or ""):
                counts["disagree:no_final_answer_cut_off"] += 1
            disagreement_lines.append(json.dumps({
                "model": model, "question_id": row["question_id"], "type": kind, "finscore_read": decision.read,
                "finscore_reason": decision.reason, "finscore_detail": decision.detail, "span": decision.span,
                "llm_extracted": theirs, "gold": golds[row["question_id"]]["ground_truth"],
                "tail": (completion or "")[-600:]}, ensure_ascii=False))
        totals.update(counts)
        models[model] = {
            "outputs": counts["outputs"],
            "finscore_accuracy": round(100 * counts["passed"] / counts["outputs"], 2),
            "published_accuracy": published.get(model),
            "llm_found_a_number": counts["llm:number"],
            "agree_with_llm": counts["agree"],
            "agreement_where_llm_found_one": round(100 * counts["agree"] / counts["llm:number"], 2)
            if counts["llm:number"] else None,
            "reasons": {k[7:]: v for k, v in sorted(counts.items()) if k.startswith("reason:")},
            "disagreements": {k[9:]: v for k, v in sorted(counts.items())
                              if k.startswith("disagree:") and not k.endswith("_cut_off")},
        }
    figures = {
        "source": {"repository": "github:yale-nlp/FinanceMath", "commit": commit,
                   "raw": "outputs/validation/raw_cot_outputs/", "extracted": extracted_dir + "/",
                   "published": "outputs/results/validation_cot_results.json", "gold": "data/validation.json"},
        "protocol": protocol.name, "format": FORMAT,
        "speed": {"completions": completions_all, "decide_batch_cpu_seconds": round(cpu, 3)},
        "total": {"outputs": totals["outputs"], "passed": totals["passed"],
                  "llm_found_a_number": totals["llm:number"], "agree_with_llm": totals["agree"],
                  "agreement_where_llm_found_one": round(100 * totals["agree"] / totals["llm:number"], 2),
                  "llm_found_a_number_finscore_a_marker": totals["llm:number_finscore_marker"],
                  "agreement_where_both_found_one": round(
                      100 * totals["agree_finscore_marker"] / totals["llm:number_finscore_marker"], 2),
                  "no_final_answer_disagreements_cut_off": totals["disagree:no_final_answer_cut_off"],
                  "disagreements": {k[9:]: v for k, v in sorted(totals.items())
                                    if k.startswith("disagree:") and not k.endswith("_cut_off")},
                  "reasons": {k[7:]: v for k, v in sorted(totals.items()) if k.startswith("reason:")}},
        "models": models,
    }
    if args.hostile:
        figures["speed"]["hostile_1mb"] = hostile_figures(sorted({protocol.name, "financemath-answer/1"}))
    text = json.dumps(figures, indent=1, sort_keys=True) + "\n"
    if args.json:
        args.json.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if args.disagreements:
        args.disagreements.write_text("\n".join(disagreement_lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
