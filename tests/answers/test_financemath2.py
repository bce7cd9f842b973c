"""financemath-answer/2: the rules version 2 adds to version 1 (conclusion sentences as markers,
an empty or placeholder answer skipped, one value written as a ratio and as a percentage, more
currency codes), one case each, the outcome worked out by hand from the written rules; version 1
still decides every such text as it did; the conformance file is decided as labelled and is what its
generator (outside the wheel, never importing finscore) builds."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from finscore.answers import decide, get_protocol, protocol_from_data
from finscore.answers import reasons as R
from finscore.answers.protocol import ProtocolError

from tests.answers.test_conformance import tool

V1 = get_protocol("financemath-answer/1")
V2 = get_protocol("financemath-answer/2")
REPOSITORY = Path(__file__).resolve().parents[2]
CONFORMANCE = REPOSITORY / "python/finscore/answers/conformance/financemath-answer-2.jsonl.gz"
PRICE = "What is the bond's price?"
SHARE = "What percentage do total liabilities constitute?"  # a percentage asked: the gold in points
RETURN = "What is the effective annual return?"  # no percent asked: a % divides by 100

# (question, ground_truth, completion, version 2's (reason, read), version 1's (reason, read)):
# each worked out by hand from the written rules of each version
CASES: list[tuple[str, float, str, tuple[str, str | None], tuple[str, str | None]]] = [
    # conclusion sentences: an opening, 1 to 32 words, the first closing after them
    (PRICE, 97.5, "Step 3: discount.\nTherefore, the bond's price is 97.5.", (R.EXACT, "97.5"), (R.NO_FINAL_ANSWER, None)),
    (PRICE, 97.5, "**Therefore, the price of the bond today is approximately $97.50.**",
     (R.EXACT, "$97.50"), (R.NO_FINAL_ANSWER, None)),
    (PRICE, 97.5, "Thus the value asked for would be 97.5", (R.EXACT, "97.5"), (R.NO_FINAL_ANSWER, None)),
    (PRICE, 97.5, "so, the price was 97.5!", (R.EXACT, "97.5"), (R.NO_FINAL_ANSWER, None)),
    (PRICE, 97.5, "In conclusion, the bonds are worth 97.5.", (R.EXACT, "97.5"), (R.NO_FINAL_ANSWER, None)),
    # the last closing with a digit after it in the sentence: 'is' here, not the later 'is' (no digit after it)
    (PRICE, 97.5, "Therefore, the price is 97.5, which is fair.", (R.EXACT, "97.5"), (R.NO_FINAL_ANSWER, None)),
    # ... and not the earlier 'will be' of a relative clause
    (PRICE, 4231.44, "Therefore, the present value of $5,000 that will be received in 3 years is $4,231.44.",
     (R.EXACT, "$4,231.44"), (R.NO_FINAL_ANSWER, None)),
    # a closing with only a colon after it on its line: the answer is on the next line
    (PRICE, 97.5, "Therefore, the price of the bond is:\n\n**97.5**", (R.EXACT, "97.5"), (R.NO_FINAL_ANSWER, None)),
    # no closing with a digit after it: the opening is no marker (the earlier plain marker is read)
    (PRICE, 97.5, "The answer is 97.5. Therefore, the bond is cheap.", (R.EXACT, "97.5"), (R.EXACT, "97.5")),
    # the words hold no sentence end: 'U.S.' ends the sentence, so no conclusion marker matches
    (PRICE, 97.5, "Therefore, the U.S. price is 97.5.", (R.NO_FINAL_ANSWER, None), (R.NO_FINAL_ANSWER, None)),
    # ... but a point before a digit is inside a word (5.5%)
    (PRICE, 97.5, "Therefore, the price at 5.5% is 97.5.", (R.EXACT, "97.5"), (R.NO_FINAL_ANSWER, None)),
    # joined to a letter: 'also the price is' holds no opening 'so the'
    (PRICE, 97.5, "We also the price is 97.5.", (R.NO_FINAL_ANSWER, None), (R.NO_FINAL_ANSWER, None)),
    # more than 32 words between the opening and the closing: no conclusion marker
    (PRICE, 97.5, "Therefore, the " + "very " * 32 + "price is 97.5.", (R.NO_FINAL_ANSWER, None),
     (R.NO_FINAL_ANSWER, None)),
    # markers are looked for in the last 16,384 characters: one before them is not read
    (PRICE, 97.5, "The answer is 97.5.\n" + "x " * 8192, (R.NO_FINAL_ANSWER, None), (R.EXACT, "97.5")),
    (PRICE, 97.5, "The answer is 97.5.\n" + "x " * 8180, (R.EXACT, "97.5"), (R.EXACT, "97.5")),
    (PRICE, 97.5, "Therefore, the price is 97.5.\n" + "x " * 8192, (R.NO_FINAL_ANSWER, None), (R.NO_FINAL_ANSWER, None)),
    # the marker that starts last wins, whichever kind it is
    (PRICE, 97.5, "The answer is 90. Therefore, the price is 97.5.", (R.EXACT, "97.5"), (R.WRONG_VALUE, "90")),
    (PRICE, 97.5, "Therefore, the price is 90. The answer is 97.5.", (R.EXACT, "97.5"), (R.EXACT, "97.5")),
    # an empty last marker, or the prompt's placeholder: the marker before it is read
    (PRICE, 97.5, "Therefore, the answer is 97.5. So, the final answer is:", (R.EXACT, "97.5"),
     (R.UNPARSEABLE, None)),
    (PRICE, 97.5, "The price is 97.5, so the answer is 97.5.\nThe answer is ...", (R.EXACT, "97.5"),
     (R.UNPARSEABLE, None)),
    (PRICE, 97.5, "Thus, the answer is 97.5.\nTherefore, the answer is {final answer}.", (R.EXACT, "97.5"),
     (R.UNPARSEABLE, None)),
    # an answer of words only: the marker before it is read
    (PRICE, 97.5, "Therefore, the answer is 97.5.\nNote that the final answer is an approximation.", (R.EXACT, "97.5"),
     (R.UNPARSEABLE, None)),
    # ... but yes or no is something to read
    ("Is the bond trading at a premium?", True, "The answer is no. On reflection, the answer is yes.",
     (R.EXACT, "yes"), (R.EXACT, "yes")),
    # every marker empty (or no marker before the empty one): unparseable, as version 1 says
    (PRICE, 97.5, "The answer is: ", (R.UNPARSEABLE, None), (R.UNPARSEABLE, None)),
    (PRICE, 97.5, "the answer is {final answer}", (R.UNPARSEABLE, None), (R.UNPARSEABLE, None)),
    # a placeholder holding a digit is no placeholder: read as written (its braces dropped as LaTeX: 4)
    (PRICE, 97.5, "the answer is 97.5. the answer is {step 4}", (R.WRONG_VALUE, "4"), (R.WRONG_VALUE, "4")),
    # one value as a ratio and as a percentage: one number, read as the percentage
    (SHARE, 14.4, "the answer is 0.144 or 14.4%.", (R.PERCENT_DECLARED, "14.4%"), (R.SEVERAL_NUMBERS, None)),
    (SHARE, 14.4, "the answer is 14.4%, that is 0.144.", (R.PERCENT_DECLARED, "14.4%"), (R.SEVERAL_NUMBERS, None)),
    # (0.144) in parentheses is a negative: another value, two numbers
    (SHARE, 14.4, "the answer is 14.4% (0.144).", (R.SEVERAL_NUMBERS, None), (R.SEVERAL_NUMBERS, None)),
    (RETURN, 0.144, "the answer is 0.144 or 14.4%.", (R.PERCENT_DECLARED, "14.4%"), (R.SEVERAL_NUMBERS, None)),
    (RETURN, 0.05, "the answer is -0.05, or -5%.", (R.SIGN_FLIPPED, "-5%"), (R.SEVERAL_NUMBERS, None)),
    # not exactly the same value, or a scale word on one: two numbers
    (SHARE, 14.4, "the answer is 0.15 or 14.4%.", (R.SEVERAL_NUMBERS, None), (R.SEVERAL_NUMBERS, None)),
    (SHARE, 14.4, "the answer is 0.144 million or 14.4%.", (R.SEVERAL_NUMBERS, None), (R.SEVERAL_NUMBERS, None)),
    # the same digits with and without a percent sign: one number, read as the percentage
    (SHARE, 57.15, "Therefore, the answer is 57.15 (as a percentage, it would be 57.15%).",
     (R.PERCENT_DECLARED, "57.15%"), (R.SEVERAL_NUMBERS, None)),
    (RETURN, 0.1539, "Therefore, the answer is 15.39% or approximately 15.39.", (R.PERCENT_DECLARED, "15.39%"),
     (R.SEVERAL_NUMBERS, None)),
    # a formula and its result: the text after the last = is read
    (PRICE, 754.29, "Therefore, the answer is £528 / 0.7 = £754.29 (in millions).", (R.EXACT, "£754.29"),
     (R.SEVERAL_NUMBERS, None)),
    (PRICE, 103.0, "the answer is |1.80% - 97%| * 100 = 103 basis points.", (R.EXACT, "103"), (R.SEVERAL_NUMBERS, None)),
    (PRICE, 97.5, "the answer is x = 97.5 = y", (R.UNPARSEABLE, None), (R.EXACT, "97.5")),
    # the added currency codes: joined to the number, or after it
    (PRICE, 2000.0, "Therefore, the answer is CHF2,000.", (R.EXACT, "CHF2,000"), (R.UNPARSEABLE, None)),
    (PRICE, 2000.0, "Therefore, the answer is 2,000 SEK.", (R.EXACT, "2,000 SEK"), (R.EXACT, "2,000")),
    (PRICE, 2000.0, "the answer is 2,000 euros", (R.EXACT, "2,000 euros"), (R.EXACT, "2,000")),
]


@pytest.mark.parametrize("question, truth, completion, second, first", CASES)
def test_each_new_rule(question: str, truth: float, completion: str, second: tuple[str, str | None],
                       first: tuple[str, str | None]) -> None:
    gold = {"ground_truth": truth, "question": question}
    for protocol, (reason, read) in ((V2, second), (V1, first)):
        decision = decide(completion, gold, protocol, "phrase")
        assert (decision.reason, decision.read) == (reason, read), protocol.name


def test_the_reading_rules_are_read_only_where_declared() -> None:
    """The reading rules belong to the protocol: under any format (whole here), not under version 1;
    the span of a number read after = is where it stands in the completion."""
    gold = {"ground_truth": 14.4, "question": SHARE}
    assert decide("0.144 or 14.4%", gold, V2, "whole").reason == R.PERCENT_DECLARED
    assert decide("0.144 or 14.4%", gold, V1, "whole").reason == R.SEVERAL_NUMBERS
    text = "10.2 + 4.2 = 14.4%"
    decision = decide(text, gold, V2, "whole")
    assert decision.reason == R.PERCENT_DECLARED and decision.span == (13, 18) and text[13:18] == "14.4%"
    assert decide(text, gold, V1, "whole").reason == R.SEVERAL_NUMBERS


def _v2_data() -> dict[str, Any]:
    data = copy.deepcopy(dict(V2.data))
    data["id"] = "financemath-answer-test"
    return data


@pytest.mark.parametrize("change", [
    lambda d: d["format_rules"]["phrase"]["conclusions"].update(words=0),
    lambda d: d["format_rules"]["phrase"]["conclusions"].update(words=65),
    lambda d: d["format_rules"]["phrase"]["conclusions"].pop("closings"),
    lambda d: d["format_rules"]["phrase"]["conclusions"].update(openings=["therefore,\nthe"]),
    lambda d: d["format_rules"]["phrase"].update(max_markers_tried=1),
    lambda d: d["format_rules"]["phrase"].update(skip_unreadable="yes"),
    lambda d: (d["format_rules"]["phrase"].update(skip_unreadable=False),  # max_markers_tried then means nothing
               d["format_rules"]["phrase"].pop("conclusions")),
    lambda d: d["format_rules"]["phrase"].pop("max_markers_tried"),
    lambda d: d["format_rules"]["phrase"].update(extra=1),
    lambda d: d["reading"].update(ratio_and_percent_one="true"),
    lambda d: d["reading"].update(after_last_equals=1),
])
def test_the_new_rules_are_checked(change: Any) -> None:
    data = _v2_data()
    change(data)
    with pytest.raises(ProtocolError):
        protocol_from_data(data)


def test_the_conformance_rows_are_decided_as_labelled() -> None:
    rows = [json.loads(line) for line in gzip.decompress(CONFORMANCE.read_bytes()).splitlines()]
    assert len(rows) >= 3000 and {row["protocol"] for row in rows} == {"financemath-answer/2"}
    assert sum(row["source"] == "written (version 2)" for row in rows) >= 1000
    wrong = [row["row"] for row in rows
             if {"passed": (d := decide(row["completion"], row["gold"], V2, row["format"])).passed,
                 "reason": d.reason, "k": d.k} != row["expect"]]
    assert wrong == []


def test_the_conformance_file_is_what_its_generator_builds() -> None:
    assert tool("make_financemath2_conformance").build() == CONFORMANCE.read_bytes()
