"""finscore's Unicode tables are what the CPython interpreters themselves say, today.

tools/unicode/make_tables.py asks CPython 3.11, 3.12 and 3.13 (under pyenv or on PATH) which
characters their float() and int() read as digits and whitespace; this test runs it
in --check mode, so a stale or hand-edited table fails. Without those interpreters
it is skipped with the reason (the sweep in test_codepoints.py then still checks the
running interpreter's own version).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.pythons import find_python

from finscore.engine.reader.numbers import number_reading
from finscore.engine.reader.unicode_data import RULES

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.essential
def test_the_tables_are_fresh_from_the_interpreters() -> None:
    found = {minor: find_python(minor) for minor in RULES}
    missing = [minor for minor, path in found.items() if path is None]
    if missing:
        pytest.skip(f"CPython {', '.join(f'3.{m}' for m in missing)} not installed (under pyenv or on PATH)")
    given = [f"--python=3.{minor}={path}" for minor, path in found.items()]
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "unicode" / "make_tables.py"), "--check", *given],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr


def test_each_rule_names_the_unicode_version_of_its_python() -> None:
    for minor, rule in RULES.items():
        assert rule.python.startswith(f"3.{minor}.")
        assert number_reading(f"3.{minor}").unicode_version == rule.unicode


def test_rules_outside_the_tables_take_the_nearest_known() -> None:
    assert number_reading("3.10").minor == min(RULES)
    assert number_reading("3.14").minor == max(RULES)
