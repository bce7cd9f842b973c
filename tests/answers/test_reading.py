"""How a number is read: the declared spellings, with values worked out by hand from the rules,
and CPython's own number formatting as an oracle for the plain and grouped spellings."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from typing import Any, Callable

import pytest

from finscore.answers import get_protocol, protocol_from_data, reasons
from finscore.answers.protocol import ProtocolError
from finscore.answers.numbers import AnswerRefusal as Refusal
from finscore.answers.numbers import NumberReader, Reading, read_yes_no

FINQA = NumberReader(get_protocol("finqa-answer/1"))

# (answer, value as written, percent, scale word power)
READ = [
    ("94", "94", False, None),
    ("-35", "-35", False, None),
    ("\u221235", "-35", False, None),
    ("$1,234,567.89", "1234567.89", False, None),
    ("-$1,234.5", "-1234.5", False, None),
    ("$-1,234.5", "-1234.5", False, None),
    ("(30)", "-30", False, None),
    ("($30 million)", "-30", False, 6),
    ("$(30)", "-30", False, None),
    ("14.1%", "14.1", True, None),
    ("14.1 %", "14.1", True, None),
    ("14.1 percent", "14.1", True, None),
    ("14.1 per cent", "14.1", True, None),
    ("1.2bn", "1.2", False, 9),
    ("1.2 billion", "1.2", False, 9),
    ("5k", "5", False, 3),
    ("5 thousand", "5", False, 3),
    ("3.4m", "3.4", False, 6),
    ("3.4 Million", "3.4", False, 6),
    ("USD 94", "94", False, None),
    ("94 USD", "94", False, None),
    ("94 dollars", "94", False, None),
    ("\u20ac12.50", "12.50", False, None),
    ("1.4464e-1", "0.14464", False, None),
    ("2E3", "2000", False, None),
    (".5", "0.5", False, None),
    ("The change was about 14.1%.", "14.1", True, None),
    ("In Q4 the margin was 7.5%", "7.5", True, None),
    ("FY2019 revenue: $5,829 million.", "5829", False, 6),
    ("14.1%, that is 14.1%", "14.1", True, None),
    ("**-0.5**", "-0.5", False, None),
]


@pytest.mark.parametrize("answer, value, percent, scale", READ)
def test_declared_spellings(answer: str, value: str, percent: bool, scale: int | None) -> None:
    read = FINQA.read(answer)
    assert isinstance(read, Reading), read
    assert (read.value, read.percent, read.scale) == (Decimal(value), percent, scale)


REFUSED = [
    ("NaN", reasons.UNPARSEABLE), ("nan%", reasons.UNPARSEABLE), ("-inf", reasons.UNPARSEABLE),
    ("Infinity", reasons.UNPARSEABLE), ("\u221e", reasons.UNPARSEABLE), ("1e309", reasons.UNPARSEABLE),
    ("1e-400", reasons.UNPARSEABLE), ("1,23", reasons.UNPARSEABLE), ("1,2345", reasons.UNPARSEABLE),
    ("12,34,567", reasons.UNPARSEABLE), ("1.2.3", reasons.UNPARSEABLE), ("about fourteen", reasons.UNPARSEABLE),
    ("", reasons.UNPARSEABLE), ("1e12345", reasons.UNPARSEABLE),
    ("14.1% or 0.141", reasons.SEVERAL_NUMBERS), ("from 2015 to 2016", reasons.SEVERAL_NUMBERS),
    ("14.1% and 14.1", reasons.SEVERAL_NUMBERS), ("5 million and 5", reasons.SEVERAL_NUMBERS),
]


@pytest.mark.parametrize("answer, reason", REFUSED)
def test_refusals(answer: str, reason: str) -> None:
    read = FINQA.read(answer)
    assert isinstance(read, Refusal) and read.reason == reason, read


def test_indian_grouping_only_where_declared() -> None:
    data = json.loads(json.dumps(dict(get_protocol("finqa-answer/1").data)))
    data["id"], data["reading"]["grouping"] = "indian-test", ["western", "indian"]
    indian = NumberReader(protocol_from_data(data))
    read = indian.read("\u20b912,34,567.8")
    assert isinstance(read, Reading) and read.value == Decimal("1234567.8")
    assert isinstance(FINQA.read("12,34,567.8"), Refusal)


def test_a_word_declared_both_percent_mark_and_scale_word_is_refused() -> None:
    """The reading of '5k' may not depend on the answer's length (the one-match reading of short
    answers tries scale words only, the full pass percent marks first), so the protocol is refused."""
    data = json.loads(json.dumps(dict(get_protocol("finqa-answer/1").data)))
    data["id"], data["reading"]["percent_marks"] = "ambiguous-test", ["%", "K"]
    with pytest.raises(ProtocolError, match="'k' both as a percent mark and as a scale word"):
        protocol_from_data(data)


def _changed(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = json.loads(json.dumps(dict(get_protocol("finqa-answer/1").data)))
    change(data)
    return data


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["comparison"]["percent"].update(gold_other="label"),
     "'comparison.percent.gold_other' is 'label', not one of divide_by_100"),
    (lambda d: d["comparison"]["percent"].update(gold_points="divide_by_100"),
     "'comparison.percent.gold_points' is 'divide_by_100', not one of label"),
    (lambda d: d["comparison"].pop("percent"), "has no 'comparison.percent'"),
    (lambda d: d["reading"].update(scale_words_appliedd=True), "'reading' holds 'scale_words_appliedd', which no rule"),
    (lambda d: d["comparison"]["tolerance"].update(bogus_key=1), "'comparison.tolerance' holds 'bogus_key'"),
    (lambda d: d.update(notes="x"), "top level holds 'notes'"),
    (lambda d: d["formats"].pop("boxed"), "'formats' describes each of"),
    (lambda d: d["formats"].update(yaml="x"), "'formats' describes each of"),
    (lambda d: d["comparison"].update(tolerance={"kind": "gold_places", "value": "0.5"}),
     "'comparison.tolerance.value' means nothing for gold_places"),
    (lambda d: d["reading"].update(rules="one rule"), "'reading.rules' is not a"),
])
def test_a_definition_holding_a_rule_nothing_applies_is_refused(change: Callable[[dict[str, Any]], None],
                                                                message: str) -> None:
    """The rules a report prints are the rules applied: a declared rule that is not implemented, or a
    key no code reads (a misspelt one would silently keep the default), refuses the definition."""
    with pytest.raises(ProtocolError) as refused:
        protocol_from_data(_changed(change))
    assert message in str(refused.value)


def test_every_shipped_definition_is_read_whole() -> None:
    for name in ("finqa-answer/1", "convfinqa-answer/1", "tatqa-answer/1"):
        assert protocol_from_data(json.loads(json.dumps(dict(get_protocol(name).data)))) == get_protocol(name)


def test_plain_and_grouped_python_formatting_reads_back_exactly() -> None:
    rng = random.Random(20261201)
    for _ in range(3000):
        number = rng.uniform(-1e12, 1e12) / 10 ** rng.randrange(0, 8)
        for text in (repr(number), f"{number:,}", f"{number:,.2f}", f"${number:,.3f}".replace("$-", "-$"), f"{number:e}"):
            read = FINQA.read(text)
            assert isinstance(read, Reading), (text, read)
            assert read.value == Decimal(text.replace(",", "").replace("$", "")), text


@pytest.mark.parametrize("answer, word", [("Yes.", "yes"), ("no, it did not", "no"), ("**YES**", "yes")])
def test_yes_no(answer: str, word: str) -> None:
    assert read_yes_no(answer, 100) == word


@pytest.mark.parametrize("answer", ["yes or no", "nothing", "noted"])
def test_yes_no_refused(answer: str) -> None:
    assert isinstance(read_yes_no(answer, 100), Refusal)


def test_the_one_match_reading_agrees_with_the_full_pass() -> None:
    """Short plain answers are read by one regular expression; the full pass must read them the same."""
    import gzip
    from pathlib import Path

    from finscore.answers.locate import LOCATORS, Located

    texts = [answer for answer, *_ in READ] + [answer for answer, _ in REFUSED]
    for stem in ("finqa-answer-1", "convfinqa-answer-1", "tatqa-answer-1"):
        path = Path(__file__).resolve().parents[2] / "python/finscore/answers/conformance" / f"{stem}.jsonl.gz"
        for line in gzip.decompress(path.read_bytes()).splitlines():
            row = json.loads(line)
            if row["completion"] is not None:
                located = LOCATORS[row["format"]](row["completion"])
                if isinstance(located, Located):
                    texts.append(located.text)
    rng = random.Random(5)
    pieces = ["-", "\u2212", "$", "\u20ac", "1", "23", "4,567", ",", ".", "0", "5", "%", " %", " million", "m", "bn",
              " K", ".", " ", "e3", "(", ")", "USD", "x"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randrange(1, 7))) for _ in range(20000)]
    for text in texts:
        assert FINQA.read(text) == FINQA.read(text, full=True), text
