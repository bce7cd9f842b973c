"""The boxed format on hostile megabytes: each shape's decision, worked out by hand from the rule the
protocols declare (the last complete \\boxed{...}; a complete box inside a never-closed last one;
braces nested deeper than 8: unparseable), by each reader: the regular expressions and the core's
one pass (which boxed uses on a completion this long). Speed is measured in benchmarks/, never here."""

from __future__ import annotations

from finscore.answers.locate import Located, boxed, boxed_from, boxed_span, boxed_span_in_core
from finscore.answers.numbers import AnswerRefusal
from finscore.answers.reasons import NO_FINAL_ANSWER, UNPARSEABLE

MB = 1 << 20
DEEP = "{" * 8  # after \boxed{, the eighth '{' opens level 9


def _readings(completion: str) -> list[Located | AnswerRefusal]:
    """What boxed reads (on a megabyte: the core's scan), what the regular expressions read and what
    the core reads: each is checked against the hand-worked decision."""
    return [boxed(completion), boxed_from(completion, boxed_span(completion)),
            boxed_from(completion, boxed_span_in_core(completion))]


def _read(completion: str) -> tuple[str, int, int]:
    """The text and span boxed reads (the test fails, naming the refusal, when it refuses)."""
    found = set()
    for located in _readings(completion):
        assert isinstance(located, Located), located
        assert located.marker == (located.start - len("\\boxed{"), located.start)
        found.add((located.text, located.start, located.end))
    assert len(found) == 1, found
    return found.pop()


def _refusal(completion: str) -> str:
    found = set()
    for refused in _readings(completion):
        assert isinstance(refused, AnswerRefusal), refused
        found.add(refused.reason)
    assert len(found) == 1, found
    return found.pop()


def test_complete_boxes_repeated_the_last_is_read() -> None:
    text = "\\boxed{1}" * (MB // 9)
    assert _read(text) == ("1", len(text) - 2, len(text) - 1)
    text = "\\boxed{{1}}" * (MB // 11)
    assert _read(text) == ("1", len(text) - 4, len(text) - 1)  # the content is {1}, its braces dropped


def test_a_never_closed_box_over_pairs_has_no_answer() -> None:
    assert _refusal("\\boxed{" + "{}" * (MB // 2)) == NO_FINAL_ANSWER


def test_a_never_closed_box_over_complete_boxes_reads_the_last_inner_one() -> None:
    text = "\\boxed{" + "\\boxed{1}" * (MB // 9)
    assert _read(text) == ("1", len(text) - 2, len(text) - 1)


def test_a_complete_box_at_the_start_of_a_never_closed_one_over_nested_groups() -> None:
    # the outer box is at level 1, each group 7 deep: level 8 at most, never closed; 5 is read
    text = "\\boxed{\\boxed{5}" + "{{{{{{{x}}}}}}}" * (MB // 15)
    assert _read(text) == ("5", 14, 15)  # two \boxed{ of 7 characters before it


def test_seven_never_closed_boxes_over_pairs_have_no_answer() -> None:
    assert _refusal("\\boxed{" * 7 + "{}" * (MB // 2)) == NO_FINAL_ANSWER  # level 8 at most, nothing closes


def test_each_box_too_deep() -> None:
    assert _refusal("\\boxed{{1}" * (MB // 10)) == UNPARSEABLE  # each box one level deeper than the last
    assert _refusal(("\\boxed{" + DEEP) * (MB // 15) + "}") == UNPARSEABLE
    assert _refusal("\\boxed{" * (MB // 7) + "}" * (MB // 7)) == UNPARSEABLE  # the first box: level 9 at its 9th


def test_a_box_after_each_too_deep_one_is_read() -> None:
    # after a too-deep brace the text up to the next \boxed{ is skipped; that box is complete
    text = ("\\boxed{" + DEEP + "\\boxed{7}") * (MB // 24)
    assert _read(text) == ("7", len(text) - 2, len(text) - 1)


def test_a_complete_box_inside_a_too_deep_region_is_not_read() -> None:
    # \boxed{ is level 1, seven '{' reach 8: the inner \boxed{ opens level 9, the box is too deep
    unit = "\\boxed{" + "{" * 7 + "\\boxed{5}" + "}" * 8
    assert _refusal(unit * (MB // len(unit))) == UNPARSEABLE
    assert _read(unit * (MB // len(unit)) + "\\boxed{6}")[0] == "6"  # a complete box after them is read


def test_a_never_closed_box_after_too_deep_ones_is_still_unparseable() -> None:
    assert _refusal(("\\boxed{" + DEEP) * (MB // 15) + "}\\boxed{\\boxed{5}") == UNPARSEABLE


def test_a_never_closed_last_box_leaves_the_complete_one_before_it() -> None:
    text = "\\boxed{1}" * (MB // 9) + "\\boxed{"
    assert _read(text) == ("1", len(text) - 9, len(text) - 8)
    pairs = "{}" * (MB // 2)  # the complete box before it is a megabyte long
    assert _read("\\boxed{" + pairs + "}\\boxed{") == ("", 7, 7 + len(pairs))


def test_closing_braces_flood() -> None:
    assert _read("\\boxed{5}" + "}" * MB) == ("5", 7, 8)
    assert _refusal("}" * MB + "\\boxed{") == NO_FINAL_ANSWER


def test_a_complete_box_over_a_megabyte_of_pairs() -> None:
    pairs = "{}" * (MB // 2)
    assert _read("\\boxed{" + pairs + "}") == ("", 7, 7 + len(pairs))


def test_boxed_openings_flood() -> None:
    assert _refusal("\\boxed{" * (MB // 7)) == UNPARSEABLE
    assert _refusal("\\boxed{" * 7 + "5") == NO_FINAL_ANSWER  # level 7, never closed, nothing inside closes
    assert _read("\\boxed{" * 7 + "5}") == ("5", 49, 50)  # the innermost box closes: it is inside the others
