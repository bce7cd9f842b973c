"""Build the conformance files of the answer protocols from the real golds in tests/data.

    python tools/answers/make_conformance.py            # (re)write python/finscore/answers/conformance/
    python tools/answers/make_conformance.py --check    # exit 1 if the committed files differ

Deterministic (one seeded random generator per gold, no clock, gzip mtime 0) and
independent of the code under test: it never imports finscore.answers. Each row is
built by a construction whose outcome the protocol's written rules fix (a right
value spelled another declared way, the gold scaled by 10^k, negated, rounded
too coarsely, ...); the expected decision is worked out here with
fractions.Fraction from those written rules, and a construction whose outcome is
not certain (a "wrong" value that happens to round to the gold, ...) is skipped.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import re
import sys
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import conformance_bytes, write_or_check  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[2]
DATA = REPOSITORY / "tests" / "data"
OUT = REPOSITORY / "python" / "finscore" / "answers" / "conformance"

RELATIVE = Fraction(5, 1000)  # finqa-answer/1 and convfinqa-answer/1: |v - g| <= 0.005 |g|
SCALE_POWER = {"": 0, "thousand": 3, "million": 6, "billion": 9, "percent": 0}
SCALE_WORD = {3: "thousand", 6: "million", 9: "billion"}
TIMES_100_LAST = re.compile(r"multiply\(\s*(#\d+\s*,\s*const_100|const_100\s*,\s*#\d+)\s*\)\s*$")
MARKER_PASS = ("exact", "within_tolerance", "percent_declared")


class G(NamedTuple):
    """A gold as the generator sees it (worked out from the protocols' written rules)."""

    source: str
    mapping: dict[str, Any]  # the gold object of the row (what decide-jsonl takes)
    shown: Decimal | None  # the gold as written, in its own scale (None: yes / no)
    yes_no: str | None
    points: bool
    percentage: bool
    scale: int  # power of ten of the TAT-QA scale
    relative: bool  # FinQA / ConvFinQA tolerance (else TAT-QA gold places)
    context: list[str]  # numbers from the gold program or question, for realistic lead-ins
    question: str


def frac(value: Decimal) -> Fraction:
    return Fraction(value)


def gold_value(g: G) -> Fraction:
    assert g.shown is not None
    return frac(g.shown) * Fraction(10) ** g.scale


def places(value: Decimal) -> int:
    return -int(value.as_tuple().exponent)


def within(v: Fraction, g: G) -> bool:
    target = gold_value(g)
    if g.relative:
        return abs(v - target) <= RELATIVE * abs(target)
    assert g.shown is not None
    return abs(v - target) <= Fraction(1, 2) * Fraction(10) ** (g.scale - max(0, places(g.shown)))


def any_scale_passes(v: Fraction, g: G) -> bool:
    return any(within(v * Fraction(10) ** -k, g) for k in range(-24, 25) if k)


def plain(value: Decimal) -> str:
    return format(value, "f")


def grouped(value: Decimal) -> str:
    return f"{value:,f}"


def decimal_text(exe_ans: Any) -> Decimal:
    text = repr(exe_ans)
    return Decimal(text[:-2] if text.endswith(".0") else text)


# -- reading the golds (the protocols' written gold rules, implemented independently) ------------

def finqa_golds() -> Iterator[G]:
    for example in json.loads(gzip.decompress((DATA / "finqa" / "finqa_test.json.gz").read_bytes())):
        qa = example["qa"]
        mapping = {"exe_ans": qa["exe_ans"], "program": qa["program"], "question": qa["question"], "answer": qa.get("answer", "")}
        yield _finqa_like(f"finqa-test:{example['id']}", mapping, qa["exe_ans"], qa["program"], qa["question"],
                          mapping["answer"])


def convfinqa_golds() -> Iterator[G]:
    for conversation in json.loads(gzip.decompress((DATA / "convfinqa" / "convfinqa_dev.json.gz").read_bytes())):
        notes = conversation["annotation"]
        for turn, (answer, question, program) in enumerate(zip(notes["exe_ans_list"], notes["dialogue_break"],
                                                               notes["turn_program"])):
            mapping = {"exe_ans": answer, "program": program, "question": question}
            yield _finqa_like(f"convfinqa-dev:{conversation['id']}#t{turn}", mapping, answer, program, question, "")


def _finqa_like(source: str, mapping: dict[str, Any], exe_ans: Any, program: str, question: str, answer: str) -> G:
    context = re.findall(r"(?<![#\w])-?\d+(?:\.\d+)?", program)
    if isinstance(exe_ans, str):
        return G(source, mapping, None, exe_ans.lower(), False, False, 0, True, context, question)
    points = bool(TIMES_100_LAST.search(program))
    percentage = points or "percent" in question.lower() or "%" in question or answer.rstrip().endswith("%")
    return G(source, mapping, decimal_text(exe_ans), None, points, percentage, 0, True, context, question)


TATQA_PLAIN = re.compile(r"^\$?-?\d{1,3}(,\d{3})*(\.\d+)?%?$|^\$?-?\d+(\.\d+)?%?$")


def tatqa_golds() -> Iterator[G]:
    for split in ("dataset_dev", "dataset_test_gold"):
        for document in json.loads(gzip.decompress((DATA / "tatqa" / f"tatqa_{split}.json.gz").read_bytes())):
            for item in document["questions"]:
                answer, scale, kind = item["answer"], item["scale"], item["answer_type"]
                mapping = {"answer": answer, "scale": scale, "answer_type": kind, "question": item["question"]}
                text: str | None = None
                if kind == "arithmetic" and isinstance(answer, (int, float)):
                    shown = decimal_text(answer)
                    text = None
                elif kind in ("count", "span") and (isinstance(answer, str) or
                                                    (isinstance(answer, list) and len(answer) == 1)):
                    text = answer if isinstance(answer, str) else answer[0]
                    if not isinstance(text, str) or not TATQA_PLAIN.match(text.strip()):
                        continue  # text answers: outside the protocol (and simple numbers only, here)
                    shown = Decimal(text.strip().lstrip("$").rstrip("%").replace(",", ""))
                else:
                    continue
                percent_text = text is not None and text.strip().endswith("%")
                points = scale == "percent" or percent_text
                context = re.findall(r"-?\d+(?:\.\d+)?", str(item.get("derivation", "")))
                yield G(f"tatqa-{split.split('_')[1]}:{item['uid']}", mapping, shown, None, points, points,
                        SCALE_POWER[scale], False, context, item["question"])


# -- the constructions ---------------------------------------------------------------------------

Row = tuple[str, str | None, dict[str, Any], str]  # format, completion, expect, label


def expect(passed: bool, reason: str, k: int | None = None) -> dict[str, Any]:
    return {"passed": passed, "reason": reason, "k": k}


def lead_in(g: G, rng: random.Random) -> str:
    numbers = g.context[:3] or ["100"]
    return rng.choice([
        f"From the table, the relevant figures are {' and '.join(numbers)}.\n",
        f"Step 1: take {numbers[0]}.\nStep 2: apply the operation in the question.\n",
        "Let me work through the numbers in the filing.\n",
        f"We need: {g.question.strip()[:80]}\nComputing from {numbers[-1]}.\n",
    ])


def pass_reason(v: Fraction, g: G, percent: bool) -> dict[str, Any] | None:
    """The expected pass of a right value, or None when (by construction) it should pass but does not."""
    if not within(v, g):
        return None
    if percent:
        return expect(True, "percent_declared")
    return expect(True, "exact" if v == gold_value(g) else "within_tolerance")


def right_spellings(g: G, rng: random.Random) -> Iterator[tuple[str, str, Fraction, bool, str]]:
    """(answer text, completion format hint, value read in the gold's unit, percent used, label)."""
    assert g.shown is not None
    s, v = g.shown, gold_value(g)
    yield plain(s), "plain", v, False, "the gold as written"
    if abs(s) >= 1000:
        sign = "-" if s < 0 else ""
        yield f"{sign}${grouped(abs(s))}", "grouped", v, False, "currency and Western grouping"
    if s < 0:
        yield f"({grouped(abs(s))})", "parens", v, False, "parentheses as a negative"
        yield f"\u2212{plain(abs(s))}", "uminus", v, False, "Unicode minus"
    if s != 0:
        yield f"{s:e}", "sci", v, False, "scientific notation"
    if g.points:
        yield f"{plain(s)}%", "pct", v, True, "percentage points with % (a label)"
        yield f"{plain(s)} percent", "pct", v, True, "percentage points with the word percent"
    elif g.percentage and g.scale == 0:
        hundred = s.scaleb(2)
        yield f"{plain(hundred)}%", "pct", v, True, "a ratio written as a percentage"
    if g.relative and s != 0:
        three = s.quantize(Decimal(1).scaleb(s.adjusted() - 2), rounding=ROUND_HALF_EVEN)
        yield plain(three), "rounded", frac(three), False, "rounded to 3 significant digits"
    if not g.relative and g.scale in SCALE_WORD:
        yield f"{plain(s)} {SCALE_WORD[g.scale]}", "scaled", v, False, "the gold's scale word"
        if g.scale >= 6:
            smaller = s.scaleb(3)
            yield f"${plain(smaller)} {SCALE_WORD[g.scale - 3]}", "scaled", v, False, "another scale word, same value"
    if g.relative:
        yield f"${plain(s)} million", "unit", v, False, "a scale word (read, not applied under FinQA rules)"
    if not g.relative and s != 0:
        finer = s + (Decimal("0.4") if s > 0 else Decimal("-0.4")).scaleb(-max(0, places(s)) - 1)
        yield plain(finer), "finer", frac(finer) * Fraction(10) ** g.scale, False, "one more place, within half a unit"


def wrong_values(g: G, rng: random.Random) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(answer text, expected decision, label) for misses whose reason the construction fixes."""
    assert g.shown is not None
    s, v = g.shown, gold_value(g)
    if s != 0:
        for k in rng.sample([-6, -3, -2, -1, 1, 2, 3, 6], 3):
            if abs(k) == 2 and g.percentage:
                continue
            yield plain(s.scaleb(k)), expect(False, "scale_off", k), f"the gold times 10^{k}"
        yield plain(-s), expect(False, "sign_flipped"), "the sign flipped"
    if s != 0 and g.percentage and g.scale == 0:
        if g.points:
            yield plain(s.scaleb(-2)), expect(False, "percent_vs_ratio", -2), "percentage points written as a ratio"
        else:
            yield plain(s.scaleb(2)), expect(False, "percent_vs_ratio", 2), "a ratio written as points without %"
    for p in range(0, max(0, places(s))):
        r = s.quantize(Decimal(1).scaleb(-p), rounding=ROUND_HALF_EVEN)
        rv = frac(r) * Fraction(10) ** g.scale
        if r != 0 and not within(rv, g) and not within(-rv, g) and not any_scale_passes(rv, g):
            yield plain(r), expect(False, "rounding", p - g.scale), f"rounded to {p} places, too coarse"
            break
    for factor in ("1.37", "0.61", "2.5", "1.9"):
        w = (s * Decimal(factor) + Decimal("1.25")).quantize(Decimal("0.01"))
        wv = frac(w) * Fraction(10) ** g.scale
        half = Fraction(1, 2) * Fraction(10) ** (g.scale - 2)
        if not (within(wv, g) or within(-wv, g) or any_scale_passes(wv, g) or abs(wv - v) <= half):
            yield plain(w), expect(False, "wrong_value"), f"a wrong value (gold x {factor} + 1.25)"
            break


def wrap(fmt: str, answer: str, g: G, rng: random.Random) -> tuple[str, str]:
    """A completion in `fmt` whose final answer is `answer`."""
    if fmt == "answer-line":
        marker = rng.choice(["Answer: ", "**Answer:** ", "answer: ", "Answer:  "])
        return fmt, lead_in(g, rng) + marker + answer + rng.choice(["", ".", "\n", "\n\nI hope this helps."])
    if fmt == "boxed":
        latex = answer.replace("%", "\\%").replace("$", "\\$")
        return fmt, lead_in(g, rng) + f"So the result is $\\boxed{{{latex}}}$."
    if fmt == "json":
        return fmt, json.dumps({"reasoning": "computed from the table", "answer": answer})
    return fmt, answer


def rows_for(g: G, rng: random.Random) -> Iterator[Row]:
    if g.yes_no is not None:
        other = "no" if g.yes_no == "yes" else "yes"
        yield ("answer-line", lead_in(g, rng) + f"Answer: {g.yes_no.capitalize()}.", expect(True, "exact"), "yes/no right")
        yield ("answer-line", lead_in(g, rng) + f"Answer: {other}, it did not change that way",
               expect(False, "wrong_yes_no"), "yes/no wrong")
        yield ("boxed", f"\\boxed{{{g.yes_no}}}", expect(True, "exact"), "yes/no boxed")
        yield ("answer-line", "Answer: yes or no, hard to say", expect(False, "unparseable"), "both yes and no")
        return
    spellings = list(right_spellings(g, rng))
    for answer, hint, v, percent, label in rng.sample(spellings, min(2, len(spellings))):
        outcome = pass_reason(v, g, percent)
        if outcome is None:
            continue  # a spelling the written rules do not let pass: not a conformance row
        fmt = rng.choice(["answer-line", "answer-line", "boxed", "json", "whole"])
        fmt, completion = wrap(fmt, answer, g, rng)
        yield fmt, completion, outcome, f"{label} ({hint})"
    misses = list(wrong_values(g, rng))
    for answer, outcome, label in rng.sample(misses, min(2, len(misses))):
        fmt, completion = wrap(rng.choice(["answer-line", "answer-line", "boxed", "whole"]), answer, g, rng)
        yield fmt, completion, outcome, label
    assert g.shown is not None
    roll = rng.randrange(6)
    s = g.shown
    if roll == 0:
        yield ("answer-line", lead_in(g, rng) + f"The result is {plain(s)}.", expect(False, "no_final_answer"),
               "no Answer: line")
    elif roll == 1:
        yield ("answer-line", f"Answer: {plain(s)} (compared with {plain(s + 7)})", expect(False, "several_numbers"),
               "two different numbers")
    elif roll == 2:
        yield ("boxed", lead_in(g, rng) + f"The answer is {plain(s)}", expect(False, "no_final_answer"), "no \\boxed{}")
    elif roll == 3:
        bad = rng.choice(["NaN", "about fourteen", "1,23", "1e309", "-inf", "n/a"])
        yield ("answer-line", f"Answer: {bad}", expect(False, "unparseable"), f"unreadable: {bad}")
    elif roll == 4:
        yield ("answer-line", None, expect(False, "missing_prediction"), "no completion at all")
    else:
        yield ("json", f'{{"answer": {plain(s)}, "unit": "as in the table"', expect(False, "unparseable"),
               "broken JSON")


PROTOCOLS: dict[str, tuple[str, Callable[[], Iterator[G]]]] = {
    "finqa-answer-1": ("finqa-answer/1", finqa_golds),
    "convfinqa-answer-1": ("convfinqa-answer/1", convfinqa_golds),
    "tatqa-answer-1": ("tatqa-answer/1", tatqa_golds),
}


def build(stem: str) -> bytes:
    """The compressed conformance file of one protocol."""
    name, golds = PROTOCOLS[stem]
    return conformance_bytes(_rows(name, golds))


def _rows(name: str, golds: Callable[[], Iterator[G]]) -> Iterator[dict[str, Any]]:
    """Every row of one protocol's file, each gold's rows drawn from a stream seeded by its source."""
    for g in golds():
        rng = random.Random(hashlib.sha256(f"{name}|{g.source}".encode()).digest())
        for fmt, completion, outcome, label in rows_for(g, rng):
            yield {"protocol": name, "source": g.source, "label": label, "format": fmt,
                   "completion": completion, "gold": g.mapping, "expect": outcome}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    args = parser.parse_args(argv)
    return write_or_check({OUT / f"{stem}.jsonl.gz": build(stem) for stem in PROTOCOLS}, REPOSITORY, check=args.check)

if __name__ == "__main__":
    sys.exit(main())
