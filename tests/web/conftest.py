"""The playground in real headless Chromium: build it, serve it from 127.0.0.1, drive it.

The page is built afresh into a temporary directory by `web/build.py` (so the
finscore wheel in it is this checkout's code), served by an `http.server`
thread on an ephemeral port, and opened in Debian's Chromium through
Playwright's Python API (never a downloaded browser). One page is loaded for
the whole session, because starting Pyodide takes seconds; every test checks
that the page logged no console error and made no request beyond its own
static files. The page fetches Python only when something needs it, so the
session's page first checks that opening it fetched none of Python's files,
then loads Python explicitly ("Load Python now") for the tests that use it.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from support.shared import FINQA, REPOSITORY, require, vector_rows

WEB = REPOSITORY / "web"
ARTIFACTS = REPOSITORY / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # nothing but this machine resolves: a request that tries to leave fails loudly (a console error)
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
)
#: Generous bounds on waiting for the page (a shared 2-core machine); not timing assertions.
PYTHON_READY_MS = 300_000
CALL_MS = 600_000

__all__ = ["FINQA", "require", "vector_rows"]  # shared helpers the test modules take from here


@functools.lru_cache(maxsize=None)
def finqa_examples() -> dict[str, dict[str, Any]]:
    """Every FinQA example we have (train subset, dev, test), by id, with its question and answer."""
    examples: dict[str, dict[str, Any]] = {}
    for split in ("train", "dev", "test"):
        with open(require(FINQA / f"finqa_{split}.json"), encoding="utf-8") as handle:
            for example in json.load(handle):
                examples[example["id"]] = example
    return examples


def load_playground_module() -> Any:
    """The page's Python side (web/py/finscore_playground.py), imported here under CPython."""
    spec = importlib.util.spec_from_file_location("finscore_playground_cpython", WEB / "py" / "finscore_playground.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the built page and its server ----------------------------------------------------

@pytest.fixture(scope="session")
def built_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """web/build.py run into a temporary directory."""
    if not (WEB / "node_modules" / "pyodide" / "package.json").is_file():
        pytest.skip("the pinned Pyodide is not installed: run `npm ci --prefix web`")
    out = tmp_path_factory.mktemp("web") / "dist"
    completed = subprocess.run([sys.executable, str(WEB / "build.py"), "--out", str(out)],
                               capture_output=True, text=True)
    if completed.returncode != 0:
        pytest.fail(f"web/build.py failed:\n{completed.stdout}{completed.stderr}")
    return out


class _StaticFiles(http.server.SimpleHTTPRequestHandler):
    """Serves the built page and remembers every path asked for."""

    requested: list[tuple[str, str]]

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def do_GET(self) -> None:
        self.requested.append(("GET", self.path))
        super().do_GET()

    def do_POST(self) -> None:
        self.requested.append(("POST", self.path))
        self.send_error(405)


@dataclass
class StaticServer:
    root: Path
    base_url: str
    requested: list[tuple[str, str]]

    def serves(self, url: str) -> bool:
        """Is `url` one of the page's own static files (or a blob the page made in memory)?"""
        if url.startswith(f"blob:{self.base_url.rstrip('/')}/"):
            return True
        if not url.startswith(self.base_url):
            return False
        path = urllib.parse.unquote(urllib.parse.urlsplit(url).path).lstrip("/") or "index.html"
        target = (self.root / path).resolve()
        return target.is_file() and self.root.resolve() in target.parents


@pytest.fixture(scope="session")
def server(built_page: Path) -> Iterator[StaticServer]:
    requested: list[tuple[str, str]] = []
    handler = type("Handler", (_StaticFiles,), {"requested": requested})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(built_page)))
    thread = threading.Thread(target=httpd.serve_forever, name="playground-server", daemon=True)
    thread.start()
    try:
        yield StaticServer(built_page, f"http://127.0.0.1:{httpd.server_address[1]}/", requested)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


# -- the browser ----------------------------------------------------------------------

@pytest.fixture(scope="session")
def browser_context(server: StaticServer) -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed: pip install -e '.[test]'")
    profile = tempfile.mkdtemp(prefix="finscore-chromium-")
    try:
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=str(CHROMIUM), headless=True, args=list(CHROMIUM_ARGS),
                viewport={"width": 1280, "height": 900},
            )
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@dataclass
class Watched:
    """A page with everything it logged and asked for."""

    page: Any
    server: StaticServer
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def foreign_requests(self) -> list[str]:
        return [url for url in self.requests if not self.server.serves(url)]


#: The page's files that only Python needs: Pyodide's runtime, the wheels, the page's Python side
#: and the worker that runs them (their paths in the built page, web/build.py).
PYTHON_PATHS = ("/pyodide/", "/wheels/", "/py/", "/worker.js")


def python_requests(watched: Watched) -> list[str]:
    """Every request (the page's or its worker's) for one of Python's files."""
    paths = [urllib.parse.urlsplit(url).path for url in watched.requests if url.startswith(watched.server.base_url)]
    return [path for path in paths if path.startswith(PYTHON_PATHS)]


def watch(context: Any, server: StaticServer) -> Watched:
    page = context.new_page()
    watched = Watched(page, server)
    page.on("console", lambda message: message.type == "error" and watched.console_errors.append(message.text))
    page.on("pageerror", lambda error: watched.console_errors.append(f"uncaught: {error}"))
    page.on("request", lambda request: watched.requests.append(request.url))
    # a worker's requests are the page's requests too
    page.on("worker", lambda worker: watched.requests.append(worker.url))
    return watched


@contextmanager
def opened_until_first_answer(watched: Watched) -> Iterator[Watched]:
    """The watched page opened on the playground until the core's first step view; closed after."""
    page = watched.page
    try:
        page.set_default_timeout(PYTHON_READY_MS)
        page.goto(watched.server.base_url)
        page.wait_for_function("() => window.finscore && window.finscore.firstAnswerMs !== null")
        yield watched
    finally:
        page.close()


@pytest.fixture(scope="session")
def playground(browser_context: Any, server: StaticServer) -> Watched:
    """The page, loaded once; Python and the file scorer loaded explicitly ("Load Python now")."""
    watched = watch(browser_context, server)
    watched.page.set_default_timeout(CALL_MS)
    watched.page.goto(server.base_url)
    watched.page.wait_for_selector("#run:not([disabled])", timeout=PYTHON_READY_MS)
    watched.page.wait_for_function("() => window.finscore && window.finscore.firstAnswerMs !== null",
                                   timeout=PYTHON_READY_MS)
    assert python_requests(watched) == [], "opening the page fetched Python's files before anything needed them"
    watched.page.click("#load-python")
    watched.page.wait_for_function("() => window.finscore.pythonReady()", timeout=PYTHON_READY_MS)
    watched.page.evaluate("() => window.finscore.scorer.then(() => true)")
    assert not watched.console_errors, f"the page logged console errors while loading: {watched.console_errors}"
    return watched


@pytest.fixture()
def page(playground: Watched) -> Iterator[Any]:
    """The session's page, checked after each test for console errors and foreign requests."""
    errors_before = len(playground.console_errors)
    yield playground.page
    new_errors = playground.console_errors[errors_before:]
    assert not new_errors, f"the page logged console errors: {new_errors}"
    assert not playground.foreign_requests(), f"requests beyond the page's own files: {playground.foreign_requests()}"


@pytest.fixture()
def answer_page(page: Any) -> Iterator[Any]:
    """The session's page in answer mode, put back in program mode afterwards (other tests use it)."""
    page.check('input[name="mode"][value="answer"]')
    page.wait_for_selector("#answer-view:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('#answer-protocol option').length > 1")
    yield page
    page.check('input[name="mode"][value="program"]')
    page.wait_for_selector("#step-view:not([hidden])")


#: What the answer view's gold fields default to when a case leaves them out (in the form's order).
ANSWER_GOLD_BLANK = {"gold_answer": "", "gold_program": "", "gold_question": "", "gold_scale": "",
                     "gold_answer_type": "arithmetic"}


def fill_answer_form(page: Any, protocol: str, answer_format: str, fields: dict[str, str], completion: str,
                     *, keystrokes: bool = False) -> None:
    """Choose the protocol and format, fill the gold fields the protocol reads, then the completion
    (`keystrokes`: typed one key at a time, as a user types, so the reading follows the typing)."""
    page.select_option("#answer-protocol", protocol)
    page.select_option("#answer-format", answer_format)
    for name, value in {**ANSWER_GOLD_BLANK, **fields}.items():
        selector = f"#{name.replace('_', '-', 1)}"
        if page.is_hidden(selector):  # a field the chosen protocol's gold reader does not read
            continue
        if name in ("gold_scale", "gold_answer_type"):
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
    if keystrokes:
        page.fill("#completion", "")
        page.type("#completion", completion)
    else:
        page.fill("#completion", completion)


def artifact_path(name: str) -> Path:
    """Where a test keeps a file for people to look at (test-artifacts/, git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name


def screenshot(page: Any, name: str) -> Path:
    path = artifact_path(name)
    page.screenshot(path=str(path), full_page=True)
    return path


def assert_readable_at_width(page: Any, width: int, selector: str, name: str) -> None:
    """At `width` px the page does not scroll sideways; `selector`'s screenshot is kept as `name`."""
    page.set_viewport_size({"width": width, "height": 900})
    try:
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px at {width}px"
        page.locator(selector).screenshot(path=str(artifact_path(name)))
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
