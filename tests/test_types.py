"""The type checker over the whole package: `mypy --strict` (pyproject.toml's [tool.mypy]) finds no error.

A claim of the README ("the public API is typed, mypy --strict clean") rests on this, so a
missing mypy fails the test instead of skipping it; on failure the message is mypy's own list.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[1]


def test_mypy_strict_finds_no_error_in_the_package() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(REPOSITORY / "pyproject.toml"),
                           "--no-incremental", "--show-error-codes", "--no-color-output"],
                          cwd=REPOSITORY, capture_output=True, text=True, timeout=900, check=False)
    assert "No module named mypy" not in done.stderr, "mypy is not installed: pip install -e '.[test]'"
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 0 and not errors, (
        f"mypy --strict found {len(errors)} error(s):\n" + "\n".join(errors) + f"\n{done.stderr[-2000:]}")


def _type_checking_names(module: Any) -> dict[str, Any]:
    """The names a module imports only under `if TYPE_CHECKING:` (to keep an import off its
    start-up path or out of a cycle), imported here so that its annotations can resolve."""
    import ast
    import inspect

    names: dict[str, Any] = {}
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError):
        return names
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            block = ast.Module(body=[n for n in node.body if isinstance(n, (ast.Import, ast.ImportFrom))],
                               type_ignores=[])
            exec(compile(block, module.__name__, "exec"), names)  # the module's own import lines only
    return names


def test_every_annotation_in_the_package_resolves() -> None:
    """typing.get_type_hints on every class and function: an annotation naming a type the module
    never imported (not even under TYPE_CHECKING) passes mypy only under `from __future__ import
    annotations` if unchecked, and raises here (as it would for any user introspecting the API)."""
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
        checking_only = _type_checking_names(module)
        for name, value in vars(module).items():
            if getattr(value, "__module__", None) != module.__name__:
                continue
            targets = [value] + ([v for v in vars(value).values() if inspect.isfunction(v)]
                                 if inspect.isclass(value) else [])
            for target in targets:
                if inspect.isfunction(target) or inspect.isclass(target):
                    try:
                        typing.get_type_hints(target, localns={**checking_only, **vars(module)})
                    except Exception as error:  # NameError and friends: collected and reported below
                        unresolved.append(f"{info.name}.{target.__qualname__}: {error!r}")
    assert unresolved == []
