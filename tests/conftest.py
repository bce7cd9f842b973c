"""The skip policy: an essential test never skips silently, and every skip says why.

A test marked `essential` (registered in pyproject.toml) is one a claim of finscore rests on (an external oracle:
the recorded official outputs, CPython's own round/pow/sum, the official figures,
the freshness of the committed .wasm, the sanitizer build, the page's bit identity,
the Node example). Under CI (`CI=true`) or `FINSCORE_NO_SKIP=1` (what
`scripts/test --no-skip` sets), a skipped essential test is turned into a failure,
because a green run must mean the claims hold. Every other skip is listed with its
reason in a block at the end of the run.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

ESSENTIAL = "essential"
_TRUE = {"1", "true", "yes", "on"}


def no_skips_allowed() -> bool:
    """Must essential tests run? Yes under CI=true and under FINSCORE_NO_SKIP=1."""
    return (os.environ.get("CI", "").strip().lower() in _TRUE
            or os.environ.get("FINSCORE_NO_SKIP", "").strip().lower() in _TRUE)


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    """The reason pytest recorded for a skip (its longrepr is (file, line, reason))."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome: Any = yield
    report: pytest.TestReport = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail") and item.get_closest_marker(ESSENTIAL):
        reason = _skip_reason(report)
        report.user_properties.append(("essential_skip", reason))
        if no_skips_allowed():
            report.outcome = "failed"
            report.longrepr = (f"essential test skipped under CI=true / FINSCORE_NO_SKIP=1: {reason}\n"
                               "A claim rests on this test; install what it needs (scripts/test does on Debian).")


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    """A whole module skipped at collection may hold essential tests: under CI it fails too."""
    outcome: Any = yield
    report: pytest.CollectReport = outcome.get_result()
    if report.skipped and no_skips_allowed():
        reason = _skip_reason(report)
        report.outcome = "failed"
        report.longrepr = f"{collector.nodeid} skipped at collection under CI=true / FINSCORE_NO_SKIP=1: {reason}"


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """One block at the end: how many tests skipped, and why, essential ones first."""
    skipped = [report for report in terminalreporter.stats.get("skipped", [])
               if not hasattr(report, "wasxfail")]
    not_run = terminalreporter.stats.get("failed", []) + terminalreporter.stats.get("error", []) + skipped
    essential = [report for report in not_run
                 if any(name == "essential_skip" for name, _ in getattr(report, "user_properties", ()))]
    write = terminalreporter.write_line
    if essential:
        verdict = "FAILED (a claim rests on them)" if no_skips_allowed() else \
            "skipped; under CI=true or scripts/test --no-skip this fails the run"
        terminalreporter.section(f"essential tests not run: {len(essential)}, {verdict}", red=True)
        for report in essential:
            reason = dict(report.user_properties)["essential_skip"]
            write(f"  {report.nodeid}: {reason}")
    if skipped:
        reasons = Counter(_skip_reason(report) for report in skipped)
        terminalreporter.section(f"skipped: {len(skipped)}", yellow=True)
        for reason, count in reasons.most_common():
            write(f"  {count} x {reason}")
