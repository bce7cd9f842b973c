"""The `finscore` command line: one entry point, one module per subcommand.

Each subcommand lives in `finscore.commands.<name>` and exposes
`register(subparsers) -> None`, which adds its parser and sets `handler` on it.
A command with a second form that argparse cannot put beside its positionals
(`finscore finqa equal-jsonl`) also exposes `second_form(arguments)`: given the
arguments after the command's name, that form's parser and the arguments it parses,
or None for the command's ordinary form.
Keeping the registry here (and the work in the command modules) lets each
subcommand be imported, tested and documented on its own.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

#: Command modules, in the order `--help` lists them.
COMMAND_MODULES: tuple[str, ...] = ("execute", "contracts", "compare", "finqa", "convfinqa", "tatqa", "answers", "run",
                                     "rewards")

#: The module of each command name, so that running one command imports only its module
#: (a test checks this against what the modules register).
COMMAND_MODULE_OF: dict[str, str] = {
    "exec": "execute",
    "exec-jsonl": "execute",
    "contracts": "contracts",
    "compare": "compare",
    "finqa": "finqa",
    "convfinqa": "convfinqa",
    "tatqa": "tatqa",
    "answers": "answers",
    "run": "run",
    "rewards": "rewards",
    "serve-reward": "rewards",
}


def build_parser(modules: Sequence[str] = COMMAND_MODULES) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="finscore",
        description=(
            "Exact, fast, honest scoring for financial question answering and "
            "financial agents. Run `finscore COMMAND --help` for each command."
        ),
    )
    from finscore import __version__

    parser.add_argument("--version", action="version", version=f"finscore {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules:
        importlib.import_module(f"finscore.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from finscore.streams import escape_what_standard_streams_cannot_encode

    escape_what_standard_streams_cannot_encode()
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = COMMAND_MODULE_OF.get(argv[0]) if argv else None
    form = None
    if chosen:
        second_form = getattr(importlib.import_module(f"finscore.commands.{chosen}"), "second_form", None)
        form = second_form(argv[1:]) if second_form is not None else None
    if form is not None:
        form_parser, form_arguments = form
        args = form_parser.parse_args(form_arguments)
    else:
        parser = build_parser((chosen,) if chosen else COMMAND_MODULES)
        args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        build_parser().print_help(sys.stderr)
        return 2
    try:
        return int(handler(args) or 0)
    except BrokenPipeError:
        return _output_closed()


#: The exit status when the reader of standard output went away (`finscore ... | head`): 128 + SIGPIPE,
#: what a shell reports for a program that pipe stopped, and no code finscore gives otherwise.
EXIT_OUTPUT_CLOSED = 141


def _output_closed() -> int:
    """End quietly: point standard output at /dev/null, so that flushing it at exit raises nothing more."""
    import os

    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):  # standard output is no file (replaced by a caller)
        return EXIT_OUTPUT_CLOSED
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, descriptor)
    finally:
        os.close(devnull)
    return EXIT_OUTPUT_CLOSED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
