"""`finscore finqa`'s official block is evaluate.py's own result on the file as given, whatever
--exclude-bad-ids keeps: a repeated id counts once per entry, an unknown id or an entry it cannot
index stops it (recorded runs of the official evaluate.py; see tests/support/official_figures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from finscore.finqa.official_run import official_tokens

from support.official_figures import check_case, recorded

CASES = sorted(recorded("finqa")["cases"])


def test_the_recording_names_its_official_code() -> None:
    data = recorded("finqa")
    assert data["official"].startswith("czyssrs/FinQA ") and "code/evaluate/evaluate.py" in data["official"]
    assert {"clean", "repeated", "unknown-id", "not-an-object", "no-predicted"} <= set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_the_official_block_is_the_recorded_run(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check_case("finqa", case, tmp_path, capsys, "--exclude-bad-ids")


def test_a_file_without_exclusions_prints_the_same_block_without_the_flag(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check_case("finqa", "clean", tmp_path, capsys)


@pytest.mark.parametrize(("predicted", "tokens"), [
    ("ab", ("a", "b")),  # Python iterates text by character, as eval_program does
    (["add(", "1", "2", ")", 7], ("add(", "1", "2", ")", "EOF")),  # the last token is dropped unread
    (["add(", 1, "2", ")", "EOF"], None),
    (5, None),
    (None, None),
    ({"a": 1}, None),
    ([], ()),
])
def test_what_the_official_code_runs_a_predicted_value_as(predicted: object, tokens: tuple[str, ...] | None) -> None:
    assert official_tokens(predicted) == tokens
