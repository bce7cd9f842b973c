"""The command registry: every command is found, and running one imports only its module."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from finscore.cli import COMMAND_MODULE_OF, COMMAND_MODULES, build_parser


def registered_commands(modules: tuple[str, ...]) -> set[str]:
    parser = build_parser(modules)
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return set(actions[0].choices)


def test_every_command_maps_to_the_module_that_registers_it() -> None:
    assert registered_commands(COMMAND_MODULES) == set(COMMAND_MODULE_OF)
    for command, module in COMMAND_MODULE_OF.items():
        assert command in registered_commands((module,))


def test_running_one_command_imports_only_its_module() -> None:
    code = ("import sys; from finscore.cli import main; main(['exec', 'add(1, 2)']); "
            "print(sorted(m for m in sys.modules if m.startswith('finscore.commands.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "['finscore.commands.execute']"


def test_help_lists_every_command(capsys) -> None:  # type: ignore[no-untyped-def]
    build_parser().print_help()
    out = capsys.readouterr().out
    assert all(command in out for command in COMMAND_MODULE_OF)



def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    """`finscore exec-jsonl < big | head -1`: no BrokenPipeError traceback, exit status 141 (128 + SIGPIPE)."""
    from finscore.cli import EXIT_OUTPUT_CLOSED

    source = tmp_path / "programs.jsonl"
    source.write_text("".join(f'{{"program": "add({n}, 2)"}}\n' for n in range(100_000)))
    command = [sys.executable, "-c", "import sys; from finscore.cli import main; sys.exit(main())", "exec-jsonl"]
    with source.open("rb") as stdin, subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE,
                                                      stderr=subprocess.PIPE) as child:
        assert child.stdout is not None and child.stderr is not None
        first = child.stdout.readline()
        child.stdout.close()  # far more output is still to come: the next writes find no reader
        errors = child.stderr.read()
        status = child.wait(timeout=300)
    assert json.loads(first)["result"] == {"float": (2.0).hex()}
    assert (status, errors) == (EXIT_OUTPUT_CLOSED, b"")


def test_help_needs_no_optional_extra() -> None:
    """`finscore --help` and `finscore rewards --help` load no pyarrow (the rewards extra)."""
    code = ("import sys, contextlib, io\nfrom finscore.cli import main\n"
            "for argv in (['--help'], ['rewards', '--help']):\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        try:\n            main(argv)\n        except SystemExit as done:\n            assert done.code == 0\n"
            "print(sorted(name for name in sys.modules if name.split('.')[0] in ('pyarrow', 'ray')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
