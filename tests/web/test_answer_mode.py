"""The answer mode: a completion typed into the page is decided as `finscore.answers.decide`
decides it in this process, field by field, with what the format located marked.

The completions are right in different spellings and wrong in every way a typed completion can
be (one per miss reason; `missing_prediction` needs an absent completion, which a text box
cannot hold). The expected decisions are computed here by the package under CPython; the labels
beside them are what the protocol's declared rules say, so a case that no longer shows its kind
fails loudly rather than testing nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from finscore.answers import FORMATS, GoldError, Located, decide, protocol_names
from finscore.answers.locate import LOCATORS

from .conftest import PYTHON_READY_MS, assert_readable_at_width, fill_answer_form, watch

#: a claim rests on these tests: under CI a skip fails the run (tests/conftest.py)
pytestmark = pytest.mark.essential

#: A real FinQA gold in percentage points (PNC/2012/page_65.pdf-1 of the test split).
POINTS = {"gold_answer": "16.93811", "gold_program": "divide(10.4, 61.4), multiply(#0, const_100)",
          "gold_question": "what percentage of the total carrying amount of investment securities is the "
                           "securities held to maturity?"}
#: A real FinQA gold that is a ratio (CDNS/2015/page_30.pdf-2): a % in the answer divides by 100.
RATIO = {"gold_answer": "0.379", "gold_program": "subtract(137.90, const_100), divide(#0, const_100)",
         "gold_question": "what is the rate of return in cadence design systems inc . of an investment from "
                          "2010 to 2011?"}
YES = {"gold_answer": "yes", "gold_program": "greater(5829, 5735)", "gold_question": "did it grow?"}
TATQA_MILLION = {"gold_answer": "1496.5", "gold_scale": "million", "gold_answer_type": "arithmetic",
                 "gold_question": "What is the amount of total sales in 2019?"}

#: (protocol, format, gold fields, completion, the reason the protocol's rules give)
CASES = [
    ("finqa-answer/1", "answer-line", POINTS, "About 16.9% of the total.\nAnswer: 16.93811", "exact"),
    ("finqa-answer/1", "answer-line", POINTS, "Answer: **16.94 %**", "percent_declared"),
    ("finqa-answer/1", "answer-line", POINTS, "Final Answer: 16.9", "within_tolerance"),
    ("finqa-answer/1", "boxed", POINTS, "So the share is \\boxed{16.94\\%}.", "percent_declared"),
    ("finqa-answer/1", "json", RATIO, '{"answer": "37.9%"}', "percent_declared"),
    ("finqa-answer/1", "answer-line", POINTS, "Answer: 0.1693811", "percent_vs_ratio"),
    ("finqa-answer/1", "answer-line", POINTS, "The share is 16.9%.", "no_final_answer"),
    ("finqa-answer/1", "answer-line", POINTS, "Answer: NaN", "unparseable"),
    ("finqa-answer/1", "answer-line", POINTS, "Answer: 16.9% or 17.2%", "several_numbers"),
    ("finqa-answer/1", "answer-line", POINTS, "Answer: 169.3811", "scale_off"),
    ("finqa-answer/1", "answer-line", POINTS, "Answer: (16.94%)", "sign_flipped"),
    ("finqa-answer/1", "answer-line", RATIO, "The return was about 0.4.\nAnswer: 0.4", "rounding"),
    ("finqa-answer/1", "answer-line", POINTS, "Answer: 12.5%", "wrong_value"),
    ("finqa-answer/1", "whole", YES, "No, it did not.", "wrong_yes_no"),
    ("convfinqa-answer/1", "answer-line", YES, "Answer: Yes.", "exact"),
    ("tatqa-answer/1", "answer-line", TATQA_MILLION, "Answer: $1,496.5 million", "exact"),
    ("tatqa-answer/1", "answer-line", TATQA_MILLION, "Answer: $1.4965 billion", "exact"),
    ("tatqa-answer/1", "answer-line", TATQA_MILLION, "Answer: 1,496.5 thousand", "scale_off"),
]


def _gold_mapping(protocol: str, fields: dict[str, str]) -> dict[str, Any]:
    """The gold as `decide` takes it, written here from the case (a number stays a JSON number)."""
    answer = fields["gold_answer"]
    if protocol.startswith("tatqa"):
        return {"answer": json.loads(answer), "scale": fields.get("gold_scale", ""),
                "answer_type": fields.get("gold_answer_type", "arithmetic"), "question": fields["gold_question"]}
    return {"exe_ans": answer if answer in ("yes", "no") else json.loads(answer),
            "program": fields["gold_program"], "question": fields["gold_question"]}




def _settled(page: Any) -> None:
    """Wait until what is shown answers what the form now holds."""
    page.wait_for_function("() => !document.body.dataset.busy && document.querySelector('#answer-view').dataset.request"
                           " === JSON.stringify(window.finscore.answerRequest())")


def _shown_fields(page: Any) -> dict[str, Any]:
    return dict(page.eval_on_selector_all(
        "#answer-fields tr", "rows => rows.map(r => [r.dataset.field, JSON.parse(r.querySelector('td').dataset.json)])"))


def test_the_page_offers_the_packages_protocols_and_formats(answer_page: Any) -> None:
    page = answer_page
    assert page.eval_on_selector_all("#answer-protocol option", "o => o.map(x => x.value)") == protocol_names()
    assert page.eval_on_selector_all("#answer-format option", "o => o.map(x => x.value)") == list(FORMATS)


@pytest.mark.parametrize("protocol, answer_format, fields, completion, reason", CASES,
                         ids=[f"{case[4]}-{n}" for n, case in enumerate(CASES)])
def test_a_typed_completion_is_decided_as_the_package_decides_it(answer_page: Any, protocol: str, answer_format: str,
                                                                 fields: dict[str, str], completion: str,
                                                                 reason: str) -> None:
    page = answer_page
    expected = decide(completion, _gold_mapping(protocol, fields), protocol=protocol, format=answer_format)
    assert expected.reason == reason, f"the case no longer shows {reason}: {expected}"
    fill_answer_form(page, protocol, answer_format, fields, completion, keystrokes=True)
    _settled(page)
    assert page.is_hidden("#answer-error"), page.text_content("#answer-error")
    shown = _shown_fields(page)
    assert {name: shown[name] for name in expected.to_json()} == expected.to_json()
    assert page.get_attribute("#answer-outcome", "data-reason") == reason
    assert page.text_content("#answer-decision .reason") == reason
    assert page.text_content("#answer-detail") == expected.detail
    # the completion is shown whole, with the located answer and the number read marked
    assert page.text_content("#answer-marked") == completion
    located = LOCATORS[answer_format](completion)
    if isinstance(located, Located):
        assert shown["located"] == located.text
        assert shown["located span"] == [located.start, located.end]
        assert shown["located verbatim"] == located.verbatim
    else:
        assert shown["located"] == f"none: {located.reason} ({located.detail})"
    if expected.read is not None and expected.span is not None:
        start, end = expected.span
        assert page.text_content("#answer-marked mark[data-role=number]") == completion[start:end]


def test_a_bad_gold_is_a_readable_message(answer_page: Any) -> None:
    page = answer_page
    fill_answer_form(page, "finqa-answer/1", "answer-line", {**POINTS, "gold_answer": "maybe"}, "Answer: 3",
                     keystrokes=True)
    _settled(page)
    with pytest.raises(GoldError) as raised:
        decide("Answer: 3", {"exe_ans": "maybe"}, protocol="finqa-answer/1")
    assert page.text_content("#answer-error") == f"the gold cannot be used under finqa-answer/1: {raised.value}"
    assert page.is_hidden("#answer-outcome")


def test_the_answer_state_is_shared_by_link(browser_context: Any, server: Any, answer_page: Any) -> None:
    page = answer_page
    protocol, answer_format, fields, completion, reason = CASES[-1]
    fill_answer_form(page, protocol, answer_format, fields, completion, keystrokes=True)
    _settled(page)
    page.wait_for_function("() => location.hash.startsWith('#1:')")
    page.wait_for_function("want => window.finscore.decodeState(location.hash).then(s => s.completion === want)",
                           arg=completion)
    link = page.url
    watched = watch(browser_context, server)
    opened = watched.page
    try:
        opened.goto(link)
        opened.wait_for_selector("#answer-view:not([hidden])")
        opened.wait_for_selector("#answer-outcome:not([hidden])", timeout=PYTHON_READY_MS)
        assert opened.input_value("#completion") == completion
        assert opened.input_value("#answer-protocol") == protocol
        assert opened.input_value("#gold-scale") == fields["gold_scale"]
        expected = decide(completion, _gold_mapping(protocol, fields), protocol=protocol, format=answer_format)
        shown = _shown_fields(opened)
        assert {name: shown[name] for name in expected.to_json()} == expected.to_json()
        assert opened.get_attribute("#answer-outcome", "data-reason") == reason
        assert not watched.console_errors
    finally:
        opened.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_answer_mode_is_readable_at_width(answer_page: Any, width: int) -> None:
    page = answer_page
    protocol, answer_format, fields, completion, _ = CASES[1]
    fill_answer_form(page, protocol, answer_format, fields, completion, keystrokes=True)
    _settled(page)
    assert_readable_at_width(page, width, "#answer-view", f"playground-answer-{width}.png")
