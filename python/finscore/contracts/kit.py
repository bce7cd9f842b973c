"""The public kit shipped with the package: 24 cases, oracle records, 10 probes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from finscore.contracts.errors import InputFormatError
from finscore.contracts.formats.cases import load_cases
from finscore.contracts.formats.models import Case, PredictionRecord
from finscore.contracts.formats.predictions import PredictionFile, RejectedLine, read_predictions, record_from_value
from finscore.inputs.fields import FieldReader
from finscore.inputs.jsonfiles import read_json_document

KIT_DIRECTORY = Path(__file__).parent / "kit"
#: The case-set argument that names the shipped kit on the command line.
KIT_ALIAS = "@kit"


@dataclass(frozen=True)
class Probe:
    """A hand-written prediction with the outcome the scorer must give it."""

    probe_id: str
    case_id: str
    description: str
    expect_passed: bool
    expect_primary_category: str | None
    expect_codes: tuple[str, ...]
    record: PredictionRecord


def resolve_cases_path(argument: str) -> Path:
    return KIT_DIRECTORY / "cases" if argument == KIT_ALIAS else Path(argument)


def load_kit_cases() -> list[Case]:
    return load_cases(KIT_DIRECTORY / "cases")


def load_kit_oracle() -> PredictionFile:
    return read_predictions(KIT_DIRECTORY / "oracle.jsonl")


def _probe(path: Path) -> Probe:
    reader = FieldReader(str(path))
    raw: Any = read_json_document(path)
    reader.keys(reader.mapping(raw, ""), "", {"format", "case_id", "description", "expect", "prediction"})
    expect = reader.mapping(raw["expect"], "expect")
    reader.keys(expect, "expect", {"passed", "primary_category", "codes"})
    record = record_from_value(raw["prediction"], 1)
    if isinstance(record, RejectedLine):
        raise InputFormatError(str(path), "prediction", record.problem)
    return Probe(
        probe_id=path.stem,
        case_id=reader.identifier(raw["case_id"], "case_id"),
        description=reader.string(raw["description"], "description"),
        expect_passed=reader.boolean(expect["passed"], "expect.passed"),
        expect_primary_category=expect["primary_category"],
        expect_codes=tuple(
            reader.string(c, "expect.codes[]") for c in reader.array(expect["codes"], "expect.codes", 50)
        ),
        record=record,
    )


def load_kit_probes() -> list[Probe]:
    return [_probe(path) for path in sorted((KIT_DIRECTORY / "probes").glob("*.json"))]
