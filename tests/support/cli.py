"""Running a finscore command in process, as the CLI tests of every scorer do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from finscore.cli import main


def write_json(path: Path, data: Any) -> str:
    """`data` written as JSON at `path`; the path as the command line takes it."""
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def run_command(command: str, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `finscore COMMAND ARGV...`; never a traceback."""
    status = main([command, *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err
