"""Where each format found its marker (issue #32: the playground shows the marker and the span read).

`Located.marker` is shown, never decided on: the decisions are unchanged (the conformance and
recorded-output tests hold them byte for byte). Oracle: completions written here, with the marker
and the answer each format's written rule points at, picked out by hand.
"""

from __future__ import annotations

import pytest

from finscore.answers import FORMATS, Located, get_protocol
from finscore.answers.decide import locator_for

PROTOCOL = get_protocol("financemath-answer/1")

#: format: (completion, the marker's text or None, the answer's text as it stands in the completion)
CASES = {
    "answer-line": ("Working: 5 + 1\n  **Final Answer:** 6\n", "Final Answer:", "6"),
    "boxed": ("So it is \\boxed{6\\%} in all.", "\\boxed{", "6\\%"),
    "phrase": ("It grew. Therefore, **The Answer Is**: 6 dollars. Done", "The Answer Is", "6 dollars"),
    "tag": ("<think>the answer is 5</think>\n<Answer> 6 </Answer>", "<Answer>", "6"),
    "json": ('```json\n{"answer": "6"}\n```', None, '{"answer": "6"}'),
    "whole": ("  6  ", None, "6"),
    "last-number": ("It is 5, or rather 6", None, "6"),
}


def test_every_format_has_a_case() -> None:
    assert set(CASES) == set(FORMATS)


@pytest.mark.parametrize("answer_format", list(CASES))
def test_the_marker_and_the_span_are_where_the_rule_points(answer_format: str) -> None:
    completion, marker, answer = CASES[answer_format]
    located = locator_for(PROTOCOL, answer_format)(completion)
    assert isinstance(located, Located)
    assert completion[located.start:located.end] == answer
    if marker is None:
        assert located.marker is None
    else:
        assert located.marker is not None
        start, end = located.marker
        assert completion[start:end] == marker
        assert end <= located.start  # the marker comes before the answer it marks


def test_the_last_marker_is_the_one_shown() -> None:
    completion = "The answer is 5. On reflection, the answer is 6."
    located = locator_for(PROTOCOL, "phrase")(completion)
    assert isinstance(located, Located) and located.marker == (32, 45) and completion[32:45] == "the answer is"
    completion = "Answer: 5\nanswer: 6"
    located = locator_for(PROTOCOL, "answer-line")(completion)
    assert isinstance(located, Located) and located.marker == (10, 17)
