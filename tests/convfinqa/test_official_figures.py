"""`finscore convfinqa`'s official block is the authors' evaluate_result on the file as given
(each leaderboard entry one evaluate_result entry), whatever --exclude-bad-ids keeps (recorded
runs of the official code; see tests/support/official_figures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.official_figures import check_case, recorded

CASES = sorted(recorded("convfinqa")["cases"])


def test_the_recording_names_its_official_code() -> None:
    data = recorded("convfinqa")
    assert data["official"].startswith("czyssrs/ConvFinQA ") and "evaluate_result" in data["official"]
    assert {"clean", "repeated", "unknown-id"} <= set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_the_official_block_is_the_recorded_run(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check_case("convfinqa", case, tmp_path, capsys, "--exclude-bad-ids")
