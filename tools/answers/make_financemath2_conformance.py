"""Build the conformance file of financemath-answer/2 from its written rules.

    python tools/answers/make_financemath2_conformance.py            # (re)write the file
    python tools/answers/make_financemath2_conformance.py --check    # exit 1 if the committed file differs

Version 2 keeps every rule of version 1, so every row of version 1's file is a row here (its
generator, make_financemath_conformance.py, builds them); the rules version 2 adds (conclusion
sentences as markers, an answer with nothing to read skipped, one value written as a ratio and as a
percentage or with and without its sign, a formula read after its last =, the added currency codes)
get rows of their own, each outcome fixed by the written rule and worked out with fractions.Fraction. Deterministic and independent of the code under test: it
never imports finscore.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import conformance_bytes, write_or_check  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[2]
OUT = REPOSITORY / "python" / "finscore" / "answers" / "conformance" / "financemath-answer-2.jsonl.gz"
NAME = "financemath-answer/2"


def _version_1() -> Any:
    path = Path(__file__).resolve().parent / "make_financemath_conformance.py"
    spec = importlib.util.spec_from_file_location("make_financemath_conformance_v1", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


V1 = _version_1()


def new_rows(g: Any) -> Iterator[tuple[str, str, dict[str, Any], str]]:
    """The rows of the rules version 2 adds, for one gold."""
    expect = V1.expect
    if isinstance(g.mapping["ground_truth"], bool):
        word = "yes" if g.mapping["ground_truth"] else "no"
        yield "phrase", f"Therefore, the bond's status is {word}.", expect(True, "exact"), "a conclusion, yes / no"
        return
    unit = {0: "", 3: " thousand", 6: " million"}[g.scale]
    percent = "%" if g.points else ""
    shown = V1.text(g.shown)
    as_stored = expect(True, "percent_declared" if percent else "exact")
    yield "phrase", f"Step 2: add them.\nTherefore, the price of the bond today is {shown}{unit}{percent}.", \
        as_stored, "a conclusion sentence (therefore, the <words> is)"
    yield "phrase", f"So the value asked for would be **{shown}{percent}**", as_stored, "a conclusion closing with would be"
    yield "phrase", f"Therefore, the answer is {shown}{percent}. So, the final answer is:", as_stored, \
        "an empty last marker: the marker before it is read"
    yield "phrase", f"Thus the answer is {shown}{percent}.\nTherefore, the answer is {{final answer}}.", as_stored, \
        "the prompt's placeholder copied: the marker before it is read"
    yield "phrase", "I could not finish. The answer is: ", expect(False, "unparseable"), "the only marker is empty"
    yield "phrase", f"Therefore, the answer is {shown}{percent}.\nNote that the final answer is an approximation.", \
        as_stored, "an answer of words only: the marker before it is read"
    yield "phrase", f"Therefore, the value of the 2 bonds that will be held in 3 years is {shown}{unit}{percent}.", \
        as_stored, "the last closing with a digit after it (is), not the earlier one (will be)"
    # one value as a ratio and as a percentage: read as the percentage, which passes under both conventions
    if g.points:
        yield "phrase", f"the answer is {V1.text(g.shown.scaleb(-2))} or {shown}%.", expect(True, "percent_declared"), \
            "a ratio and the same percentage: one number"
    elif g.scale == 0:
        yield "phrase", f"the answer is {shown} (or {V1.text(g.shown.scaleb(2))}%).", \
            expect(True, "percent_declared"), "a value and the same percentage: one number"
    # not the same value: still two numbers
    other = g.shown.scaleb(2) + 1
    if Fraction(other) != Fraction(g.shown.scaleb(2)):
        yield "phrase", f"the answer is {shown} or {V1.text(other)}%.", expect(False, "several_numbers"), \
            "a ratio and another percentage: two numbers"
    # the same digits with and without a percent sign (a gold in points): one number, the percentage
    if g.points:
        yield "phrase", f"Therefore, the answer is {shown} (as a percentage, {shown}%).", \
            expect(True, "percent_declared"), "the same digits with and without %: one number"
    # a formula and its result: read after the last =
    yield "phrase", f"Therefore, the answer is 2 + 2 = {shown}{unit}{percent}.", as_stored, "a formula: its result read"
    yield "phrase", f"Therefore, the answer is {shown}{percent} = x.", expect(False, "unparseable"), \
        "nothing readable after the last ="
    # the added currency codes, before the number, joined or spaced
    if g.scale == 0 and not g.points and g.shown > 0:
        grouped = format(g.shown, ",f")
        yield "phrase", f"Therefore, the answer is CHF{grouped}.", as_stored, "CHF joined to its number"
        yield "phrase", f"Therefore, the fee is {shown} SEK.", as_stored, "a code after the number"


def build() -> bytes:
    rng = random.Random(32)  # the same stream as version 1's file: its rows, then the new ones per gold
    rows = []
    for g in V1.golds(rng):
        for fmt, completion, outcome, label in V1.rows_for(g, rng):
            rows.append({"protocol": NAME, "source": "written", "label": label, "format": fmt,
                         "completion": completion, "gold": g.mapping, "expect": outcome})
        for fmt, completion, outcome, label in new_rows(g):
            rows.append({"protocol": NAME, "source": "written (version 2)", "label": label, "format": fmt,
                         "completion": completion, "gold": g.mapping, "expect": outcome})
    return conformance_bytes(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    args = parser.parse_args(argv)
    return write_or_check({OUT: build()}, REPOSITORY, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
