"""`finscore run` where the machine has no OS sandbox (issue #31): a candidate is refused unless
--unsandboxed is given, and every report of an unsandboxed run says so in its first line.

The machine's answer is replaced by a reason (as on a machine without bubblewrap), so these run
everywhere; the sandbox itself is tested in test_os_sandbox.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finscore.cli import main
from finscore.runner import os_sandbox
from finscore.runner.isolation import Isolation

NO_SANDBOX = "bwrap (bubblewrap) is not installed"


def run(*arguments: str) -> int:
    return main(["run", "--quiet", "--bootstrap", "20", *arguments])


@pytest.fixture()
def no_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os_sandbox, "unavailable_reason", lambda: NO_SANDBOX)


def test_a_candidate_is_refused_without_the_sandbox(
    no_sandbox: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("NO_PROXY", "*")
    out = tmp_path / "out"
    assert run("--endpoint", "http://127.0.0.1:9/v1", "--model", "m", "--out", str(out)) == 2
    error = capsys.readouterr().err
    assert error.startswith("finscore run: error: the OS sandbox is unavailable here (" + NO_SANDBOX)
    assert "--unsandboxed" in error
    assert not out.exists()  # refused before anything was written


def test_an_unsandboxed_run_says_so_first_in_every_report(
    no_sandbox: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("--agent", "oracle", "--only", "fv-en", "--out", str(tmp_path), "--unsandboxed") == 0
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert next(iter(report)) == "unsandboxed" and report["unsandboxed"].startswith("Unsandboxed run (--unsandboxed")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    body = html[html.index("<body>"):]
    assert "Unsandboxed run" in body[body.index("<p"):body.index("</p>")]  # the page's first paragraph
    assert capsys.readouterr().out.splitlines()[0] == "unsandboxed: --unsandboxed was given"
    manifest = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert manifest["sandbox"] == "none (--unsandboxed was given)"


def test_a_scripted_agent_runs_without_the_sandbox_and_the_report_says_so(
    no_sandbox: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The scripted agents are the runtime's own code, not candidates: not refused, but said."""
    assert run("--agent", "oracle", "--only", "fv-en", "--out", str(tmp_path)) == 0
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert next(iter(report)) == "unsandboxed" and NO_SANDBOX in report["unsandboxed"]
    assert report["counts"]["passed"] == 1
    assert capsys.readouterr().out.startswith(f"unsandboxed: no OS sandbox on this machine: {NO_SANDBOX}\n")


def test_a_required_sandbox_that_is_missing_fails_the_attempt_saying_why(
    no_sandbox: None, case_by_id: dict[str, object]
) -> None:
    from support.agents import answer_agent

    from finscore.runner.episode import run_attempt
    from finscore.runner.limits import Limits

    line = run_attempt(case_by_id["t-fv"], answer_agent, Limits(deadline_seconds=20),  # type: ignore[arg-type]
                       isolation=Isolation.for_deadline(20, os_sandbox="required")).prediction
    assert line["status"] == "crashed"
    assert line["status_detail"] == f"the OS sandbox is required but unavailable: {NO_SANDBOX}"


def test_the_sandbox_choice_is_one_of_three() -> None:
    with pytest.raises(ValueError, match="os_sandbox must be one of required, auto, off, not 'on'"):
        Isolation.for_deadline(20, os_sandbox="on")
