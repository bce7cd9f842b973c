"""The command registry: every command is found, and running one imports only its module."""

from __future__ import annotations

import argparse
import subprocess
import sys

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
