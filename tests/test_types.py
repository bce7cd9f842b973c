"""The type checker over the whole package: `mypy --strict` (pyproject.toml's [tool.mypy]) finds no error.

A claim of the README ("the public API is typed, mypy --strict clean") rests on this, so a
missing mypy fails the test instead of skipping it; on failure the message is mypy's own list.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]


def test_mypy_strict_finds_no_error_in_the_package() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(REPOSITORY / "pyproject.toml"),
                           "--no-incremental", "--show-error-codes", "--no-color-output"],
                          cwd=REPOSITORY, capture_output=True, text=True, timeout=900, check=False)
    assert "No module named mypy" not in done.stderr, "mypy is not installed: pip install -e '.[test]'"
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 0 and not errors, (
        f"mypy --strict found {len(errors)} error(s):\n" + "\n".join(errors) + f"\n{done.stderr[-2000:]}")


def test_every_annotation_in_the_package_resolves() -> None:
    """typing.get_type_hints on every class and function: an annotation naming a type the module
    never imported passes mypy only under `from __future__ import annotations` if unchecked, and
    raises here (as it would for any user introspecting the API)."""
    import importlib
    import inspect
    import pkgutil
    import typing

    import finscore

    unresolved = []
    for info in pkgutil.walk_packages(finscore.__path__, "finscore."):
        if info.name.endswith("__main__"):
            continue  # running it is the command line
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if getattr(value, "__module__", None) != module.__name__:
                continue
            targets = [value] + ([v for v in vars(value).values() if inspect.isfunction(v)]
                                 if inspect.isclass(value) else [])
            for target in targets:
                if inspect.isfunction(target) or inspect.isclass(target):
                    try:
                        typing.get_type_hints(target)
                    except Exception as error:  # NameError and friends: collected and reported below
                        unresolved.append(f"{info.name}.{target.__qualname__}: {error!r}")
    assert unresolved == []
