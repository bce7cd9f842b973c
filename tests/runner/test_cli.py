"""`finscore run` from the command line: files written, same bytes on re-runs, readable errors."""

from __future__ import annotations

import io
import json
import stat
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from finscore.cli import main
from finscore.progress import ProgressBar


def run(*arguments: str) -> int:
    return main(["run", "--quiet", "--bootstrap", "20", *arguments])


def test_an_oracle_run_writes_predictions_manifest_and_a_passing_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("--agent", "oracle", "--out", str(tmp_path)) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "predictions.jsonl",
        "report.html",
        "report.json",
        "run.json",
    ]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert (report["counts"]["passed"], report["counts"]["trials"]) == (24, 24)
    assert report["kind"] == "scripted_run" and "not a model accuracy" in report["statement"]
    assert "not a model accuracy" in (tmp_path / "report.html").read_text(encoding="utf-8")
    manifest = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert manifest["statuses"] == {"completed": 24} and "not a model accuracy" in manifest["note"]
    assert "passed 24 of 24" in capsys.readouterr().out


def test_the_scorer_gives_the_same_counts_on_the_written_file(tmp_path: Path) -> None:
    assert run("--agent", "stale_snapshot", "--out", str(tmp_path)) == 0
    rescored = tmp_path / "rescored.json"
    assert (
        main(["contracts", "@kit", str(tmp_path / "predictions.jsonl"), "--output", str(rescored), "--bootstrap", "20"])
        == 0
    )
    first = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    second = json.loads(rescored.read_text(encoding="utf-8"))
    assert first["counts"] == second["counts"] and first["failures"] == second["failures"]


def unsealed(path: Path) -> list[dict[str, Any]]:
    """The prediction lines without their seals: what stays the same from run to run (issue #31: the
    runtime chooses every run's id, so the seals, the run header and the footer differ)."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["part"] == "header" and lines[-1]["part"] == "footer"
    return [{name: value for name, value in line.items() if name != "seal"} for line in lines[1:-1]]


def test_parallel_and_repeated_runs_write_the_same_predictions(tmp_path: Path) -> None:
    assert run("--agent", "out_of_scope", "--out", str(tmp_path / "a"), "--no-score") == 0
    assert run("--agent", "out_of_scope", "--out", str(tmp_path / "b"), "--no-score", "--parallel", "6") == 0
    first, second = (unsealed(tmp_path / name / "predictions.jsonl") for name in ("a", "b"))
    assert first == second and len(first) == 24
    run_ids = {json.loads((tmp_path / name / "run.json").read_text(encoding="utf-8"))["run_id"] for name in "ab"}
    assert len(run_ids) == 2
    assert not (tmp_path / "a" / "report.json").exists()


def test_only_and_attempts(tmp_path: Path) -> None:
    assert (
        run("--agent", "oracle", "--only", "fv-en", "--only", "perm-ta", "--attempts", "2", "--out", str(tmp_path)) == 0
    )
    lines = unsealed(tmp_path / "predictions.jsonl")
    assert [(line["case_id"], line["attempt"]) for line in lines] == [
        ("fv-en", 0),
        ("fv-en", 1),
        ("perm-ta", 0),
        ("perm-ta", 1),
    ]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert (report["counts"]["cases"], report["counts"]["trials"], report["counts"]["passed"]) == (2, 4, 4)


def test_an_endpoint_from_the_environment_that_is_down_is_recorded_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #35: every trial failing to connect is a dead or mistyped URL: said, with the cause, exit 2
    (it was exit 0 with "crashed 1"); the trials stay recorded, nothing is scored."""
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "*")
    closed = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = closed.server_address[1]
    closed.server_close()
    monkeypatch.setenv("FINSCORE_ENDPOINT", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("FINSCORE_MODEL", "test-model")
    assert run("--only", "fv-en", "--only", "perm-ta", "--retries", "0", "--out", str(tmp_path)) == 2
    lines = unsealed(tmp_path / "predictions.jsonl")
    assert [line["status"] for line in lines] == ["crashed", "crashed"]
    assert all("connection failed" in line["status_detail"] for line in lines)
    assert json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))["agent"] == "endpoint:test-model"
    assert not (tmp_path / "report.json").exists()
    assert not (tmp_path / "run.incomplete").exists()  # the run's files are whole, only unscored
    captured = capsys.readouterr()
    assert captured.out == ""
    error = captured.err.strip()
    assert error.startswith("finscore run: error: every trial (2) failed to connect to the endpoint ")
    assert f"127.0.0.1:{port}/v1" in error and "Connection refused" in error and len(error.splitlines()) == 1


def test_an_endpoint_that_answers_some_trials_is_scored_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A model that crashes some trials (here: one reply, then the server is gone) is scored, exit 0."""
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "*")

    class Once(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers["Content-Length"]))
            body = json.dumps({"choices": [{"message": {"role": "assistant", "content": "no idea"}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Once)
    port = server.server_address[1]

    def answer_once() -> None:
        server.handle_request()
        server.server_close()  # the second trial's connection is refused

    thread = threading.Thread(target=answer_once)
    thread.start()
    try:
        status = run("--endpoint", f"http://127.0.0.1:{port}/v1", "--model", "m", "--only", "fv-en",
                     "--only", "perm-ta", "--retries", "0", "--request-timeout", "20", "--out", str(tmp_path))
    finally:
        thread.join(30)
    assert status == 0
    lines = unsealed(tmp_path / "predictions.jsonl")
    assert "connection failed" not in (lines[0]["status_detail"] or "")
    assert lines[1]["status"] == "crashed" and "connection failed" in lines[1]["status_detail"]
    assert (tmp_path / "report.json").exists() and "passed 0 of 2" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        ((), "give --agent NAME or --endpoint URL"),
        (("--endpoint", "http://127.0.0.1:9/v1"), "needs --model"),
        (("--agent", "oracle", "--cases", "no/such/dir"), "no/such/dir"),
        (("--agent", "oracle", "--only", "nope"), "no case nope"),
        (("--agent", "oracle", "--deadline", "0"), "deadline"),
        (("--agent", "oracle", "--parallel", "0"), "parallel"),
        (("--agent", "oracle", "--bootstrap", "0"), "bootstrap"),
    ],
)
def test_bad_input_is_one_readable_line_and_status_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: tuple[str, ...],
    fragment: str,
) -> None:
    for name in ("FINSCORE_ENDPOINT", "OPENAI_BASE_URL", "FINSCORE_MODEL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    assert main(["run", "--quiet", "--out", str(tmp_path), *arguments]) == 2
    error = capsys.readouterr().err
    assert error.startswith("finscore run: error:") and fragment in error and "Traceback" not in error


def test_the_progress_bar_draws_only_when_enabled() -> None:
    shown, hidden = io.StringIO(), io.StringIO()
    for stream, enabled in ((shown, True), (hidden, False)):
        bar = ProgressBar(stream, total=2, enabled=enabled)
        bar.advance("fv-en")
        bar.advance("fv-hi")
        bar.close()
    assert "2/2" in shown.getvalue() and "#" * 30 in shown.getvalue()
    assert hidden.getvalue() == ""
    assert ProgressBar(io.StringIO(), total=1).enabled is False  # not a terminal


def test_the_default_key_is_created_in_the_config_folder_with_mode_0600(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert run("--agent", "oracle", "--only", "fv-en", "--out", str(tmp_path / "out"), "--no-score") == 0
    key = tmp_path / "config" / "finscore" / "trace.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    line = json.loads((tmp_path / "out" / "predictions.jsonl").read_text(encoding="utf-8").splitlines()[1])
    assert line["seal"]["run_id"] == json.loads((tmp_path / "out" / "run.json").read_text(encoding="utf-8"))["run_id"]


def test_a_key_inside_the_output_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert run("--agent", "oracle", "--out", str(out), "--key-file", str(out / "trace.key")) == 2
    assert "must not be inside the output folder" in capsys.readouterr().err
    assert not (out / "trace.key").exists()
