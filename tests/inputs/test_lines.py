"""bounded_lines: every line as io's readline gives it, except that a line over the limit is None
and costs no more memory than the limit; the lines after it are read as usual."""

from __future__ import annotations

import io

import pytest

from finscore.inputs.lines import bounded_lines


@pytest.mark.parametrize("text", ["", "a\n", "a\nb", "\n\n", "abc\r\nde\n", "x" * 5 + "\n" + "y" * 5])
def test_lines_within_the_limit_are_readline_s_own(text: str) -> None:
    assert list(bounded_lines(io.StringIO(text), 5)) == io.StringIO(text).readlines()
    assert list(bounded_lines(io.BytesIO(text.encode()), 5)) == io.BytesIO(text.encode()).readlines()


def test_a_line_over_the_limit_is_none_and_the_next_lines_still_come() -> None:
    text = "12345\n" + "x" * 23 + "\nok\n" + "y" * 6
    assert list(bounded_lines(io.StringIO(text), 5)) == ["12345\n", None, "ok\n", None]
    assert list(bounded_lines(io.BytesIO(text.encode()), 5)) == [b"12345\n", None, b"ok\n", None]


def test_the_limit_counts_characters_before_the_newline() -> None:
    assert list(bounded_lines(io.StringIO("abcde\nabcdef\n"), 5)) == ["abcde\n", None]


class CountingReader(io.StringIO):
    """Records the largest piece asked of readline."""

    largest = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        assert size is not None and size > 0  # never an unbounded read
        self.largest = max(self.largest, size)
        return super().readline(size)


def test_no_read_asks_for_more_than_the_limit_and_its_newline() -> None:
    stream = CountingReader("z" * 10_000 + "\nend\n")
    assert list(bounded_lines(stream, 100)) == [None, "end\n"]
    assert stream.largest == 101
