"""The inputs of the recorded official runs in data/official_prints.json.

Each case is a gold file and a prediction file made the same way on every run:
the shipped example, the whole dev and test gold with predictions from the
example's generator, a gold subset whose pivot tables have every cell (pandas
then prints whole numbers), an empty prediction file, and a messy one (given
as JSON text: repeated uids, unknown uids, numbers, null, NaN, booleans and
objects as answers, values that are not lists) that the official script still
scores without stopping. `record_official.py`
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


def _messy_text(gold: list[dict[str, Any]]) -> str:
    """A prediction file as text, with what json.load accepts and the official script scores anyway."""
    uids = [q["uid"] for d in gold for q in d["questions"]]
    answers = [q["answer"] for d in gold for q in d["questions"]]
    right = json.dumps([answers[0], [q["scale"] for d in gold for q in d["questions"]][0]])
    odd = ['[["wrong"], ""]', right, '[12.5, "million"]', '[null, ""]', '[NaN, ""]', '[true, ""]',
           '[{"a": 1, "b": 2}, ""]', '"ab"', '{"x": 1, "y": 2}', '[["1", "2"], ""]', '[[], "percent"]']
    pairs = [(uids[0], odd[0]), (uids[0], odd[1])] + list(zip(uids[1:], odd[2:]))
    pairs.append(("not-a-gold-uid", '[["x"], ""]'))
    return "{" + ", ".join(f"{json.dumps(uid)}: {value}" for uid, value in pairs) + "}"


def case_inputs(name: str, tatqa_folder: Path) -> tuple[Any, Any]:
    """(gold, predictions) of a recorded case; `tatqa_folder` holds the unpacked gold files.

    The predictions are decoded JSON, or JSON text (a str) when decoding would lose what is tested.
    """
    predictions_for = _generator()
    if name == "example":
        return _load(EXAMPLE / "gold.json"), _load(EXAMPLE / "predictions.json")
    if name == "example-empty":
        return _load(EXAMPLE / "gold.json"), {}
    if name in ("dev", "test"):
        file = "tatqa_dataset_dev.json" if name == "dev" else "tatqa_dataset_test_gold.json"
        gold = _load(tatqa_folder / file)
        return gold, predictions_for(gold, seed=f"finscore-{name}")
    if name == "messy":
        return _load(EXAMPLE / "gold.json"), _messy_text(_load(EXAMPLE / "gold.json"))
    if name == "grid":
        gold = _grid_gold(_load(tatqa_folder / "tatqa_dataset_dev.json"))
        return gold, predictions_for(gold, seed="finscore-grid")
    raise KeyError(name)


CASES = ("example", "example-empty", "dev", "test", "grid", "messy")
