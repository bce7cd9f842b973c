"""The answer view's data for the core's path (web/src/answers.json) is generated from the package, fresh."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from finscore.answers import protocol_names
from finscore.answers.in_core import core_rules
from finscore.answers.registry import get_protocol

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "tools" / "answers" / "make_web_answers.py"


def test_the_committed_answers_json_is_what_the_generator_writes() -> None:
    done = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_it_holds_every_protocol_with_the_rules_the_core_reads() -> None:
    """Every registered protocol is offered; the core's rules are the Python batch path's own bytes,
    absent (null) exactly where Python decides the protocol throughout."""
    data = json.loads((ROOT / "web/src/answers.json").read_text(encoding="utf-8"))
    assert [p["name"] for p in data["protocols"]] == list(protocol_names())
    for shown in data["protocols"]:
        rules = core_rules(get_protocol(shown["name"]))
        assert shown["core_rules"] == (None if rules is None else rules.decode("ascii"))
    assert [p["name"] for p in data["protocols"] if p["core_rules"] is None] == ["financemath-answer/1", "financemath-answer/2"]
