"""A copy of the checkout's working tree, for mutation runs that edit files in place."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]


def copy_working_tree(destination: Path) -> None:
    """The checkout's tracked and untracked (not ignored) files, as they are now, into a fresh folder."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPOSITORY,
                            capture_output=True, check=True).stdout.decode().split("\0")
    if destination.exists():
        shutil.rmtree(destination)
    for name in filter(None, listed):
        source = REPOSITORY / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
