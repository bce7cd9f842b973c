"""`finscore protocols`: decide-jsonl on every recorded peer line (zero mismatches), bad lines, any
registered protocol, `list`, and the signature strings of every protocol the registry names."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from finscore.cli import main
from finscore.protocols import decide_jsonl, get_protocol, protocol_ids, signature
from finscore.protocols.registry import BUILTIN_PROTOCOLS
from finscore.protocols.stream import ERROR_TYPES
from support.peer_vectors import finqa_test_bytes, vector_bytes, vector_lines

REPOSITORY = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(REPOSITORY / "python"), PYTHONIOENCODING="utf-8:strict")
COMMAND = "finscore protocols decide-jsonl"
PIXIU_TASKS = {"pixiu-finqa": "FinQA", "pixiu-convfinqa": "ConvFinQA", "pixiu-tatqa": "TATQA"}


def run(argv: list[str], data: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "finscore", *argv], input=data, capture_output=True, env=ENV,
                          check=False, timeout=600)


def written_back_unchanged(given: dict[str, Any], out: dict[str, Any], written: set[str]) -> bool:
    """Every field of the input line comes back as it was, except the decision fields."""
    return {k: v for k, v in given.items() if k not in written} == {k: v for k, v in out.items() if k not in written}


@pytest.mark.essential
def test_helm_vectors_through_the_command_give_zero_mismatches(tmp_path: Path) -> None:
    tables, source, destination = tmp_path / "finqa_test.json", tmp_path / "helm.jsonl", tmp_path / "out.jsonl"
    tables.write_bytes(finqa_test_bytes())
    source.write_bytes(vector_bytes("helm"))
    done = run(["protocols", "decide-jsonl", "--protocol", "helm-finqa", "--tables", str(tables), str(source),
                str(destination)])
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().splitlines() == [f"{COMMAND}: {signature('helm-finqa')}"]
    given = vector_lines("helm")
    out = [json.loads(line) for line in destination.read_bytes().splitlines()]
    assert len(out) == len(given) == 8096
    mismatches = [k for k, (g, o) in enumerate(zip(given, out))
                  if json.dumps(o["metric"]) != json.dumps(g["metric"]) or not written_back_unchanged(
                      g, o, {"metric", "reason"})]
    assert mismatches == []


@pytest.mark.essential
@pytest.mark.parametrize("protocol_id", PIXIU_TASKS)
def test_pixiu_vectors_through_the_command_give_zero_mismatches(protocol_id: str) -> None:
    done = run(["protocols", "decide-jsonl", "--protocol", protocol_id], vector_bytes("pixiu"))
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().splitlines() == [f"{COMMAND}: {signature(protocol_id)}"]
    given = vector_lines("pixiu")
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == len(given) == 4218
    mismatches = []
    for g, o in zip(given, out):
        recorded = g[PIXIU_TASKS[protocol_id]]
        want = {"raises": recorded["raises"]} if "raises" in recorded else {"value": recorded["value"]["acc"]}
        if json.dumps(o["acc"]) != json.dumps(want) or not written_back_unchanged(g, o, {"acc", "reason"}):
            mismatches.append((g, o))
    assert mismatches == []


def test_main_reads_and_writes_files_and_the_api_decides_the_same(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import io

    source, destination = tmp_path / "pixiu.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(vector_bytes("pixiu"))
    assert main(["protocols", "decide-jsonl", "--protocol", "pixiu-finqa", str(source), str(destination)]) == 0
    assert capsys.readouterr().err == f"{COMMAND}: {signature('pixiu-finqa')}\n"
    sink = io.StringIO()
    with source.open("rb") as stream:
        summary = decide_jsonl("pixiu-finqa", stream, sink)
    assert (summary.lines, summary.errors, summary.exit_code) == (4218, [], 0)
    assert sink.getvalue().encode() == destination.read_bytes()


#: Lines no protocol can use, as the streaming commands' audits sent them (tests/inputs/test_stream_commands.py).
BAD_LINES = [(b"", "blank"), (b"  \t", "blank"), (b"[" + b"1" * 1_000_000 + b"]", "not_json"),
             (b'{"x": "\xff"}', "not_utf8"), (b"[1, 2]", "not_an_object"), (b"7", "not_an_object"),
             (b"not json", "not_json"), (b'{"a": 1, "a": 2}', "not_json"), (b"[" * 100_000, "not_json"),
             (b'{"gold": "5"}', "bad_field"),
             (b'{"generated": "add(1, 2)", "ref_program": "add(1, 2)", "ref_exe": "3", "table_ref": "x"}',
              "unknown_table")]


@pytest.mark.parametrize("protocol_id", ["pixiu-finqa", "helm-finqa"])
def test_every_bad_line_gets_a_typed_error_naming_it_and_no_line_is_lost(protocol_id: str, tmp_path: Path) -> None:
    tables = tmp_path / "tables.json"
    tables.write_text(json.dumps([{"id": "t", "table": [["r", "1"]]}]))
    good = {"pixiu-finqa": b'{"pred": " 5", "gold": "5", "acc": {"value": 0.0}}',
            "helm-finqa": b'{"generated": "add(1, 2)", "ref_program": "add(1, 2)", "ref_exe": "3", "table_ref": "t"}'}
    lines: list[tuple[bytes, str | None]] = []
    for bad in BAD_LINES:
        lines += [(good[protocol_id], None), bad]
    done = run(["protocols", "decide-jsonl", "--protocol", protocol_id, "--tables", str(tables)],
               b"\n".join(line for line, _ in lines) + b"\n")
    assert done.returncode == 1
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == len(lines)
    for number, ((_, kind), written) in enumerate(zip(lines, out), start=1):
        expected_kind = kind  # a "table_ref" is looked up in --tables whatever the protocol
        if expected_kind is None:
            assert "error" not in written and written["reason"] in ("equal", "execution:isclose;program:identical")
        else:
            assert written["error"]["type"] == expected_kind and written["error"]["line"] == number, written
            assert expected_kind in ERROR_TYPES and written["error"]["message"]
            assert "acc" not in written and "metric" not in written
    assert f"{len(BAD_LINES)} of {len(lines)} line(s) not decided" in done.stderr.decode()


def test_any_registered_protocol_is_decided(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The command knows protocols only through the registry: a fixture's decides as a shipped one does."""
    monkeypatch.setitem(BUILTIN_PROTOCOLS, "toy-sum", "support.toy_protocol")
    source, destination = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text('{"a": 1, "b": 2, "total": 3}\n{"a": 1, "b": 2, "total": 4, "right": {"value": true}}\n'
                      '{"a": "1", "b": 2, "total": 3, "right": 1}\n')
    assert main(["protocols", "decide-jsonl", "--protocol", "toy-sum", str(source), str(destination)]) == 1
    out = [json.loads(line) for line in destination.read_text().splitlines()]
    assert out[0] == {"a": 1, "b": 2, "total": 3, "right": {"value": True}, "reason": "sum"}
    assert out[1] == {"a": 1, "b": 2, "total": 4, "right": {"value": False}, "reason": "not_sum"}
    assert out[2] == {"a": "1", "b": 2, "total": 3, "error": {
        "type": "not_decided", "line": 3, "message": 'ValueError: "a", "b" and "total" must be integers'}}
    err = capsys.readouterr().err
    assert err.startswith(f"{COMMAND}: toy-sum/3|peer:example/toy@0123456:score.py|tol:exact-int-==|"
                          "read:the-integers-as-given-/-nothing-else|finscore:")


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    missing = run(["protocols", "decide-jsonl", "--protocol", "pixiu-finqa", str(tmp_path / "absent.jsonl")])
    assert missing.returncode == 2 and b"cannot read" in missing.stderr
    unknown = run(["protocols", "decide-jsonl", "--protocol", "nobody"])
    assert unknown.returncode == 2 and b"invalid choice: 'nobody'" in unknown.stderr
    not_finqa = tmp_path / "t.json"
    not_finqa.write_text("{}")
    tables = run(["protocols", "decide-jsonl", "--protocol", "helm-finqa", "--tables", str(not_finqa)])
    assert tables.returncode == 2 and b"is not a list of FinQA examples" in tables.stderr
    assert run(["protocols"]).returncode == 2


def test_help_explains_the_forms_and_the_decision_keys() -> None:
    top = run(["--help"]).stdout.decode()
    assert re.search(r"^    protocols +decide lines under published peer scorers", top, re.M)
    decide = run(["protocols", "decide-jsonl", "--help"])
    assert decide.returncode == 0
    text = " ".join(decide.stdout.decode().split())
    for words in ('"acc" as {"value": ...} or {"raises": "ExceptionType"}', '"metric" for helm-finqa', "--tables",
                  '"error": {"type", "line", "message"}', "signature"):
        assert words in text


def test_every_registered_protocol_has_its_module() -> None:
    for protocol_id, module in BUILTIN_PROTOCOLS.items():
        assert importlib.util.find_spec(module) is not None, f"{protocol_id}: {module} is missing"


def test_list_names_every_protocol_with_its_version_and_signature(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["protocols", "list"])
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].split() == ["ID", "VERSION", "SIGNATURE"]
    assert [row.split()[0] for row in rows[1:]] == list(protocol_ids())
    for protocol_id, row in zip(protocol_ids(), rows[1:]):
        assert row.split() == [protocol_id, str(get_protocol(protocol_id).version), signature(protocol_id)]
    assert status == 0


def test_list_says_which_protocol_this_installation_lacks(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A registered id whose module is not installed is named as unavailable, and list exits 1."""
    monkeypatch.setitem(BUILTIN_PROTOCOLS, "absent-peer", "finscore.protocols.no_such_module")
    status = main(["protocols", "list"])
    rows = {row.split()[0]: row for row in capsys.readouterr().out.splitlines()[1:]}
    assert "unavailable: this installation has no module finscore.protocols.no_such_module" in rows["absent-peer"]
    assert status == 1


@pytest.mark.parametrize("protocol_id", protocol_ids())
def test_the_signature_follows_the_documented_grammar(protocol_id: str) -> None:
    record = get_protocol(protocol_id)
    text = signature(protocol_id)
    version = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]["version"]
    fields = text.split("|")
    assert [field.split(":", 1)[0] for field in fields[1:]] == ["peer", "tol", "read", "finscore"]
    assert fields[0] == f"{protocol_id}/{record.version}"
    assert re.fullmatch(r"[0-9a-f]{40}", record.commit)
    assert fields[1] == f"peer:{record.repository}@{record.commit[:7]}:{documented_word(record.path)}"
    assert fields[4] == f"finscore:{version}"
    assert not any(character.isspace() for character in text)
    assert fields[2] == f"tol:{documented_word(record.tolerance)}"
    assert fields[3] == f"read:{documented_word(record.reading)}"


def documented_word(words: str) -> str:
    """docs/protocols.md's rule, written out: white space after "," or ";" dropped, other runs of it one "-",
    "|" as "/"."""
    out: list[str] = []
    pending_space = False
    for character in words.strip():
        if character.isspace():
            pending_space = True
            continue
        if pending_space and out[-1] not in ",;":
            out.append("-")
        pending_space = False
        out.append("/" if character == "|" else character)
    return "".join(out)


def test_the_word_rule_on_a_fixture_record() -> None:
    assert documented_word(" a  b, c ;\td|e ") == "a-b,c-;d/e"


def test_the_helm_signature_reads_as_documented() -> None:
    assert signature("helm-finqa") == (
        "helm-finqa/1|peer:stanford-crfm/helm@63754d0:src/helm/benchmark/metrics/fin_qa_metrics.py"
        "|tol:math.isclose-rel_tol=1e-9,result-round(5);yes/no-==|read:str.strip,FinQA-program_tokenization"
        f"|finscore:{tomllib.loads((REPOSITORY / 'pyproject.toml').read_text())['project']['version']}")


def test_the_readme_shows_the_real_output() -> None:
    """The README's `finscore protocols` section: its list rows and its decide-jsonl example are what the command prints."""
    readme = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Peer scorers, reproduced: `finscore protocols`", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, re.S)
    listed, given, decided = blocks[1][1], blocks[2][1], blocks[4][1]
    rows = run(["protocols", "list"]).stdout.decode().splitlines()
    assert listed.splitlines() == rows[:len(listed.splitlines())]
    done = subprocess.run([sys.executable, "-m", "finscore", "protocols", "decide-jsonl", "--protocol", "helm-finqa",
                           "--tables", "examples/finqa/gold.json"], input=given.encode(), capture_output=True,
                          env=ENV, cwd=REPOSITORY, check=True, timeout=300)
    assert done.stdout.decode() == decided
