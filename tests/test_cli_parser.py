"""The command line's parser: argparse's help layout, its width read the way shutil reads it.

`finscore.cli.terminal_columns` stands in for `shutil.get_terminal_size().columns` so that a
command does not import shutil; CPython's shutil is the oracle, with standard output a pipe, a
file and a real terminal (a pseudo-terminal of a set size), under every kind of $COLUMNS."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from finscore import cli

#: $COLUMNS values: unset, positive, zero, negative, not a number, empty, with spaces.
COLUMNS_VALUES: tuple[str | None, ...] = (None, "100", "37", "0", "-5", "abc", "", " 90 ", "1")

PROBE = ("import json, shutil, sys; from finscore.cli import terminal_columns; "
         "sys.stderr.write(json.dumps([terminal_columns(), shutil.get_terminal_size().columns]))")


def _environment(columns: str | None) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    environment["PYTHONPATH"] = str(Path(cli.__file__).resolve().parents[1])
    if columns is not None:
        environment["COLUMNS"] = columns
    return environment


@pytest.mark.parametrize("columns", COLUMNS_VALUES)
def test_the_width_is_shutils_with_standard_output_a_pipe(columns: str | None) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], env=_environment(columns), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=True)
    ours, shutils = json.loads(done.stderr)
    assert ours == shutils


@pytest.mark.parametrize("columns", COLUMNS_VALUES)
def test_the_width_is_shutils_on_a_terminal(columns: str | None) -> None:
    main, child = pty.openpty()
    try:
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 123, 0, 0))  # 30 lines, 123 columns
        done = subprocess.run([sys.executable, "-c", PROBE], env=_environment(columns), stdin=child, stdout=child,
                              stderr=subprocess.PIPE, check=True)
    finally:
        os.close(child)
        os.close(main)
    ours, shutils = json.loads(done.stderr)
    assert ours == shutils
    if columns is None:
        assert ours == 123  # the terminal's own width was read


def test_every_form_is_laid_out_as_argparse_lays_it_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same parsers built with argparse's own formatter print the same help, byte for byte.
    monkeypatch.setenv("COLUMNS", "97")
    ours = cli.build_parser()
    monkeypatch.setattr(cli, "HelpFormatter", cli.argparse.HelpFormatter)
    theirs = cli.build_parser()
    assert ours.format_help() == theirs.format_help()
    assert ours._subparsers is not None and theirs._subparsers is not None
    for action in ours._subparsers._group_actions:
        for name, parser in action.choices.items():  # type: ignore[union-attr]
            other = theirs._subparsers._group_actions[0].choices[name]  # type: ignore[index]
            assert parser.format_help() == other.format_help(), name


def test_a_scoring_run_does_not_import_shutil(tmp_path: Path) -> None:
    root = Path(cli.__file__).resolve().parents[2]
    code = ("import sys, runpy; sys.argv = ['finscore', 'tatqa', sys.argv[1], sys.argv[2], '--quiet']\n"
            "try:\n    runpy.run_module('finscore', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(str('shutil' in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code, str(root / "examples/tatqa/predictions.json"),
                           str(root / "examples/tatqa/gold.json")], env=_environment(None), cwd=tmp_path,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    assert done.stderr.decode().endswith("False")
