"""The step view, the core-only rounding box and the page's manners, in real Chromium.

Expected answers come from outside the page: FinQA's own `exe_ans`, CPython's
arithmetic in this test process, the recorded vectors, and the finscore
package run here under CPython. The last is the same Python code under another
host: comparing with it finds a host difference, never a logic error they share.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from finscore import execute

from .conftest import PYTHON_READY_MS, WEB, finqa_examples, load_playground_module, screenshot, vector_rows, watch

EXAMPLES = json.loads((WEB / "src" / "examples.json").read_text(encoding="utf-8"))["examples"]


CPYTHON_PLAYGROUND = load_playground_module()


def run_form(page: Any, program: str, table: str = "", *, table_format: str = "auto",
             profile: str = "official", python: str = "3.11") -> None:
    """Fill the step view as a person would and press Run."""
    page.fill("#program", program)
    page.fill("#table", table)
    page.select_option("#table-format", table_format)
    page.check(f"input[name=profile][value='{profile}']")
    page.check(f"input[name=python][value='{python}']")
    page.click("#run")
    page.wait_for_selector("body:not([data-busy])")


def page_answer(page: Any, request: dict[str, Any]) -> dict[str, Any]:
    """run_program through the page's own API (the call the Run button makes)."""
    return page.evaluate("request => window.finscore.runProgram(request)", request)


def cpython_answer(request: dict[str, Any]) -> dict[str, Any]:
    return json.loads(CPYTHON_PLAYGROUND.run_program(json.dumps(request)))


def step_rows(page: Any) -> list[dict[str, str]]:
    return page.eval_on_selector_all(
        "#steps tbody tr",
        """rows => rows.map(row => ({
            step: row.dataset.step, failing: row.classList.contains('failing'),
            cells: [...row.children].map(cell => cell.textContent)}))""",
    )


def example(key: str) -> dict[str, Any]:
    return next(item for item in EXAMPLES if item["key"] == key)


# -- the shipped examples -------------------------------------------------------------

@pytest.mark.parametrize("key", ["chain", "table-average", "greater"])
def test_example_gives_the_finqa_answer(page: Any, key: str) -> None:
    shipped = example(key)
    gold_answer = finqa_examples()[shipped["source"]]["qa"]["exe_ans"]
    page.select_option("#example", key)
    page.wait_for_selector("#outcome:not([hidden])")
    page.wait_for_selector("body:not([data-busy])")
    shown = page.text_content("#answer .result")
    if isinstance(gold_answer, float):
        assert float(shown) == gold_answer
    else:
        assert shown == gold_answer
    assert page.text_content("#answer .verdict") == "Answer"


def test_chain_shows_every_step_with_python_spelled_values(page: Any) -> None:
    shipped = example("chain")
    page.select_option("#example", "chain")
    page.wait_for_selector("body:not([data-busy])")
    expected = execute(shipped["program"], shipped["table"])  # the package under CPython
    rows = step_rows(page)
    assert [row["cells"][1] for row in rows] == [step.op for step in expected.steps]
    assert [row["cells"][3] for row in rows] == [repr(step.value) for step in expected.steps]
    assert [row["cells"][4] for row in rows] == [step.value.hex() for step in expected.steps]
    # hand-computable: the steps are plain CPython float operations
    step0 = 34.8 - 1.2
    step1 = step0 / 34.8
    step2 = step1 * 100.0
    assert [row["cells"][4] for row in rows] == [step0.hex(), step1.hex(), step2.hex()]
    assert page.text_content("#answer .result-hex") == round(step2, 5).hex()


def test_refused_divide_by_zero_shows_status_and_failing_step(page: Any) -> None:
    shipped = example("divide-by-zero")
    page.select_option("#example", "divide-by-zero")
    page.wait_for_selector("body:not([data-busy])")
    assert page.text_content("#answer .verdict") == "Invalid"
    assert page.text_content("#answer .status-name") == "divide_by_zero"
    assert "at step #1" in page.text_content("#answer")
    failing = [row for row in step_rows(page) if row["failing"]]
    assert [row["step"] for row in failing] == ["1"]
    assert failing[0]["cells"][3] == "refused"
    assert page.get_attribute("#outcome", "data-invalid") == "1"
    expected = execute(shipped["program"], shipped["table"])
    assert (expected.invalid, expected.status_name, expected.failed_step) == (1, "divide_by_zero", 1)


@pytest.mark.parametrize("key", [item["key"] for item in EXAMPLES])
def test_example_matches_the_package_under_cpython(page: Any, key: str) -> None:
    shipped = example(key)
    for profile in ("official", "strict"):
        for python in ("3.11", "3.12"):
            request = {"program": shipped["program"], "table": json.dumps(shipped["table"]),
                       "table_format": "json", "profile": profile, "python": python}
            assert page_answer(page, request) == cpython_answer(request)


# -- typed and pasted input -----------------------------------------------------------

def _average_example() -> tuple[str, list[list[str]], float]:
    gold = finqa_examples()["AAPL/2008/page_78.pdf-2"]
    return gold["qa"]["program"], gold["table"], gold["qa"]["exe_ans"]


@pytest.mark.parametrize("separator, table_format, described", [
    ("\t", "auto", "tab-separated rows"),
    ("\t", "tab", "tab-separated rows"),
    (" | ", "auto", "|-separated rows"),
    (" | ", "pipe", "|-separated rows"),
])
def test_pasted_table_rows(page: Any, separator: str, table_format: str, described: str) -> None:
    program, table, gold_answer = _average_example()
    pasted = "\n".join(separator.join(row) for row in table)
    if separator.strip() == "|":  # as a Markdown table: outer bars and a rule under the header
        lines = [f"| {line} |" for line in pasted.splitlines()]
        lines.insert(1, "|" + "---|" * len(table[0]))
        pasted = "\n".join(lines)
    run_form(page, program, pasted, table_format=table_format)
    assert float(page.text_content("#answer .result")) == gold_answer
    assert f"the table read as {described} ({len(table)} rows)" in page.text_content("#outcome-detail")


def test_token_list_and_strict_profile(page: Any) -> None:
    tokens = ["add(", "1", "2", ")", "last"]  # the official evaluator never checks the last token
    run_form(page, json.dumps(tokens), profile="official")
    assert float(page.text_content("#answer .result")) == 1.0 + 2.0
    official = execute(tokens, profile="official")
    strict = execute(tokens, profile="strict")
    assert official.invalid == 0 and strict.invalid == 1
    run_form(page, json.dumps(tokens), profile="strict")
    assert page.text_content("#answer .status-name") == strict.status_name


def test_summation_rule_switch_matches_both_recordings(page: Any) -> None:
    """A table_sum whose 3.11 and 3.12 answers differ, as the vectors recorded them."""
    by_id = {row["id"]: row for row in vector_rows("fuzz") if "table" in row and row["invalid"] == 0}
    differing = None
    for row in vector_rows("fuzz-py312"):
        older = by_id.get(row["id"])
        if older and row["invalid"] == 0 and row["result"] != older["result"] and "float" in row["result"]:
            differing = (older, row)
            break
    assert differing is not None, "the vectors hold programs whose answer depends on the sum rule"
    for row in differing:
        run_form(page, json.dumps(row["program"]), json.dumps(row["table"]), python=row["python"])
        assert page.text_content("#answer .result-hex") == float.fromhex(row["result"]["float"]).hex()


def test_negative_zero_survives_the_trip(page: Any) -> None:
    run_form(page, "multiply(-1, 0)")
    expected = round(-1.0 * 0.0, 5)  # CPython: -0.0
    assert math.copysign(1.0, expected) == -1.0
    assert page.text_content("#answer .result") == repr(expected) == "-0.0"
    assert page.text_content("#answer .result-hex") == expected.hex()
    assert step_rows(page)[0]["cells"][3:] == [repr(expected), expected.hex()]
    answer = page_answer(page, {"program": '["subtract(", "0", "0", ")", "multiply(", "#0", "-1", ")", "EOF"]'})
    assert answer["execution"]["result"] == {"float": (-(0.0 - 0.0)).hex()}


def test_bad_input_is_a_readable_message(page: Any) -> None:
    run_form(page, '["add(", "1"')
    message = page.text_content("#program-error")
    assert page.is_visible("#program-error")
    assert "not valid JSON" in message and "Traceback" not in message
    run_form(page, "add(1, 2)", "just some words")
    assert "cannot tell how the table is written" in page.text_content("#program-error")


# -- the core at once, before Python ----------------------------------------------------

STALLED_WORKER = "self.onmessage = () => {};  // Python never arrives\n"


def test_core_works_before_python(browser_context: Any, server: Any) -> None:
    """With the Python worker held back, the core is ready, rounds and runs plain programs;
    Python is not loaded until asked for, and then its progress stays visible."""
    watched = watch(browser_context, server)
    page = watched.page
    page.route("**/worker.js", lambda route: route.fulfill(
        status=200, content_type="text/javascript", body=STALLED_WORKER))
    try:
        page.goto(server.base_url)
        page.wait_for_selector("#core-status[data-state=ready]")
        assert not page.is_disabled("#run")  # the core runs plain programs itself
        assert "not loaded" in page.text_content("#python-status") and page.is_hidden("#python-progress")
        page.click("#load-python")
        assert page.is_hidden("#load-python")
        assert page.is_visible("#python-progress")
        assert "starting" in page.text_content("#python-status")
        for x, places in [(2.675, 2), (-0.0001, 2), (0.125, 2), (1e22, 0), (5e-324, 22)]:
            page.fill("#round-x", repr(x))
            page.fill("#round-places", str(places))
            page.click("#round")
            expected = round(x, places)  # CPython's round, the oracle
            page.wait_for_selector(f"#round-result[data-hex='{expected.hex()}']")
        assert not watched.console_errors
    finally:
        page.close()


def test_javascript_hex_spelling_is_pythons(page: Any) -> None:
    values = [0.0, -0.0, 1.0, -2.5, 0.1, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308,
              math.inf, -math.inf, 96.55172, 2.675, 1e-300]
    shown = page.evaluate("values => values.map(v => window.finscore.doubleHex(v))", values)
    assert shown == [value.hex() for value in values]
    assert page.evaluate("() => window.finscore.doubleHex(NaN)") == "nan"


# -- manners: labels, keyboard, widths --------------------------------------------------

def test_every_control_has_a_label(page: Any) -> None:
    unlabeled = page.eval_on_selector_all(
        "input, select, textarea, progress",
        "nodes => nodes.filter(n => n.labels.length === 0 && !n.getAttribute('aria-label')).map(n => n.id || n.name)",
    )
    assert unlabeled == []


def test_keyboard_alone_runs_a_program(browser_context: Any, server: Any) -> None:
    """Tab walks the controls in reading order; Ctrl+Enter in the program runs it."""
    watched = watch(browser_context, server)
    page = watched.page
    try:
        page.goto(server.base_url)
        page.wait_for_selector("#run:not([disabled])", timeout=PYTHON_READY_MS)
        order = []
        page.wait_for_selector("#outcome:not([hidden])")  # the first example's step view, from the core
        for _ in range(18):
            page.keyboard.press("Tab")
            order.append(page.evaluate("() => document.activeElement.id || document.activeElement.name || 'link'"))
        assert order == ["link", "readme-link", "theme", "load-python", "mode", "example", "program", "table", "table-format",
                         "profile", "python", "run", "copy-link", "token-view-toggle", "predictions-file", "gold-file",
                         "exclude-bad-ids", "score-benchmark"]
        page.fill("#program", "")  # the first example is in it already
        page.focus("#program")
        page.keyboard.type("divide(1, 8)")
        page.keyboard.press("Control+Enter")
        page.wait_for_selector("#outcome:not([hidden])")
        page.wait_for_selector("body:not([data-busy])")
        assert page.text_content("#answer .result") == repr(round(1 / 8, 5))
        assert not watched.console_errors
    finally:
        page.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_readable_at_width(page: Any, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    try:
        page.select_option("#example", "divide-by-zero")
        page.wait_for_selector("body:not([data-busy])")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px at {width}px"
        path = screenshot(page, f"playground-{width}.png")
        assert path.stat().st_size > 0
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_only_the_pages_own_files_were_requested(playground: Any, server: Any) -> None:
    assert playground.requests, "the page was loaded"
    assert playground.foreign_requests() == []
    assert all(method == "GET" for method, _ in server.requested)
    asked = {path for _, path in server.requested}
    for needed in ("/finscore_core.wasm", "/pyodide/pyodide.asm.wasm", "/manifest.json"):
        assert needed in asked
    assert all(Path(server.root, path.lstrip("/").split("?")[0] or "index.html").is_file() for path in asked)


PROBING_WORKER = (
    "fetch('http://finscore-probe.invalid/from-worker').catch(() => null);\n"
    "self.onmessage = () => {};\n"
)


def test_the_watch_sees_console_errors_and_foreign_requests(browser_context: Any, server: Any) -> None:
    """The checks above are not vacuous: console errors and requests elsewhere are seen, and the
    page's Content-Security-Policy refuses a connection elsewhere from the page itself.
    Nothing leaves the machine: the browser resolves no host but 127.0.0.1."""
    watched = watch(browser_context, server)
    page = watched.page
    page.route("**/worker.js", lambda route: route.fulfill(
        status=200, content_type="text/javascript", body=PROBING_WORKER))
    try:
        page.goto(server.base_url)
        with page.expect_request(lambda request: "finscore-probe" in request.url):
            page.click("#load-python")  # the worker starts only when Python is asked for
        assert watched.foreign_requests() == ["http://finscore-probe.invalid/from-worker"]
        with page.expect_console_message(lambda message: message.text == "probe"):
            page.evaluate("() => console.error('probe')")
        with page.expect_console_message(lambda message: "Content Security Policy" in message.text):
            page.evaluate("() => fetch('http://finscore-probe.invalid/from-page').catch(() => null)")
        assert "probe" in watched.console_errors
        assert any("Content Security Policy" in error and "from-page" in error for error in watched.console_errors)
        assert "http://finscore-probe.invalid/from-page" not in watched.requests
    finally:
        page.close()
