"""`finscore rewards` (and `--ray`) without its extra: a message naming the extra, exit status 2, no traceback.

The extra's modules are hidden from a real `python -m finscore` child by a meta-path finder
installed before finscore is imported (the installed packages stay on disk: an import of them
raises ModuleNotFoundError, as it does where they were never installed).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support.reward_server import reward_environment

BLOCKER = """
import runpy, sys
from importlib.abc import MetaPathFinder

HIDDEN = set(sys.argv.pop(1).split(","))


class Hide(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Hide())
sys.argv[0] = "finscore"
runpy.run_module("finscore", run_name="__main__", alter_sys=True)
"""


def _finscore_without(hidden: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCKER, hidden, *arguments], env=reward_environment(),
                          capture_output=True, text=True, timeout=120)


def _rollouts(tmp_path: Path) -> Path:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "rollouts.parquet"
    pq.write_table(pa.table({"completion": ["add(1, 2)"], "gold": ['{"exe_ans": 3.0}']}), path)
    return path


def test_rewards_without_pyarrow_names_the_rewards_extra(tmp_path: Path) -> None:
    finished = _finscore_without("pyarrow", "rewards", str(_rollouts(tmp_path)), str(tmp_path / "out.parquet"))
    assert finished.returncode == 2, finished.stderr
    assert finished.stderr == ("finscore rewards: needs finscore[rewards] (pyarrow is missing): "
                               "pip install 'finscore[rewards]'\n")
    assert not (tmp_path / "out.parquet").exists()


def test_rewards_on_ray_without_ray_names_the_ray_extra(tmp_path: Path) -> None:
    finished = _finscore_without("ray", "rewards", str(_rollouts(tmp_path)), str(tmp_path / "out.parquet"),
                                 "--ray", "--workers", "2")
    assert finished.returncode == 2, finished.stderr
    assert finished.stderr == "finscore rewards --ray: needs finscore[ray] (ray is missing): pip install 'finscore[ray]'\n"
    assert not (tmp_path / "out.parquet").exists()


def test_the_blocker_hides_only_what_it_is_told(tmp_path: Path) -> None:
    """The same child with nothing hidden scores the file: the messages above are the extras' absence."""
    finished = _finscore_without("no_such_module", "rewards", str(_rollouts(tmp_path)), str(tmp_path / "out.parquet"),
                                 "--quiet")
    assert finished.returncode == 0, finished.stderr
    assert (tmp_path / "out.parquet").is_file()
