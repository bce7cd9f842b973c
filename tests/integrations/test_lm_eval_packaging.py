"""finscore[lm-eval] is optional: the base install pulls neither lm_eval nor torch, and the tasks ship.

The oracle is the requirements each distribution declares (pyproject.toml for finscore,
the installed metadata of everything it pulls), followed transitively as pip follows them.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPOSITORY = Path(__file__).resolve().parents[2]
TASK_FOLDER = REPOSITORY / "python" / "finscore" / "integrations" / "lm_eval" / "tasks"


def _name(requirement: str) -> str:
    return canonicalize_name(Requirement(requirement).name)


def _unconditional(requirements: list[str]) -> list[str]:
    """The requirements pip installs without any extra, on this interpreter."""
    kept = []
    for text in requirements:
        marker = Requirement(text).marker
        if marker is None or marker.evaluate({"extra": ""}):
            kept.append(text)
    return kept


def _closure(requirements: list[str]) -> set[str]:
    """Every distribution the requirements pull, transitively, by the installed distributions' own metadata."""
    seen: set[str] = set()
    pending = [_name(r) for r in _unconditional(requirements)]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        pending += [_name(r) for r in _unconditional(importlib.metadata.requires(name) or [])]
    return seen


@pytest.mark.essential
def test_installing_finscore_without_the_extra_does_not_pull_lm_eval() -> None:
    project = tomllib.loads((REPOSITORY / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pulled = _closure(project["dependencies"])
    assert {"wasmtime", "sympy"} <= pulled and not pulled & {"lm-eval", "datasets", "torch"}, sorted(pulled)
    assert [_name(r) for r in project["optional-dependencies"]["lm-eval"]] == ["lm-eval"]


@pytest.mark.essential
def test_the_extra_does_not_pull_torch() -> None:
    pytest.importorskip("lm_eval", reason="finscore[lm-eval] is not installed")
    pulled = _closure(["lm_eval"])
    assert {"lm-eval", "datasets", "scikit-learn"} <= pulled and "torch" not in pulled, sorted(pulled)


def test_importing_finscore_and_its_commands_does_not_import_lm_eval() -> None:
    script = ("import sys, finscore, finscore.cli, finscore.answers, finscore.integrations.lm_eval; "
              "print(sorted(m for m in ('lm_eval', 'datasets', 'torch') if m in sys.modules))")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120,
                           env={"PYTHONPATH": str(REPOSITORY / "python"), "PATH": "/usr/bin:/bin"})
    assert shown.stdout.strip() == "[]"


def test_the_module_prints_the_folder_of_the_tasks() -> None:
    shown = subprocess.run([sys.executable, "-m", "finscore.integrations.lm_eval"], capture_output=True, text=True,
                           check=True, timeout=120,
                           env={"PYTHONPATH": str(REPOSITORY / "python"), "PATH": "/usr/bin:/bin"})
    assert Path(shown.stdout.strip()) == TASK_FOLDER
    assert sorted(p.name for p in TASK_FOLDER.glob("*.yaml")) == [
        "finscore_convfinqa.yaml", "finscore_financemath.yaml", "finscore_finqa.yaml", "finscore_tatqa.yaml"]


def test_each_task_names_its_protocol_and_the_prompt_version() -> None:
    from finscore.integrations.lm_eval.documents import PROTOCOLS
    from finscore.integrations.lm_eval.prompts import PROMPT_VERSION

    for kind, protocol in PROTOCOLS.items():
        text = (TASK_FOLDER / f"finscore_{kind}.yaml").read_text(encoding="utf-8")
        assert f"\n  version: {PROMPT_VERSION}\n" in text and f"\n  protocol: {protocol}\n" in text
    text = (TASK_FOLDER / "finscore_financemath.yaml").read_text(encoding="utf-8")
    assert f"\n  version: {PROMPT_VERSION}\n" in text and "\n  protocol: financemath-answer/1\n" in text
    assert "\n  answer_format: phrase\n" in text
