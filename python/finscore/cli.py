"""The `finscore` command line: one entry point, one module per subcommand.

Each subcommand lives in `finscore.commands.<name>` and exposes
`register(subparsers) -> None`, which adds its parser and sets `handler` on it.
A command with a second form that argparse cannot put beside its positionals
(`finscore finqa equal-jsonl`) also exposes `second_form(arguments)`: given the
arguments after the command's name, that form's parser and the arguments it parses,
or None for the command's ordinary form.
A benchmark's command comes from its descriptor in the benchmark registry
(finscore.registry): its own module, or the generic `finscore.commands.benchmark`.
Keeping the list here (and the work in the command modules) lets each
subcommand be imported, tested and documented on its own.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any, Sequence

from finscore import registry

#: The commands before and after the benchmarks' own, in the order `--help` lists them, and the
#: module of each of their command names.
_COMMANDS_BEFORE: tuple[str, ...] = ("execute", "contracts", "compare")
_COMMANDS_AFTER: tuple[str, ...] = ("answers", "protocols", "run", "rewards")
_MODULE_OF_COMMAND: dict[str, str] = {
    "exec": "execute",
    "exec-jsonl": "execute",
    "contracts": "contracts",
    "compare": "compare",
    "answers": "answers",
    "protocols": "protocols",
    "run": "run",
    "rewards": "rewards",
    "serve-reward": "rewards",
}


def command_modules() -> tuple[str, ...]:
    """Command modules in `--help` order: a benchmark's entry is its registry name (finscore.registry)."""
    return _COMMANDS_BEFORE + registry.benchmark_names() + _COMMANDS_AFTER


def command_module_of() -> dict[str, str]:
    """The module of each command name, so that running one command imports only its module."""
    return {**_MODULE_OF_COMMAND, **{name: name for name in registry.benchmark_names()}}


#: Command modules of the shipped commands, in the order `--help` lists them.
COMMAND_MODULES: tuple[str, ...] = command_modules()
#: The module of each shipped command name (a test checks this against what the modules register).
COMMAND_MODULE_OF: dict[str, str] = command_module_of()


def _command_module(name: str) -> Any:
    """The module behind a command-module entry: a benchmark's own command, the generic benchmark
    command (finscore.commands.benchmark) for one without, or finscore.commands.<name>."""
    if name in registry.benchmark_names():
        command = registry.get_benchmark(name).command
        return importlib.import_module(command if command is not None else "finscore.commands.benchmark")
    return importlib.import_module(f"finscore.commands.{name}")


def _register(name: str, subparsers: Any) -> None:
    """Add one command-module entry's parsers; the generic command is given its benchmark's descriptor."""
    if name in registry.benchmark_names() and registry.get_benchmark(name).command is None:
        from finscore.commands import benchmark as generic

        generic.register(subparsers, registry.get_benchmark(name))
    else:
        _command_module(name).register(subparsers)


def terminal_columns() -> int:
    """`shutil.get_terminal_size().columns`, without importing shutil: the width argparse lays help out in.

    argparse's formatter asks shutil for it, and `add_argument` makes a formatter to check every
    metavar, so every command paid shutil's import (with zlib, bz2 and lzma: about 8 M instructions,
    a twentieth of a `finscore tatqa` run; benchmarks/README.md, #29) to lay out help it never
    prints. The same rule: $COLUMNS if it is a positive number, else the width of the terminal
    standard output was opened on, else 80 (tests/test_cli_parser.py checks it against shutil)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or 80


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, its width from `terminal_columns` (argparse's default: the terminal's, less 2)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None, **options: Any) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width, **options)


class CommandParser(argparse.ArgumentParser):
    """The parser of every `finscore` form: argparse's, with `HelpFormatter` unless told otherwise.
    A command's subparsers are made of the parser's own class, so they share it."""

    def __init__(self, *arguments: Any, **options: Any) -> None:
        options.setdefault("formatter_class", HelpFormatter)
        super().__init__(*arguments, **options)


def build_parser(modules: Sequence[str] | None = None) -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="finscore",
        description=(
            "Exact, fast, honest scoring for financial question answering and "
            "financial agents. Run `finscore COMMAND --help` for each command."
        ),
    )
    from finscore import __version__

    parser.add_argument("--version", action="version", version=f"finscore {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in command_modules() if modules is None else modules:
        _register(name, subparsers)
    return parser


#: The collector's thresholds in a `finscore` process: the first generation is collected after this many
#: allocations net, not CPython's 700. A whole run builds its inputs (tens of thousands of dicts and
#: lists that live until it ends, and none in cycles) in one go, and with the default each of its
#: collections walks them again: about a sixth of `finscore finqa`'s CPU on FinQA's test file
#: (benchmarks/README.md). The library never changes them; only the command-line entry does, as
#: mypy's does.
CLI_GC_THRESHOLDS = (100_000, 50, 100)


def main(argv: Sequence[str] | None = None) -> int:
    import gc

    gc.set_threshold(*CLI_GC_THRESHOLDS)
    from finscore.streams import escape_what_standard_streams_cannot_encode

    escape_what_standard_streams_cannot_encode()
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = command_module_of().get(argv[0]) if argv else None
    form = None
    if chosen:
        second_form = getattr(_command_module(chosen), "second_form", None)
        form = second_form(argv[1:]) if second_form is not None else None
    if form is not None:
        form_parser, form_arguments = form
        args = form_parser.parse_args(form_arguments)
    else:
        parser = build_parser((chosen,) if chosen else None)
        args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        build_parser().print_help(sys.stderr)
        return 2
    try:
        return int(handler(args) or 0)
    except BrokenPipeError:
        return _output_closed()
    except RuntimeError as error:
        from finscore.engine.core.hosts.backend import CoreLoadError, load_error_message
        from finscore.exit_status import EXIT_USAGE

        if not isinstance(error, CoreLoadError):
            raise
        print(f"finscore {argv[0]}: {load_error_message(error)}", file=sys.stderr)
        return EXIT_USAGE


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
