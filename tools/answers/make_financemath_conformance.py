"""Build the conformance file of financemath-answer/1 from its written rules.

    python tools/answers/make_financemath_conformance.py            # (re)write the file
    python tools/answers/make_financemath_conformance.py --check    # exit 1 if the committed file differs

Deterministic (one seeded generator, gzip mtime 0) and independent of the code under test: it
never imports finscore. FinanceMath ships no licence, so no question of its data is copied: the
questions are written here, in the styles the rules name (a percentage asked for, decimal places,
a unit), with golds drawn at random and stored to 3 places as FinanceMath stores them. Each row is
a construction whose outcome the written rules fix, worked out with fractions.Fraction; a
construction whose outcome is not certain is skipped.
"""

from __future__ import annotations

import argparse
import random
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterator, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import conformance_bytes, write_or_check  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[2]
OUT = REPOSITORY / "python" / "finscore" / "answers" / "conformance" / "financemath-answer-1.jsonl.gz"
NAME = "financemath-answer/1"
RELATIVE = Fraction(5, 1000)
STORED_PLACES = 3

# (question, percentage points?, places asked, unit power): the written rule's phrases
QUESTIONS = [
    ("What is the bond's price today?", False, None, 0),
    ("What is the expected return on the portfolio as a percentage?", True, None, 0),
    ("What percentage of the total do the liabilities constitute?", True, None, 0),
    ("What is the firm's cost (%) of external equity?", True, None, 0),
    ("Compute the forward rate, to two decimal places.", False, 2, 0),
    ("What is the present value, rounded to the nearest cent?", False, 2, 0),
    ("What is the FCFF ($ millions) for the year?", False, None, 6),
    ("What is the interest cost (in millions) for 2014?", False, None, 6),
    ("What is the net cash flow from investing activities (in thousands)?", False, None, 3),
    ("What is the growth rate as a percentage, to one decimal place?", True, 1, 0),
]


class G(NamedTuple):
    mapping: dict[str, Any]
    shown: Decimal  # as stored
    points: bool
    places: int | None
    scale: int


def value(g: G) -> Fraction:
    return Fraction(g.shown) * Fraction(10) ** g.scale


def half_unit(g: G) -> Fraction:
    places = STORED_PLACES if g.places is None else g.places
    return Fraction(1, 2) * Fraction(10) ** (g.scale - places)


def passes(v: Fraction, g: G) -> bool:
    return abs(v - value(g)) <= max(RELATIVE * abs(value(g)), half_unit(g))


def any_scale_passes(v: Fraction, g: G) -> bool:
    return any(passes(v * Fraction(10) ** -k, g) for k in range(-24, 25) if k)


def expect(passed: bool, reason: str, k: int | None = None) -> dict[str, Any]:
    return {"passed": passed, "reason": reason, "k": k}


def golds(rng: random.Random) -> Iterator[G]:
    for question, points, places, scale in QUESTIONS:
        for _ in range(30):
            magnitude = rng.choice([1, 10, 100, 1000, 100_000])
            shown = Decimal(str(round(rng.uniform(0.5, 9.5) * magnitude, 3)))
            if rng.random() < 0.2:
                shown = -shown
            number = float(shown)
            stored = repr(number)  # the gold's decimal value: the float's shortest text (the written rule)
            yield G({"ground_truth": number, "question": question},
                    Decimal(stored[:-2] if stored.endswith(".0") else stored), points, places, scale)
    for truth in (True, False):
        yield G({"ground_truth": truth, "question": "Is the bond trading at a premium?"}, Decimal(0), False, None, 0)


def text(number: Decimal) -> str:
    return format(number, "f")


def rows_for(g: G, rng: random.Random) -> Iterator[tuple[str, str, dict[str, Any], str]]:
    if isinstance(g.mapping["ground_truth"], bool):
        word = "yes" if g.mapping["ground_truth"] else "no"
        other = "no" if word == "yes" else "yes"
        yield "phrase", f"Comparing price and par, the answer is {word}.", expect(True, "exact"), "yes / no"
        yield "phrase", f"Therefore, the answer is {other}.", expect(False, "wrong_yes_no"), "the other word"
        return
    unit = {0: "", 3: " thousand", 6: " million"}[g.scale]
    percent = "%" if g.points else ""
    shown = text(g.shown)
    lead = rng.choice(["Step 1: discount the flows.\nStep 2: add them.\n", "Let's think step by step. ", ""])
    # the gold as stored, in the question's unit (a bare number is in that unit)
    yield "phrase", f"{lead}Therefore, the answer is {shown}{percent}.", expect(True, "percent_declared" if percent
                                                                                else "exact"), "the gold as stored"
    yield "phrase", f"{lead}**The final answer is** {shown}{unit}{percent}", \
        expect(True, "percent_declared" if percent else "exact"), "the final-answer marker, with the unit's word"
    # rounded to the places the question asks for: a pass by the half unit
    if g.places is not None:
        rounded = g.shown.quantize(Decimal(1).scaleb(-g.places))
        v = Fraction(rounded) * Fraction(10) ** g.scale
        if v != value(g):
            assert passes(v, g)
            yield "phrase", f"So the answer is {text(rounded)}{percent}.", \
                expect(True, "percent_declared" if percent else "within_tolerance"), "rounded to the places asked for"
    # the sign flipped
    if g.shown:
        negated = -g.shown
        v = Fraction(negated) * Fraction(10) ** g.scale
        if not passes(v, g) and passes(-v, g):
            yield "phrase", f"Thus the answer is {text(negated)}{percent}.", expect(False, "sign_flipped"), "the sign flipped"
    # a ratio for a percentage asked (percent_vs_ratio), a unit other than the one asked for (scale_off)
    if g.points:
        ratio = g.shown.scaleb(-2)
        v = Fraction(ratio)
        if not passes(v, g) and not passes(-v, g) and passes(v * 100, g):
            yield "phrase", f"The answer is {text(ratio)}.", expect(False, "percent_vs_ratio", -2), "a ratio, not points"
    else:
        scaled = g.shown.scaleb(3)
        v = Fraction(scaled) * Fraction(10) ** g.scale
        if not passes(v, g) and not passes(-v, g) and passes(v / 1000, g):
            yield "phrase", f"The answer is {text(scaled)}.", expect(False, "scale_off", 3), "a thousand times the gold"
    # a wrong value, far from every scaling of the gold
    wrong = (g.shown * Decimal("1.37")).quantize(Decimal("0.001"))
    v = Fraction(wrong) * Fraction(10) ** g.scale
    rounding = abs(v - value(g)) <= Fraction(1, 2) * Fraction(10) ** (g.scale - max(0, -wrong.as_tuple().exponent))
    if g.shown and not passes(v, g) and not passes(-v, g) and not any_scale_passes(v, g) and not rounding:
        yield "phrase", f"Hence the answer is {text(wrong)}{percent}.", expect(False, "wrong_value"), "a wrong value"
    # two different numbers in the answer; no marker at all
    yield "phrase", f"the answer is {shown} or {text(g.shown + 1)}", expect(False, "several_numbers"), "two numbers"
    yield "phrase", f"{lead}I computed {shown}{percent}.", expect(False, "no_final_answer"), "no marker phrase"


def build() -> bytes:
    rng = random.Random(32)  # one stream: the golds and their rows draw from it in turn
    return conformance_bytes({"protocol": NAME, "source": "written", "label": label, "format": fmt,
                              "completion": completion, "gold": g.mapping, "expect": outcome}
                             for g in golds(rng) for fmt, completion, outcome, label in rows_for(g, rng))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    args = parser.parse_args(argv)
    return write_or_check({OUT: build()}, REPOSITORY, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
