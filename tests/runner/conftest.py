"""Shared fixtures: the small hand-written cases in tests/runner/cases (docs/contracts-format.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

CASES_DIR = Path(__file__).parent / "cases"


@pytest.fixture(scope="session")
def small_cases() -> list[dict[str, Any]]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(CASES_DIR.glob("*.json"))]


@pytest.fixture()
def case_by_id(small_cases: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {case["case_id"]: json.loads(json.dumps(case)) for case in small_cases}


@pytest.fixture(autouse=True)
def private_config_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default trace key goes to a test folder, never to the user's real config folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.getbasetemp() / "config"))
