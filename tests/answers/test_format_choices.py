"""The CLI's --format choices are the answer formats finscore.answers declares (named once, checked here)."""

from __future__ import annotations

import argparse

from finscore.answers.protocol import FORMATS
from finscore.cli import build_parser


def _format_choices(command: str, *rest: str) -> tuple[str, ...]:
    parser = build_parser((command,))
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    for name in rest:
        sub = next(a for a in sub._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
    option = next(a for a in sub._actions if "--format" in a.option_strings)
    return tuple(option.choices or ())


def test_rewards_and_answers_offer_exactly_the_declared_formats() -> None:
    from finscore.commands.answers import FORMAT_CHOICES

    assert FORMAT_CHOICES == FORMATS
    assert _format_choices("rewards") == FORMATS
