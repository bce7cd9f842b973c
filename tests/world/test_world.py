"""The one world: the tool registry, and the one case reader's rules shared by runner and scorer.

Each rule is checked from both sides: the runner's per-case reader
(`finscore.runner.load_fixtures`) and the scorer's case loader
(`finscore.contracts.parse_case`) must refuse the same edit of a valid case.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Callable

import pytest

from finscore.contracts import KIT_DIRECTORY, InputFormatError, parse_case
from finscore.runner import CaseFixtureError, load_fixtures
from finscore.world import CATALOGUE, Schema, tool


def kit_case(name: str) -> dict[str, Any]:
    case: dict[str, Any] = json.loads((KIT_DIRECTORY / "cases" / f"{name}.json").read_text(encoding="utf-8"))
    return case


def test_every_kit_tool_is_the_catalogues_tool() -> None:
    offered = {}
    for path in sorted((KIT_DIRECTORY / "cases").glob("*.json")):
        for spec in json.loads(path.read_text(encoding="utf-8"))["world"]["tools"]:
            offered[spec["name"]] = spec
    assert set(offered) == set(CATALOGUE)
    for name, spec in offered.items():
        assert CATALOGUE[name].spec() == spec


def test_a_tool_is_registered_once() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        tool("calc_emi", "calc-emi-v1", "read", "again")(CATALOGUE["calc_emi"].run)


def test_catalogue_schemas_compile_and_require_every_property() -> None:
    for registered in CATALOGUE.values():
        assert isinstance(registered.schema, Schema)
        assert registered.parameters["required"] == list(registered.parameters["properties"])
        assert registered.parameters["additionalProperties"] is False


def _drop(*path: Any) -> Callable[[dict[str, Any]], None]:
    def edit(case: dict[str, Any]) -> None:
        holder = case
        for key in path[:-1]:
            holder = holder[key]
        del holder[path[-1]]

    return edit


def _set(value: Any, *path: Any) -> Callable[[dict[str, Any]], None]:
    def edit(case: dict[str, Any]) -> None:
        holder = case
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = value

    return edit


def _duplicate_household(case: dict[str, Any]) -> None:
    case["world"]["households"].append(dict(case["world"]["households"][0]))


def _same_snapshot_date(case: dict[str, Any]) -> None:
    snapshots = case["world"]["snapshots"]
    twin = copy.deepcopy(snapshots[1])
    twin["snapshot_id"] = "snap-twin"
    snapshots.append(twin)


def _foreign_cached_item(case: dict[str, Any]) -> None:
    case["world"]["cached_evidence"][0]["id"] = "morning-read"


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (_drop("world", "snapshots"), "missing field(s): snapshots"),
        (_drop("world", "cached_evidence"), "missing field(s): cached_evidence"),
        (_set(1, "world", "surprise"), "unknown field(s): surprise"),
        (_duplicate_household, "listed twice"),
        (_set(["H001", "H999"], "world", "household_scope"), "household_scope"),
        (_same_snapshot_date, "two snapshots of H001 dated"),
        (_set("H999", "world", "snapshots", 0, "household_id"), "not a household"),
        (_foreign_cached_item, "cache-"),
        (_set("calc-fv-v9", "world", "tools", 1, "version"), "holdings-v1"),
        (_set("transfer_funds", "world", "tools", 0, "name"), "does not implement"),
        (_set({"type": "object", "anyOf": []}, "world", "tools", 0, "parameters"), "anyOf"),
        (_set("English", "language"), "language tag"),
    ],
)
def test_runner_and_scorer_refuse_the_same_cases(edit: Callable[[dict[str, Any]], None], fragment: str) -> None:
    case = kit_case("conc-en")
    parse_case(copy.deepcopy(case), "conc-en.json")  # valid as written
    edit(case)
    with pytest.raises(InputFormatError) as scored:
        parse_case(copy.deepcopy(case), "conc-en.json")
    with pytest.raises(CaseFixtureError) as run:
        load_fixtures(copy.deepcopy(case))
    assert fragment in str(scored.value) and fragment in str(run.value)
    assert scored.value.where == run.value.where and scored.value.problem == run.value.problem
    assert run.value.case_id == "conc-en"
