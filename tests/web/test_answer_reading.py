"""The answer view shows the marker the format found and the span it read, for every format
(issue #32), under financemath-answer/1: on the page's Python side under CPython, and typed into
the page in real Chromium.

Oracle: completions written here, each with the marker, the answer and the decision the format's
written rule gives it, picked out by hand (no expected value is computed by the package).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from finscore.answers import FORMATS

from .conftest import assert_readable_at_width, load_playground_module

pytestmark = pytest.mark.essential

playground = load_playground_module()
PROTOCOL = "financemath-answer/1"
GOLD = {"gold_answer": "1250.5", "gold_question": "What is the bond's price today?"}
LENIENT_WORDS = "last-number is lenient"

#: format: (completion, marker text or None, the answer read as it stands, the number's text, reason)
CASES: dict[str, tuple[str, str | None, str, str, str]] = {
    "phrase": ("Coupons are 50. Therefore, **the answer is** $1,250.5. Done", "the answer is", "$1,250.5",
               "$1,250.5", "exact"),
    "tag": ("<think>the answer is 7</think>\n<answer> 1300 </answer>", "<answer>", "1300", "1300", "wrong_value"),
    "last-number": ("Discounting 3 coupons at 4% gives 1250.5", None, "1250.5", "1250.5", "exact"),
    "boxed": ("So the price is \\boxed{1250.5}.", "\\boxed{", "1250.5", "1250.5", "exact"),
    "answer-line": ("Working: 1000 + 250.5\n**Answer:** 1250.5", "Answer:", "1250.5", "1250.5", "exact"),
    "json": ('{"answer": "1250.5"}', None, '{"answer": "1250.5"}', '{"answer": "1250.5"}', "exact"),
    "whole": ("  1250.5 ", None, "1250.5", "1250.5", "exact"),
}


def _request(answer_format: str, completion: str, gold: dict[str, str] | None = None) -> dict[str, Any]:
    return {"completion": completion, "protocol": PROTOCOL, "format": answer_format, "gold_program": "",
            "gold_scale": "", "gold_answer_type": "arithmetic", **(gold or GOLD)}


def test_every_format_has_a_case() -> None:
    assert set(CASES) == set(FORMATS)


@pytest.mark.parametrize("answer_format", list(CASES))
def test_the_python_side_says_where_the_marker_and_the_answer_are(answer_format: str) -> None:
    completion, marker, answer, number, reason = CASES[answer_format]
    shown = json.loads(playground.decide_answer(json.dumps(_request(answer_format, completion))))
    assert "error" not in shown, shown
    assert shown["decision"]["reason"] == reason
    reading = shown["reading"]
    if marker is None:
        assert reading["marker"] is None
    else:
        start, end = reading["marker"]["start"], reading["marker"]["end"]
        assert reading["marker"]["text"] == completion[start:end] == marker
    span = reading["span"]
    assert span["text"] == completion[span["start"]:span["end"]] == answer
    assert (reading["lenient"] is not None and LENIENT_WORDS in reading["lenient"]) == (answer_format == "last-number")
    parts = shown["parts"]
    assert "".join(text for text, _ in parts) == completion
    assert [text for text, role in parts if role == "marker"] == ([] if marker is None else [marker])
    assert [text for text, role in parts if role == "number"] == [number]


def test_a_financemath_gold_is_read_from_the_pages_fields() -> None:
    """ground_truth as FinanceMath writes it: a number, or a boolean (typed true / false)."""
    shown = json.loads(playground.decide_answer(json.dumps(_request(
        "phrase", "Therefore, the answer is no.", {"gold_answer": "false", "gold_question": "Is it worth it?"}))))
    assert shown["gold_mapping"] == {"ground_truth": False, "question": "Is it worth it?"}
    assert shown["decision"]["reason"] == "exact"
    shown = json.loads(playground.decide_answer(json.dumps(_request(
        "phrase", "Therefore, the answer is 38.9%.", {"gold_answer": "38.889", "gold_question":
                                                     "What is the growth rate (answer as a percentage)?"}))))
    assert shown["gold_mapping"] == {"ground_truth": 38.889, "question": "What is the growth rate (answer as a "
                                                                         "percentage)?"}
    assert shown["gold_read"]["points"] is True


def test_no_marker_no_span_when_the_format_finds_nothing() -> None:
    shown = json.loads(playground.decide_answer(json.dumps(_request("phrase", "The price is 1250.5."))))
    assert shown["decision"]["reason"] == "no_final_answer"
    assert shown["reading"]["marker"] is None and shown["reading"]["span"] is None


# -- in the page ------------------------------------------------------------------------------------


def _fill(page: Any, answer_format: str, completion: str) -> None:
    page.select_option("#answer-protocol", PROTOCOL)
    page.select_option("#answer-format", answer_format)
    assert page.is_hidden("#gold-program") and page.is_hidden("#gold-scale")  # not read by this gold reader
    page.fill("#gold-answer", GOLD["gold_answer"])
    page.fill("#gold-question", GOLD["gold_question"])
    page.fill("#completion", completion)  # the reading follows the typing (the live decision)


def _settled(page: Any) -> None:
    page.wait_for_function("() => !document.body.dataset.busy && document.querySelector('#answer-view').dataset.request"
                           " === JSON.stringify(window.finscore.answerRequest())")


@pytest.mark.parametrize("answer_format", list(CASES))
def test_the_page_shows_the_marker_and_highlights_the_span(answer_page: Any, answer_format: str) -> None:
    page = answer_page
    completion, marker, answer, number, reason = CASES[answer_format]
    _fill(page, answer_format, completion)
    _settled(page)
    assert page.is_hidden("#answer-error"), page.text_content("#answer-error")
    assert page.get_attribute("#answer-outcome", "data-reason") == reason
    line = "#answer-reading"
    shown_marker = json.loads(page.get_attribute(line, "data-marker") or "null")
    shown_span = json.loads(page.get_attribute(line, "data-span") or "null")
    assert shown_span["text"] == answer and completion[shown_span["start"]:shown_span["end"]] == answer
    text = page.text_content(line) or ""
    assert f"answer read: {answer} (characters {shown_span['start']} to {shown_span['end']}" in text
    if marker is None:
        assert shown_marker is None and page.query_selector("#answer-marked mark[data-role=marker]") is None
        assert f"No marker: the {answer_format} format has none" in text
        assert (LENIENT_WORDS in text) == (answer_format == "last-number")
    else:
        assert shown_marker["text"] == marker
        assert text.startswith(f"Marker found: {marker} (characters {shown_marker['start']} to ")
        assert page.text_content("#answer-marked mark[data-role=marker]") == marker
        assert page.get_attribute("#answer-marked mark[data-role=marker]", "class") == "marker"
    # the completion is shown whole, the number read marked within it
    assert page.text_content("#answer-marked") == completion
    assert page.text_content("#answer-marked mark[data-role=number]") == number


@pytest.mark.parametrize("width", [1280, 390])
def test_the_reading_is_readable_at_width(answer_page: Any, width: int) -> None:
    page = answer_page
    _fill(page, "phrase", CASES["phrase"][0])
    _settled(page)
    assert_readable_at_width(page, width, "#answer-view", f"playground-answer-reading-{width}.png")
