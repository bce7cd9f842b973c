"""The skip policy of tests/conftest.py, run on a throwaway suite in a subprocess.

An essential test that skips must fail the run under CI=true or FINSCORE_NO_SKIP=1,
and only warn elsewhere; every skip's reason is listed in the closing summary.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")

SUITE = '''
import pytest

@pytest.mark.essential
def test_oracle_needs_a_tool():
    pytest.skip("the oracle tool is not installed")

@pytest.fixture
def tool():
    pytest.skip("the fixture's tool is absent")

@pytest.mark.essential
def test_oracle_needs_a_fixture(tool):
    pass

def test_optional_extra():
    pytest.skip("an optional extra is absent")

@pytest.mark.skipif(True, reason="only on another platform")
def test_platform_specific():
    pass

def test_plain():
    assert 1 + 1 == 2
'''

INI = """[pytest]
addopts = -p no:cacheprovider --strict-markers
markers =
    essential: a claim rests on this test
"""


def run_suite(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text(INI, encoding="utf-8")
    (tmp_path / "test_suite.py").write_text(SUITE, encoding="utf-8")
    environment = {k: v for k, v in os.environ.items() if k not in ("CI", "FINSCORE_NO_SKIP")}
    environment.update(env)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", str(tmp_path)], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=300, check=False)


def test_outside_ci_essential_skips_are_listed_and_the_run_passes(tmp_path: Path) -> None:
    done = run_suite(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 4 skipped" in done.stdout
    assert "essential tests not run: 2" in done.stdout
    assert "test_suite.py::test_oracle_needs_a_tool: the oracle tool is not installed" in done.stdout
    assert "test_suite.py::test_oracle_needs_a_fixture: the fixture's tool is absent" in done.stdout
    # every skip, essential or not, with its reason
    assert "skipped: 4" in done.stdout
    for reason in ("an optional extra is absent", "only on another platform", "the oracle tool is not installed"):
        assert f"1 x {reason}" in done.stdout


@pytest.mark.parametrize("env", [{"CI": "true"}, {"FINSCORE_NO_SKIP": "1"}])
def test_under_ci_a_skipped_essential_test_fails_the_run(tmp_path: Path, env: dict[str, str]) -> None:
    done = run_suite(tmp_path, **env)
    assert done.returncode == 1, done.stdout + done.stderr
    # the body's skip fails the test, the fixture's skip errors it; the others still skip
    assert "1 failed, 1 passed, 2 skipped, 1 error" in done.stdout
    assert "essential test skipped under CI=true / FINSCORE_NO_SKIP=1: the oracle tool is not installed" \
        in done.stdout
    assert "essential tests not run: 2, FAILED" in done.stdout
    assert "skipped: 2" in done.stdout


def test_a_module_skipped_at_collection_fails_under_ci(tmp_path: Path) -> None:
    (tmp_path / "test_whole_module.py").write_text(
        "import pytest\npytest.importorskip('a_module_nobody_has')\n\ndef test_x():\n    pass\n", encoding="utf-8")
    assert run_suite(tmp_path).returncode == 0
    done = run_suite(tmp_path, CI="true")
    assert done.returncode != 0
    assert "skipped at collection under CI=true" in done.stdout
