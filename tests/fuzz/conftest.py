"""Registers the `essential` marker (tests a claim of the README rests on), if no other
conftest has yet."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "essential: a test that a claim of the README rests on; never skipped quietly")
