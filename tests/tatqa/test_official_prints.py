"""`finscore tatqa` prints what the official tatqa_eval.py printed, character for character.

data/official_prints.json holds the official script's standard output on the
cases of official_cases.py (recorded by record_official.py with numpy, scipy
and pandas; versions in the file). Both the API's official text and the
command's report must contain it exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from finscore.cli import main
from finscore.tatqa import decode_predictions, official_text, run_official
from finscore.tatqa.inputs import read_gold
from support.shared import TATQA, require

from .official_cases import CASES, case_inputs

RECORDED = json.loads((Path(__file__).parent / "data" / "official_prints.json").read_text(encoding="utf-8"))


def _text(predictions: Any) -> str:
    return predictions if isinstance(predictions, str) else json.dumps(predictions)


@pytest.mark.parametrize("case", CASES)
def test_official_text_is_the_recorded_printout(case: str) -> None:
    gold, predictions = case_inputs(case, require(TATQA))
    decoded, _pairs = decode_predictions(_text(predictions))
    run = run_official(read_gold(gold), decoded)
    assert run.totals is not None and run.pivots is not None
    assert official_text(run.totals, run.pivots) + "\n" == RECORDED["cases"][case]


@pytest.mark.parametrize("case", ["example", "test", "messy"])
def test_the_command_prints_it(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, predictions = case_inputs(case, require(TATQA))
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    (tmp_path / "pred.json").write_text(_text(predictions), encoding="utf-8")
    argv = ["tatqa", str(tmp_path / "pred.json"), str(tmp_path / "gold.json"), "--quiet", "--exclude-bad-ids"]
    assert main(argv) == 0
    assert "\n" + RECORDED["cases"][case] in capsys.readouterr().out


def test_the_messy_file_is_refused_by_default_naming_every_entry(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    gold, predictions = case_inputs("messy", require(TATQA))
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    (tmp_path / "pred.json").write_text(_text(predictions), encoding="utf-8")
    assert main(["tatqa", str(tmp_path / "pred.json"), str(tmp_path / "gold.json")]) == 2
    err = capsys.readouterr().err
    assert "1 uid(s) not in the gold file (the official script ignores them): 'not-a-gold-uid'" in err
    assert "1 uid(s) given more than once" in err and "(entries 0, 1)" in err
    assert "7 malformed entries" in err  # number, null, NaN, boolean, object answers; a text and an object as values
