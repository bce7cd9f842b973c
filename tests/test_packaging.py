"""The built wheel carries every file the package reads at run time."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]


def test_the_wheel_holds_every_data_file_of_the_package(tmp_path: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "python/finscore"], cwd=REPOSITORY, capture_output=True,
                            text=True, check=False)
    if listed.returncode != 0 or not listed.stdout.strip():
        pytest.skip("not a git checkout: no list of the package's files to compare with")
    data = {path.removeprefix("python/") for path in listed.stdout.split() if not path.endswith(".py")}
    # build from a copy: setuptools writes a build/ folder beside the sources it builds
    source = tmp_path / "source"
    source.mkdir()
    shutil.copytree(REPOSITORY / "python", source / "python", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPOSITORY / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                    str(source)], check=True, capture_output=True, timeout=600)
    wheel = next((tmp_path / "dist").glob("finscore-*.whl"))
    assert data <= set(zipfile.ZipFile(wheel).namelist())
