"""The built wheel carries every file the package reads at run time."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]


def test_the_wheel_holds_every_data_file_of_the_package(tmp_path: Path) -> None:
    package = REPOSITORY / "python" / "finscore"
    # every file the package holds but Python sources and bytecode (read from the tree, so that an
    # exported tree without .git is checked too)
    data = {path.relative_to(REPOSITORY / "python").as_posix() for path in package.rglob("*")
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts}
    assert "finscore/finscore_core.wasm" in data and "finscore/py.typed" in data
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


def test_every_folder_of_python_sources_is_a_package_the_build_finds() -> None:
    """pyproject.toml finds packages with setuptools' `packages.find` (regular packages only): a
    folder of modules without an __init__.py would be left out of the wheel without a word."""
    from setuptools import find_packages

    package = REPOSITORY / "python" / "finscore"
    folders = {".".join(path.parent.relative_to(REPOSITORY / "python").parts) for path in package.rglob("*.py")
               if "__pycache__" not in path.parts}
    assert folders <= set(find_packages(where=str(REPOSITORY / "python")))
