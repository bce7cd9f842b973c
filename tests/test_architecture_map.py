"""docs/architecture.md is the one true map: every path it names exists, every package is named.

The README links to it instead of holding a second map.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "finscore"
MAP = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
#: A path as the map writes one: at least one "/" and a file suffix or a trailing "/".
PATH = re.compile(r"(?<![\w./-])((?:[\w.-]+/)+(?:[\w.-]+\.(?:py|md|json|toml|c|h|js|mjs|sh|txt|gz))?)(?![\w/-])")


def named_paths() -> set[str]:
    return {match for match in PATH.findall(MAP) if not match.startswith(("http", "//")) and "://" not in match}


def _exists(path: str) -> bool:
    return any((base / path).exists() for base in (ROOT, PACKAGE, ROOT / "python"))


def test_every_path_the_map_names_exists() -> None:
    paths = named_paths()
    assert len(paths) > 50  # the map names its parts by path
    assert sorted(p for p in paths if not _exists(p)) == []


def test_every_subpackage_is_named() -> None:
    packages = sorted(str(init.parent.relative_to(PACKAGE)) + "/" for init in PACKAGE.rglob("__init__.py")
                      if init.parent != PACKAGE and "conformance" not in init.parts)
    assert packages
    assert [p for p in packages if p not in MAP] == []


def test_every_top_level_folder_is_named() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    folders = sorted({line.split("/", 1)[0] + "/" for line in tracked.splitlines() if "/" in line}
                     - {".ci/", ".github/"})
    assert [f for f in folders if f"`{f}" not in MAP] == []


def test_the_map_has_a_recipe_for_each_kind_of_addition() -> None:
    recipes = MAP.split("## Where a change goes", 1)[1]
    for kind in ("A new benchmark", "A new answer protocol", "A new answer format", "A new reward adapter",
                 "A new tool", "A new scripted agent"):
        assert f"**{kind}" in recipes, kind


def test_the_readme_links_to_the_map_and_holds_no_second_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/architecture.md" in readme
    assert "| `python/finscore/" not in readme  # no package table of its own
