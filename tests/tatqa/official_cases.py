"""The inputs of the recorded official runs in data/official_prints.json.

Each case is a gold file and a prediction file made the same way on every run:
the shipped example, the whole dev and test gold with predictions from the
example's generator, a gold subset whose pivot tables have every cell (pandas
then prints whole numbers), and an empty prediction file. `record_official.py`
runs the official tatqa_eval.py on them; the tests run `finscore tatqa`.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any, Callable

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE = REPOSITORY / "examples" / "tatqa"


def _generator() -> Callable[..., dict[str, Any]]:
    spec = importlib.util.spec_from_file_location("tatqa_make_example", EXAMPLE / "make_example.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.predictions_for  # type: ignore[no-any-return]


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _grid_gold(dev: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One document holding the first 3 dev questions of each (arithmetic|span) x (table|table-text)."""
    chosen: list[dict[str, Any]] = []
    for kind in ("arithmetic", "span"):
        for source in ("table", "table-text"):
            chosen += [q for d in dev for q in d["questions"]
                       if q["answer_type"] == kind and q["answer_from"] == source][:3]
    return [{"table": dev[0]["table"], "paragraphs": dev[0]["paragraphs"], "questions": chosen}]


def case_inputs(name: str, tatqa_folder: Path) -> tuple[Any, Any]:
    """(gold, predictions) of a recorded case; `tatqa_folder` holds the unpacked gold files."""
    predictions_for = _generator()
    if name == "example":
        return _load(EXAMPLE / "gold.json"), _load(EXAMPLE / "predictions.json")
    if name == "example-empty":
        return _load(EXAMPLE / "gold.json"), {}
    if name in ("dev", "test"):
        file = "tatqa_dataset_dev.json" if name == "dev" else "tatqa_dataset_test_gold.json"
        gold = _load(tatqa_folder / file)
        return gold, predictions_for(gold, seed=f"finscore-{name}")
    if name == "grid":
        gold = _grid_gold(_load(tatqa_folder / "tatqa_dataset_dev.json"))
        return gold, predictions_for(gold, seed="finscore-grid")
    raise KeyError(name)


CASES = ("example", "example-empty", "dev", "test", "grid")
