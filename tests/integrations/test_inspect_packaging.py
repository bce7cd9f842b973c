"""inspect_ai stays optional: finscore imports without it, only the `inspect` extra requires it, and
the entry point inspect reads (`inspect eval finscore/kit`) names the module that registers the task.

Offline: the declarations are read from pyproject.toml (what setuptools writes into the wheel's
METADATA and entry_points.txt), and the imports run in fresh interpreters.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((REPOSITORY / "pyproject.toml").read_text(encoding="utf-8"))["project"]

pytestmark = pytest.mark.essential


def python(code: str) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter with this checkout's package first on the path."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False,
                          env={"PYTHONPATH": str(REPOSITORY / "python"), "PATH": "/usr/bin:/bin"})


def test_the_base_requirements_do_not_name_inspect_ai_and_the_inspect_extra_does() -> None:
    assert not [name for name in PROJECT["dependencies"] if "inspect" in name.lower()]
    extras = PROJECT["optional-dependencies"]
    assert [name for name in extras["inspect"] if name.lower().startswith("inspect_ai")] == extras["inspect"]
    assert any("inspect" in name and name.startswith("finscore[") for name in extras["test"])
    for extra, names in extras.items():
        if extra not in ("inspect", "test"):
            assert not [name for name in names if "inspect" in name.lower()], extra


def test_finscore_imports_without_inspect_ai_and_the_integration_says_what_to_install() -> None:
    done = python(
        "import sys\n"
        "sys.modules['inspect_ai'] = None  # any import of inspect_ai now fails\n"
        "import finscore, finscore.contracts, finscore.answers, finscore.runner, finscore.integrations\n"
        "from finscore.cli import build_parser\n"
        "build_parser()\n"
        "try:\n"
        "    import finscore.integrations.inspect_ai\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    assert done.returncode == 0, done.stderr
    assert "pip install 'finscore[inspect]'" in done.stdout


def test_the_entry_point_registers_the_kit_and_benchmark_answers_tasks() -> None:
    pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'finscore[inspect]') is not installed")
    (name, target), = PROJECT["entry-points"]["inspect_ai"].items()
    assert name == "finscore"  # inspect names a package's tasks after the entry point: finscore/kit
    done = python(
        "import json\n"
        "from importlib.metadata import EntryPoint\n"
        f"EntryPoint(name={name!r}, value={target!r}, group='inspect_ai').load()\n"
        "from inspect_ai._util.registry import registry_find, registry_info\n"
        "found = registry_find(lambda info: info.type == 'task')\n"
        "print(json.dumps([registry_info(task).name for task in found]))\n"
    )
    assert done.returncode == 0, done.stderr
    assert sorted(task.rsplit("/", 1)[-1] for task in json.loads(done.stdout)) == ["benchmark_answers", "kit"]
