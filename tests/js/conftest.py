"""The JavaScript binding's tests (js/test, Node's own runner), run from pytest."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "essential: a test a claim of the README rests on")
