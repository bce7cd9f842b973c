"""`finscore protocols compare`: the 1,050 shipped FinQA predictions, written back as text in the HELM
vectors, against FinQA's test file; the figures are the recorded ones (HELM's execution accuracy 0.7
over the 1,050, README of tests/data/vectors)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from finscore.cli import main
from finscore.protocols.compare import CompareInputError, compare, read_completions, read_finqa_gold
from support.peer_vectors import finqa_test_bytes, vector_lines


@pytest.fixture(scope="module")
def gold(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Any]]:
    path = tmp_path_factory.mktemp("finqa") / "finqa_test.json"
    path.write_bytes(finqa_test_bytes())
    return str(path), read_finqa_gold(str(path))


def completions_file(tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    rows = [line for line in vector_lines("helm") if line["label"] == "example_prediction"]
    path = tmp_path / "completions.jsonl"
    path.write_text("".join(json.dumps({"id": r["id"], "completion": r["generated"]}) + "\n" for r in rows))
    return path, rows


def test_the_recorded_figures_over_every_gold_example(gold: tuple[str, list[Any]], tmp_path: Path) -> None:
    path, rows = completions_file(tmp_path)
    with path.open("rb") as source:
        report = compare(read_completions(source), gold[1])
    helm, pixiu = report["protocols"][:2]
    recorded_accepted = sum(r["metric"]["value"]["execution_accuracy"] == 1 for r in rows)
    assert recorded_accepted / len(rows) == 0.7  # the README's figure over the predictions given
    assert (helm["protocol"], helm["accepted"], helm["denominator"], helm["missing"]) == (
        "helm-finqa", recorded_accepted, 1147, 1147 - len(rows))
    # a program text is never a number's str(): PIXIU accepts none of these completions
    assert (pixiu["protocol"], pixiu["accepted"], pixiu["raises"]) == ("pixiu-finqa", 0, 0)
    accepted_ids = {r["id"] for r in rows if r["metric"]["value"]["execution_accuracy"] == 1}
    decided = [d for d in report["disagreements"] if d["completion"] is not None]
    assert {d["id"] for d in decided} == accepted_ids
    assert all(d["accepted_by"] == ["helm-finqa"] and d["reasons"]["pixiu-finqa"] == "differs"
               and d["why"][0]["reason"] == "other_answer_form" for d in decided)
    # the peers score the completions given; finscore's finqa-answer/1 counts a missing one as a miss
    assert (helm["published_denominator"], report["without_completion_disagreements"]) == (len(rows), 1147 - len(rows))


def test_a_number_completion_is_accepted_by_pixiu_and_not_by_helm(gold: tuple[str, list[Any]]) -> None:
    example = gold[1][0]
    report = compare({example["id"]: f" {example['qa']['exe_ans']}"}, gold[1][:1])
    assert report["disagreements"] == [{
        "id": example["id"], "completion": f" {example['qa']['exe_ans']}", "accepted_by": ["pixiu-finqa", "finqa-answer/1"],
        "reasons": {"helm-finqa": "execution:invalid;program:structure", "pixiu-finqa": "equal", "finqa-answer/1": "exact"},
        "why": [{"reason": "other_answer_form", "accepted_by": ["pixiu-finqa", "finqa-answer/1"],
                 "not_accepted_by": ["helm-finqa"]}]}]


def test_the_command_prints_the_table_and_writes_json(gold: tuple[str, list[Any]], tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path, rows = completions_file(tmp_path)
    assert main(["protocols", "compare", str(path), "--benchmark", "finqa", gold[0], "--examples", "1"]) == 0
    text = capsys.readouterr().out
    assert "helm-finqa       64.08%       735/1147" in text and "832 example(s) where the protocols disagree (97 without a completion" in text
    out = tmp_path / "report.json"
    assert main(["protocols", "compare", str(path), "--benchmark", "finqa", gold[0], "--json", str(out)]) == 0
    assert json.loads(out.read_text())["protocols"][0]["accepted"] == 735


def test_bad_lines_stop_the_run_with_every_one_named(tmp_path: Path, gold: tuple[str, list[Any]],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    source = b'{"id": "a", "completion": "x"}\n[1]\n{"id": "a", "completion": "y"}\n{"id": "b"}\nnot json\n'
    with pytest.raises(CompareInputError) as raised:
        read_completions(io.BytesIO(source))
    message = str(raised.value)
    for words in ("line 2: not an object", "line 3: id 'a' given again", "line 4: not an object", "line 5: not valid JSON"):
        assert words in message
    path = tmp_path / "bad.jsonl"
    path.write_bytes(source)
    assert main(["protocols", "compare", str(path), "--benchmark", "finqa", gold[0]]) == 2
    assert "line 2" in capsys.readouterr().err


def test_docs_show_the_real_table(gold: tuple[str, list[Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import re

    docs = (Path(__file__).resolve().parents[2] / "docs" / "protocols.md").read_text(encoding="utf-8")
    shown = re.findall(r"```text\n(.*?)```", docs.split("## Side by side", 1)[1], re.S)[0]
    path, _ = completions_file(tmp_path)
    assert main(["protocols", "compare", str(path), "--benchmark", "finqa", gold[0]]) == 0
    assert capsys.readouterr().out.startswith(shown)


def test_a_line_a_protocol_cannot_decide_is_counted_and_named(gold: tuple[str, list[Any]]) -> None:
    from finscore.protocols.registry import get_protocol

    def refuse(line: Any) -> dict[str, Any]:
        from finscore.protocols.fields import LineError

        raise LineError("past the bounds")

    example = gold[1][0]
    refusing = get_protocol("pixiu-finqa")._replace(decide_line=refuse)
    from finscore.protocols.helm import finqa_line

    report = compare({example["id"]: "94"}, gold[1][:1], protocols=[
        (refusing, lambda completion, example: {}), (get_protocol("helm-finqa"), finqa_line)])
    assert report["protocols"][0]["not_decided"] == 1 and report["protocols"][0]["accepted"] == 0
    assert [d["reasons"] for d in report["disagreements"]] == [
        {"pixiu-finqa": "not_decided: past the bounds", "helm-finqa": "execution:invalid;program:structure"}]
    assert report["disagreements"][0]["why"] == [
        {"reason": "not_decided", "accepted_by": [], "not_accepted_by": ["pixiu-finqa", "helm-finqa"]}]


def test_the_html_page_is_well_formed_offline_and_shows_the_run(gold: tuple[str, list[Any]], tmp_path: Path) -> None:
    import re
    from html.parser import HTMLParser

    class Nesting(HTMLParser):
        """Every element closed in order (void elements aside); the texts and attributes collected."""

        VOID = {"meta", "br", "line", "rect", "circle", "path", "img", "hr", "input", "link"}

        def __init__(self) -> None:
            super().__init__()
            self.open: list[str] = []
            self.problems: list[str] = []
            self.attributes: list[tuple[str, str | None]] = []
            self.text: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.attributes += attrs
            if tag not in self.VOID:
                self.open.append(tag)

        def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.attributes += attrs

        def handle_endtag(self, tag: str) -> None:
            if tag in self.VOID:
                return
            if not self.open or self.open[-1] != tag:
                self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
            else:
                self.open.pop()

        def handle_data(self, data: str) -> None:
            self.text.append(data)

    path, rows = completions_file(tmp_path)
    with path.open("a") as extra:  # model output is data: markup in it is shown, never run
        last = gold[1][-1]  # not among the HELM lines; finqa-answer/1 reads its number, so it is listed
        assert last["id"] not in {row["id"] for row in rows}
        extra.write(json.dumps({"id": last["id"], "completion": f"<script>x</script> {last['qa']['exe_ans']}"}) + "\n")
    page = tmp_path / "compare.html"
    out = tmp_path / "report.json"
    assert main(["protocols", "compare", str(path), "--benchmark", "finqa", gold[0], "--html", str(page),
                 "--json", str(out)]) == 0
    html = page.read_text(encoding="utf-8")
    parser = Nesting()
    parser.feed(html)
    parser.close()
    assert parser.problems == [] and parser.open == []
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html and "&lt;script&gt;" in html
    assert not [value for name, value in parser.attributes if name in ("src", "href") and value
                and re.match(r"\s*(https?:)?//", value)]
    assert "<svg" in html and "url(" not in html and "@import" not in html
    report = json.loads(out.read_text())
    text = " ".join(parser.text)
    for row in report["protocols"]:  # the figures of this run, as the JSON report holds them
        assert f"{100 * row['score']:.2f}%" in text and row["signature"] in text
        assert f"{100 * row['published_score']:.2f}% of {row['published_denominator']}" in text
    assert f"Why protocols disagree ({len(report['disagreements'])} examples)" in text
    assert all(item["id"] in text for item in report["disagreements"][:2000])


def test_the_readme_shows_the_shipped_finqa_example_as_produced(capsys: pytest.CaptureFixture[str]) -> None:
    import re

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8").split("### Side by side: `finscore protocols compare`", 1)[1]
    command, shown = re.findall(r"```sh\n(finscore protocols compare examples/finqa/[^\n]*)\n```\n\n```text\n(.*?)```",
                                readme, re.S)[0]
    args = command.split()[1:]
    assert main([str(root / a) if a.startswith("examples/") else a for a in args]) == 0
    assert capsys.readouterr().out == shown


def test_convfinqa_turns_under_pixiu_by_its_written_rule(tmp_path: Path) -> None:
    """PIXIU's ConvFinQA task: `pred.strip() == gold`, the gold `str(exe_ans)` of the turn; on the shipped
    example (FinQA-style token lists, one gold example a turn) a one-token prediction is the text of its
    number, and a program text (with its parentheses) equals no number's str()."""
    root = Path(__file__).resolve().parents[2] / "examples" / "convfinqa"
    gold = json.loads((root / "gold.json").read_text(encoding="utf-8"))
    answers = {f"{c['id']}#t{turn}": answer for c in gold for turn, answer in enumerate(c["annotation"]["exe_ans_list"])}
    predictions = json.loads((root / "predictions.json").read_text(encoding="utf-8"))
    def turn(identifier: str) -> str:  # the turn-file form <conversation>_<turn> names the same turn
        return identifier if "#t" in identifier else "{}#t{}".format(*identifier.rsplit("_", 1))

    tokens = {turn(entry["id"]): entry["predicted"][:-1] for entry in predictions}
    assert any("#t" not in entry["id"] for entry in predictions)
    expected = {key for key, body in tokens.items() if len(body) == 1 and body[0].strip() == str(answers[key])}
    out = tmp_path / "report.json"
    assert main(["protocols", "compare", str(root / "predictions.json"), "--benchmark", "convfinqa",
                 str(root / "gold.json"), "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    pixiu = report["protocols"][0]
    assert (pixiu["protocol"], pixiu["accepted"], pixiu["denominator"], pixiu["published_denominator"]) == (
        "pixiu-convfinqa", len(expected), len(answers), len(tokens))
    for item in report["disagreements"]:
        if item["completion"] is None:
            continue
        body = tokens[item["id"]]
        if item["why"][0]["reason"] == "string_formatting":  # the same number, another spelling
            assert len(body) == 1 and float(body[0]) == float(answers[item["id"]]) and body[0] != str(answers[item["id"]])
        assert (item["id"] in expected) == ("pixiu-convfinqa" in item["accepted_by"])
