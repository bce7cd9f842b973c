"""`finscore finqa` on the recorded literal cases prints what the official evaluate.py printed.

The files and the official output come from tools/differential/record_literals.py (the
official evaluate_result run on the same content); no case may end the run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.literals import check_official_figures


def test_the_official_figures_on_every_literal_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check_official_figures("finqa", tmp_path, capsys)
