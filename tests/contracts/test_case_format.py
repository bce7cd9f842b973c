"""Case files: an inconsistent contract is refused at load time with the file and the JSON path."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from finscore.contracts import InputFormatError, load_cases, parse_case
from finscore.contracts.kit import KIT_DIRECTORY


def kit_case(name: str) -> dict:
    return json.loads((KIT_DIRECTORY / "cases" / f"{name}.json").read_text(encoding="utf-8"))


def refused(raw: dict, fragment: str) -> None:
    with pytest.raises(InputFormatError) as raised:
        parse_case(raw, "case.json")
    assert fragment in str(raised.value), str(raised.value)
    assert str(raised.value).startswith("case.json")


def test_the_kit_loads_as_a_directory_and_as_a_case_set_document(tmp_path):
    directory = load_cases(KIT_DIRECTORY / "cases")
    document = tmp_path / "cases.json"
    raws = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((KIT_DIRECTORY / "cases").glob("*.json"))]
    document.write_text(json.dumps({"format": "finscore-contracts-cases/1", "cases": raws}), encoding="utf-8")
    assert [c.case_id for c in load_cases(document)] == [c.case_id for c in directory]


def test_a_tolerance_in_another_unit_is_refused():
    raw = kit_case("sip-en")
    raw["contract"]["claims"]["maturity_value"]["tolerance"]["unit"] = "USD"
    refused(raw, "contract.claims.maturity_value.tolerance.unit")


def test_a_requirement_on_a_tool_the_case_does_not_offer_is_refused():
    raw = kit_case("fv-en")
    raw["contract"]["trace"]["plan"]["steps"][0]["tool"] = "calc_emi"
    refused(raw, "does not offer")


@pytest.mark.parametrize(
    "edit, fragment",
    [
        (
            lambda c: c["contract"]["claims"]["future_value"]["accept"].append("percent_display"),
            "only applies to unit ratio",
        ),
        (lambda c: c["contract"]["claims"]["future_value"]["accept"].append("guess"), "expected one of"),
        (lambda c: c["contract"]["claims"]["future_value"]["fields"].update(value="3,345,563.94"), "canonical decimal"),
        (lambda c: c["contract"]["trace"]["plan"]["steps"][0]["arguments"]["years"].update(value="5"), "whole number"),
        (lambda c: c["contract"]["trace"].update(final_writes=-1), "final_writes"),
        (lambda c: c["world"].update(household_scope=["H999"]), "household_scope"),
        (lambda c: c.update(language="English"), "language tag"),
        (lambda c: c["contract"].update(claims={}), "at least one claim"),
        (lambda c: c.pop("world"), "missing field(s): world"),
        (lambda c: c.update(surprise=1), "unknown field(s): surprise"),
        (lambda c: c.update(question=c["question"] + " \ud800"), "question: holds a lone surrogate"),
        (lambda c: c["world"]["tools"][0].update(description="\udfff"), "world.tools[0].description: holds a lone"),
    ],
)
def test_inconsistent_cases_are_refused_with_a_path(edit, fragment):
    raw = copy.deepcopy(kit_case("fv-en"))
    edit(raw)
    refused(raw, fragment)


def test_duplicate_json_keys_and_nan_are_refused(tmp_path: Path):
    directory = tmp_path / "cases"
    directory.mkdir()
    (directory / "a.json").write_text('{"format": "x", "format": "y"}', encoding="utf-8")
    with pytest.raises(InputFormatError, match="duplicated key 'format'"):
        load_cases(directory)
    (directory / "a.json").write_text('{"value": NaN}', encoding="utf-8")
    with pytest.raises(InputFormatError, match="NaN is not a JSON number"):
        load_cases(directory)


def test_duplicate_case_ids_and_empty_sets_are_refused(tmp_path: Path):
    directory = tmp_path / "cases"
    directory.mkdir()
    with pytest.raises(InputFormatError, match="no cases"):
        load_cases(directory)
    text = (KIT_DIRECTORY / "cases" / "fv-en.json").read_text(encoding="utf-8")
    (directory / "a.json").write_text(text, encoding="utf-8")
    (directory / "b.json").write_text(text, encoding="utf-8")
    with pytest.raises(InputFormatError, match="appears twice"):
        load_cases(directory)
