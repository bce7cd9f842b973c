"""Issue #32's reader holes, each against the protocol's written rule (its text is checked to say
so), CPython's float() as the oracle for the exponent spellings, and the core agreeing with Python
on every hole (the core leaves these rows to Python: the batch must decide them as `decide` does)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from finscore.answers import decide, decide_batch, finqa_gold, get_protocol
from finscore.answers import reasons as R
from finscore.answers.locate import boxed
from finscore.answers.numbers import AnswerRefusal, NumberReader, Reading
from finscore.answers.in_core import CORE_MIN_ROWS, decide_in_core

PROTOCOLS = ("finqa-answer/1", "convfinqa-answer/1", "tatqa-answer/1")
FINQA = NumberReader(get_protocol("finqa-answer/1"))

# (answer, value as the written rule reads it, percent, the words of the rule that say so)
HOLES = [
    ("- 5", "-5", False, "- 5 reads -5"),
    ("- 14.46%", "-14.46", True, "- 14.46% reads -14.46%"),
    ("\u2212 5", "-5", False, "one space may stand between the sign and its number"),
    ("- $5", "-5", False, "one space may stand between the sign and its number"),
    ("( 5 )", "-5", False, "( 5 ) reads -5"),
    ("( 5,829 )", "-5829", False, "( 5,829 ) reads -5829"),
    ("(5 )", "-5", False, "one space is allowed inside each parenthesis"),
    ("( $5 million )", "-5", False, "one space is allowed inside each parenthesis"),
    ("-US$5", "-5", False, "-US$5 reads -5"),
    ("(HK$5)", "-5", False, "(HK$5) reads -5"),
    ("A$5", "5", False, "A$"), ("C$ 5", "5", False, "C$"), ("S$5.5", "5.5", False, "S$"),
    ("US$-5", "-5", False, "US$"),
    ("1.e3", "1000", False, "1.e3 reads 1000"),
    ("5.E-1", "0.5", False, "5.E-1 reads 0.5"),
    ("14.46\u00a0%", "14.46", True, "U+00A0"),
    ("14.46\u202f%", "14.46", True, "U+202F"),
]


@pytest.mark.parametrize("answer, value, percent, rule", HOLES)
@pytest.mark.parametrize("name", PROTOCOLS)
def test_each_hole_reads_as_the_written_rule_says(name: str, answer: str, value: str, percent: bool,
                                                  rule: str) -> None:
    protocol = get_protocol(name)
    assert rule in " ".join(protocol.data["reading"]["rules"])
    read = NumberReader(protocol).read(answer)
    assert isinstance(read, Reading), read
    assert (read.value, read.percent) == (Decimal(value), percent)
    assert read.text == answer  # the whole spelling is the number's


@pytest.mark.parametrize("text", ["1.e3", "5.E-1", "2.e+2", "7.E0", "12.e-3", "1,000.e3"])
def test_a_point_before_the_exponent_reads_as_cpython_float_does(text: str) -> None:
    read = FINQA.read(text)
    assert isinstance(read, Reading), read
    assert float(read.value) == float(text.replace(",", ""))


# What the rules keep: a dash between two numbers or after a word is not a sign; a letter before a
# lettered dollar makes it a word; a no-break space before a scale word is not declared.
KEPT = [
    ("8 - 5", AnswerRefusal), ("Q4 - 5", Decimal("5")), ("XUS$5", Decimal("5")), ("1.5.e3", Decimal("1.5")),
    ("5 )", Decimal("5")), ("( 5", Decimal("5")), ("-  5", Decimal("5")),
]


@pytest.mark.parametrize("answer, expected", KEPT)
def test_what_the_rules_do_not_read_as_holes(answer: str, expected: object) -> None:
    read = FINQA.read(answer)
    if expected is AnswerRefusal:
        assert isinstance(read, AnswerRefusal) and read.reason == R.SEVERAL_NUMBERS
    else:
        assert isinstance(read, Reading) and read.value == expected


def test_a_no_break_space_before_a_scale_word_is_not_a_space() -> None:
    read = FINQA.read("14.46\u00a0million")
    assert isinstance(read, Reading) and (read.value, read.scale) == (Decimal("14.46"), None)


BOXES = [
    ("\\boxed{\\boxed{5}", "5"),
    ("So \\boxed{The answer is \\boxed{5} and then", "5"),
    ("\\boxed{1} first, then \\boxed{\\boxed{7} unclosed", "7"),
    ("\\boxed{1} first, then \\boxed{ never closed", "1"),
    ("\\boxed{\\boxed{2}{\\boxed{3}}", "3"),
]


@pytest.mark.parametrize("completion, answer", BOXES)
def test_a_complete_box_inside_an_unclosed_one(completion: str, answer: str) -> None:
    assert "\\boxed{The answer is \\boxed{5} reads 5" in get_protocol("finqa-answer/1").data["formats"]["boxed"]
    located = boxed(completion)
    assert not isinstance(located, AnswerRefusal), located
    assert located.text == answer
    assert completion[located.start:located.end] == answer


def test_the_depth_limit_counts_the_unclosed_box_too() -> None:
    """Braces nested deeper than 8 under the last \\boxed{ stay unparseable (the written rule)."""
    deep = boxed("\\boxed{ \\boxed{" + "{" * 7 + "5" + "}" * 7 + "}")  # 1 + 1 + 7 = 9 deep
    assert isinstance(deep, AnswerRefusal) and deep.reason == R.UNPARSEABLE
    fits = boxed("\\boxed{ \\boxed{" + "{" * 6 + "5" + "}" * 6 + "}")  # 8 deep: the limit
    assert not isinstance(fits, AnswerRefusal) and fits.text == "5"


def test_an_unclosed_chain_of_boxes_is_linear() -> None:
    """A chain of unclosed boxes would be quadratic if each were searched again: one more pass only."""
    import time

    text = "\\boxed{" * 150_000 + "5"
    started = time.process_time()
    assert isinstance(boxed(text), AnswerRefusal)
    assert time.process_time() - started < 2.0


@pytest.mark.parametrize("name", PROTOCOLS)
def test_the_core_leaves_every_hole_to_python_and_the_batch_agrees(name: str) -> None:
    protocol = get_protocol(name)
    golds = [finqa_gold(-5.0), finqa_gold(1000.0), finqa_gold(0.5), finqa_gold(5829.0)] \
        if protocol.gold_reader != "tatqa_answer" else None
    if golds is None:
        from finscore.answers import tatqa_gold
        golds = [tatqa_gold(-5.0, "", "arithmetic", "What is it?", NumberReader(protocol))]
    texts = [f"Work.\nAnswer: {answer}" for answer, *_ in HOLES if answer.isascii()] + \
        ["Answer: 8 - 5", "Answer: 94.e0", "Answer: (HK$ 5)"]
    completions = (texts * CORE_MIN_ROWS)[:max(CORE_MIN_ROWS, len(texts))]
    chosen = [golds[i % len(golds)] for i in range(len(completions))]
    in_core = decide_in_core(completions, chosen, protocol, "answer-line")
    assert in_core is not None
    assert all(found is None for found in in_core)  # every hole is the host's
    assert decide_batch(completions, chosen, protocol, "answer-line") == \
        [decide(c, g, protocol, "answer-line") for c, g in zip(completions, chosen)]
