"""The contracts and compare commands: exit codes, readable errors, offline HTML."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from finscore.cli import main
from finscore.contracts.kit import KIT_DIRECTORY

ORACLE = KIT_DIRECTORY / "oracle.jsonl"


def run(*argv: str) -> int:
    return main(list(argv))


def test_oracle_self_check_exit_zero_and_plain_statement(tmp_path, capsys):
    report_path, html_path = tmp_path / "self.json", tmp_path / "self.html"
    assert (
        run("contracts", "--oracle", "--bootstrap", "100", "--output", str(report_path), "--html", str(html_path)) == 0
    )
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["kind"] == "instrument_self_check" and report["self_check"]["ok"]
    out = capsys.readouterr().out
    assert "not a model accuracy" in out and "oracle 24/24" in out
    assert "Instrument self-check" in html_path.read_text(encoding="utf-8")


def test_oracle_refuses_positional_arguments(capsys):
    assert run("contracts", "--oracle", "@kit") == 2
    assert "--oracle takes no" in capsys.readouterr().err


def test_scoring_the_oracle_file_against_the_kit(tmp_path):
    out = tmp_path / "report.json"
    assert run("contracts", "@kit", str(ORACLE), "--accept-unsealed", "--bootstrap", "100", "--output", str(out)) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["kind"] == "instrument_self_check" and report["counts"]["passed"] == 24
    assert out.read_text(encoding="utf-8").splitlines()[1].startswith('  "warning": "TRACES WERE NOT VERIFIED')


def test_unsealed_records_need_a_key_or_an_explicit_acceptance(tmp_path, capsys):
    assert run("contracts", "@kit", str(ORACLE), "--key-file", str(tmp_path / "none.key")) == 2
    err = capsys.readouterr().err
    assert "no trace key" in err and "--accept-unsealed" in err


def test_json_goes_to_stdout_without_output(capsys):
    assert run("contracts", "@kit", str(ORACLE), "--accept-unsealed", "--bootstrap", "50") == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("TRACES WERE NOT VERIFIED")
    assert json.loads(captured.out)["counts"]["trials"] == 24
    assert "passed 24" in captured.err


def test_unknown_ids_exit_2_naming_them(tmp_path, capsys):
    lines = ORACLE.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["case_id"] = "no-such-case"
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(lines + [json.dumps(record)]) + "\n", encoding="utf-8")
    assert run("contracts", "@kit", str(path), "--accept-unsealed") == 2
    err = capsys.readouterr().err
    assert "no-such-case" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ("contracts", "missing-dir", str(ORACLE)),
        ("contracts", "@kit", "missing.jsonl"),
        ("contracts", "@kit"),
        ("contracts", "@kit", str(ORACLE), "--bootstrap", "0"),
        ("contracts", "@kit", str(ORACLE), "--attempts", "0"),
        ("compare", "missing-a.json", "missing-b.json"),
    ],
)
def test_bad_input_is_one_line_and_status_2(argv, capsys):
    assert run(*argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("finscore ") and "Traceback" not in err


def _as_candidate(line: str) -> str:
    """An oracle line with its producer removed: edited, it stands for a candidate's record."""
    record = json.loads(line)
    record.pop("producer", None)
    return json.dumps(record, ensure_ascii=False)


def _report(tmp_path: Path, name: str, lines: list[str]) -> Path:
    predictions = tmp_path / f"{name}.jsonl"
    predictions.write_text("\n".join(_as_candidate(line) for line in lines) + "\n", encoding="utf-8")
    out = tmp_path / f"{name}.json"
    argv = ("contracts", "@kit", str(predictions), "--accept-unsealed", "--bootstrap", "100", "--output", str(out))
    assert run(*argv) == 0
    return out


def test_compare_two_reports(tmp_path, capsys):
    lines = ORACLE.read_text(encoding="utf-8").splitlines()
    worse = []
    for index, line in enumerate(lines):
        record = json.loads(line)
        if index < 5:
            record["status"] = "crashed"
        worse.append(json.dumps(record, ensure_ascii=False))
    a, b = _report(tmp_path, "a", lines), _report(tmp_path, "b", worse)
    out, html = tmp_path / "cmp.json", tmp_path / "cmp.html"
    assert run("compare", str(a), str(b), "--bootstrap", "100", "--output", str(out), "--html", str(html)) == 0
    comparison = json.loads(out.read_text(encoding="utf-8"))
    assert comparison["exact_paired_test"]["only_a_passed"] == 5
    assert comparison["exact_paired_test"]["p_value"] == pytest.approx(2 / 2**5)
    assert comparison["overall"]["change"] == pytest.approx(-5 / 24)
    assert "<svg" in html.read_text(encoding="utf-8")


def test_compare_refuses_reports_of_different_attempts(tmp_path, capsys):
    lines = ORACLE.read_text(encoding="utf-8").splitlines()
    a = _report(tmp_path, "a", lines)
    rerun = json.loads(lines[0])
    rerun["attempt"] = rerun["trace"]["attempt"] = 1
    b = _report(tmp_path, "b", lines + [json.dumps(rerun, ensure_ascii=False)])
    capsys.readouterr()
    assert run("compare", str(a), str(b)) == 2
    assert "only in B" in capsys.readouterr().err


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.references: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.references += [value or "" for name, value in attrs if name in ("src", "href")]

    def handle_data(self, data):
        self.text.append(data)


def test_html_is_self_contained_and_escapes_model_output(tmp_path):
    lines = ORACLE.read_text(encoding="utf-8").splitlines()
    hostile = json.loads(lines[0])
    claim = next(iter(hostile["final"]["claims"].values()))
    claim["value"] = "<script>alert(1)</script><img src=http://example.com/x>"
    lines[0] = json.dumps(hostile, ensure_ascii=False)
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("\n".join(_as_candidate(line) for line in lines) + "\n", encoding="utf-8")
    html_path = tmp_path / "r.html"
    assert (
        run(
            "contracts",
            "@kit",
            str(predictions),
            "--accept-unsealed",
            "--bootstrap",
            "100",
            "--output",
            str(tmp_path / "r.json"),
            "--html",
            str(html_path),
        )
        == 0
    )
    page = html_path.read_text(encoding="utf-8")
    collector = _Collector()
    collector.feed(page)
    assert "script" not in collector.tags and "img" not in collector.tags and "link" not in collector.tags
    assert all(ref.startswith("#") for ref in collector.references)
    assert collector.tags.count("svg") == 3
    assert "<script>alert(1)</script>" in "".join(collector.text)  # shown as text, escaped in the source
    assert "&lt;img src=http://example.com/x&gt;" in page  # the hostile reference is inert text
    assert "url(" not in page and "@import" not in page
