"""`finscore convfinqa` on the recorded literal cases prints what the authors' evaluate_result printed.

The files and the official output come from tools/differential/record_literals.py (ConvFinQA's
own evaluate_result run on the same content, in the forms it reads); no case may end the run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.literals import check_official_figures


def test_the_official_figures_on_every_literal_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check_official_figures("convfinqa", tmp_path, capsys)
