"""The core's answer decider (fs_decide_answers, through decide_batch) decides exactly as the Python
rules do: every row it decides equals `decide` on that row alone (which never calls the core, and
which the conformance files check against their labels), on the conformance rows and on generated
answers built to hit the edges of each rule. The tests also check that the core really decides the
common rows (a test whose rows all went to Python would prove nothing) and leaves to Python what
it does not hold."""

from __future__ import annotations

import json
import random
from collections import Counter
from decimal import Decimal
from typing import Any

import pytest

from finscore.answers import Gold, as_gold, decide, decide_batch, finqa_gold, get_protocol, protocol_from_data
from finscore.answers import reasons as R
from finscore.answers import tatqa_gold
from finscore.answers.decide import reader_for
from finscore.answers.in_core import CORE_MIN_ROWS, core_rules, decide_in_core
from finscore.answers.protocol import Protocol
from finscore.answers.registry import get_protocol as registered

from tests.answers.test_conformance import STEMS, rows

NUMBERS = ["0", "5", "94", "007", "1234", "1,234", "12,345.67", "1,23,456", "12,34,567.5", "1,2345", "1,23",
           "0.5", ".5", "3.14159", "100.00", "1.2.3", "1,234.5,6", "99999999999999999999", "12345678901234567890123",
           "1e3", "1.5E-2", "2e+05", "7e12345", "6.02e23", "1e309", "1e-400", "0.000001", "250000000", "5."]
BEFORE = ["", "$", "$ ", "-", "-$", "$-", "+", "+$", "USD ", "usd", "Rs ", "Q", "FY", "(", "($", "--", "a-", "x",
          "dollars ", "(-", "EUR"]
AFTER = ["", "%", " %", " percent", " Per Cent", "percentage", " million", "m", "M", "mn", " bn", " billion",
         "k", " K", "x", "rd", " USD", " dollars", "dollar", ")", " million)", "%)", ".", ",", "e", "e+", " tn",
         "millions", " thousand dollars", " m USD", "s"]
FILLERS = ["", "The result is about ", "approximately ", "about ", "that is ", "Q4 ", "in FY2019 ", "10-K: ",
           "nan ", "Infinity or ", "inf", "NaN", "information ", "yes ", "no ", "(", "**", "__"]
JOINS = [" and ", " or ", ", that is ", " vs ", " ", "/"]
MARKERS = ["Answer: ", "Answer:", "**Answer:** ", "Final Answer: ", "final\tanswer :", "> answer:", "## ANSWER*:",
           "######### Answer: ", "Answer     : ", "answers: ", "Final  \t  Answer: ", "Final     Answer: ",
           "_Answer_: ", "The answer: "]


def number_text(rng: random.Random, gold: Decimal | None) -> str:
    """A number: near the gold (times a factor, at some places) or one of the edge spellings."""
    if gold is not None and rng.random() < 0.6:
        factor = rng.choice([1, 1, 1, Decimal("1.001"), Decimal("1.004"), Decimal("1.01"), -1, 100,
                             Decimal("0.01"), 1000, Decimal("1e6"), Decimal("1e-6"), Decimal("0.1"), 10])
        value = gold * factor
        places = rng.choice([0, 1, 2, 3, 4, 6])
        shown = format(value.quantize(Decimal(1).scaleb(-places)) if abs(value.adjusted()) < 15 else value, "f")
        if rng.random() < 0.3 and "." in shown and not shown.startswith("-"):
            whole, _, fraction = shown.partition(".")
            shown = f"{int(whole):,}.{fraction}"
        return shown
    return rng.choice(NUMBERS)


def answer_text(rng: random.Random, gold: Decimal | None) -> str:
    parts = [rng.choice(FILLERS)]
    for index in range(rng.choice([1, 1, 1, 2, 2, 3])):
        if index:
            parts.append(rng.choice(JOINS))
        parts += [rng.choice(BEFORE), number_text(rng, gold), rng.choice(AFTER)]
    if rng.random() < 0.2:
        parts.append(rng.choice([".", " million.", " (rounded)", "**", " _", "\r"]))
    return "".join(parts)


def completion_text(rng: random.Random, gold: Decimal | None, answer_format: str) -> str:
    answer = answer_text(rng, gold)
    if answer_format == "whole":
        return rng.choice(["", " ", "**", "\t"]) + answer + rng.choice(["", " ", "*", "\r\n"])
    lines = [rng.choice(["The question asks about revenue.", "From the table: 5829, 5735.", "", "Answer is below"])]
    for _ in range(rng.choice([0, 1, 1, 2])):
        lines.append(rng.choice(MARKERS) + answer_text(rng, gold))
    if rng.random() < 0.9:
        lines.append(rng.choice(MARKERS) + answer)
    if rng.random() < 0.2:
        lines.append(rng.choice(["", "Hope this helps.", "Answer", "   "]))
    return rng.choice(["\n", "\r\n"]).join(lines)


def generated_gold(rng: random.Random, protocol: Protocol) -> Gold:
    if protocol.gold_reader == "tatqa_answer":
        scale = rng.choice(["", "", "thousand", "million", "billion", "percent"])
        if rng.random() < 0.3:
            text = rng.choice(["1,234", "5.5%", "12.50", "(3.2)", "0.25", "-17"])
            return tatqa_gold(text, scale, "span", "What is it?", reader_for(protocol))
        return tatqa_gold(round(rng.uniform(-5000, 5000), rng.choice([0, 1, 2, 3])), scale, "arithmetic",
                          "What is it?", reader_for(protocol))
    if rng.random() < 0.05:
        return finqa_gold(rng.choice(["yes", "no"]))
    value = rng.choice([round(rng.uniform(-1000, 1000), rng.choice([0, 2, 5])), round(rng.uniform(0, 1), 5),
                        0.0, 94.0, 0.14464, 1e-7, 123456789012.0, 6e20, -0.0])
    program = rng.choice(["divide(#0, #1)", "subtract(a, b), divide(#0, b), multiply(#1, const_100)"])
    question = rng.choice(["what is the change?", "what percent of the total?", "what is the ratio?"])
    return finqa_gold(value, program, question)


def variant(base: str, **reading: Any) -> Protocol:
    """A registered protocol with some reading or comparison rules changed (a user's own protocol)."""
    data = json.loads(json.dumps(registered(base).data))
    for key, value in reading.items():
        if key == "tolerance":
            data["comparison"]["tolerance"] = value
        else:
            data["reading"][key] = value
    data["id"] = f"{data['id']}-variant"
    return protocol_from_data(data)


PROTOCOLS: dict[str, Protocol] = {
    "finqa-answer/1": get_protocol("finqa-answer/1"),
    "convfinqa-answer/1": get_protocol("convfinqa-answer/1"),
    "tatqa-answer/1": get_protocol("tatqa-answer/1"),
    "indian grouping, absolute tolerance": variant(
        "finqa-answer/1", grouping=["western", "indian"], tolerance={"kind": "absolute", "value": "0.05"}),
    "indian only, no parentheses, scale applied": variant(
        "finqa-answer/1", grouping=["indian"], negative_parentheses=False, scale_words_applied=True,
        max_number_chars=12, max_answer_chars=60),
    "gold places, bare numbers in the gold's scale": variant(
        "tatqa-answer/1", tolerance={"kind": "gold_places"}, currency_codes=["USD", "Rs", "rupees"]),
}


@pytest.mark.parametrize("name", sorted(PROTOCOLS))
@pytest.mark.parametrize("answer_format", ["answer-line", "whole"])
def test_generated_answers_are_decided_as_python_decides_them(name: str, answer_format: str) -> None:
    protocol = PROTOCOLS[name]
    rng = random.Random(f"{name}/{answer_format}")
    golds = [generated_gold(rng, protocol) for _ in range(400)]
    chosen = [golds[rng.randrange(len(golds))] for _ in range(6000)]
    completions = [completion_text(rng, gold.value, answer_format) for gold in chosen]
    in_core = decide_in_core(completions, chosen, protocol, answer_format)
    assert in_core is not None
    by_core = Counter(decision.reason for decision in in_core if decision is not None)
    wrong = [(completion, gold, batch, decide(completion, gold, protocol, answer_format))
             for completion, gold, batch in zip(completions, chosen, decide_batch(completions, chosen, protocol,
                                                                                  answer_format))
             if batch != decide(completion, gold, protocol, answer_format)]
    assert wrong == []
    # the core decided a good share, and every reason it can give, so the comparison above tested it
    assert sum(by_core.values()) >= len(completions) // 3, by_core
    expected = {R.EXACT, R.WITHIN_TOLERANCE, R.PERCENT_DECLARED, R.SEVERAL_NUMBERS, R.SCALE_OFF, R.SIGN_FLIPPED,
                R.WRONG_VALUE}
    if answer_format == "answer-line":
        expected.add(R.NO_FINAL_ANSWER)
    assert expected <= set(by_core), expected - set(by_core)
    wrong_in_core = [(c, d) for c, g, d in zip(completions, chosen, in_core)
                     if d is not None and d != decide(c, g, protocol, answer_format)]
    assert wrong_in_core == []


@pytest.mark.parametrize("name", sorted(STEMS))
def test_the_core_decides_the_common_conformance_rows_as_labelled(name: str) -> None:
    protocol = get_protocol(name)
    for answer_format in ("answer-line", "whole"):
        chosen = [row for row in rows(STEMS[name]) if row["format"] == answer_format]
        golds = [as_gold(row["gold"], protocol) for row in chosen]
        in_core = decide_in_core([row["completion"] for row in chosen], golds, protocol, answer_format)
        assert in_core is not None
        decided = [(row, decision) for row, decision in zip(chosen, in_core) if decision is not None]
        assert len(decided) >= len(chosen) // 3, (answer_format, len(decided), len(chosen))
        for row, decision in decided:
            assert {"passed": decision.passed, "reason": decision.reason, "k": decision.k} == row["expect"], row
            assert decision == decide(row["completion"], row["gold"], protocol, answer_format), row


def test_what_the_core_does_not_hold_is_left_to_python() -> None:
    protocol = get_protocol("finqa-answer/1")
    gold = finqa_gold(94.0)
    completions = ["Answer: 94\u00a0million", "Answer: \u221294", b"Answer: 94", None, 94, "Answer: 94, that is 94",
                   "Answer: 94", "Answer: 123456789012345678901", "Answer: nan", "Answer: 1,2345", "Answer: yes"]
    in_core = decide_in_core(completions, [gold] * len(completions), protocol, "answer-line")
    assert in_core is not None
    # non-ASCII text, bytes, None and other types are never sent; a refusal other than several_numbers
    # (a number beyond the protocol's 100 characters' limit would be one), a coefficient beyond 19
    # digits and a yes / no answer against a number gold come back undecided
    assert [decision is None for decision in in_core] == [True, True, True, True, True, False, False, True, True,
                                                          True, True]
    assert in_core[6] == decide("Answer: 94", gold, protocol)
    assert decide_in_core(["Answer: 5"], [gold], protocol, "boxed") is None
    # a Gold built by hand with a float value is not the core's (the Python rules decide or refuse it)
    assert decide_in_core(["Answer: 94"], [gold._replace(value=94.0)], protocol, "answer-line") == [None]
    assert decide_in_core(["Answer: yes"], [finqa_gold("yes")], protocol, "answer-line") == [None]


def test_a_gold_scale_beyond_six_digits_is_never_the_core_s() -> None:
    """The core reads a gold's scale in at most six digits (as a scale word's power). A longer one, sent
    by hand to fs_decide_answers, leaves the row to the host: it once overflowed the core's exponent
    sums and wrote far past the value slot, trapping the module."""
    from finscore.answers.in_core import CORE_FORMATS
    from finscore.engine.core._abi_generated import AnswerRow
    from finscore.engine.core.abi import ANSWER_OUTCOME_STRUCT
    from finscore.engine.core.binding import get_core

    protocol = get_protocol("tatqa-answer/1")
    rules = core_rules(protocol)
    assert rules is not None and rules.split(b"\x1e")[0].count(b"G") == 1  # bare numbers in the gold's scale
    golds = [b"0E-1\x1f0E-5\x1f\x1f-2147483647", b"1\x1f0.5\x1f\x1f+2147483647", b"0\x1f0.5\x1f\x1f1000000",
             b"5000\x1f0.5\x1f\x1f3"]
    texts = [b"0.5", b"5e5", b"0", b"5"]
    spans = [n for at, gold in zip([0, *[sum(map(len, golds[:k])) for k in range(1, 4)]], golds) for n in (at, len(gold))]
    rows = [n for k, text in enumerate(texts) for n in (sum(map(len, texts[:k])), len(text), k)]
    outcomes, _ = get_core().decide_answers(rules, CORE_FORMATS["whole"], b"".join(texts), rows, b"".join(golds), spans)
    decided = [row == AnswerRow.DECIDED for row, *_ in ANSWER_OUTCOME_STRUCT.iter_unpack(outcomes)]
    assert decided == [False, False, False, True]  # the last, scale 3, is read: 5 thousand is the gold 5000
    hand_built = tatqa_gold(5000.0, "thousand", "arithmetic", "", reader_for(protocol))._replace(scale=10**7)
    assert decide_in_core(["5"] * CORE_MIN_ROWS, [hand_built] * CORE_MIN_ROWS, protocol, "whole") == [None] * CORE_MIN_ROWS


def test_a_protocol_whose_words_leave_ascii_stays_in_python() -> None:
    """Python's case-insensitive matching folds the long s (U+017F) to s; the core does not imitate
    that, so a protocol declaring such a word is decided in Python throughout."""
    long_s = variant("finqa-answer/1", percent_marks=["%", "\u017f"])
    assert core_rules(long_s) is None
    assert core_rules(get_protocol("finqa-answer/1")) is not None
    gold = finqa_gold(0.05)
    alone = decide("Answer: 5s", gold, long_s)
    assert (alone.reason, alone.value) == (R.PERCENT_DECLARED, "0.05")  # s read as the declared percent mark
    assert decide_batch(["Answer: 5s"] * CORE_MIN_ROWS, [gold] * CORE_MIN_ROWS, long_s) == [alone] * CORE_MIN_ROWS


def test_the_core_codes_are_the_python_names() -> None:
    """The core's reason and format codes (core/abi.toml) name the same reasons and formats, in order."""
    from finscore.engine.core._abi_generated import AnswerFormat, AnswerReason
    from finscore.answers.in_core import CORE_FORMATS

    assert [reason.name.lower() for reason in sorted(AnswerReason)] == list(R.ALL_REASONS)
    assert {name.replace("_", "-").lower(): int(code) for name, code in AnswerFormat.__members__.items()} == CORE_FORMATS


def test_limits_the_core_cannot_hold_leave_the_protocol_to_python() -> None:
    """Limits up to int32 go to the core (read back exactly); beyond, the protocol stays in Python,
    and either way the batch decides as `decide` does."""
    near = variant("finqa-answer/1", max_answer_chars=2**31 - 1, max_number_chars=1_000_000_000)
    beyond = variant("finqa-answer/1", max_answer_chars=2**31, max_number_chars=2**40)
    huge_power = variant("finqa-answer/1", scale_words={"million": 6, "googol": 100, "far": 10**7},
                         scale_words_applied=True)
    assert core_rules(near) is not None and core_rules(beyond) is None and core_rules(huge_power) is None
    assert core_rules(variant("finqa-answer/1", scale_words={"googol": 100, "tiny": -999_999})) is not None
    many = variant("finqa-answer/1", currency_codes=[f"C{n:03}" for n in range(65)])
    fine = variant("finqa-answer/1", tolerance={"kind": "relative", "value": "0.0050000000000000001"})
    too_fine = variant("finqa-answer/1", tolerance={"kind": "relative", "value": "0.005000000000000000000001"})
    assert core_rules(many) is None and core_rules(fine) is not None and core_rules(too_fine) is None
    gold = finqa_gold(94.0)
    completions = ["Answer: " + "12 " * 5000 + "94", "Answer: $94.00 million"] * CORE_MIN_ROWS
    for protocol in (near, beyond, huge_power, many, fine, too_fine):
        assert decide_batch(completions, [gold] * len(completions), protocol) == \
            [decide(c, gold, protocol) for c in completions]
    assert decide_in_core(completions, [gold] * len(completions), near, "answer-line")[1] is not None


def test_a_batch_beyond_one_call_is_cut_into_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows per call and text per call are bounded; a batch cut into calls of 5 rows or of 40 bytes
    of text gets the same decisions as one call."""
    import finscore.answers.in_core as in_core

    protocol = get_protocol("finqa-answer/1")
    gold = finqa_gold(94.0)
    completions = [f"Answer: {n}" for n in range(80, 120)] + ["Answer: 94 " + "x" * 50]
    whole = decide_in_core(completions, [gold] * len(completions), protocol, "answer-line")
    monkeypatch.setattr(in_core, "CALL_ROWS", 5)
    assert decide_in_core(completions, [gold] * len(completions), protocol, "answer-line") == whole
    monkeypatch.setattr(in_core, "CALL_ROWS", 65_536)
    monkeypatch.setattr(in_core, "CALL_TEXT_BYTES", 40)
    cut = decide_in_core(completions, [gold] * len(completions), protocol, "answer-line")
    assert cut is not None and whole is not None
    assert cut[:-1] == whole[:-1] and cut[-1] is None  # the 61-character completion is left to Python
    assert all(decision is not None for decision in whole)
