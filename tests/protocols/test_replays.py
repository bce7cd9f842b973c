"""The replays of the peers' published figures (benchmarks/peers_replay.md), pinned on what finscore may ship.

The oracle is the peers' own: the published figures and the figures their own pipelines recomputed,
and the per-item `acc` their files store, as tests/data/vectors/peers/ records them (`file_figure` and
`stored` lines). None of the peers has a licence, so their output files are not shipped and a whole
file cannot be recomputed here: the benchmark (tools/peers/replay_published.py, from mirrors) does
that, and its record benchmarks/peers_replay.json is checked against the oracle. What runs here is
finscore's decision on every distinct stored (extracted answer, gold) pair: it must equal the
per-item `acc` the peer stored, which is what each published figure is the rounded mean of.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from finscore.protocols import decide_line

from support.peer_vectors import vector_lines

REPOSITORY = Path(__file__).resolve().parents[2]
RECORD = REPOSITORY / "benchmarks" / "peers_replay.json"
PAGE = REPOSITORY / "benchmarks" / "peers_replay.md"
PEERS = ("financemath", "financereasoning", "finmmr")


def _tool() -> ModuleType:
    path = REPOSITORY / "tools" / "peers" / "replay_published.py"
    spec = importlib.util.spec_from_file_location("replay_published", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    path_before = list(sys.path)
    try:  # the tool puts the checkout's python/ first on sys.path when run by hand: not in this process
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = path_before
    return module


def _record() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(RECORD.read_text(encoding="utf-8"))
    return record


def _figures(peer: str) -> list[dict[str, Any]]:
    return [line for line in vector_lines(peer) if line["kind"] == "file_figure"]


@pytest.mark.parametrize("peer", PEERS)
def test_every_stored_answer_decides_as_the_peer_stored_it(peer: str) -> None:
    """Each distinct stored pair, decided by finscore's one-item pipeline (never running the text),
    gives the `acc` the peer wrote for it in every file that holds it."""
    stored = [line for line in vector_lines(peer) if line["kind"] == "stored"]
    assert len(stored) > 1000
    differing = []
    for line in stored:
        pipeline = decide_line(peer, line)["pipeline"]
        if "value" not in pipeline:  # peer_executes_code or the peer stopping: the figure would not reproduce
            differing.append((line["pred"], pipeline))
            continue
        if {pipeline["value"]["acc"]} != set(line["stored_acc"]):
            differing.append((line["pred"], pipeline["value"]["acc"], line["stored_acc"]))
    assert differing == []


@pytest.mark.parametrize("peer", PEERS)
def test_the_published_figures_are_the_stored_items_mean(peer: str) -> None:
    """The premise of the pin: the peer's own pipeline, rerun over each whole file, gave the figure it
    published (FinanceMath) or stored, from the same per-item `acc` values (none differ)."""
    for line in _figures(peer):
        if "skipped" in line:
            continue
        assert line["items_differing_from_stored"] == 0, line["file"]
        if peer == "financemath":
            assert line["recomputed_accuracy"] == line["stored_items_accuracy"] == line["published_accuracy"], line
        else:
            assert line["recomputed_avg_accuracy"] == line["stored_avg_accuracy"], line


def _vector_file(peer: str, row: dict[str, Any]) -> str:
    """The name a vector `file_figure` line gives the replayed file."""
    if peer == "financemath":
        return row["file"].removeprefix("outputs/validation/").removesuffix(".json")
    return str(row["file"])


@pytest.mark.parametrize("peer", PEERS)
def test_the_recorded_replay_gives_every_published_figure(peer: str) -> None:
    """Every file the vectors record a figure for was replayed by finscore, with no answer left to the
    peer's code, and finscore's figure is the published one (FinanceMath's per-topic figures too)."""
    replayed = _record()["peers"][peer]
    rows = {_vector_file(peer, row): row for row in replayed["rows"]}
    expected = {line["file"]: line for line in _figures(peer) if "skipped" not in line}
    assert set(rows) == set(expected)
    for name, line in expected.items():
        row = rows[name]
        assert (row["undecided"], row["stopped"]) == (0, False), name
        if peer == "financemath":
            assert row["recomputed"] == row["published"] == line["published_accuracy"], name
            if row["published_topics"] is not None:
                assert row["recomputed_topics"] == row["published_topics"], name
        else:
            assert row["recomputed"] == line["recomputed_avg_accuracy"] == line["stored_avg_accuracy"], name
            assert row["execution_rate"] == line["recomputed_avg_execution_rate"], name
    skipped = {line["file"] for line in _figures(peer) if "skipped" in line}
    unreplayed = {(item["table"], item["model"]) for item in replayed["unreplayed"]}
    assert {(path.split("/")[-4] + "/cot", path.split("/")[-2]) for path in skipped} <= unreplayed


def test_the_page_is_the_record_rendered() -> None:
    tool = _tool()
    page = PAGE.read_text(encoding="utf-8")
    before, after = tool.split_page(page)
    assert tool.render(_record(), before, after) == page
