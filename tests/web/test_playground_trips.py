"""Issue #35's playground trips, in Chromium: never a result that is not the current input's (a
program needing Python hides the previous one and says "Waiting for Python" with its progress),
the editor and the outcome side by side on a wide screen and the outcome first on a phone, and
the CLI's `note:` hints on the page.

Expected answers and notes come from the finscore package under CPython in this test process.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from finscore import execute
from finscore.engine.text_input import program_notes, read_program_text

from .conftest import PYTHON_READY_MS, opened_until_first_answer, watch
from .test_playground_live import _held_page, _release_python

#: Recorded on the page whenever the outcome or the program changes: (program, outcome shown as
#: current, i.e. visible and not marked stale, answer).
RECORDER = """() => {
  window.__seen = [];
  const outcome = document.querySelector('#outcome');
  const note = () => window.__seen.push([document.querySelector('#program').value,
      !outcome.hidden && !('stale' in outcome.dataset), document.querySelector('#answer').textContent]);
  new MutationObserver(note).observe(document.querySelector('#outcome'),
      { attributes: true, childList: true, subtree: true, characterData: true });
  document.querySelector('#program').addEventListener('input', note);
}"""

PLAIN = "add(1, 2)"  # the core decides it at once
NEEDS_PYTHON = "add(1e3, 2)"  # the core defers it to Python's reader


def _notes(program: str) -> list[str]:
    return program_notes(read_program_text(program), execute(read_program_text(program)))


@contextmanager
def _ready_held_page(browser_context: Any, server: Any) -> Iterator[Any]:
    """A page whose Python is held back, loaded until the core has given its first answer; closed after."""
    with opened_until_first_answer(_held_page(browser_context, server)) as watched:
        yield watched


def test_a_previous_result_is_never_shown_for_a_program_waiting_for_python(browser_context: Any, server: Any) -> None:
    with _ready_held_page(browser_context, server) as watched:
        page = watched.page
        page.evaluate(RECORDER)
        page.fill("#program", PLAIN)
        page.wait_for_function(f"() => !document.querySelector('#outcome').hidden && "
                               f"document.querySelector('#step-view').dataset.request.includes({PLAIN!r})")
        first = page.text_content("#answer")
        assert repr(execute(PLAIN).result) in first
        page.fill("#program", NEEDS_PYTHON)
        page.wait_for_selector("body[data-queued=run]")
        assert page.is_hidden("#outcome")
        status = page.text_content("#run-status")
        assert status.startswith("Waiting for Python (") and "it runs as soon as Python is ready" in status
        assert page.evaluate("() => window.finscore.pythonReady()") is False
        _release_python(page)
        page.wait_for_selector("#outcome[data-path=python]")
        page.wait_for_selector("body:not([data-busy])")
        assert page.text_content("#answer .result") == repr(execute(NEEDS_PYTHON).result)
        seen = page.evaluate("() => window.__seen")
        shown_for_b = [answer for program, shown, answer in seen if program == NEEDS_PYTHON and shown]
        assert shown_for_b and first not in shown_for_b
        assert all(repr(execute(NEEDS_PYTHON).result) in answer for answer in shown_for_b)
        assert not watched.console_errors


def test_the_waiting_line_shows_pythons_progress(browser_context: Any, server: Any) -> None:
    with _ready_held_page(browser_context, server) as watched:
        page = watched.page
        page.fill("#program", NEEDS_PYTHON)
        page.wait_for_selector("body[data-queued=run]")
        _release_python(page)
        page.wait_for_function("() => /Waiting for Python \\(loading \\d+ of \\d+\\)/"
                               ".test(document.querySelector('#run-status').textContent) || "
                               "!document.querySelector('body').dataset.queued")
        page.wait_for_selector("#outcome[data-path=python]")
        assert page.is_hidden("#run-status")


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box  # type: ignore[no-any-return]


def test_editor_and_outcome_side_by_side_wide_and_outcome_first_on_a_phone(browser_context: Any,
                                                                            server: Any) -> None:
    watched = watch(browser_context, server)
    page = watched.page
    try:
        page.set_default_timeout(PYTHON_READY_MS)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(server.base_url)
        page.wait_for_function("() => window.finscore && window.finscore.firstAnswerMs !== null")
        page.wait_for_selector("#outcome:not([hidden])")
        form, outcome = _box(page, "#program-form"), _box(page, "#outcome")
        assert outcome["x"] >= form["x"] + form["width"] - 1  # beside the editor
        assert outcome["y"] < form["y"] + form["height"] and outcome["y"] < 900  # in view, no scrolling
        page.set_viewport_size({"width": 390, "height": 844})
        form, outcome = _box(page, "#program-form"), _box(page, "#outcome")
        assert outcome["y"] + outcome["height"] <= form["y"] + 1  # above the editor
        assert outcome["y"] < 844
        assert not watched.console_errors
    finally:
        page.close()


def test_the_clis_notes_are_on_the_page(page: Any) -> None:
    for program in ("add(1,2)", "add(1, 2"):
        expected = _notes(program)
        assert expected and any("did you mean 'add(1, 2)'?" in note for note in expected)
        page.fill("#program", program)
        page.wait_for_function(f"() => document.querySelector('#step-view').dataset.request.includes({program!r})")
        page.wait_for_selector("body:not([data-busy]):not([data-notes])")
        shown = page.eval_on_selector_all("#notes li.note", "items => items.map(i => i.textContent)")
        assert shown == [f"note: {note}" for note in expected]


def test_an_answer_decision_is_marked_stale_until_the_new_input_is_decided(page: Any) -> None:
    page.check('input[name="mode"][value="answer"]')
    try:
        page.wait_for_selector("#answer-view:not([hidden])")
        page.wait_for_function("() => document.querySelectorAll('#answer-protocol option').length > 1")
        page.fill("#completion", "Answer: 16.9%")
        page.wait_for_function("() => !document.body.dataset.busy && document.querySelector('#answer-view')"
                               ".dataset.request === JSON.stringify(window.finscore.answerRequest())")
        assert page.get_attribute("#answer-outcome", "data-stale") is None
        page.evaluate("""() => { window.__stale = [];
            const outcome = document.querySelector('#answer-outcome');
            document.querySelector('#completion').addEventListener('input', () => window.__stale.push(
                [document.querySelector('#completion').value, outcome.hidden || 'stale' in outcome.dataset])); }""")
        page.type("#completion", "5")
        assert page.evaluate("() => window.__stale") == [["Answer: 16.9%5", True]]
        page.wait_for_function("() => !document.body.dataset.busy && document.querySelector('#answer-view')"
                               ".dataset.request === JSON.stringify(window.finscore.answerRequest())")
        assert page.get_attribute("#answer-outcome", "data-stale") is None
    finally:
        page.check('input[name="mode"][value="program"]')
        page.wait_for_selector("#step-view:not([hidden])")
