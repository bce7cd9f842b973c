"""The playground answers at once: plain programs read and run by the JavaScript binding in the
page, before Python; live results; the refused step marked; runs queued while Python loads.

Expected answers come from outside the page: the finscore package and CPython in this test
process, and the recorded vectors. The first answer's time is recorded as an artifact
(test-artifacts/first-answer.json), never asserted: the figure in web/README.md comes from it.
"""

from __future__ import annotations

import base64
import json
import math
import re
import struct
import zlib
from typing import Any

from finscore import execute
from finscore.answers import FORMATS, decide, protocol_names
from finscore.engine.reader.tokens import tokenize_gold_program

from support.shared import table_of

from .conftest import PYTHON_READY_MS, WEB, artifact_path, finqa_examples, screenshot, vector_rows, watch

EXAMPLES = json.loads((WEB / "src" / "examples.json").read_text(encoding="utf-8"))["examples"]
#: The pause after typing before a live run starts (the page's own constant).
_LIVE_DELAY = re.search(r"const LIVE_DELAY_MS = (\d+);", (WEB / "src" / "app.js").read_text(encoding="utf-8"))
assert _LIVE_DELAY is not None
LIVE_DELAY_MS = int(_LIVE_DELAY.group(1))

#: Appended to the real worker.js: the worker holds Python's start until the test releases it
#: on a BroadcastChannel (same origin, nothing leaves the page), so "Python is still loading"
#: is a fact of the test, not a race. The worker acknowledges the release: the page repeats it
#: until then, since Python now loads on demand and the worker may start after the release.
HOLD_PYTHON = """
{
  const real = self.onmessage;
  let held = null, released = false;
  const channel = new BroadcastChannel("finscore-test-release");
  channel.onmessage = (message) => {
    if (message.data !== "go") return;
    channel.postMessage("released");
    if (released) return;
    released = true;
    if (held) { const event = held; held = null; real(event); }
  };
  self.onmessage = (event) => { if (event.data.type === "init" && !released) held = event; else real(event); };
}
"""


def _hex(value: object) -> str:
    """float.hex() of a value that must be a float."""
    assert isinstance(value, float), value
    return value.hex()


def _held_page(browser_context: Any, server: Any) -> Any:
    watched = watch(browser_context, server)
    source = (server.root / "worker.js").read_text(encoding="utf-8") + HOLD_PYTHON
    watched.page.route("**/worker.js", lambda route: route.fulfill(status=200, content_type="text/javascript", body=source))
    return watched


def _release_python(page: Any) -> None:
    """Release the held worker: 'go' every 50 ms until the worker says it is released (it may not
    have started yet: the page starts it only when something needs Python)."""
    page.evaluate("""() => {
      const channel = new BroadcastChannel('finscore-test-release');
      const again = setInterval(() => channel.postMessage('go'), 50);
      channel.onmessage = (message) => {
        if (message.data === 'released') { clearInterval(again); channel.close(); }
      };
      channel.postMessage('go');
    }""")


def test_first_step_view_comes_from_the_core_before_python(browser_context: Any, server: Any) -> None:
    watched = _held_page(browser_context, server)
    page = watched.page
    try:
        page.goto(server.base_url)
        page.wait_for_function("() => window.finscore && window.finscore.firstAnswerMs !== null")
        assert page.evaluate("() => window.finscore.pythonReady()") is False
        assert page.get_attribute("#outcome", "data-path") == "core"
        first = EXAMPLES[0]
        expected = execute(first["program"], first["table"])  # the package under CPython
        assert page.text_content("#answer .result-hex") == _hex(expected.result)
        rows = page.eval_on_selector_all("#steps tbody tr", "rows => rows.map(r => r.children[4].textContent)")
        assert rows == [_hex(step.value) for step in expected.steps]
        timing = page.evaluate("""() => ({
            first_answer_ms: window.finscore.firstAnswerMs,
            dom_content_loaded_ms: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
            python_ready: window.finscore.pythonReady()})""")
        artifact_path("first-answer.json").write_text(json.dumps(timing, indent=1) + "\n", encoding="utf-8")
        assert not watched.console_errors
    finally:
        page.close()


#: Not in the plain form: the core defers it to Python's reader, so a run of it waits for Python.
QUEUED_PROGRAM = "add(1e3, 2)"


def _queue_a_run(page: Any, server: Any, program: str) -> None:
    """Open the held page, type `program` and run it with Ctrl+Enter: it is queued for Python."""
    page.set_default_timeout(PYTHON_READY_MS)
    page.goto(server.base_url)
    page.wait_for_function("() => window.finscore && window.finscore.firstAnswerMs !== null")
    page.fill("#program", program)
    page.focus("#program")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("body[data-queued=run]")


def test_a_run_while_python_loads_is_queued_and_runs_when_it_is_ready(browser_context: Any, server: Any) -> None:
    watched = _held_page(browser_context, server)
    page = watched.page
    try:
        _queue_a_run(page, server, QUEUED_PROGRAM)
        assert page.is_visible("#run-status") and "Waiting for Python" in page.text_content("#run-status")
        assert page.evaluate("() => window.finscore.pythonReady()") is False
        _release_python(page)
        page.wait_for_selector("#outcome[data-path=python]")
        page.wait_for_selector("body:not([data-busy])")
        assert page.text_content("#answer .result") == repr(execute(QUEUED_PROGRAM).result)
        assert page.get_attribute("body", "data-queued") is None and not page.is_visible("#run-status")
        assert not watched.console_errors
    finally:
        page.close()


#: Appended to worker.js: every run_program call fails, as a broken Python would make it.
BROKEN_RUN_PROGRAM = """
{
  const real = self.onmessage;
  self.onmessage = (event) => {
    if (event.data.type === "call" && event.data.name === "run_program") {
      self.postMessage({ type: "result", id: event.data.id, ok: false, error: "a test broke run_program" });
    } else {
      real(event);
    }
  };
}
"""


def test_a_python_call_that_fails_is_said_on_the_page(browser_context: Any, server: Any) -> None:
    """A run only Python can do, whose call fails outright: the page says so where the outcome would be,
    clears "Waiting for Python…" and its queued mark, and logs no unhandled rejection."""
    watched = watch(browser_context, server)
    page = watched.page
    source = (server.root / "worker.js").read_text(encoding="utf-8") + BROKEN_RUN_PROGRAM
    page.route("**/worker.js", lambda route: route.fulfill(status=200, content_type="text/javascript", body=source))
    try:
        page.set_default_timeout(PYTHON_READY_MS)
        page.goto(server.base_url)
        page.wait_for_selector("#core-status[data-state=ready]")
        page.click("#load-python")  # Python loads only when asked for
        page.wait_for_function("() => window.finscore && window.finscore.pythonReady()")
        page.wait_for_selector("body:not([data-busy])")
        page.fill("#program", QUEUED_PROGRAM)  # deferred by the core: Python's to run
        answer = page.evaluate("() => window.finscore.runForm()")
        assert answer == {"ok": False, "error": "a test broke run_program"}
        assert page.text_content("#program-error") == "Python could not answer: a test broke run_program"
        assert page.is_visible("#program-error") and not page.is_visible("#outcome") and not page.is_visible("#run-status")
        assert page.get_attribute("body", "data-queued") is None
        # the live run the fill scheduled is dropped by the explicit run: past its delay, nothing
        # starts again over the error (under load it used to, showing "Python is reading..." again)
        page.evaluate("""() => {
          window.__statusSeen = [];
          const status = document.querySelector("#run-status");
          new MutationObserver(() => { if (status.textContent) window.__statusSeen.push(status.textContent); })
            .observe(status, {childList: true, characterData: true, subtree: true, attributes: true});
        }""")
        page.wait_for_timeout(LIVE_DELAY_MS + 500)
        assert page.evaluate("() => window.__statusSeen") == []
        assert page.text_content("#program-error") == "Python could not answer: a test broke run_program"
        assert not page.is_visible("#run-status")
        assert not watched.console_errors
    finally:
        page.close()


def test_a_run_and_an_answer_queued_together_keep_their_own_marks(browser_context: Any, server: Any) -> None:
    """While Python loads, a queued run and a queued answer are both marked on the page; the answer
    (against a yes / no gold, which only Python reads) is read from the form with the choices the page
    showed, and decided once Python is ready."""
    watched = _held_page(browser_context, server)
    page = watched.page
    try:
        _queue_a_run(page, server, QUEUED_PROGRAM)
        page.check('input[name="mode"][value="answer"]')  # the mode switch reads the answer form at once
        page.fill("#gold-answer", "yes")
        completion = "Answer: Yes."
        page.fill("#completion", completion)
        page.wait_for_selector('body[data-queued="answer run"]')
        assert "Waiting for Python" in page.text_content("#answer-status")
        assert page.evaluate("() => window.finscore.pythonReady()") is False
        protocol, answer_format = page.input_value("#answer-protocol"), page.input_value("#answer-format")
        assert protocol in protocol_names() and answer_format in FORMATS  # the page's defaults, kept
        _release_python(page)
        page.wait_for_selector("#answer-outcome:not([hidden])")
        page.wait_for_selector("body:not([data-busy])")
        assert page.get_attribute("body", "data-queued") is None
        request = json.loads(page.get_attribute("#answer-view", "data-request") or "{}")
        assert (request["protocol"], request["format"], request["completion"]) == (protocol, answer_format, completion)
        assert request["gold_answer"] == "yes"  # the page's other gold fields are its defaults
        gold = {"exe_ans": "yes", "program": request["gold_program"], "question": request["gold_question"]}
        expected = decide(completion, gold, protocol=protocol, format=answer_format)
        assert page.get_attribute("#answer-outcome", "data-reason") == expected.reason
        assert page.text_content("#answer-detail") == expected.detail
        page.check('input[name="mode"][value="program"]')
        page.wait_for_selector("#outcome[data-path=python]")
        assert page.text_content("#answer .result") == repr(execute(QUEUED_PROGRAM).result)
        assert not watched.console_errors
    finally:
        page.close()


def test_results_follow_typing_and_the_refused_step_is_marked(page: Any) -> None:
    page.fill("#table", "")
    page.fill("#program", "subtract(5, 2), multiply(#0, 1.5)")  # no Run: typing alone updates the view
    expected = execute("subtract(5, 2), multiply(#0, 1.5)")
    page.wait_for_function("want => document.querySelector('#answer .result')?.textContent === want", arg=repr(expected.result))
    assert not page.is_visible("#program-check")
    program = "add(1, 2), divide(#0, 0), add(#1, 1)"
    page.fill("#program", program)
    refused = execute(program)
    assert (refused.invalid, refused.failed_step) == (1, 1)
    page.wait_for_selector("#program-check:not([hidden])")
    assert page.text_content("#answer .status-name") == refused.status_name
    assert page.text_content("#program-check mark.failing-token") == "divide(#0, 0)"
    assert refused.status_name in page.text_content("#program-check .reason")
    assert "step #1" in page.text_content("#program-check .reason")


def test_the_example_note_says_when_it_no_longer_applies(page: Any) -> None:
    page.select_option("#example", EXAMPLES[1]["key"])
    page.select_option("#example", EXAMPLES[0]["key"])
    page.wait_for_selector("body:not([data-busy])")
    assert page.get_attribute("#example-note", "data-stale") == "false"
    assert "Edited" not in page.text_content("#example-note")
    page.fill("#program", "add(1, 2)")
    page.wait_for_selector("#example-note[data-stale=true]")
    assert "Edited" in page.text_content("#example-note")


def _bits(x: float) -> str:
    return format(struct.unpack("<Q", struct.pack("<d", x))[0], "016x")


def test_the_pages_python_spelling_is_pythons(page: Any) -> None:
    values = [0.0, -0.0, 1.0, 100.0, 1e16, 1e15, 123456789012345680.0, 1e-4, 1e-5, 0.1, 5e-324, 1.7976931348623157e308,
              33.599999999999994, 96.55172, math.inf, -math.inf, math.nan, 2.5e-7, 1234.5678e10]
    step = 0x9E3779B97F4A7C15
    bits = 12345
    for _ in range(3000):
        bits = (bits * 6364136223846793005 + step) % (1 << 64)
        values.append(struct.unpack("<d", struct.pack("<Q", bits))[0])
    shown = page.evaluate("bits => bits.map(b => window.finscore.pythonFloatRepr(new Float64Array(new BigUint64Array([BigInt('0x' + b)]).buffer)[0]))",
                          [_bits(v) for v in values])
    assert shown == [repr(v) for v in values]
    texts = ["revenue", "it's", 'say "x"', "both ' and \"", "tab\there", "back\\slash", "caf\u00e9", "\x7f", "\u00a0", "\u2028"]
    assert page.evaluate("texts => texts.map(window.finscore.pythonStrRepr)", texts) == [repr(t) for t in texts]


def test_gold_program_strings_are_tokenized_as_the_official_evaluator_does(page: Any) -> None:
    programs = []
    for example in list(finqa_examples().values())[:3000]:
        programs.append(example["qa"]["program"])
    programs += ["table_max(net (loss) income, none)", "add(1,2)", "a, b, (c)", ""]
    tokens = page.evaluate("ps => ps.map(p => window.finscore.tokenizeGoldProgram(p).tokens)", programs)
    assert tokens == [tokenize_gold_program(p) for p in programs]


def _comparable(answer: dict[str, Any]) -> dict[str, Any]:
    body = {k: v for k, v in answer.items() if k != "path"}
    execution = dict(body["execution"])
    execution.pop("notes", None)  # hints on how a program is usually mistyped: only Python writes them
    if execution["status_name"] in ("bad_number", "unknown_row"):
        execution.pop("message")  # the reader's own words, which only Python has
    body["execution"] = execution
    return body


def test_both_paths_in_the_page_answer_alike_step_by_step(page: Any) -> None:
    """The binding's answer (what the step view shows at once) and Python's, for the shipped
    examples and vector rows with tables, in both profiles: equal field by field, every step's
    value, hex, type, arguments and their spelling included."""
    requests = []
    for shipped in EXAMPLES:
        requests.append({"program": shipped["program"], "table": json.dumps(shipped["table"]), "table_format": "auto"})
    for name, stride in (("gold", 40), ("mutants", 25)):
        for number, row in enumerate(vector_rows(name)):
            if number % stride == 0 and row["invalid"] is not None and "table" not in row and row["table_ref"] is None:
                requests.append({"program": json.dumps(row["program"]), "table": "", "table_format": "auto"})
    for text in ("The answer is 14.1%.", "add(1, 2), add(#1, 1)", "add(#1, 2), add(3, 4)", "add(1, 2), add(1, #6)",
                 "add(1, 2), add(#0, #01)", "Add(1, 2)"):  # refusals the core decides as the reader would
        requests.append({"program": text, "table": "", "table_format": "auto"})
    for number, row in enumerate(vector_rows("mutants")):
        if number % 30 == 1:
            available, table = table_of(row)
            if available and table is not None:
                requests.append({"program": json.dumps(row["program"]), "table": json.dumps(table), "table_format": "auto"})
    decided, compared = 0, 0
    shown: set[str] = set()
    for profile in ("official", "strict"):
        for python in ("3.11", "3.12"):
            batch = [{**request, "profile": profile, "python": python} for request in requests]
            quick = page.evaluate("rs => Promise.all(rs.map(r => window.finscore.quickRun(r)))", batch)
            full = page.evaluate("rs => Promise.all(rs.map(r => window.finscore.runProgram(r)))", batch)
            for request, mine, theirs in zip(batch, quick, full):
                compared += 1
                if mine is None:
                    continue
                decided += 1
                assert _comparable(mine) == _comparable(theirs), request
                shown.add(mine["execution"]["status_name"])
    assert decided >= 0.8 * compared, (decided, compared)
    assert {"malformed_structure", "self_reference", "forward_reference", "reference_out_of_range"} <= shown


def test_vector_rows_through_both_paths_give_identical_bits(page: Any) -> None:
    rows = []
    for name, stride in (("gold", 4), ("mutants", 3), ("fuzz", 40), ("fuzz-py312", 40)):
        for number, row in enumerate(vector_rows(name)):
            if number % stride or row["invalid"] is None:
                continue
            available, table = table_of(row)
            if available:
                rows.append({"program": row["program"], "table": table, "python": row["python"], "row": row})
    request = [{k: r[k] for k in ("program", "table", "python")} for r in rows]
    quick = page.evaluate("rows => window.finscore.quickRows(rows)", request)
    reply = page.evaluate("rows => window.finscore.executeRows(rows)", request)
    assert reply["ok"], reply
    decided = [k for k, answer in enumerate(quick) if answer is not None]
    differ = [rows[k]["row"]["id"] for k in decided if quick[k] != reply["answers"][k]]
    assert differ == [], f"{len(differ)} rows differ between the binding and Python in the page"
    differ_from_recorded = [rows[k]["row"]["id"] for k in decided if quick[k]["invalid"] != rows[k]["row"]["invalid"]
                            or (quick[k]["invalid"] == 0 and quick[k]["result"] != rows[k]["row"]["result"])]
    assert differ_from_recorded == []
    assert len(decided) >= 0.4 * len(rows), (len(decided), len(rows))
    print(f"{len(rows)} vector rows: {len(decided)} decided by the binding in the page, identical to Python's bits")


# -- shareable: the state in the address's fragment ----------------------------------------

def _states() -> list[dict[str, str]]:
    """Many states: every option, texts with quotes, tabs, newlines, emoji, right-to-left script,
    long and short, the shipped examples."""
    texts = ["", "add(1, 2)", 'table_max("net" (loss), none)', "multiply(#0, 1.5)\n\tdivide(#1, 3)",
             "\u05d0\u05d1 \U0001f600 caf\u00e9", "x" * 5000, '["add(", "1", "2", ")", "EOF"]']
    tables = ["", json.dumps([["", "2019"], ["revenue", "$ 1,234"]]), "a\tb\nc\td", "| a | b |\n|---|---|\n| 1 | 2 |"]
    states = []
    k = 0
    for program in texts:
        for table in tables:
            states.append({
                "program": program, "table": table,
                "table_format": ["auto", "json", "tab", "pipe"][k % 4],
                "profile": ["official", "strict"][k % 2], "python": ["3.11", "3.12"][(k // 2) % 2],
                "example": "" if k % 3 == 0 else EXAMPLES[k % len(EXAMPLES)]["key"],
                # the answer mode's fields (its inputs are one line each; the completion is not)
                "mode": ["program", "answer"][(k // 3) % 2],
                "completion": texts[(k + 1) % len(texts)],
                "answer_protocol": ["finqa-answer/1", "convfinqa-answer/1", "tatqa-answer/1"][k % 3],
                "answer_format": ["answer-line", "boxed", "json", "whole"][(k // 2) % 4],
                "gold_answer": ["16.93811", "yes", "1,496.5", ""][k % 4],
                "gold_program": ["", "divide(10.4, 61.4), multiply(#0, const_100)"][(k // 4) % 2],
                "gold_question": ["", "what percent?", "caf\u00e9 \U0001f600"][(k // 5) % 3],
                "gold_scale": ["", "million", "percent"][(k // 6) % 3],
                "gold_answer_type": ["arithmetic", "span", "count", "multi-span"][(k // 7) % 4],
            })
            k += 1
    return states


#: The answer mode's fields of a link made in program mode, as an older link reads (share.js's defaults).
PROGRAM_MODE = {"mode": "program", "completion": "", "answer_protocol": "finqa-answer/1",
                "answer_format": "answer-line", "gold_answer": "", "gold_program": "", "gold_question": "",
                "gold_scale": "", "gold_answer_type": "arithmetic"}


def test_a_link_made_before_the_answer_mode_reads_as_program_mode(page: Any) -> None:
    """A state without the answer mode's fields (a link from before it) decodes with their defaults."""
    old = {"program": "add(1, 2)", "table": "", "table_format": "auto", "profile": "official", "python": "3.11",
           "example": ""}
    packer = zlib.compressobj(wbits=-15)  # deflate-raw, as CompressionStream writes it
    packed = packer.compress(json.dumps(old).encode("utf-8")) + packer.flush()
    fragment = "#1:" + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")
    assert page.evaluate("f => window.finscore.decodeState(f)", fragment) == {**old, **PROGRAM_MODE}


def test_share_link_round_trips_many_states(page: Any) -> None:
    states = _states()
    assert len(states) >= 25
    for state in states:
        fragment = page.evaluate("s => window.finscore.encodeState(s)", state)
        assert fragment.startswith("#1:")
        assert page.evaluate("f => window.finscore.decodeState(f)", fragment) == state
        page.evaluate("f => { location.hash = f; }", fragment)  # as opening the link does
        page.wait_for_function("want => JSON.stringify(window.finscore.currentState()) === want",
                               arg=json.dumps(state, separators=(",", ":"), ensure_ascii=False))
        page.wait_for_selector("body:not([data-busy])")
    page.check('input[name="mode"][value="program"]')  # the tests after this one type programs
    page.wait_for_selector("#step-view:not([hidden])")
    assert page.evaluate("() => window.finscore.decodeState('#9:abc').catch(e => e.message)").startswith(
        "this link was made by a newer playground")
    assert "damaged" in page.evaluate("() => window.finscore.decodeState('#1:AAAA').catch(e => e.message)")


def test_a_too_large_state_is_refused_with_a_message(page: Any) -> None:
    page.fill("#table", "")
    page.fill("#program", "add(1, 2)")
    page.wait_for_function("() => location.hash.startsWith('#1:')")
    page.wait_for_selector("body:not([data-busy])")
    before = page.evaluate("() => location.hash")
    noise = "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(12000))  # compresses badly
    page.fill("#program", noise)
    page.wait_for_selector("#share-status[data-state=too-large]")
    assert "too large for a link" in page.text_content("#share-status")
    assert page.evaluate("() => location.hash") == before
    page.fill("#program", "add(1, 2)")
    page.wait_for_function("() => !document.querySelector('#share-status').dataset.state")


def test_a_crafted_link_is_refused_before_it_is_unpacked_or_read(page: Any) -> None:
    """A fragment longer than any written link, or one that unpacks to more than a megabyte (two
    million spaces compress to a few hundred characters), is refused with a message."""
    long = page.evaluate("() => window.finscore.decodeState('#1:' + 'A'.repeat(40000)).catch(e => e.message)")
    assert long.startswith("this link's fragment is 40002 characters long")
    fragment = page.evaluate("() => window.finscore.encodeState({program: ' '.repeat(2000000)})")
    assert len(fragment) < 8000
    unpacked = page.evaluate("f => window.finscore.decodeState(f).catch(e => e.message)", fragment)
    assert unpacked == "this link's state unpacks to more than 1048576 bytes: not one the playground wrote"


def test_the_pages_python_strip_is_pythons(page: Any) -> None:
    """str.strip() of CPython itself: which characters it removes (every one outside the surrogates),
    and a long run of spaces that does not reach the end (once quadratic) answered at once."""
    stripped = page.evaluate("""() => {
        const out = [];
        for (let c = 0; c < 0x10000; c++) {
          if (c >= 0xd800 && c <= 0xdfff) continue;
          if (window.finscore.pythonStrip(String.fromCharCode(c)) === "") out.push(c);
        }
        return out;
      }""")
    assert stripped == [c for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF and chr(c).strip() == ""]
    texts = ["\u3000 \t a b \x1c\x85", "add(1, 2)" + " " * 200_000 + "x", "\xa0x\u200b", " " * 50_000]
    assert page.evaluate("ts => ts.map(t => window.finscore.pythonStrip(t))", texts) == [t.strip() for t in texts]


def test_text_python_reads_otherwise_waits_for_python(page: Any) -> None:
    """The core path answers only what Python would read the same way: a byte-order mark (Python drops
    it), a lone surrogate (not UTF-8), a table object (a key may be given twice), a row that is not a
    list, or a table format Python does not know all wait for Python, which answers them."""
    base = {"program": "add(1, 2)", "table": "", "table_format": "auto", "profile": "official", "python": "3.11"}
    odd = [{"program": "\ufeffadd(1, 2)"}, {"program": '\ufeff["add(", "1", "2", ")", "EOF"]'},
           {"program": "add(1, \ud800)"},
           {"table": '{"table": [["a", "1"]], "table": [["a", "5"]]}', "program": "table_max(a, none)"},
           {"table": "[1]"}, {"table_format": "xml"}]
    batch = [{**base, **change} for change in odd]
    assert page.evaluate("rs => Promise.all(rs.map(r => window.finscore.quickRun(r)))", batch) == [None] * len(odd)
    full = page.evaluate("rs => Promise.all(rs.map(r => window.finscore.runProgram(r)))", batch)
    assert [answer["ok"] for answer in full] == [True, True, False, False, False, False]
    assert [answer["execution"]["result_text"] for answer in full[:2]] == ["3.0", "3.0"]
    assert "key" in full[3]["error"] and "row 0" in full[4]["error"] and "table format" in full[5]["error"]
    plain = page.evaluate("r => window.finscore.quickRun(r)", {**base, "table": '[["a", "1"]]'})
    assert plain is not None and plain["execution"]["result_text"] == "3.0"  # the core still answers plain text
    from finscore.engine.text_input import MAX_PROGRAM_CHARS, MAX_TABLE_CHARS, TABLE_FORMATS

    assert page.evaluate("() => window.finscore.pythonReads") == {  # the page's copy of what Python reads
        "maxProgramChars": MAX_PROGRAM_CHARS, "maxTableChars": MAX_TABLE_CHARS, "tableFormats": list(TABLE_FORMATS)}


def test_opening_a_link_restores_the_state_and_answers_at_once(browser_context: Any, server: Any,
                                                               page: Any) -> None:
    shipped = next(e for e in EXAMPLES if e["table"])
    state = {"program": shipped["program"], "table": json.dumps(shipped["table"]), "table_format": "json",
             "profile": "strict", "python": "3.12", "example": shipped["key"], **PROGRAM_MODE}
    fragment = page.evaluate("s => window.finscore.encodeState(s)", state)
    watched = _held_page(browser_context, server)
    opened = watched.page
    try:
        opened.goto(server.base_url + fragment)
        opened.wait_for_function("() => window.finscore && window.finscore.firstAnswerMs !== null")
        assert opened.evaluate("() => window.finscore.currentState()") == state
        assert opened.get_attribute("#outcome", "data-path") == "core"
        expected = execute(shipped["program"], shipped["table"], profile="strict", python="3.12")
        assert opened.text_content("#answer .result") == repr(expected.result)
        opened.click("#copy-link")
        opened.wait_for_selector("#share-link:not([hidden])")
        assert opened.input_value("#share-link") == opened.url == server.base_url + fragment
        assert not watched.console_errors
    finally:
        opened.close()


# -- themes, header, small fixes -------------------------------------------------------------

def _background(page: Any) -> list[int]:
    rgb = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    return [int(part) for part in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]


def test_themes_and_screenshots_at_both_widths(page: Any) -> None:
    """Light and dark, chosen or the system's; the page fits 1280 and 390 px in both, with
    screenshots kept in test-artifacts/."""
    page.select_option("#example", "divide-by-zero")
    page.wait_for_selector("body:not([data-busy])")
    try:
        for theme in ("light", "dark"):
            page.select_option("#theme", theme)
            light = sum(_background(page)) > 3 * 128
            assert light == (theme == "light"), theme
            for width in (1280, 390):
                page.set_viewport_size({"width": width, "height": 900})
                overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
                assert overflow <= 0, f"the page scrolls sideways by {overflow}px at {width}px in {theme}"
                assert screenshot(page, f"playground-{theme}-{width}.png").stat().st_size > 0
        page.select_option("#theme", "system")
        for scheme, light in (("dark", False), ("light", True)):
            page.emulate_media(color_scheme=scheme)
            assert (sum(_background(page)) > 3 * 128) == light, scheme
    finally:
        page.emulate_media(color_scheme="light")
        page.select_option("#theme", "system")
        page.set_viewport_size({"width": 1280, "height": 900})


def _declared_abi_version() -> int:
    """The ABI version core/abi.toml declares: the header must name the module's, whichever it is."""
    import tomllib

    with (WEB.parent / "core" / "abi.toml").open("rb") as declaration:
        version = tomllib.load(declaration)["version"]
    assert isinstance(version, int)
    return version


def test_header_names_the_version_and_links_the_readme(page: Any, server: Any) -> None:
    from finscore import __version__

    assert page.text_content("#version") == f"finscore {__version__} · core ABI {_declared_abi_version()}"
    href = page.get_attribute("#readme-link", "href")
    assert (server.root / href).read_text(encoding="utf-8") == (WEB.parent / "README.md").read_text(encoding="utf-8")


def test_a_manifest_that_cannot_be_read_is_said_in_the_header(browser_context: Any, server: Any) -> None:
    watched = watch(browser_context, server)
    page = watched.page
    page.route("**/manifest.json", lambda route: route.fulfill(status=404, body="gone"))
    try:
        page.goto(server.base_url)
        page.wait_for_function("() => document.querySelector('#version').textContent.includes('unknown')")
        assert page.text_content("#version") == (
            f"finscore (version unknown: manifest.json: HTTP 404) · core ABI {_declared_abi_version()}"
        )
    finally:
        page.close()


def test_a_refusal_is_described_once(page: Any) -> None:
    page.fill("#table", "")
    page.fill("#program", "divide(1, 0)")
    page.wait_for_selector("#outcome[data-invalid='1']")
    page.wait_for_selector("body:not([data-busy])")
    description = execute("divide(1, 0)").status_description
    assert page.text_content("#outcome").count(description) == 1


def test_the_flag_a_file_error_suggests_is_on_the_page(page: Any) -> None:
    from .test_file_scoring import DROP

    examples = list(finqa_examples().values())[:3]
    predictions = [{"id": e["id"], "predicted": ["add(", "1", "2", ")", "EOF"]} for e in examples]
    predictions.append({"id": "no-such-id", "predicted": ["add(", "1", "2", ")", "EOF"]})
    page.evaluate(DROP, ["predictions", "with-bad-id.json", json.dumps(predictions)])
    page.evaluate(DROP, ["gold", "gold.json", json.dumps(examples)])
    page.set_checked("#exclude-bad-ids", False)
    page.click("#score")
    page.wait_for_selector("body:not([data-busy])")
    message = page.text_content("#score-error")
    assert "--exclude-bad-ids" in message
    assert "--exclude-bad-ids" in page.text_content("label[for=exclude-bad-ids], label:has(#exclude-bad-ids)")
    page.set_checked("#exclude-bad-ids", True)
    page.click("#score")
    page.wait_for_selector("body:not([data-busy])")
    assert page.is_hidden("#score-error") and page.is_visible("#report")
    assert "no-such-id" in page.text_content("#report")
    page.set_checked("#exclude-bad-ids", False)


# -- gold beside prediction -------------------------------------------------------------------

def _swapped(tokens: list[str]) -> list[str] | None:
    """The gold tokens with the last step's op swapped (divide <-> multiply, add <-> subtract)."""
    swap = {"divide(": "multiply(", "multiply(": "divide(", "add(": "subtract(", "subtract(": "add("}
    last = len(tokens) - 5
    if last < 4 or tokens[last] not in swap:
        return None
    return tokens[:last] + [swap[tokens[last]]] + tokens[last + 1:]


def test_a_failing_prediction_opens_beside_its_gold_with_the_divergence_marked(page: Any) -> None:
    from .test_file_scoring import DROP

    chosen = []
    for example in finqa_examples().values():
        if not example["id"].startswith(("AAL", "AAPL", "ADI", "AES", "AMT", "C/", "JPM")):
            continue
        gold_tokens = tokenize_gold_program(example["qa"]["program"])
        predicted = _swapped(gold_tokens)
        if predicted is None:
            continue
        here = execute(predicted, example["table"])
        if here.invalid == 0 and here.result != execute(example["qa"]["program"], example["table"]).result:
            chosen.append((example, predicted))
        if len(chosen) == 2:
            break
    assert len(chosen) == 2
    page.evaluate(DROP, ["predictions", "swapped.json", json.dumps([{"id": e["id"], "predicted": p} for e, p in chosen])])
    page.evaluate(DROP, ["gold", "gold.json", json.dumps([e for e, _ in chosen])])
    page.set_checked("#exclude-bad-ids", False)
    page.click("#score")
    page.wait_for_selector("body:not([data-busy])")
    example, predicted = chosen[0]
    page.click(f"#failing-examples button[data-id='{example['id']}']")
    page.wait_for_selector("#compare:not([hidden])")
    page.wait_for_selector("body:not([data-busy])")
    assert example["qa"]["question"] in page.text_content("#compare-question")
    gold_run = execute(example["qa"]["program"], example["table"])  # the package under CPython
    predicted_run = execute(predicted, example["table"])

    def key(step: Any) -> tuple[str, str, str]:
        return step.op, step.value_type, repr(step.value) if not isinstance(step.value, str) else step.value

    expected = next(i for i, (a, b) in enumerate(zip(gold_run.steps, predicted_run.steps)) if key(a) != key(b))
    assert page.get_attribute("#compare", "data-diverges") == str(expected)
    for side, run in (("gold", gold_run), ("prediction", predicted_run)):
        values = page.eval_on_selector_all(f".compare-side[data-side={side}] tbody tr",
                                           "rows => rows.map(r => [r.dataset.step, r.children[3].title, r.className])")
        assert [v[1] for v in values] == [_hex(step.value) for step in run.steps]
        assert [v[0] for v in values if v[2] == "diverges"] == [str(expected)]
    assert json.loads(page.input_value("#program")) == predicted  # the step view shows the prediction
    screenshot(page, "playground-gold-beside-prediction.png")


# -- how it was read: the token view -----------------------------------------------------------

def test_the_token_view_shows_the_official_split_and_each_argument_as_read(page: Any) -> None:
    program = "subtract(5,829, 5,735), divide(#0, 5%)"
    page.check("input[name=profile][value='official']")  # where the quirk below is tolerated and named
    page.fill("#table", "")
    page.fill("#program", program)
    page.click("#run")
    page.wait_for_selector("body:not([data-busy])")
    page.click("#token-view summary")
    rows = page.eval_on_selector_all("#tokens tbody tr", "rows => rows.map(r => [...r.children].map(c => c.textContent))")
    tokens = tokenize_gold_program(program)  # the official tokenization, as finscore reads it
    assert [row[1] for row in rows] == [repr(token) for token in tokens]
    expected = execute(program)
    from finscore.commands.execute import describe_argument

    read_as = [describe_argument(a) for step in expected.steps for a in step.arguments]
    assert [row[3] for row in rows if row[2].startswith("argument")] == read_as
    assert rows[-1][2].startswith("end")
    # a quirk the official profile tolerates (and names) is marked on its step
    quirky = '["add(", "1e3", "2", ")", "EOF"]'
    page.fill("#program", quirky)
    page.click("#run")
    page.wait_for_selector("#outcome[data-path=python]")
    page.wait_for_selector("body:not([data-busy])")
    official = execute(json.loads(quirky))
    quirk_steps = sorted({q.step for q in official.quirks if q.step is not None})
    assert quirk_steps == [0]
    marked = page.eval_on_selector_all("#tokens tbody tr.quirk", "rows => rows.map(r => r.dataset.token)")
    assert marked == ["0", "1", "2", "3"]
    assert official.quirks[0].status.label in page.text_content("#tokens tbody tr[data-token='1']")
