"""Other CPython interpreters on this machine, to use as oracles.

Found wherever the machine has them (this interpreter, pyenv's versions under
$PYENV_ROOT or ~/.pyenv, python3.N on PATH), never at one machine's fixed path.
A test that needs a version absent here skips and says how to install it; the
tests that do are marked essential, so under CI the skip fails the run.
`python tests/support/pythons.py 11 12 13` prints the minors missing here
(scripts/test uses it to install them).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

#: The CPython minors whose own float(), round() and sum() are oracles of the tests.
ORACLE_MINORS = (11, 12, 13)

#: glibc's non-FMA pow(), which the vectors were recorded with and which agrees with
#: musl's pow inside the WebAssembly core (see docs/finqa-official.md).
NON_FMA_ENV = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"}


def _is_python(executable: str, minor: int) -> bool:
    """Does this executable really run CPython 3.<minor>? (pyenv shims may not.)"""
    try:
        done = subprocess.run([executable, "-I", "-c", "import sys; print(sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=60, check=False)
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.strip() == f"(3, {minor})"


def find_python(minor: int) -> str | None:
    """A python3.<minor> executable: this one, one under pyenv, or one on PATH."""
    if sys.version_info[:2] == (3, minor):
        return sys.executable
    candidates = []
    for root in filter(None, [os.environ.get("PYENV_ROOT", ""), str(Path.home() / ".pyenv")]):
        candidates += sorted(glob.glob(f"{root}/versions/3.{minor}.*/bin/python3"), reverse=True)
    on_path = shutil.which(f"python3.{minor}")
    if on_path:
        candidates.append(on_path)
    return next((c for c in candidates if _is_python(c, minor)), None)


def require_python(minor: int) -> str:
    import pytest  # only tests call this; scripts/test runs this file before pytest is needed

    found = find_python(minor)
    if found is None:
        pytest.skip(f"CPython 3.{minor} is not installed here: it is an oracle of this test "
                    f"(install it with `pyenv install 3.{minor}`, or as python3.{minor} on PATH)")
    return found


def run_python(executable: str, code: str, stdin: str, *, non_fma: bool = True) -> str:
    """Run `code` in another interpreter (the oracle) and return its standard output."""
    env = dict(os.environ)
    if non_fma:
        env.update(NON_FMA_ENV)
    done = subprocess.run(
        [executable, "-I", "-c", code], input=stdin, capture_output=True, text=True, env=env,
        timeout=600, check=False,
    )
    if done.returncode != 0:
        raise AssertionError(f"oracle {executable} failed: {done.stderr[-2000:]}")
    return done.stdout


if __name__ == "__main__":
    # the minors given (default: the oracle minors) that this machine lacks, one a line
    wanted = [int(arg) for arg in sys.argv[1:]] or list(ORACLE_MINORS)
    for minor in wanted:
        if find_python(minor) is None:
            print(f"3.{minor}")
